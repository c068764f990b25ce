//! What every driver does last with the findings of a file: levels, order, and masking.

use super::report::secret_texts;
use crate::diagnostic::Diagnostic;
use crate::rules::{self, Level, RuleSettings};
use crate::secrets::{MASKED, MASKED_TEXT};
use crate::span::Span;

/// The findings of one file as reported: each at the level configured for its rule and pointer
/// (those turned off there dropped), in file order. Every driver ends with it.
pub fn finish(mut diagnostics: Vec<Diagnostic>, rules: &RuleSettings) -> Vec<Diagnostic> {
    apply_levels(&mut diagnostics, rules);
    // A stable sort of the findings themselves would take a buffer as large as they are: their
    // places are sorted instead, copied out with each finding's index so that comparing two
    // reads one short list rather than two findings (the rule is read only for a tie), and the
    // findings moved into place. The index last keeps ties in the order they were found.
    let mut order: Vec<(Span, u32)> = diagnostics
        .iter()
        .zip(0..)
        .map(|(diagnostic, index)| (diagnostic.span, index))
        .collect();
    let rule = |index: u32| diagnostics[index as usize].rule;
    order.sort_unstable_by(|(a, i), (b, j)| {
        a.cmp(b).then_with(|| rule(*i).cmp(rule(*j))).then(i.cmp(j))
    });
    let order = order.into_iter().map(|(_, index)| index as usize).collect();
    permute(&mut diagnostics, order);
    diagnostics
}

/// Reorders `items` in place so that position `k` holds what was at `order[k]`.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..items.len() {
        // Each cycle of the permutation is walked once, swapping each item into its place.
        let mut current = start;
        while order[current] != DONE {
            let source = order[current];
            order[current] = DONE;
            if source == start {
                break;
            }
            items.swap(current, source);
            current = source;
        }
    }
}

/// Settles each finding's severity for its pointer, dropping those that are off there.
fn apply_levels(diagnostics: &mut Vec<Diagnostic>, rules: &RuleSettings) {
    // Nothing configured: nothing to look up for each finding.
    if rules.is_default() {
        return;
    }
    diagnostics.retain_mut(|diagnostic| {
        let rule = rules::find(diagnostic.rule).expect("findings come from registered rules");
        // Nothing configured: the finding keeps the severity its rule gave it, which is the
        // rule's own unless the rule says this finding is more (or less) serious.
        match rules.configured_at(rule, &diagnostic.pointer) {
            None => true,
            Some(Level::Off) => false,
            Some(Level::On(severity)) => {
                diagnostic.severity = severity;
                true
            }
        }
    });
}

/// The last line of defence: no secret text survives in any message a rule wrote.
pub(crate) fn mask_secrets(diagnostics: &mut [Diagnostic], text: &str, secrets: &[Span]) {
    if diagnostics.is_empty() {
        return;
    }
    // Masking applies to the file's text, never to the rule's own words: `true`, `false` and
    // `null` (a secure checkbox's default) are words of the messages themselves (``must be a
    // boolean (`true` or `false`)``), and the rules never quote a secret value themselves.
    let mut secrets = secret_texts(text, secrets);
    secrets.retain(|secret| !matches!(*secret, "true" | "false" | "null"));
    if secrets.is_empty() {
        return;
    }
    for diagnostic in diagnostics {
        mask_in(&mut diagnostic.message, &secrets);
        if let Some(label) = &mut diagnostic.label {
            mask_in(label, &secrets);
        }
        if let Some(help) = &mut diagnostic.help {
            mask_in(help, &secrets);
        }
        for label in &mut diagnostic.related {
            mask_in(&mut label.message, &secrets);
        }
        if let Some(fix) = &mut diagnostic.fix {
            mask_in(&mut fix.title, &secrets);
        }
    }
}

/// [`mask_secrets`] for findings that belong to no iparam (the file's syntax): each is masked
/// with the secrets its own span overlaps, such as an unquoted secure default it quotes.
pub(crate) fn mask_overlapped_secrets(
    diagnostics: &mut [Diagnostic],
    text: &str,
    secrets: &[Span],
) {
    if diagnostics.is_empty() || secrets.is_empty() {
        return;
    }
    let mut sorted = secrets.to_vec();
    sorted.sort_unstable();
    for diagnostic in diagnostics {
        let span = diagnostic.span;
        // Secrets start in order; those that may overlap start before the finding's end.
        let before_end =
            sorted.partition_point(|secret| secret.start < span.end.max(span.start + 1));
        let overlapped: Vec<Span> = sorted[..before_end]
            .iter()
            .filter(|secret| secret.end > span.start)
            .copied()
            .collect();
        mask_secrets(std::slice::from_mut(diagnostic), text, &overlapped);
    }
}

/// `message` with each secret of `secrets` (and its quotes) masked; left as it is, borrowed or
/// not, when it holds none.
fn mask_in<T: AsRef<str> + From<String>>(message: &mut T, secrets: &[&str]) {
    for secret in secrets {
        let text = message.as_ref();
        if text.contains(secret) {
            // A quoted secret becomes the quoted mask; one inside other quoted text (a path,
            // a host, a placeholder) loses only its own characters.
            let masked = text
                .replace(&format!("\"{secret}\""), MASKED)
                .replace(secret, MASKED_TEXT);
            *message = T::from(masked);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_move_items_into_place() {
        let mut items = vec!['a', 'b', 'c', 'd', 'e', 'f'];
        permute(&mut items, vec![3, 0, 1, 2, 5, 4]);
        assert_eq!(items, ['d', 'a', 'b', 'c', 'f', 'e']);
        let mut one = vec![1];
        permute(&mut one, vec![0]);
        assert_eq!(one, [1]);
    }

    /// Findings come out ordered by place, then rule, and in the order they were found when
    /// both are the same, as a stable sort of the findings by place and rule orders them.
    #[test]
    fn findings_are_ordered_by_place_then_rule_keeping_ties_in_order() {
        let rules = ["unknown-type", "missing-default", "unsupported-event"];
        let mut found = Vec::new();
        let mut seed = 0x2545_f491_u64;
        for index in 0..500 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let start = (seed >> 33) as usize % 40;
            let end = start + (seed >> 20) as usize % 3;
            let rule = rules[(seed >> 40) as usize % rules.len()];
            let mut diagnostic = Diagnostic::new(
                rule,
                crate::Severity::Error,
                Span::new(start, end),
                format!("finding {index}"),
            );
            diagnostic.pointer = format!("/{}", start % 7);
            found.push(diagnostic);
        }
        let mut expected = found.clone();
        expected.sort_by_key(|diagnostic| (diagnostic.span, diagnostic.rule));
        let messages = |diagnostics: &[Diagnostic]| -> Vec<String> {
            diagnostics.iter().map(|d| d.message.clone()).collect()
        };
        let finished = finish(found, &RuleSettings::default());
        assert_eq!(messages(&finished), messages(&expected));
    }
}
