//! The registry's checks that the rule settings enable, and those of them that look at what
//! reading a JSON file found: what every driver runs.

use crate::reading::Reading;
use crate::rules::{Check, Context, REGISTRY, RuleSettings};

/// Every check of the rules that `rules` enables, in registry order.
pub(super) fn enabled_checks(rules: &RuleSettings) -> impl Iterator<Item = &'static Check> + '_ {
    // Asked several times a check, for each of ~150 rules: nothing to look up when nothing
    // is configured.
    let every = rules.is_default();
    REGISTRY
        .iter()
        .filter(move |rule| every || rules.is_enabled(rule))
        .flat_map(|rule| rule.checks)
}

/// Runs the checks of what reading a JSON file found.
pub(super) fn check_reading(reading: &Reading<'_>, rules: &RuleSettings, cx: &mut Context<'_>) {
    for check in enabled_checks(rules) {
        if let Check::Reading(check) = check {
            check(reading, cx);
        }
    }
}
