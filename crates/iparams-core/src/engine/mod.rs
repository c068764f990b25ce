//! The engine: runs the rules of the registry over a file, an app or a values file, and finishes
//! what they found (levels, order, masking). It never names a rule: each kind of [`Check`] runs
//! at its moment, for every enabled rule that has one.
//!
//! - [`file`]: one iparams.json, decoded, parsed, lowered and checked in a single pass, in
//!   runs of iparams ([`batch`]; [`parallel`] for large files);
//! - [`app`]: iparams.json with the app around it, and the app's other files;
//! - [`values`]: a values file against its iparams.json;
//! - [`finish`]: what every driver does last;
//! - [`fix`]: fixes applied and re-checked; [`examples`]: the rule docs' examples, run.

mod app;
mod batch;
mod examples;
mod file;
pub mod finish;
mod fix;
mod parallel;
mod report;
mod values;

use std::time::Duration;

pub use app::{CheckedApp, CheckedSource};
pub use fix::FixOutcome;
pub use report::{FileReport, masked, redact};

use crate::ecma_regex::{DEFAULT_MATCH_TIMEOUT, RegexEngine};
use crate::reading::Reading;
use crate::rules::{Check, Context, REGISTRY, RuleSettings};

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
            parallel_from: parallel::PARALLEL_FROM,
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
    fn with_own_rules<T>(&mut self, run: impl FnOnce(&mut Self, &RuleSettings) -> T) -> T {
        let rules = std::mem::take(&mut self.options.rules);
        let result = run(self, &rules);
        self.options.rules = rules;
        result
    }
}

/// Every check of the rules that `rules` enables, in registry order.
fn enabled_checks(rules: &RuleSettings) -> impl Iterator<Item = &'static Check> + '_ {
    // Asked several times a check, for each of ~150 rules: nothing to look up when nothing
    // is configured.
    let every = rules.is_default();
    REGISTRY
        .iter()
        .filter(move |rule| every || rules.is_enabled(rule))
        .flat_map(|rule| rule.checks)
}

/// Runs the checks of what reading a JSON file found.
fn check_reading(reading: &Reading<'_>, rules: &RuleSettings, cx: &mut Context<'_>) {
    for check in enabled_checks(rules) {
        if let Check::Reading(check) = check {
            check(reading, cx);
        }
    }
}

/// Lints `bytes` with the default options.
pub fn lint(bytes: &[u8]) -> FileReport {
    Linter::default().lint_bytes(bytes)
}
