//! The driver: decode, parse, lower and check one file in a single pass.

use std::borrow::Cow;
use std::time::Duration;

use crate::app::{AppFacts, Declared, Handler};
use crate::diagnostic::{Diagnostic, Severity};
use crate::ecma_regex::{DEFAULT_MATCH_TIMEOUT, RegexEngine};
use crate::model::{Attribute, Iparam};
use crate::rules::{
    self, Check, Context, FileCheck, FileKind, Level, REGISTRY, Rule, RuleSettings,
};
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
    /// How many iparams the file defines (for a values file: how many values it gives).
    pub iparams: usize,
    /// The file is UTF-8 and JSON without a single syntax problem, whatever rules are enabled:
    /// only such a file may be rewritten by fixes.
    pub well_formed: bool,
    /// The parser read the file to its end (recovering from any mistakes on the way), with an
    /// object at the top: every iparam it defines was seen.
    pub read_to_end: bool,
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
            let hidden = secret_part(text, *span);
            bytes[hidden.start..hidden.end].fill(b'*');
        }
        Cow::Owned(String::from_utf8(bytes).expect("whole characters were replaced by ASCII"))
    }

    /// Whether `content`, made from the file `text` (a fix's replacement copies bits of it),
    /// holds one of the file's secrets.
    pub fn reveals_secret(&self, text: &str, content: &str) -> bool {
        secret_texts(text, &self.redactions)
            .iter()
            .any(|secret| content.contains(secret))
    }
}

/// The text of each secret at `spans` worth looking for in other text: shorter ones would
/// match by chance.
fn secret_texts<'t>(text: &'t str, spans: &[Span]) -> Vec<&'t str> {
    spans
        .iter()
        .map(|span| secret_part(text, *span))
        .map(|part| &text[part.start..part.end])
        .filter(|s| s.len() >= 4)
        .collect()
}

/// The part of a secret value that must not be shown: a string's text inside its quotes, or
/// the whole of any other value (a number, or an array of secrets).
fn secret_part(text: &str, span: Span) -> Span {
    if text[span.start..].starts_with('"') {
        span.inner()
    } else {
        span
    }
}

/// Lints files; keeps compiled regexes from one file to the next.
#[derive(Debug)]
pub struct Linter {
    pub(crate) options: LintOptions,
    pub(crate) regexes: RegexEngine,
}

impl Default for Linter {
    fn default() -> Self {
        Self::new(LintOptions::default())
    }
}

impl Linter {
    pub fn new(options: LintOptions) -> Self {
        Self {
            regexes: RegexEngine::new(options.regex_timeout),
            options,
        }
    }

    /// Lints the bytes of one iparams.json with the linter's options.
    pub fn lint_bytes(&mut self, bytes: &[u8]) -> FileReport {
        self.lint(&SourceText::decode(bytes))
    }

    /// Lints one decoded iparams.json with the linter's options.
    pub fn lint(&mut self, source: &SourceText<'_>) -> FileReport {
        self.with_own_rules(|linter, rules| linter.lint_with(source, rules))
    }

    /// Runs `run` with the linter's own rule settings.
    pub(crate) fn with_own_rules<T>(
        &mut self,
        run: impl FnOnce(&mut Self, &RuleSettings) -> T,
    ) -> T {
        let rules = std::mem::take(&mut self.options.rules);
        let result = run(self, &rules);
        self.options.rules = rules;
        result
    }

    /// Lints one decoded iparams.json with `rules` in place of the linter's own.
    pub fn lint_with(&mut self, source: &SourceText<'_>, rules: &RuleSettings) -> FileReport {
        self.run(source, rules, None, None)
    }

    /// Lints the iparams.json of an app, whose facts the app-aware rules use; also returns what
    /// cross-file rules need to know of each iparam.
    pub fn lint_in_app(
        &mut self,
        source: &SourceText<'_>,
        rules: &RuleSettings,
        app: &AppFacts,
    ) -> (FileReport, Vec<Declared>) {
        let mut declared = Vec::new();
        let report = self.run(source, rules, Some(app), Some(&mut declared));
        (report, declared)
    }

