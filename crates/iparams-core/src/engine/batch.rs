//! What one iparams.json is checked with, and runs of its consecutive iparams checked: the
//! checks of each iparam, the file checks that see them all, and what a run found.

use std::time::Duration;

use rayon::prelude::*;

use super::checks::enabled_checks;
use super::finish::mask_secrets;
use crate::app::{AppFacts, Declared};
use crate::diagnostic::Diagnostic;
use crate::ecma_regex::RegexEngine;
use crate::model::Iparam;
use crate::rules::{Check, Context, FileCheck, REGISTRY, RuleSettings};
use crate::span::Span;
use crate::syntax::Member;

/// The findings of `file_checks` at the end of a large file, the checks finished on every
/// thread (each goes through what it kept of every iparam: the duplicate keys, the duplicate
/// labels) and freed as each is done, each with a context of its own; their findings in the
/// checks' order, as one after the other would find them.
pub(super) fn finish_in_parallel(
    checks: &FileChecks<'_>,
    file_checks: Vec<Box<dyn FileCheck>>,
    timeout: Duration,
) -> Vec<Diagnostic> {
    let found: Vec<Vec<Diagnostic>> = file_checks
        .into_par_iter()
        .map(|mut check| checks.finish_one(check.as_mut(), timeout))
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

    /// What `check` finds at the end of the file, with a context of its own.
    fn finish_one(&self, check: &mut dyn FileCheck, timeout: Duration) -> Vec<Diagnostic> {
        let mut regexes = RegexEngine::new(timeout);
        let mut cx = self.context(&mut regexes);
        check.finish(&mut cx);
        cx.diagnostics
    }

    /// A batch of consecutive iparams to check, starting empty.
    pub(super) fn batch<'c>(&'c self, regexes: &'c mut RegexEngine) -> Batch<'c> {
        Batch {
            checks: self,
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
        for check in &self.checks.iparam_checks {
            check(&iparam, &mut self.cx);
        }
        for check in &mut found.file_checks {
            check.iparam(&iparam, &mut self.cx);
        }
        // A finding can only quote the secrets of its own iparam.
        mask_secrets(
            &mut self.cx.diagnostics[first..],
            self.checks.text,
            &iparam.secrets,
        );
        if self.checks.outline {
            found.declared.push(Declared::of(&iparam));
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
    pub(super) diagnostics: Vec<Diagnostic>,
    /// The file checks, having seen these iparams, not yet finished.
    pub(super) file_checks: Vec<Box<dyn FileCheck>>,
    pub(super) redactions: Vec<Span>,
    pub(super) declared: Vec<Declared>,
    pub(super) iparams: usize,
}

impl BatchFindings {
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
