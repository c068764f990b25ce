//! The driver: decode, parse, lower and check one file in a single pass.

use std::borrow::Cow;
use std::time::Duration;

use crate::diagnostic::{Diagnostic, Severity};
use crate::ecma_regex::{DEFAULT_MATCH_TIMEOUT, RegexEngine};
use crate::model::Iparam;
use crate::rules::{self, Check, Context, FileCheck, REGISTRY, Rule, RuleSettings};
use crate::secrets::MASKED;
use crate::source::SourceText;
use crate::span::Span;
use crate::syntax::parse_document;

/// How to lint.
#[derive(Clone, Debug)]
pub struct LintOptions {
    pub rules: RuleSettings,
    /// How long one user regex may run against one value.
    pub regex_timeout: Duration,
}

impl Default for LintOptions {
    fn default() -> Self {
        Self {
            rules: RuleSettings::default(),
            regex_timeout: DEFAULT_MATCH_TIMEOUT,
        }
    }
}

/// What linting one file found.
#[derive(Debug, Clone, Default)]
pub struct FileReport {
    /// Sorted by position.
    pub diagnostics: Vec<Diagnostic>,
    /// Spans whose text is a secret: any output that shows source must mask them.
    pub redactions: Vec<Span>,
    /// How many iparams the file defines.
    pub iparams: usize,
}

impl FileReport {
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }

    /// `text` with every secret replaced by `*`, byte for byte, so spans stay valid.
    pub fn redact<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if self.redactions.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut bytes = text.as_bytes().to_vec();
        for span in &self.redactions {
            let inner = span.inner();
            bytes[inner.start..inner.end].fill(b'*');
        }
        Cow::Owned(String::from_utf8(bytes).expect("whole characters were replaced by ASCII"))
    }
}

/// Lints files; keeps compiled regexes between them.
#[derive(Debug)]
pub struct Linter {
    settings: RuleSettings,
    regexes: RegexEngine,
    iparam_checks: Vec<fn(&Iparam<'_, '_>, &mut Context<'_>)>,
    file_checks: Vec<fn() -> Box<dyn FileCheck>>,
}

impl Default for Linter {
    fn default() -> Self {
        Self::new(LintOptions::default())
    }
}

impl Linter {
    pub fn new(options: LintOptions) -> Self {
        let enabled = || {
            REGISTRY
                .iter()
                .filter(|rule| options.rules.is_enabled(rule))
        };
        let iparam_checks = enabled()
            .filter_map(|rule| match rule.check {
                Check::Iparam(check) => Some(check),
                _ => None,
            })
            .collect();
        let file_checks = enabled()
            .filter_map(|rule| match rule.check {
                Check::File(check) => Some(check),
                _ => None,
            })
            .collect();
        Self {
            regexes: RegexEngine::new(options.regex_timeout),
            settings: options.rules,
            iparam_checks,
            file_checks,
        }
    }

    /// Lints the bytes of one iparams.json.
    pub fn lint_bytes(&mut self, bytes: &[u8]) -> FileReport {
        self.lint(&SourceText::decode(bytes))
    }

    /// Lints one decoded iparams.json.
    pub fn lint(&mut self, source: &SourceText<'_>) -> FileReport {
        let text = source.text();
        let mut cx = Context::new(text, &self.settings, &mut self.regexes);
        let mut report = FileReport::default();
        if cx.is_enabled(&rules::invalid_encoding::RULE) {
            rules::invalid_encoding::report(&source.problems, &mut cx);
        }
        if !source.is_unreadable() {
            let mut file_checks: Vec<Box<dyn FileCheck>> =
                self.file_checks.iter().map(|new| new()).collect();
            let document = parse_document(text, |member| {
                let iparam = Iparam::lower(&member);
                report.iparams += 1;
                report.redactions.extend_from_slice(&iparam.secrets);
                let first = cx.diagnostics.len();
                for check in &self.iparam_checks {
                    check(&iparam, &mut cx);
                }
                for check in &mut file_checks {
                    check.iparam(&iparam, &mut cx);
                }
                // A finding can only quote the secrets of its own iparam.
                mask_secrets(&mut cx.diagnostics[first..], text, &iparam.secrets);
            });
            if cx.is_enabled(&rules::invalid_json::RULE) {
                rules::invalid_json::report(&document.errors, &mut cx);
            }
            if cx.is_enabled(&rules::root_not_object::RULE) {
                rules::root_not_object::report(document.root, &mut cx);
            }
            for mut check in file_checks {
                check.finish(&mut cx);
            }
        }
        let mut diagnostics = cx.diagnostics;
        diagnostics.sort_by(|a, b| (a.span, a.rule).cmp(&(b.span, b.rule)));
        report.diagnostics = diagnostics;
        report
    }
}

/// The last line of defence: no secret text survives in any message a rule wrote.
fn mask_secrets(diagnostics: &mut [Diagnostic], text: &str, secrets: &[Span]) {
    let secrets: Vec<&str> = secrets
        .iter()
        .map(|span| &text[span.inner().start..span.inner().end])
        .filter(|s| s.len() >= 4)
        .collect();
    if secrets.is_empty() {
        return;
    }
    let mask = |message: &mut String| {
        for secret in &secrets {
            if message.contains(secret) {
                *message = message
                    .replace(&format!("\"{secret}\""), MASKED)
                    .replace(secret, MASKED);
            }
        }
    };
    for diagnostic in diagnostics {
        mask(&mut diagnostic.message);
        diagnostic.label.iter_mut().for_each(mask);
        diagnostic.help.iter_mut().for_each(mask);
        diagnostic
            .related
            .iter_mut()
            .for_each(|label| mask(&mut label.message));
        if let Some(fix) = &mut diagnostic.fix {
            mask(&mut fix.title);
        }
    }
}

/// Lints `bytes` with the default options.
pub fn lint(bytes: &[u8]) -> FileReport {
    Linter::default().lint_bytes(bytes)
}

/// The rules that would run with `settings`, for callers that list them.
pub fn enabled_rules(settings: &RuleSettings) -> impl Iterator<Item = &'static Rule> + '_ {
    REGISTRY
        .iter()
        .copied()
        .filter(|rule| settings.is_enabled(rule))
}
