//! The linter and its options: what every driver (file, app, values, fixes) runs on, keeping
//! compiled regexes from one file to the next.

use std::time::Duration;

use super::report::FileReport;
use crate::ecma_regex::{DEFAULT_MATCH_TIMEOUT, RegexEngine};
use crate::rules::RuleSettings;

/// Files from this size on are checked on several threads.
pub(super) const PARALLEL_FROM: usize = 1 << 20;

/// How to lint.
#[derive(Clone, Debug)]
pub struct LintOptions {
    pub rules: RuleSettings,
    /// How long one user regex may run against one value.
    pub regex_timeout: Duration,
    /// Files of at least this many bytes are checked on several threads.
    pub parallel_from: usize,
}

impl Default for LintOptions {
    fn default() -> Self {
        Self {
            rules: RuleSettings::default(),
            regex_timeout: DEFAULT_MATCH_TIMEOUT,
            parallel_from: PARALLEL_FROM,
        }
    }
}

/// Lints files; keeps compiled regexes from one file to the next.
#[derive(Debug)]
pub struct Linter {
    pub(crate) options: LintOptions,
    pub(crate) regexes: RegexEngine,
}

impl Default for Linter {
    fn default() -> Self {
        Self::new(LintOptions::default())
    }
}

impl Linter {
    pub fn new(options: LintOptions) -> Self {
        Self {
            regexes: RegexEngine::new(options.regex_timeout),
            options,
        }
    }

    /// Runs `run` with the linter's own rule settings.
    pub(super) fn with_own_rules<T>(
        &mut self,
        run: impl FnOnce(&mut Self, &RuleSettings) -> T,
    ) -> T {
        let rules = std::mem::take(&mut self.options.rules);
        let result = run(self, &rules);
        self.options.rules = rules;
        result
    }
}

/// Lints `bytes` with the default options.
pub fn lint(bytes: &[u8]) -> FileReport {
    Linter::default().lint_bytes(bytes)
}
