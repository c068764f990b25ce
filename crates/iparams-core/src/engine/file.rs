//! One iparams.json, decoded, parsed, lowered and checked in a single pass: each top-level iparam
//! is checked as soon as it is parsed, so memory stays flat on large files.

use std::sync::Arc;
use std::time::Duration;

use rayon::prelude::*;

use super::finish::{finish, mask_secrets};
use super::report::FileReport;
use super::stream::{HeldBack, file_checks_again};
use super::{Linter, check_reading, enabled_checks};
use crate::app::{AppFacts, Declared, declared};
use crate::diagnostic::Diagnostic;
use crate::ecma_regex::RegexEngine;
use crate::model::Iparam;
use crate::reading::{FileKind, Reading};
use crate::rules::{Budget, Check, Context, FileCheck, Keep, REGISTRY, RuleSettings};
use crate::source::SourceText;
use crate::span::Span;
use crate::syntax::{Member, RootShape, parse_document};

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
                // Within what is left of the budget, if there is one: past it, every finding
                // is held back after all.
                let spare = own_bytes.and_then(|own_bytes| {
                    budget.map(|budget| Arc::new(Budget::new(budget.saturating_sub(own_bytes))))
                });
                let (held_back, file_checks) = match own_bytes {
                    None => (true, Some(found.file_checks)),
                    Some(_) => {
                        let keep = spare.clone().map_or(Keep::All, Keep::UpTo);
                        let at_end = finish_in_parallel(&checks, found.file_checks, &keep, timeout);
                        let spent = spare.is_some_and(|spare| spare.is_spent());
                        if !spent {
                            cx.diagnostics.extend(at_end);
                        }
                        (spent, None)
                    }
                };
                if let (true, Some(budget)) = (held_back, budget) {
                    let reading = cx.diagnostics.drain(own..).collect();
                    cx.diagnostics = Vec::new();
                    // Finished and freed when the findings at the end went past the budget
                    // (most files stay within it, and free them early): seen again.
                    let file_checks =
                        file_checks.unwrap_or_else(|| file_checks_again(&checks, timeout));
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

/// The findings of `file_checks` at the end of a large file, the checks finished on every
/// thread (each sorts what it kept of every iparam: the duplicate keys, the duplicate labels)
/// and freed as each is done, each with a context of its own that keeps what `keep` says;
/// their findings in the checks' order, as one after the other would find them.
fn finish_in_parallel(
    checks: &FileChecks<'_>,
    file_checks: Vec<Box<dyn FileCheck>>,
    keep: &Keep,
    timeout: Duration,
) -> Vec<Diagnostic> {
    let found: Vec<Vec<Diagnostic>> = file_checks
        .into_par_iter()
        .map(|mut check| {
            let mut regexes = RegexEngine::new(timeout);
            let mut cx = checks.context(&mut regexes).keeping(keep.clone());
            check.finish(&mut cx);
            cx.into_found().0
        })
        .collect();
    found.into_iter().flatten().collect()
}

/// What one file is checked with: the enabled checks, and the file and app they see.
pub(super) struct FileChecks<'r> {
    pub(super) text: &'r str,
    app: Option<&'r AppFacts>,
    iparam_checks: Vec<IparamCheck>,
    file_checks: Vec<fn() -> Box<dyn FileCheck>>,
    /// Whether to keep what cross-file rules need to know of each iparam.
    outline: bool,
}

