//! What the front-ends share once the findings are known: how they are drawn, where they go,
//! the exit status they make, and how a change to a file is shown.

use std::io::Write;

use iparams_core::Severity;

use crate::cli::{FailLevel, OutputArgs};
use crate::environment::{Environment, exit};
use crate::render::{self, RenderOptions, Renderer, Summary};

/// Output is kept to this width when the terminal's is unknown, so logs are stable.
const DEFAULT_WIDTH: usize = 100;

/// The renderer `args` ask for, and the lowest severity that fails the run.
pub fn renderer(args: &OutputArgs, env: &Environment) -> (Box<dyn Renderer>, Severity) {
    let fail_level = match args.fail_level {
        FailLevel::Error => Severity::Error,
        FailLevel::Warning => Severity::Warning,
        FailLevel::Info => Severity::Info,
    };
    let options = RenderOptions {
        color: env.color(args.color),
        width: env.terminal_width.unwrap_or(DEFAULT_WIDTH),
        quiet: args.quiet,
        fail_level,
        max_diagnostics: args.max_diagnostics.0,
    };
    (render::renderer(args.format, options), fail_level)
}

/// The exit status of a run: trouble wins over findings at the failing severity.
pub fn status(trouble: bool, summary: &Summary, fail_level: Severity) -> u8 {
    if trouble {
        exit::TROUBLE
    } else if summary.reaches(fail_level) {
        exit::FINDINGS
    } else {
        exit::CLEAN
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
