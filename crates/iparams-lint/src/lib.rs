//! The `iparams-lint` command: finds files, lints them (or checks installation values against
//! them) with `iparams-core`, renders the findings and decides the exit status.

/// The web address of a page of the docs (`docs_url!("preview.md")`), for help texts and
/// messages: an install from npm or pip has no docs/ folder to read.
macro_rules! docs_url {
    ($page:literal) => {
        concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/docs/", $page)
    };
}

pub mod add;
pub mod check;
pub mod cli;
pub mod docs;
mod environment;
pub mod hr_sandbox;
pub mod init;
pub mod lsp;
mod net;
mod output;
pub mod preview;
mod read;
pub mod render;
pub mod values;
pub mod workspace;
pub mod write;

use std::ffi::OsString;
use std::io::{Read, Write};

use clap::{CommandFactory, Parser};

use cli::{Cli, ColorChoice, Command, RulesFormat, Shell};

pub use environment::{Environment, exit};

/// The JSON Schema of iparams.json, printed by `iparams-lint schema`.
pub const SCHEMA: &str = include_str!("../schemas/iparams.schema.json");

/// Puts a panic hook over the current one that passes it every panic but oxc's parser's, which
/// are caught where it is called and reported as a finding of the file. The command's hook
/// below prints; a fuzz target's (libFuzzer's) aborts, before unwinding could reach the catch.
pub fn quiet_parser_panics() {
    let print = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !iparams_core::app::js::parsing() {
            print(info);
        }
    }));
}

/// Runs the command line `args` (program name first); returns the exit status.
pub fn run(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
    env: &Environment,
    stdin: &mut dyn Read,
    stdout: &mut (dyn Write + Send),
    stderr: &mut (dyn Write + Send),
) -> u8 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(mut error) => {
            cli::suggest_our_name(&mut error);
            let status = if error.use_stderr() {
                exit::TROUBLE
            } else {
                exit::CLEAN
            };
            let rendered = if env.color(ColorChoice::Auto) {
                error.render().ansi().to_string()
            } else {
                error.render().to_string()
            };
            let out: &mut dyn Write = if error.use_stderr() { stderr } else { stdout };
            let _ = out.write_all(rendered.as_bytes());
            return status;
        }
    };
    let printed = |out: &mut dyn Write, text: &str| {
        let _ = out.write_all(text.as_bytes());
        exit::CLEAN
    };
    if cli.command.is_none()
        && let Some((given, command)) = cli.check.mistyped_command()
    {
        let _ = writeln!(
            stderr,
            "iparams-lint: `{given}` is neither a path nor a command; did you mean `{command}`?"
        );
        return exit::TROUBLE;
    }
    match cli.command {
        None | Some(Command::Check(_)) => {
            let args = match cli.command {
                Some(Command::Check(args)) => args,
                _ => cli.check,
            };
            if args.watch {
                return check::watch::run(args, env, stdout, stderr);
            }
            let file = args.output.output_file.clone();
            output::to_output_file(file.as_deref(), stdout, stderr, |stdout, stderr| {
                check::run(args, env, stdin, stdout, stderr)
            })
        }
        Some(Command::Add(args)) => add::run(args, env, stdout, stderr),
        Some(Command::Values(args)) => {
            let file = args.output.output_file.clone();
            output::to_output_file(file.as_deref(), stdout, stderr, |stdout, stderr| {
                values::run(args, env, stdin, stdout, stderr)
            })
        }
        Some(Command::Rules { format, markdown }) => match (format, markdown) {
            (_, true) | (RulesFormat::Markdown, _) => printed(stdout, &docs::rules_markdown()),
            (RulesFormat::Json, _) => printed(stdout, &docs::rules_json()),
            (RulesFormat::Table, _) => printed(stdout, &docs::rules_table()),
        },
        Some(Command::Explain { rule }) => match docs::explain(&rule) {
            Ok(text) => printed(stdout, &text),
            Err(message) => {
                let _ = writeln!(stderr, "iparams-lint: {message}");
                exit::TROUBLE
            }
        },
        Some(Command::Schema) => printed(stdout, SCHEMA),
        Some(Command::Init { folder }) => init::run(folder.as_deref(), stdout, stderr),
        Some(Command::HrSandbox(args)) => hr_sandbox::run(args, stdout, stderr),
        Some(Command::Preview(args)) => preview::run(args, stdout, stderr),
        // Standard input and output are the protocol's: the server owns them.
        Some(Command::Lsp { stdio: _ }) => lsp::run(),
        Some(Command::Completions { shell }) => {
            let generator = match shell {
                Shell::Bash => clap_complete::Shell::Bash,
                Shell::Zsh => clap_complete::Shell::Zsh,
                Shell::Fish => clap_complete::Shell::Fish,
            };
            clap_complete::generate(generator, &mut Cli::command(), "iparams-lint", stdout);
            exit::CLEAN
        }
    }
}