type IparamCheck = fn(&Iparam<'_, '_>, &mut Context<'_>);

impl<'r> FileChecks<'r> {
    pub(super) fn new(
        text: &'r str,
        rules: &RuleSettings,
        app: Option<&'r AppFacts>,
        outline: bool,
    ) -> Self {
        // Room for every rule's: made for each file, they would otherwise grow step by step.
        let mut iparam_checks = Vec::with_capacity(REGISTRY.len());
        let mut file_checks = Vec::with_capacity(REGISTRY.len());
        for check in enabled_checks(rules) {
            match check {
                Check::Iparam(check) => iparam_checks.push(*check),
                Check::File(new) => file_checks.push(*new),
                _ => {}
            }
        }
        Self {
            text,
            app,
            iparam_checks,
            file_checks,
            outline,
        }
    }

    pub(super) fn context<'c>(&'c self, regexes: &'c mut RegexEngine) -> Context<'c> {
        Context::new(self.text, regexes).with_app(self.app)
    }

    /// A batch of consecutive iparams to check, starting empty.
    pub(super) fn batch<'c>(&'c self, regexes: &'c mut RegexEngine) -> Batch<'c> {
        Batch {
            checks: self,
            keeps_findings: true,
            cx: self.context(regexes),
            found: BatchFindings {
                file_checks: self.file_checks.iter().map(|new| new()).collect(),
                ..BatchFindings::default()
            },
        }
    }
}

/// Consecutive iparams being checked on one thread.
pub(super) struct Batch<'c> {
    checks: &'c FileChecks<'c>,
    /// Whether the findings made as each iparam is seen are kept: when they are held back, only
    /// the file checks see the iparams, for what they find at the end.
    keeps_findings: bool,
    cx: Context<'c>,
    found: BatchFindings,
}

impl Batch<'_> {
    /// The batch without the findings made as each iparam is seen (see
    /// [`FileReport::held_back`](super::FileReport::held_back)).
    pub(super) fn holding_back(mut self) -> Self {
        self.keeps_findings = false;
        self
    }

    pub(super) fn check(&mut self, member: &Member<'_>) {
        let iparam = Iparam::lower(member);
        let found = &mut self.found;
        found.iparams += 1;
        found.redactions.extend_from_slice(&iparam.secrets);
        let first = self.cx.diagnostics.len();
        if self.keeps_findings {
            for check in &self.checks.iparam_checks {
                check(&iparam, &mut self.cx);
            }
        }
        for check in &mut found.file_checks {
            check.iparam(&iparam, &mut self.cx);
        }
        if self.keeps_findings {
            // A finding can only quote the secrets of its own iparam.
            mask_secrets(
                &mut self.cx.diagnostics[first..],
                self.checks.text,
                &iparam.secrets,
            );
        } else {
            self.cx.diagnostics.truncate(first);
        }
        if self.checks.outline {
            found.declared.push(declared(&iparam));
        }
    }

    pub(super) fn finish(mut self) -> BatchFindings {
        self.found.diagnostics = std::mem::take(&mut self.cx.diagnostics);
        self.found
    }
}

/// What checking a batch of consecutive iparams found.
#[derive(Default)]
pub(super) struct BatchFindings {
    diagnostics: Vec<Diagnostic>,
    /// The file checks, having seen these iparams, not yet finished.
    file_checks: Vec<Box<dyn FileCheck>>,
    redactions: Vec<Span>,
    declared: Vec<Declared>,
    iparams: usize,
}

impl BatchFindings {
    /// Without spare room, for a batch that waits to be joined: it holds only what it found.
    pub(super) fn shrink_to_fit(&mut self) {
        self.diagnostics.shrink_to_fit();
    }

    /// The bytes the findings take.
    pub(super) fn footprint(&self) -> usize {
        self.diagnostics.iter().map(Diagnostic::footprint).sum()
    }

    /// Without the findings (only the rest is kept, to finish the file checks).
    pub(super) fn forget_findings(&mut self) {
        self.diagnostics = Vec::new();
    }

    pub(super) fn into_findings(self) -> Vec<Diagnostic> {
        self.diagnostics
    }

    pub(super) fn into_file_checks(self) -> Vec<Box<dyn FileCheck>> {
        self.file_checks
    }

    /// Appends what was found in the iparams that follow these.
    pub(super) fn append(&mut self, later: BatchFindings) {
        self.diagnostics.extend(later.diagnostics);
        self.redactions.extend(later.redactions);
        self.declared.extend(later.declared);
        self.iparams += later.iparams;
        for (check, later) in self.file_checks.iter_mut().zip(later.file_checks) {
            check.append(later);
        }
    }
}
