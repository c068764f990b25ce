//! What a check sees and where it reports.
//!
//! Findings are recorded at the rule's default severity: the engine settles each one's level
//! for its pointer once, when the file is finished (`engine::finish`).

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::app::{AppFacts, FileId};
use crate::diagnostic::Diagnostic;
use crate::ecma_regex::RegexEngine;
use crate::span::Span;

use super::Rule;

/// What a check of one file can see, and where it reports.
#[derive(Debug)]
pub struct Context<'c> {
    text: &'c str,
    regexes: &'c mut RegexEngine,
    app: Option<&'c AppFacts>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    keep: Keep,
    /// Where a finding that is not kept is made, and forgotten at the next.
    scratch: Option<Diagnostic>,
    /// With [`Keep::Measure`]: where each finding starts, and the bytes it takes.
    measured: Vec<(usize, usize)>,
    /// With [`Keep::UpTo`]: how many of the findings kept are charged to the budget.
    charged: usize,
}

/// Which findings a context keeps: a file whose findings are too many to hold finds those of
/// the file as a whole again, a window of the text at a time (`engine::stream`).
#[derive(Debug, Clone, Default)]
pub(crate) enum Keep {
    #[default]
    All,
    /// Those that start within the range.
    Within(Range<usize>),
    /// None: where each starts, and its footprint, are noted instead.
    Measure,
    /// As long as the budget, which other contexts may share, is not spent.
    UpTo(Arc<Budget>),
}

/// Bytes of findings that contexts may still keep, and whether one went past them.
#[derive(Debug)]
pub(crate) struct Budget {
    left: AtomicUsize,
    spent: AtomicBool,
}

impl Budget {
    pub(crate) fn new(bytes: usize) -> Self {
        Self {
            left: AtomicUsize::new(bytes),
            spent: AtomicBool::new(false),
        }
    }

    pub(crate) fn is_spent(&self) -> bool {
        self.spent.load(Ordering::Relaxed)
    }

    fn take(&self, bytes: usize) {
        let taken = self
            .left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                left.checked_sub(bytes)
            });
        if taken.is_err() {
            self.spent.store(true, Ordering::Relaxed);
        }
    }
}

impl<'c> Context<'c> {
    pub(crate) fn new(text: &'c str, regexes: &'c mut RegexEngine) -> Self {
        Self {
            text,
            regexes,
            app: None,
            diagnostics: Vec::new(),
            keep: Keep::All,
            scratch: None,
            measured: Vec::new(),
            charged: 0,
        }
    }

    pub(crate) fn keeping(mut self, keep: Keep) -> Self {
        self.keep = keep;
        self
    }

    /// The findings kept, and with [`Keep::Measure`] what was noted of the others.
    pub(crate) fn into_found(mut self) -> (Vec<Diagnostic>, Vec<(usize, usize)>) {
        self.note_scratch();
        self.charge();
        (self.diagnostics, self.measured)
    }

    /// Charges the findings kept since the last charge to the budget, when there is one (once
    /// made whole: a finding is given its texts after it is reported).
    fn charge(&mut self) {
        if let Keep::UpTo(budget) = &self.keep {
            let bytes = self.diagnostics[self.charged..]
                .iter()
                .map(Diagnostic::footprint)
                .sum();
            budget.take(bytes);
            self.charged = self.diagnostics.len();
        }
    }

    /// Notes the finding last made in the scratch, when measuring.
    fn note_scratch(&mut self) {
        if let (Keep::Measure, Some(scratch)) = (&self.keep, &self.scratch) {
            self.measured
                .push((scratch.span.start, scratch.footprint()));
        }
    }

    pub(crate) fn with_app(mut self, app: Option<&'c AppFacts>) -> Self {
        self.app = app;
        self
    }

    /// What is known of the app around the file; `None` for a file checked on its own.
    pub fn app(&self) -> Option<&'c AppFacts> {
        self.app
    }

    /// The whole text of the file.
    pub fn text(&self) -> &'c str {
        self.text
    }

    /// The source text of `span`.
    pub fn source(&self, span: Span) -> &'c str {
        &self.text[span.start..span.end]
    }

    pub fn regexes(&mut self) -> &mut RegexEngine {
        self.regexes
    }

    /// Whether a finding that starts where `span` does is wanted (kept, or measured): a check
    /// that makes many findings at the end of a file skips making those that are not (a file
    /// with too many findings to hold makes them again a window of its text at a time).
    pub fn wants(&self, span: Span) -> bool {
        match &self.keep {
            Keep::Within(range) => range.contains(&span.start),
            Keep::All | Keep::Measure | Keep::UpTo(_) => true,
        }
    }

    /// Records a finding of `rule`; the returned diagnostic can be given a label, help,
    /// pointer and fix.
    pub fn report(
        &mut self,
        rule: &Rule,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.charge();
        let kept = self.wants(span)
            && match &self.keep {
                Keep::All | Keep::Within(_) => true,
                Keep::Measure => false,
                Keep::UpTo(budget) => !budget.is_spent(),
            };
        if kept {
            return push(&mut self.diagnostics, rule, span, message);
        }
        self.note_scratch();
        self.scratch
            .insert(Diagnostic::new(rule.name, rule.severity, span, message))
    }
}

/// Where cross-file rules report: each finding goes into the file it is about.
#[derive(Debug)]
pub struct AppContext {
    pub(crate) findings: Vec<Vec<Diagnostic>>,
}

impl AppContext {
    /// A context for an app of `files` files.
    pub(crate) fn new(files: usize) -> Self {
        Self {
            findings: vec![Vec::new(); files],
        }
    }

    /// Records a finding of `rule` in file `file`.
    pub fn report(
        &mut self,
        file: FileId,
        rule: &Rule,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        push(&mut self.findings[file], rule, span, message)
    }
}

fn push<'d>(
    diagnostics: &'d mut Vec<Diagnostic>,
    rule: &Rule,
    span: Span,
    message: impl Into<String>,
) -> &'d mut Diagnostic {
    diagnostics.push(Diagnostic::new(rule.name, rule.severity, span, message));
    diagnostics
        .last_mut()
        .expect("a diagnostic was just pushed")
}
