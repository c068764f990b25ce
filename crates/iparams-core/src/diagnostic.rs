//! Findings, their severities and the edits that fix them.

use std::borrow::Cow;
use std::fmt;

use crate::span::Span;

/// How serious a finding is. Ordered: `Info < Warning < Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `text` without the spare room `format!` leaves as it grows a string (up to as much again):
/// findings are kept until their file is written, and a large file has tens of thousands. A
/// borrowed text is left as it is.
fn fitted<T: Into<Cow<'static, str>>>(text: T) -> Cow<'static, str> {
    match text.into() {
        Cow::Owned(mut text) => {
            text.shrink_to_fit();
            Cow::Owned(text)
        }
        fixed => fixed,
    }
}

/// A secondary place a finding points at, such as the first of two duplicate keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: Cow<'static, str>,
}

/// Whether applying a fix keeps the meaning the author intended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Applicability {
    /// The intent is certain (`"true"` → `true`); applied by `--fix`.
    Safe,
    /// Changes behaviour (adds `"secure": true`); applied only with `--unsafe-fixes`.
    Unsafe,
}

/// Replace the bytes of `span` with `replacement`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub replacement: String,
}

impl Edit {
    pub fn replace(span: Span, replacement: impl Into<String>) -> Self {
        Self {
            span,
            replacement: replacement.into(),
        }
    }

    pub fn delete(span: Span) -> Self {
        Self {
            span,
            replacement: String::new(),
        }
    }

    pub fn insert(offset: usize, text: impl Into<String>) -> Self {
        Self {
            span: Span::at(offset),
            replacement: text.into(),
        }
    }
}

/// A minimal set of non-overlapping edits that resolves one finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub applicability: Applicability,
    /// What the fix does, in the imperative: "Replace `\"true\"` with `true`".
    pub title: String,
    pub edits: Vec<Edit>,
}

impl Fix {
    pub fn safe(title: impl Into<String>, edits: Vec<Edit>) -> Self {
        Self {
            applicability: Applicability::Safe,
            title: title.into(),
            edits,
        }
    }

    pub fn unsafe_(title: impl Into<String>, edits: Vec<Edit>) -> Self {
        Self {
            applicability: Applicability::Unsafe,
            title: title.into(),
            edits,
        }
    }
}

/// One finding: which rule, how serious, what is wrong, where, and what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
    /// The primary place, and the short label shown under it.
    pub span: Span,
    /// Fixed texts are borrowed, not copied: a large file has thousands of findings of one
    /// rule, most with the same label and help.
    pub label: Option<Cow<'static, str>>,
    /// Other places that explain this one.
    pub related: Vec<Label>,
    pub help: Option<Cow<'static, str>>,
    /// RFC 6901 pointer of the value the finding is about: `/<iparam key>/...`, or `""` for the
    /// whole file.
    pub pointer: String,
    /// Boxed: most findings have none, and a large file has many findings.
    pub fix: Option<Box<Fix>>,
}

impl Diagnostic {
    pub fn new(
        rule: &'static str,
        severity: Severity,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        Self {
            rule,
            severity,
            message: fitted(message.into()).into_owned(),
            span,
            label: None,
            related: Vec::new(),
            help: None,
            pointer: String::new(),
            fix: None,
        }
    }

    pub fn label(&mut self, label: impl Into<Cow<'static, str>>) -> &mut Self {
        self.label = Some(fitted(label));
        self
    }

    pub fn related(&mut self, span: Span, message: impl Into<Cow<'static, str>>) -> &mut Self {
        // Room for one at a time: most findings have one related place, and a vector grows to
        // four at its first push (160 bytes, for each of a file's duplicate keys or labels).
        self.related.reserve_exact(1);
        self.related.push(Label {
            span,
            message: fitted(message),
        });
        self
    }

    pub fn help(&mut self, help: impl Into<Cow<'static, str>>) -> &mut Self {
        self.help = Some(fitted(help));
        self
    }

    pub fn pointer(&mut self, pointer: impl Into<String>) -> &mut Self {
        self.pointer = fitted(pointer.into()).into_owned();
        self
    }

    pub fn fix(&mut self, fix: Fix) -> &mut Self {
        self.fix = Some(Box::new(fix));
        self
    }

    pub fn is_fixable(&self) -> bool {
        self.fix.is_some()
    }
}
