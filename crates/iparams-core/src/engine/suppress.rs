//! Suppression comments applied to a file's findings: each finding of a rule named by a
//! comment on the line before it is dropped, and the comments are then checked themselves.

use super::checks::enabled_checks;
use crate::diagnostic::Diagnostic;
use crate::rules::{Check, REGISTRY, RuleSettings, Suppressions};
use crate::suppression::{Suppression, line_of, line_starts};

/// Drops the findings of `diagnostics` (of a file whose text is `text`) that `suppressions`
/// turn off, marking each name that turned one off, and adds what the suppression checks
/// find of the comments.
pub(super) fn suppress(
    diagnostics: &mut Vec<Diagnostic>,
    text: &str,
    suppressions: &mut [Suppression],
    rules: &RuleSettings,
) {
    if suppressions.is_empty() {
        return;
    }
    let starts = line_starts(text);
    let lines: Vec<usize> = suppressions
        .iter()
        .map(|suppression| suppression.suppressed_line(&starts))
        .collect();
    diagnostics.retain(|diagnostic| {
        let line = line_of(&starts, diagnostic.span.start);
        let mut kept = true;
        for (suppression, _) in (suppressions.iter_mut().zip(&lines)).filter(|(_, at)| **at == line)
        {
            for name in &mut suppression.names {
                if name.name == diagnostic.rule {
                    name.used = true;
                    kept = false;
                }
            }
        }
        kept
    });
    let runs = |rule: &_| rules.is_enabled(rule);
    let comments = Suppressions {
        comments: suppressions,
        rules: REGISTRY,
        runs: &runs,
    };
    for check in enabled_checks(rules) {
        if let Check::Suppressions(check) = check {
            check(&comments, diagnostics);
        }
    }
}
