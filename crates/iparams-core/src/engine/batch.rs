//! What one iparams.json is checked with, and runs of its consecutive iparams checked: the
//! checks of each iparam, the file checks that see them all, and what a run found.

use std::time::Duration;

use rayon::prelude::*;

use super::enabled_checks;
use super::finish::mask_secrets;
use crate::app::{AppFacts, Declared, declared};
use crate::diagnostic::Diagnostic;
use crate::ecma_regex::RegexEngine;
use crate::model::Iparam;
use crate::rules::{Check, Context, FileCheck, Keep, REGISTRY, RuleSettings};
use crate::span::Span;
use crate::syntax::{Member, parse_document};

/// The findings of `file_checks` at the end of a large file, the checks finished on every
/// thread (each goes through what it kept of every iparam: the duplicate keys, the duplicate
/// labels) and freed as each is done, each with a context of its own that keeps what `keep`
/// says; their findings in the checks' order, as one after the other would find them.
pub(super) fn finish_in_parallel(
    checks: &FileChecks<'_>,
    file_checks: Vec<Box<dyn FileCheck>>,
    keep: &Keep,
    timeout: Duration,
) -> Vec<Diagnostic> {
    let found: Vec<Vec<Diagnostic>> = file_checks
        .into_par_iter()
        .map(|mut check| checks.finish_one(check.as_mut(), keep, timeout).0)
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

    /// What `check` finds at the end of the file, with a context of its own that keeps what
    /// `keep` says: the findings kept, and what was measured of the others.
    pub(super) fn finish_one(
        &self,
        check: &mut dyn FileCheck,
        keep: &Keep,
        timeout: Duration,
    ) -> (Vec<Diagnostic>, Vec<(usize, usize)>) {
        let mut regexes = RegexEngine::new(timeout);
        let mut cx = self.context(&mut regexes).keeping(keep.clone());
        check.finish(&mut cx);
        cx.into_found()
    }

    /// What checking the run of consecutive iparams `members` finds; with `keeps_findings`
    /// false, only what the file checks kept of them (when the findings are held back).
    pub(super) fn check_run(
        &self,
        members: &[Member<'_>],
        regexes: &mut RegexEngine,
        keeps_findings: bool,
    ) -> BatchFindings {
        let mut batch = self.batch(regexes);
        batch.keeps_findings = keeps_findings;
        for member in members {
            batch.check(member);
        }
        batch.finish()
    }

    /// The file checks having seen every iparam again, not finished: the file parsed again,
    /// and nothing else checked (when the findings were held back after the checks finished
    /// and were freed).
    pub(super) fn file_checks_again(&self, timeout: Duration) -> Vec<Box<dyn FileCheck>> {
        let mut regexes = RegexEngine::new(timeout);
        let mut batch = self.batch(&mut regexes);
        batch.keeps_findings = false;
        parse_document(self.text, |member| batch.check(&member));
        batch.finish().file_checks
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

    /// How many findings the iparams checked so far made.
    pub(super) fn findings(&self) -> usize {
        self.cx.diagnostics.len()
    }

    /// The bytes the findings from the `from`th on take.
    pub(super) fn footprint_from(&self, from: usize) -> usize {
        self.cx.diagnostics[from..]
            .iter()
            .map(Diagnostic::footprint)
            .sum()
    }

    /// Whether the batch holds its findings back (see [`Batch::hold_back`]).
    pub(super) fn holds_back(&self) -> bool {
        !self.keeps_findings
    }

    /// Drops the findings made so far, and makes no more of each iparam's own: only the file
    /// checks see the iparams that follow.
    pub(super) fn hold_back(&mut self) {
        self.keeps_findings = false;
        self.cx.diagnostics = Vec::new();
    }

    pub(super) fn finish(mut self) -> BatchFindings {
        self.found.diagnostics = std::mem::take(&mut self.cx.diagnostics);
        self.found
    }
}

/// What checking a batch of consecutive iparams found.
#[derive(Default)]
pub(super) struct BatchFindings {
    pub(super) diagnostics: Vec<Diagnostic>,
    /// The file checks, having seen these iparams, not yet finished.
    pub(super) file_checks: Vec<Box<dyn FileCheck>>,
    pub(super) redactions: Vec<Span>,
    pub(super) declared: Vec<Declared>,
    pub(super) iparams: usize,
}

impl BatchFindings {
    /// Without the findings (only the rest is kept, to finish the file checks).
    pub(super) fn forget_findings(&mut self) {
        self.diagnostics = Vec::new();
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
