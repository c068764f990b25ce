//! One iparams.json, decoded, parsed, lowered and checked in a single pass: each top-level iparam
//! is checked as soon as it is parsed, so memory stays flat on large files.

use super::batch::{BatchFindings, FileChecks, finish_in_parallel};
use super::checks::check_reading;
use super::finish::{finish, mask_overlapped_secrets};
use super::linter::Linter;
use super::report::FileReport;
use crate::app::{AppFacts, Declared};
use crate::reading::{FileKind, Reading};
use crate::rules::RuleSettings;
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
        self.check_iparams(source, rules, None, None)
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
        let report = self.check_iparams(source, rules, Some(app), Some(&mut outline));
        (report, outline)
    }

    fn check_iparams(
        &mut self,
        source: &SourceText<'_>,
        rules: &RuleSettings,
        app: Option<&AppFacts>,
        outline: Option<&mut Vec<Declared>>,
    ) -> FileReport {
        let text = source.text();
        let checks = FileChecks::new(text, rules, app, outline.is_some());
        // A large file is parsed beside its checks, and its checks finished, on every thread.
        let in_parallel = text.len() >= self.options.parallel_from;
        let mut found = BatchFindings::default();
        let mut document = None;
        if !source.is_unreadable() {
            let (parsed, checked) = if in_parallel {
                self.check_in_parallel(&checks)
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
        let reading = Reading {
            kind: FileKind::Iparams,
            problems: &source.problems,
            errors: document.as_ref().map(|document| document.errors.as_slice()),
            root: document.as_ref().map(|document| document.root),
        };
        let first_of_reading = cx.diagnostics.len();
        check_reading(&reading, rules, &mut cx);
        mask_overlapped_secrets(
            &mut cx.diagnostics[first_of_reading..],
            text,
            &found.redactions,
        );
        let mut report = FileReport {
            well_formed: reading.is_well_formed(),
            ..FileReport::default()
        };
        if let Some(document) = &document {
            report.read_to_end =
                !document.is_incomplete() && matches!(document.root, RootShape::Object(_));
            if in_parallel {
                let timeout = self.options.regex_timeout;
                cx.diagnostics
                    .extend(finish_in_parallel(&checks, found.file_checks, timeout));
            } else {
                for mut check in found.file_checks {
                    check.finish(&mut cx);
                }
            }
        }
        report.iparams = found.iparams;
        report.redactions = found.redactions;
        if let Some(outline) = outline {
            *outline = found.declared;
        }
        report.diagnostics = finish(cx.diagnostics, rules);
        report
    }
}
