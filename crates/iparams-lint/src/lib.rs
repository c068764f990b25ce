//! The `iparams-lint` command: finds files, lints them with `iparams-core`, renders the findings
//! and decides the exit status.

pub mod cli;
pub mod discover;
pub mod render;
mod source_code;

use std::ffi::OsString;
use std::io::{Read, Write};

use clap::Parser;
use iparams_core::{Linter, SourceText};

use cli::{CheckArgs, Cli, ColorChoice, Command, Format};
use discover::{Input, discover};
use render::{CheckedFile, Human, Json, Renderer, Summary};

/// The exit statuses, frozen: scripts depend on them.
pub mod exit {
    /// No error-severity findings.
    pub const CLEAN: u8 = 0;
    /// At least one error-severity finding.
    pub const FINDINGS: u8 = 1;
    /// Bad usage, or a file that could not be read.
    pub const TROUBLE: u8 = 2;
}

/// What the command needs from the outside world, so tests can give it anything.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    pub stdout_is_terminal: bool,
    pub terminal_width: Option<usize>,
    /// `NO_COLOR` is set (and not empty).
    pub no_color: bool,
    /// `FORCE_COLOR` or `CLICOLOR_FORCE` is set (and not empty or 0).
    pub force_color: bool,
}

impl Environment {
    /// Reads the real environment.
    pub fn detect() -> Self {
        use std::io::IsTerminal;
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
        Self {
            stdout_is_terminal: std::io::stdout().is_terminal(),
            terminal_width: std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
            force_color: set("FORCE_COLOR") || set("CLICOLOR_FORCE"),
        }
    }

    fn color(&self, choice: ColorChoice) -> bool {
        match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => !self.no_color && (self.force_color || self.stdout_is_terminal),
        }
    }
}

/// Output is kept to this width when the terminal's is unknown, so logs are stable.
const DEFAULT_WIDTH: usize = 100;

/// Runs the command line `args` (program name first); returns the exit status.
pub fn run(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
    env: &Environment,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> u8 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
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
    let args = match cli.command {
        Some(Command::Check(args)) => args,
        None => cli.check,
    };
    check(args, env, stdin, stdout, stderr)
}

fn check(
    mut args: CheckArgs,
    env: &Environment,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> u8 {
    if args.paths.is_empty() {
        args.paths.push(".".into());
    }
    let renderer: Box<dyn Renderer> = match args.format {
        Format::Human => Box::new(Human::new(
            env.color(args.color),
            env.terminal_width.unwrap_or(DEFAULT_WIDTH),
        )),
        Format::Json => Box::new(Json),
    };
    let (inputs, discovery_errors) = discover(&args.paths);
    let mut trouble = false;
    for error in &discovery_errors {
        let _ = writeln!(
            stderr,
            "iparams-lint: {}: {}",
            error.path.display(),
            error.message
        );
        trouble = true;
    }

    let mut linter = Linter::default();
    let mut pieces = Vec::new();
    let mut summary = Summary::default();
    for input in &inputs {
        let (path, bytes) = match read(input, args.stdin_filename.as_deref(), stdin) {
            Ok(read) => read,
            Err((path, error)) => {
                let _ = writeln!(stderr, "iparams-lint: {path}: {error}");
                trouble = true;
                continue;
            }
        };
        let source = SourceText::decode(&bytes);
        let report = linter.lint(&source);
        summary.add(&report);
        pieces.push(renderer.file(&CheckedFile {
            path: &path,
            text: source.text(),
            report: &report,
        }));
    }
    let output = renderer.finish(pieces, &summary);
    // A closed pipe (`| head`) is not an error worth reporting.
    let _ = stdout
        .write_all(output.as_bytes())
        .and_then(|()| stdout.flush());

    if trouble {
        exit::TROUBLE
    } else if summary.errors > 0 {
        exit::FINDINGS
    } else {
        exit::CLEAN
    }
}

fn read(
    input: &Input,
    stdin_name: Option<&str>,
    stdin: &mut dyn Read,
) -> Result<(String, Vec<u8>), (String, String)> {
    match input {
        Input::Stdin => {
            let path = stdin_name.unwrap_or("<stdin>").to_owned();
            let mut bytes = Vec::new();
            match stdin.read_to_end(&mut bytes) {
                Ok(_) => Ok((path, bytes)),
                Err(error) => Err((path, format!("cannot read standard input: {error}"))),
            }
        }
        Input::File(file) => {
            let path = file.display().to_string();
            match std::fs::read(file) {
                Ok(bytes) => Ok((path, bytes)),
                Err(error) => Err((path, describe_io_error(&error))),
            }
        }
    }
}

fn describe_io_error(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::IsADirectory => "is a folder".into(),
        _ => format!("cannot read: {error}"),
    }
}
