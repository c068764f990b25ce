//! Applying fixes: pure text in, text out. The command owns files and writes.

use super::linter::Linter;
use super::report::FileReport;
use crate::app::AppFacts;
use crate::diagnostic::{Applicability, Diagnostic, Edit, Fix};
use crate::rules::{INVALID_JSON, RuleSettings};
use crate::source::SourceText;

/// Passes of fix-then-relint before giving up; fixes that do not conflict are all applied in
/// the first pass, so more passes are only needed when one fix overlapped another, or broke
/// the JSON together with another.
const MAX_PASSES: usize = 8;

/// What fixing one file did.
#[derive(Debug, Clone)]
pub struct FixOutcome {
    /// The fixed text, when anything changed.
    pub text: Option<String>,
    /// How many findings were fixed.
    pub fixed: usize,
    /// The edits of each pass that was kept, each in the coordinates of the text it applied to.
    pub passes: Vec<Vec<Edit>>,
    /// The findings of the final text.
    pub report: FileReport,
    /// The secrets of the text before any fix: output showing it (a diff) must mask them, as
    /// `report.redactions` for the final text.
    pub original_redactions: Vec<crate::span::Span>,
}

/// Whether `--fix` can make a file that does not parse well-formed: it has syntax errors, and
/// each has a fix of its own (a trailing comma). Its other fixes then follow in the same run;
/// otherwise none applies.
pub fn syntax_fixable(diagnostics: &[Diagnostic]) -> bool {
    let mut syntax = diagnostics
        .iter()
        .filter(|d| d.rule == INVALID_JSON.name)
        .peekable();
    syntax.peek().is_some() && syntax.all(|d| d.fix.is_some())
}