    fn run(
        &mut self,
        source: &SourceText<'_>,
        rules: &RuleSettings,
        app: Option<&AppFacts>,
        mut outline: Option<&mut Vec<Declared>>,
    ) -> FileReport {
        let enabled: Vec<&Rule> = REGISTRY
            .iter()
            .copied()
            .filter(|rule| rules.is_enabled(rule))
            .collect();
        let text = source.text();
        let mut cx = Context::new(text, rules, &mut self.regexes).with_app(app);
        let mut report = FileReport::default();
        if cx.is_enabled(&rules::invalid_encoding::RULE) {
            rules::invalid_encoding::report(&source.problems, &mut cx);
        }
        if !source.is_unreadable() {
            let iparam_checks: Vec<_> = enabled
                .iter()
                .filter_map(|rule| match rule.check {
                    Check::Iparam(check) => Some(check),
                    _ => None,
                })
                .collect();
            let mut file_checks: Vec<Box<dyn FileCheck>> = enabled
                .iter()
                .filter_map(|rule| match rule.check {
                    Check::File(new) => Some(new()),
                    _ => None,
                })
                .collect();
            let document = parse_document(text, |member| {
                let iparam = Iparam::lower(&member);
                report.iparams += 1;
                report.redactions.extend_from_slice(&iparam.secrets);
                let first = cx.diagnostics.len();
                for check in &iparam_checks {
                    check(&iparam, &mut cx);
                }
                for check in &mut file_checks {
                    check.iparam(&iparam, &mut cx);
                }
                // A finding can only quote the secrets of its own iparam.
                mask_secrets(&mut cx.diagnostics[first..], text, &iparam.secrets);
                if let Some(outline) = outline.as_deref_mut() {
                    outline.push(declared(&iparam));
                }
            });
            report.well_formed = document.errors.is_empty() && source.problems.is_empty();
            report.read_to_end = !document.is_incomplete()
                && matches!(document.root, crate::syntax::RootShape::Object(_));
            if cx.is_enabled(&rules::invalid_json::RULE) {
                rules::invalid_json::report(&document.errors, FileKind::Definitions, &mut cx);
            }
            if cx.is_enabled(&rules::root_not_object::RULE) {
                rules::root_not_object::report(document.root, FileKind::Definitions, &mut cx);
            }
            for mut check in file_checks {
                check.finish(&mut cx);
            }
        }
        report.diagnostics = settle(cx.diagnostics, rules);
        report
    }
}

/// What cross-file rules need to know of an iparam.
fn declared(iparam: &Iparam<'_, '_>) -> Declared {
    let mut handlers = Vec::new();
    let entries = iparam
        .get(Attribute::Events)
        .and_then(|m| m.value.as_array())
        .unwrap_or_default();
    for (index, entry) in entries.iter().enumerate() {
        for pair in entry.as_object().unwrap_or_default() {
            if let Some(name) = pair.value.as_str() {
                handlers.push(Handler {
                    event: pair.key.text.to_string(),
                    name: name.to_owned(),
                    span: pair.value.span,
                    pointer: iparam.pointer_to(&[
                        Attribute::Events.name(),
                        &index.to_string(),
                        &pair.key.text,
                    ]),
                });
            }
        }
    }
    Declared {
        key: iparam.key.text.to_string(),
        key_span: iparam.key.span,
        pointer: iparam.pointer.clone(),
        ty: iparam.known_type(),
        secure: iparam.is_secure(),
        handlers,
    }
}

/// The findings as reported: at the levels configured for their pointers, in file order.
pub(crate) fn settle(mut diagnostics: Vec<Diagnostic>, rules: &RuleSettings) -> Vec<Diagnostic> {
    apply_levels(&mut diagnostics, rules);
    diagnostics.sort_by(|a, b| (a.span, a.rule).cmp(&(b.span, b.rule)));
    diagnostics
}

/// Settles each finding's severity for its pointer, dropping those that are off there.
pub(crate) fn apply_levels(diagnostics: &mut Vec<Diagnostic>, rules: &RuleSettings) {
    diagnostics.retain_mut(|diagnostic| {
        let rule = rules::find(diagnostic.rule).expect("findings come from registered rules");
        match rules.level_at(rule, &diagnostic.pointer) {
            Level::Off => false,
            Level::On(severity) => {
                diagnostic.severity = severity;
                true
            }
        }
    });
}

/// The last line of defence: no secret text survives in any message a rule wrote.
pub(crate) fn mask_secrets(diagnostics: &mut [Diagnostic], text: &str, secrets: &[Span]) {
    if diagnostics.is_empty() {
        return;
    }
    let secrets = secret_texts(text, secrets);
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
