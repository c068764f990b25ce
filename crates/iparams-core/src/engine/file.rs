//! One iparams.json, decoded, parsed, lowered and checked in a single pass: each top-level iparam
//! is checked as soon as it is parsed, so memory stays flat on large files.

use std::sync::Arc;

use super::batch::{BatchFindings, FileChecks, finish_in_parallel};
use super::finish::finish;
use super::report::FileReport;
use super::stream::HeldBack;
use super::{Linter, check_reading};
use crate::app::{AppFacts, Declared};
use crate::reading::{FileKind, Reading};
use crate::rules::{Budget, Keep, RuleSettings};
use crate::source::SourceText;
use crate::syntax::{RootShape, parse_document};

impl Linter {
    /// Lints the bytes of one iparams.json with the linter's options.
    pub fn lint_bytes(&mut self, bytes: &[u8]) -> FileReport {
        self.lint(&SourceText::decode(bytes))
    }

    /// Lints one decoded iparams.json with the linter's options.
    pub fn lint(&mut self, source: &SourceText<'_>) -> FileReport {
        self.with_own_rules(|linter, rules| linter.lint_with(source, rules))
    }

    /// Lints one decoded iparams.json with `rules` in place of the linter's own.
    pub fn lint_with(&mut self, source: &SourceText<'_>, rules: &RuleSettings) -> FileReport {
        self.check_iparams(source, rules, None, None, None).0
    }

    /// Lints like [`Linter::lint_with`], but a file checked in parallel holds at most about
    /// `budget` bytes of findings: past it, the report holds them all back
    /// ([`FileReport::held_back`]), and what is returned with it lets
    /// [`Linter::stream_held_back`] find them again, in pieces of about that size at most, for
    /// an output that writes them as they come.
    pub fn lint_holding(
        &mut self,
        source: &SourceText<'_>,
        rules: &RuleSettings,
        budget: usize,
    ) -> (FileReport, Option<HeldBack>) {
        self.check_iparams(source, rules, None, None, Some(budget))
    }

    /// Lints the iparams.json of an app, whose facts the app-aware rules use; also returns what
    /// cross-file rules need to know of each iparam.
    pub fn lint_in_app(
        &mut self,
        source: &SourceText<'_>,
        rules: &RuleSettings,
        app: &AppFacts,
    ) -> (FileReport, Vec<Declared>) {
        let mut outline = Vec::new();
        let (report, _) = self.check_iparams(source, rules, Some(app), Some(&mut outline), None);
        (report, outline)
    }

    fn check_iparams(
        &mut self,
        source: &SourceText<'_>,
        rules: &RuleSettings,
        app: Option<&AppFacts>,
        outline: Option<&mut Vec<Declared>>,
        budget: Option<usize>,
    ) -> (FileReport, Option<HeldBack>) {
        let text = source.text();
        let checks = FileChecks::new(text, rules, app, outline.is_some());
        // A large file is parsed beside its checks, and its checks finished, on every thread.
        let in_parallel = text.len() >= self.options.parallel_from;
        let mut found = BatchFindings::default();
        let mut document = None;
        // The bytes the findings of each iparam's own checks take (counted with a budget);
        // `None` once they are held back.
        let mut own_bytes = Some(0);
        if !source.is_unreadable() {
            let (parsed, checked) = if in_parallel {
                let (parsed, checked, kept) = self.check_in_parallel(&checks, budget);
                own_bytes = kept;
                (parsed, checked)
            } else {
                let mut batch = checks.batch(&mut self.regexes);
                let parsed = parse_document(text, |member| batch.check(&member));
                (parsed, batch.finish())
            };
            document = Some(parsed);
            found = checked;
        }
        let mut cx = checks.context(&mut self.regexes);
        cx.diagnostics = found.diagnostics;
        let own = cx.diagnostics.len();
        let reading = Reading {
            kind: FileKind::Iparams,
            problems: &source.problems,
            errors: document.as_ref().map(|document| document.errors.as_slice()),
            root: document.as_ref().map(|document| document.root),
        };
        check_reading(&reading, rules, &mut cx);
        let mut report = FileReport {
            well_formed: reading.is_well_formed(),
            ..FileReport::default()
        };
        let mut held = None;
        if let Some(document) = &document {
            report.read_to_end =
                !document.is_incomplete() && matches!(document.root, RootShape::Object(_));
            if in_parallel {
                let timeout = self.options.regex_timeout;
                // The file checks to find the findings again with, when they are held back.
                let held_checks = match own_bytes {
                    None => Some(found.file_checks),
                    Some(own_bytes) => {
                        // Within what is left of the budget, if there is one: past it, every
                        // finding is held back after all.
                        let spare = budget
                            .map(|budget| Arc::new(Budget::new(budget.saturating_sub(own_bytes))));
                        let keep = spare.clone().map_or(Keep::All, Keep::UpTo);
                        let at_end = finish_in_parallel(&checks, found.file_checks, &keep, timeout);
                        if spare.is_some_and(|spare| spare.is_spent()) {
                            drop(at_end);
                            // Finished and freed (most files stay within the budget, and free
                            // them early): seen again.
                            Some(checks.file_checks_again(timeout))
                        } else {
                            cx.diagnostics.extend(at_end);
                            None
                        }
                    }
                };
                if let (Some(file_checks), Some(budget)) = (held_checks, budget) {
                    let reading = cx.diagnostics.drain(own..).collect();
                    cx.diagnostics = Vec::new();
                    held = Some(HeldBack::new(
                        &checks,
                        file_checks,
                        reading,
                        budget,
                        timeout,
                    ));
                }
            } else {
                for mut check in found.file_checks {
                    check.finish(&mut cx);
                }
            }
        }
        report.held_back = held.is_some();
        report.iparams = found.iparams;
        report.redactions = found.redactions;
        if let Some(outline) = outline {
            *outline = found.declared;
        }
        report.diagnostics = finish(cx.diagnostics, rules);
        (report, held)
    }
}
