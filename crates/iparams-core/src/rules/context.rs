//! What a check sees and where it reports.
//!
//! Findings are recorded at the rule's default severity: the engine settles each one's level
//! for its pointer once, when the file is finished (`engine::finish`).

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
}

impl<'c> Context<'c> {
    pub(crate) fn new(text: &'c str, regexes: &'c mut RegexEngine) -> Self {
        Self {
            text,
            regexes,
            app: None,
            diagnostics: Vec::new(),
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

    /// Records a finding of `rule`; the returned diagnostic can be given a label, help,
    /// pointer and fix.
    pub fn report(
        &mut self,
        rule: &Rule,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        push(&mut self.diagnostics, rule, span, message)
    }
}

/// Where cross-file rules report: each finding goes into the file it is about.
#[derive(Debug)]
pub struct AppContext {
    pub(crate) findings: Vec<Vec<Diagnostic>>,
    /// Findings about an entry of config/ whose text no rule reads (`extra.json`, a folder,
    /// the iparams.json that is missing), by the entry's name: they have no place in a text.
    pub(crate) entries: Vec<(String, Diagnostic)>,
}

impl AppContext {
    /// A context for an app of `files` files.
    pub(crate) fn new(files: usize) -> Self {
        Self {
            findings: vec![Vec::new(); files],
            entries: Vec::new(),
        }
    }

    /// Records a finding of `rule` about the entry `name` of config/, as a whole.
    pub fn report_entry(
        &mut self,
        name: &str,
        rule: &Rule,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.entries.push((
            name.to_owned(),
            Diagnostic::new(rule.name, rule.severity, Span::at(0), message),
        ));
        &mut self.entries.last_mut().expect("just pushed").1
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