/// `text` with `edits` applied; the edits must not overlap.
pub fn apply(text: &str, edits: &[&Edit]) -> String {
    let mut sorted: Vec<&Edit> = edits.to_vec();
    sorted.sort_by_key(|edit| (edit.span.start, edit.span.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in sorted {
        out.push_str(&text[at..edit.span.start]);
        out.push_str(&edit.replacement);
        at = edit.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The edits of `fixes`, in order.
fn edits_of<'f>(fixes: &[&'f Fix]) -> Vec<&'f Edit> {
    fixes.iter().flat_map(|fix| &fix.edits).collect()
}

/// The fixes of a pass that `holds` accepts, with what it made of them: all of `chosen`, else
/// its first half, quarter, and so on down to its first fix. Fixes whose edits keep apart may
/// still break the JSON together; a part of them still mends something in this pass (at most
/// one check per halving), and the rest follow in the next passes.
fn first_that_holds<'c, 'f, T>(
    chosen: &'c [&'f Fix],
    mut holds: impl FnMut(&[&'f Fix]) -> Option<T>,
) -> Option<(&'c [&'f Fix], T)> {
    std::iter::successors(Some(chosen.len()), |&n| (n > 1).then_some(n / 2))
        .map(|n| &chosen[..n])
        .find_map(|fixes| holds(fixes).map(|made| (fixes, made)))
}

/// Two edits conflict when they overlap, insert at the same place (their order would be
/// arbitrary), or one inserts where the other ends: an insertion after a member that another
/// fix removes would be left after nothing (`{ , "secure": true }`).
fn conflict(a: &Edit, b: &Edit) -> bool {
    let inserts_at_end = |insert: &Edit, other: &Edit| {
        insert.span.start == insert.span.end && insert.span.start == other.span.end
    };
    (a.span.start < b.span.end && b.span.start < a.span.end)
        || a.span.start == b.span.start
        || inserts_at_end(a, b)
        || inserts_at_end(b, a)
}

impl Linter {
    /// Applies every fix at most as risky as `allowed`, re-checking after each pass, until none
    /// is left (fix until stable, as ruff does). A file that is not well-formed JSON gets only
    /// the fixes of its syntax errors (a trailing comma), and only when they make it
    /// well-formed; its other fixes follow in the next passes. No pass keeps a text that is not
    /// well-formed (a bug in a fix must not damage a file).
    pub fn fix(
        &mut self,
        source: &SourceText<'_>,
        rules: &RuleSettings,
        allowed: Applicability,
    ) -> FixOutcome {
        self.fix_in(source, rules, allowed, None)
    }

    /// [`Linter::fix`] for the iparams.json of an app, whose facts the app-aware rules use.
    pub fn fix_in(
        &mut self,
        source: &SourceText<'_>,
        rules: &RuleSettings,
        allowed: Applicability,
        app: Option<&AppFacts>,
    ) -> FixOutcome {
        let lint = |linter: &mut Linter, source: &SourceText<'_>| match app {
            Some(app) => linter.lint_in_app(source, rules, app).0,
            None => linter.lint_with(source, rules),
        };
        let mut report = lint(self, source);
        let original_redactions = report.redactions.clone();
        let mut text: Option<String> = None;
        let mut fixed = 0;
        let mut passes = Vec::new();
        for _ in 0..MAX_PASSES {
            let mut chosen: Vec<&Fix> = Vec::new();
            // In a file that does not parse, only fixes of the syntax are sure of their places,
            // and only when they make it parse.
            let syntax_only = !report.well_formed;
            if syntax_only && !syntax_fixable(&report.diagnostics) {
                break;
            }
            let fixes = report
                .diagnostics
                .iter()
                .filter(|d| !syntax_only || d.rule == INVALID_JSON.name)
                .filter_map(|d| d.fix.as_ref());
            for fix in fixes {
                let conflicts = fix
                    .edits
                    .iter()
                    .any(|e| (chosen.iter().flat_map(|c| &c.edits)).any(|c| conflict(c, e)));
                if fix.applicability <= allowed && !conflicts {
                    chosen.push(fix);
                }
            }
            if chosen.is_empty() {
                break;
            }
            let current = text.as_deref().unwrap_or(source.text());
            let applied = first_that_holds(&chosen, |fixes| {
                let candidate = apply(current, &edits_of(fixes));
                let candidate_report = lint(self, &SourceText::decode(candidate.as_bytes()));
                candidate_report
                    .well_formed
                    .then_some((candidate, candidate_report))
            });
            let Some((fixes, (candidate, candidate_report))) = applied else {
                break;
            };
            fixed += fixes.len();
            passes.push(edits_of(fixes).into_iter().cloned().collect());
            report = candidate_report;
            text = Some(candidate);
        }
        FixOutcome {
            text,
            fixed,
            passes,
            report,
            original_redactions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;

    /// `text` fixed with every rule at its default level, fixes up to `allowed`.
    fn fix_text(text: &str, allowed: Applicability) -> FixOutcome {
        Linter::default().fix(
            &SourceText::decode(text.as_bytes()),
            &RuleSettings::default(),
            allowed,
        )
    }

    #[test]
    fn edits_apply_in_order() {
        let text = "0123456789";
        let a = Edit::replace(Span::new(7, 8), "x");
        let b = Edit::insert(2, "<>");
        let c = Edit::delete(Span::new(4, 6));
        assert_eq!(apply(text, &[&a, &b, &c]), "01<>236x89");
    }

    #[test]
    fn fixing_twice_changes_nothing_the_second_time() {
        let text = r#"{"a": {"display_name": "A", "type": "Text", "required": "true", "Data-bind": "product.domain"}}"#;
        let first = fix_text(text, Applicability::Safe);
        let fixed = first.text.expect("something was fixed");
        assert_eq!(
            fixed,
            r#"{"a": {"display_name": "A", "type": "text", "required": true, "data-bind": "product.domain"}}"#
        );
        assert_eq!(first.fixed, 3);
        let second = fix_text(&fixed, Applicability::Safe);
        assert_eq!(second.text, None);
        assert_eq!(second.fixed, 0);
    }

    #[test]
    fn a_fix_that_adds_after_a_member_another_removes_waits_for_the_next_pass() {
        // `"secure": true` goes after `"regex": {}`, which empty-regex removes: together they
        // would leave `{ , "secure": true }`.
        let text = "{\n  \"password\": {\n    \"regex\": {}\n  }\n}\n";
        let outcome = fix_text(text, Applicability::Unsafe);
        assert_eq!(outcome.fixed, 2);
        assert_eq!(outcome.passes.len(), 2);
        let fixed = outcome.text.expect("fixed");
        assert!(
            fixed.contains("\"secure\": true") && !fixed.contains("regex"),
            "{fixed}"
        );
        assert!(outcome.report.well_formed);
    }

    #[test]
    fn fixes_that_break_the_json_together_apply_a_part_at_a_time() {
        let text = r#"{"p": 0, "q": 0, "a": {"b": 1}}"#;
        let set_p = Fix::safe("p", vec![Edit::replace(Span::new(6, 7), "1")]);
        let set_q = Fix::safe("q", vec![Edit::replace(Span::new(14, 15), "1")]);
        // Each alone keeps the JSON well-formed; together they leave `{"a": {, "c": 2}}`.
        let drop_b = Fix::safe("drop b", vec![Edit::delete(Span::new(23, 29))]);
        let add_c = Fix::safe("add c", vec![Edit::insert(29, r#", "c": 2"#)]);
        assert!(conflict(&drop_b.edits[0], &add_c.edits[0]));
        let mut linter = Linter::default();
        let mut well_formed = |fixes: &[&Fix]| {
            let candidate = apply(text, &edits_of(fixes));
            let source = SourceText::decode(candidate.as_bytes());
            (linter.lint_with(&source, &RuleSettings::default()))
                .well_formed
                .then_some(candidate)
        };
        let all = [&set_p, &set_q, &drop_b, &add_c];
        let (fixes, made) = first_that_holds(&all, &mut well_formed).expect("half holds");
        assert_eq!(fixes.len(), 2);
        assert_eq!(made, r#"{"p": 1, "q": 1, "a": {"b": 1}}"#);
        let (fixes, made) = first_that_holds(&all[2..], &mut well_formed).expect("one holds");
        assert_eq!(
            (fixes.len(), made.as_str()),
            (1, r#"{"p": 0, "q": 0, "a": {}}"#)
        );
        let every_one = [&set_p, &set_q];
        let (fixes, _) = first_that_holds(&every_one, &mut well_formed).expect("all hold");
        assert_eq!(fixes.len(), 2);
        let broken = Fix::safe("break", vec![Edit::insert(1, "x")]);
        assert!(first_that_holds(&[&broken, &set_p], &mut well_formed).is_none());
    }

    #[test]
    fn unsafe_fixes_need_asking() {
        let text = "{\n  \"k\": {\"display_name\": \"K\", \"type\": \"api_key\", \"type_attributes\": {\"product\": \"freshdesk\"}}\n}\n";
        let safe = fix_text(text, Applicability::Safe);
        assert_eq!(safe.text, None);
        let risky = fix_text(text, Applicability::Unsafe);
        assert!(risky.text.expect("fixed").contains("\"secure\": true"));
    }

    #[test]
    fn files_with_syntax_errors_are_never_rewritten() {
        let text = r#"{"a": {"display_name": "A", "type": "Text" "required": true}}"#;
        let outcome = fix_text(text, Applicability::Unsafe);
        assert_eq!(outcome.text, None);
        assert!(!outcome.report.well_formed);
        // A trailing comma is fixed, but not while another syntax error is left.
        let text = r#"{"a": {"display_name": "A", "type": "text",}, "b" 1}"#;
        let outcome = fix_text(text, Applicability::Unsafe);
        assert_eq!(outcome.text, None);
    }

    #[test]
    fn a_trailing_comma_is_removed_and_the_other_fixes_follow() {
        let text = "{\n  \"a\": {\"display_name\": \"A\", \"type\": \"Text\",},\n}\n";
        let outcome = fix_text(text, Applicability::Safe);
        let fixed = outcome.text.expect("fixed");
        assert_eq!(
            fixed,
            "{\n  \"a\": {\"display_name\": \"A\", \"type\": \"text\"}\n}\n"
        );
        assert_eq!(outcome.fixed, 3);
        assert!(outcome.report.well_formed);
        // Stable: a second run changes nothing.
        let again = fix_text(&fixed, Applicability::Safe);
        assert_eq!(again.text, None);
    }
}
