//! What the command needs from the outside world (so tests can give it anything), and the exit
//! statuses it answers with.

use crate::cli::ColorChoice;

/// The exit statuses, frozen: scripts depend on them.
pub mod exit {
    /// No finding at or above the failing severity (errors, unless `--fail-level` says otherwise).
    pub const CLEAN: u8 = 0;
    /// At least one such finding; with `--diff`, at least one fix to apply.
    pub const FINDINGS: u8 = 1;
    /// Bad usage or configuration, or a file that could not be read or written.
    pub const TROUBLE: u8 = 2;
}

/// What the command needs from the outside world, so tests can give it anything.
#[derive(Debug, Clone, Default)]
pub struct Environment {
    pub stdout_is_terminal: bool,
    /// Standard input and standard error are both terminals: `add` may ask questions there.
    pub interactive: bool,
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
            interactive: std::io::stdin().is_terminal() && std::io::stderr().is_terminal(),
            terminal_width: std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
            force_color: set("FORCE_COLOR") || set("CLICOLOR_FORCE"),
        }
    }

    pub fn color(&self, choice: ColorChoice) -> bool {
        match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => !self.no_color && (self.force_color || self.stdout_is_terminal),
        }
    }
}
