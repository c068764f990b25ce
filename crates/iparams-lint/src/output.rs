//! What the front-ends share once the findings are known: how they are drawn, where they go,
//! the exit status they make, and how a change to a file is shown.

use std::io::Write;
use std::path::Path;

use iparams_core::Severity;

use crate::cli::{ColorChoice, FailLevel, OutputArgs};
use crate::environment::{Environment, exit};
use crate::render::{self, RenderOptions, Renderer, Summary};

/// Output is kept to this width when the terminal's is unknown, so logs are stable.
const DEFAULT_WIDTH: usize = 100;

/// What makes a run fail: findings at `fail_level` or above, unless `--exit-zero`.
#[derive(Debug, Clone, Copy)]
pub struct Failing {
    pub fail_level: Severity,
    pub exit_zero: bool,
}

/// The renderer `args` ask for, and what makes the run fail.
pub fn renderer(args: &OutputArgs, env: &Environment) -> (Box<dyn Renderer>, Failing) {
    let fail_level = match args.fail_level {
        FailLevel::Error => Severity::Error,
        FailLevel::Warning => Severity::Warning,
        FailLevel::Info => Severity::Info,
    };
    // A report written to a file is read later, not on this terminal: no colour unless asked.
    let color = match (&args.output_file, args.color) {
        (Some(_), ColorChoice::Auto) => false,
        _ => env.color(args.color),
    };
    let options = RenderOptions {
        color,
        width: env.terminal_width.unwrap_or(DEFAULT_WIDTH),
        quiet: args.quiet,
        fail_level,
        max_diagnostics: args.max_diagnostics.0,
    };
    let renderer = match args.statistics {
        true => render::statistics(args.format),
        false => render::renderer(args.format, options),
    };
    let failing = Failing {
        fail_level,
        exit_zero: args.exit_zero,
    };
    (renderer, failing)
}

/// The exit status of a run: trouble wins over findings at the failing severity.
pub fn status(trouble: bool, summary: &Summary, failing: Failing) -> u8 {
    if trouble {
        exit::TROUBLE
    } else if summary.reaches(failing.fail_level) && !failing.exit_zero {
        exit::FINDINGS
    } else {
        exit::CLEAN
    }
}

/// Runs `run` with its report going to `file`, when given, instead of `stdout`: the file is
/// written whole when the run ends, in one rename. A file that cannot be written is trouble.
pub fn to_output_file(
    file: Option<&Path>,
    stdout: &mut (dyn Write + Send),
    stderr: &mut (dyn Write + Send),
    run: impl FnOnce(&mut (dyn Write + Send), &mut (dyn Write + Send)) -> u8,
) -> u8 {
    let Some(file) = file else {
        return run(stdout, stderr);
    };
    let mut report = Vec::new();
    let status = run(&mut report, stderr);
    match crate::write::write_new(file, &report) {
        Ok(()) => status,
        Err(error) => fail(
            stderr,
            &format!("{}: cannot write the report: {error}", file.display()),
        ),
    }
}

/// Writes `text`; a closed pipe (`| head`) is not an error worth reporting.
pub fn emit(out: &mut dyn Write, text: &str) {
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// Flushes `out`; as with [`emit`], a closed pipe is not reported.
pub fn flush(out: &mut dyn Write) {
    let _ = out.flush();
}

/// Reports a problem that stops the run before anything is checked.
pub fn fail(stderr: &mut dyn Write, message: &str) -> u8 {
    let _ = writeln!(stderr, "iparams-lint: {message}");
    exit::TROUBLE
}

/// Why a file could not be read, in a few words.
pub fn describe_io_error(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::IsADirectory => "is a folder".into(),
        _ => format!("cannot read: {error}"),
    }
}

/// A unified diff from `old` to `new`, the texts of the file shown as `path` (`a/PATH`,
/// `b/PATH`, two lines of context): how `check --diff` and `add --dry-run` show a change.
pub fn unified_diff(path: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(2)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}
