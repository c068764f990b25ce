//! The driver: decode, parse, lower and check one file in a single pass.

use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use crate::app::{AppFacts, Declared, Handler};
use crate::diagnostic::{Diagnostic, Severity};
use crate::ecma_regex::{DEFAULT_MATCH_TIMEOUT, RegexEngine};
use crate::in_order::InOrder;
use crate::model::{Attribute, Iparam};
use crate::rules::{self, Check, Context, FileCheck, FileKind, Level, REGISTRY, RuleSettings};
use crate::secrets::MASKED;
use crate::source::SourceText;
use crate::span::Span;
use crate::syntax::{Member, parse_document};

/// How to lint.
#[derive(Clone, Debug)]
pub struct LintOptions {
    pub rules: RuleSettings,
    /// How long one user regex may run against one value.
    pub regex_timeout: Duration,
    /// Files of at least this many bytes are checked on several threads.
    pub parallel_from: usize,
}

impl Default for LintOptions {
    fn default() -> Self {
        Self {
            rules: RuleSettings::default(),
            regex_timeout: DEFAULT_MATCH_TIMEOUT,
            parallel_from: PARALLEL_FROM,
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
        redact(text, &self.redactions)
    }

    /// The text of each of the file's secrets (in `text`, the file) worth looking for in text
    /// made from it, such as a fix's replacement: shorter ones would match by chance.
    pub fn secret_texts<'t>(&self, text: &'t str) -> Vec<&'t str> {
        secret_texts(text, &self.redactions)
    }
}

/// `text` with the secret at each of `spans` replaced by `*`, byte for byte, so spans stay
/// valid.
pub fn redact<'t>(text: &'t str, spans: &[Span]) -> Cow<'t, str> {
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut bytes = text.as_bytes().to_vec();
    for span in spans {
        let hidden = secret_part(text, *span);
        bytes[hidden.start..hidden.end].fill(b'*');
    }
    // Whole characters were replaced by ASCII; a lossy decoding can only be a bug, and even
    // then shows no secret.
    match String::from_utf8(bytes) {
        Ok(text) => Cow::Owned(text),
        Err(error) => Cow::Owned(String::from_utf8_lossy(error.as_bytes()).into_owned()),
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
    match text.as_bytes()[span.start..span.end] {
        // Only a string closed by its quote loses one at the end: an unterminated one may end
        // inside a character.
        [b'"', .., b'"'] => span.inner(),
        _ => span,
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
        outline: Option<&mut Vec<Declared>>,
    ) -> FileReport {
        let text = source.text();
        let plan = Plan::new(text, rules, app, outline.is_some());
        let mut report = FileReport::default();
        let mut lane = Outcome::default();
        let mut document = None;
        if !source.is_unreadable() {
            let (parsed, checked) = if text.len() >= self.options.parallel_from {
                self.check_in_parallel(&plan)
            } else {
                let mut lane = plan.lane(&mut self.regexes);
                let parsed = parse_document(text, |member| lane.check(&member));
                (parsed, lane.finish())
            };
            document = Some(parsed);
            lane = checked;
        }
        let mut cx = plan.context(&mut self.regexes);
        cx.diagnostics = lane.diagnostics;
        if cx.is_enabled(&rules::invalid_encoding::RULE) {
            rules::invalid_encoding::report(&source.problems, &mut cx);
        }
        if let Some(document) = document {
            report.well_formed = document.errors.is_empty() && source.problems.is_empty();
            report.read_to_end = !document.is_incomplete()
                && matches!(document.root, crate::syntax::RootShape::Object(_));
            if cx.is_enabled(&rules::invalid_json::RULE) {
                rules::invalid_json::report(&document.errors, FileKind::Definitions, &mut cx);
            }
            if cx.is_enabled(&rules::root_not_object::RULE) {
                rules::root_not_object::report(document.root, FileKind::Definitions, &mut cx);
            }
            for mut check in lane.file_checks {
                check.finish(&mut cx);
            }
        }
        report.iparams = lane.iparams;
        report.redactions = lane.redactions;
        if let Some(outline) = outline {
            *outline = lane.declared;
        }
        report.diagnostics = settle(cx.diagnostics, rules);
        report
    }

    /// Parses on this thread and checks runs of [`BATCH`] iparams as tasks on the thread pool,
    /// each with a regex engine of its own; each run's outcome is joined to those before it as
    /// soon as they are all done, so that finished runs do not wait in memory.
    fn check_in_parallel<'r>(&mut self, plan: &Plan<'r>) -> (crate::syntax::Document, Outcome) {
        let timeout = self.options.regex_timeout;
        let engines = Mutex::new(vec![std::mem::replace(
            &mut self.regexes,
            RegexEngine::new(timeout),
        )]);
        let joined: Mutex<(InOrder<Outcome>, Option<Outcome>)> = Mutex::default();
        // Runs waiting or being checked: past this, the parser checks a run itself, so that
        // parsed iparams never pile up in memory faster than they are checked.
        let in_flight = AtomicUsize::new(0);
        let most_in_flight = 2 * rayon::current_num_threads();
        let check_batch = |batch: Vec<Member<'r>>, index: usize| {
            let mut engine = lock(&engines)
                .pop()
                .unwrap_or_else(|| RegexEngine::new(timeout));
            let mut lane = plan.lane(&mut engine);
            for member in &batch {
                lane.check(member);
            }
            let outcome = lane.finish();
            drop(batch);
            lock(&engines).push(engine);
            let (in_order, joined) = &mut *lock(&joined);
            in_order.arrive(index, outcome, |outcome| match joined {
                Some(joined) => joined.absorb(outcome),
                None => *joined = Some(outcome),
            });
        };
        let document = rayon::in_place_scope(|scope| {
            let mut batches = 0;
            let mut dispatch = |batch: Vec<Member<'r>>| {
                let index = batches;
                batches += 1;
                if in_flight.load(Ordering::Acquire) < most_in_flight {
                    in_flight.fetch_add(1, Ordering::AcqRel);
                    let (check_batch, in_flight) = (&check_batch, &in_flight);
                    scope.spawn(move |_| {
                        check_batch(batch, index);
                        in_flight.fetch_sub(1, Ordering::AcqRel);
                    });
                } else {
                    check_batch(batch, index);
                }
            };
            let mut batch = Vec::with_capacity(BATCH);
            let document = parse_document(plan.text, |member| {
                batch.push(member);
                if batch.len() == BATCH {
                    dispatch(std::mem::replace(&mut batch, Vec::with_capacity(BATCH)));
                }
            });
            if !batch.is_empty() {
                dispatch(batch);
            }
            document
        });
        self.regexes = lock(&engines).swap_remove(0);
        let joined = joined
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .1;
        let joined = joined.unwrap_or_else(|| plan.lane(&mut self.regexes).finish());
        (document, joined)
    }
}

/// The data behind `mutex`, even if a thread panicked holding it (the panic is raised anyway).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How many consecutive iparams a task checks when a file is checked in parallel.
const BATCH: usize = 256;

/// Files from this size on are checked on several threads.
const PARALLEL_FROM: usize = 1 << 20;

/// What a run checks with: the enabled checks, and where.
struct Plan<'r> {
    text: &'r str,
    rules: &'r RuleSettings,
    app: Option<&'r AppFacts>,
    iparam_checks: Vec<IparamCheck>,
    file_checks: Vec<fn() -> Box<dyn FileCheck>>,
    outline: bool,
}

type IparamCheck = fn(&Iparam<'_, '_>, &mut Context<'_>);

impl<'r> Plan<'r> {
    fn new(
        text: &'r str,
        rules: &'r RuleSettings,
        app: Option<&'r AppFacts>,
        outline: bool,
    ) -> Self {
        let enabled = || {
            REGISTRY
                .iter()
                .copied()
                .filter(|rule| rules.is_enabled(rule))
        };
        Self {
            text,
            rules,
            app,
            iparam_checks: enabled()
                .filter_map(|rule| match rule.check {
                    Check::Iparam(check) => Some(check),
                    _ => None,
                })
                .collect(),
            file_checks: enabled()
                .filter_map(|rule| match rule.check {
                    Check::File(new) => Some(new),
                    _ => None,
                })
                .collect(),
            outline,
        }
    }

    fn context<'c>(&'c self, regexes: &'c mut RegexEngine) -> Context<'c> {
        Context::new(self.text, self.rules, regexes).with_app(self.app)
    }

    fn lane<'c>(&'c self, regexes: &'c mut RegexEngine) -> Lane<'c> {
        Lane {
            plan: self,
            cx: self.context(regexes),
            outcome: Outcome {
                file_checks: self.file_checks.iter().map(|new| new()).collect(),
                ..Outcome::default()
            },
        }
    }
}

/// Consecutive iparams being checked on one thread.
struct Lane<'c> {
    plan: &'c Plan<'c>,
    cx: Context<'c>,
    outcome: Outcome,
}

impl Lane<'_> {
    fn check(&mut self, member: &Member<'_>) {
        let iparam = Iparam::lower(member);
        let outcome = &mut self.outcome;
        outcome.iparams += 1;
        outcome.redactions.extend_from_slice(&iparam.secrets);
        let first = self.cx.diagnostics.len();
        for check in &self.plan.iparam_checks {
            check(&iparam, &mut self.cx);
        }
        for check in &mut outcome.file_checks {
            check.iparam(&iparam, &mut self.cx);
        }
        // A finding can only quote the secrets of its own iparam.
        mask_secrets(
            &mut self.cx.diagnostics[first..],
            self.plan.text,
            &iparam.secrets,
        );
        if self.plan.outline {
            outcome.declared.push(declared(&iparam));
        }
    }

    fn finish(mut self) -> Outcome {
        self.outcome.diagnostics = std::mem::take(&mut self.cx.diagnostics);
        // Runs wait to be joined: without their spare room, they hold only what they found.
        self.outcome.diagnostics.shrink_to_fit();
        self.outcome
    }
}

/// What checking consecutive iparams found.
#[derive(Default)]
struct Outcome {
    diagnostics: Vec<Diagnostic>,
    /// The file checks, having seen these iparams, not yet finished.
    file_checks: Vec<Box<dyn FileCheck>>,
    redactions: Vec<Span>,
    declared: Vec<Declared>,
    iparams: usize,
}

impl Outcome {
    /// Takes in the outcome of the iparams that follow these.
    fn absorb(&mut self, later: Outcome) {
        self.diagnostics.extend(later.diagnostics);
        self.redactions.extend(later.redactions);
        self.declared.extend(later.declared);
        self.iparams += later.iparams;
        for (check, later) in self.file_checks.iter_mut().zip(later.file_checks) {
            check.absorb(later);
        }
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
    // A stable sort of the findings themselves would take a buffer as large as they are: their
    // indices are sorted instead, and the findings moved into place.
    let mut order: Vec<usize> = (0..diagnostics.len()).collect();
    order.sort_by_key(|&index| (diagnostics[index].span, diagnostics[index].rule));
    permute(&mut diagnostics, order);
    diagnostics
}

/// Reorders `items` in place so that position `k` holds what was at `order[k]`.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..items.len() {
        // Each cycle of the permutation is walked once, swapping each item into its place.
        let mut current = start;
        while order[current] != DONE {
            let source = order[current];
            order[current] = DONE;
            if source == start {
                break;
            }
            items.swap(current, source);
            current = source;
        }
    }
}

/// Settles each finding's severity for its pointer, dropping those that are off there.
pub(crate) fn apply_levels(diagnostics: &mut Vec<Diagnostic>, rules: &RuleSettings) {
    diagnostics.retain_mut(|diagnostic| {
        let rule = rules::find(diagnostic.rule).expect("findings come from registered rules");
        // Nothing configured: the finding keeps the severity its rule gave it, which is the
        // rule's own unless the rule says this finding is more (or less) serious.
        match rules.configured_at(rule, &diagnostic.pointer) {
            None => true,
            Some(Level::Off) => false,
            Some(Level::On(severity)) => {
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
    // Masking applies to the file's text, never to the rule's own words: `true`, `false` and
    // `null` (a secure checkbox's default) are words of the messages themselves (``must be a
    // boolean (`true` or `false`)``), and the rules never quote a secret value themselves.
    let mut secrets = secret_texts(text, secrets);
    secrets.retain(|secret| !matches!(*secret, "true" | "false" | "null"));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule's failing example, its iparams repeated `times` under the same keys, so that
    /// duplicate keys fall in different runs of a parallel check. Without events, which would
    /// silence `hidden-required` outside an app.
    fn examples_repeated(times: usize) -> String {
        let mut members = Vec::new();
        for rule in REGISTRY {
            if !matches!(rule.check, Check::Iparam(_) | Check::File(_)) {
                continue;
            }
            parse_document(rule.bad, |member| {
                let text = &rule.bad[member.key.span.start..member.value.span.end];
                if !text.contains("\"events\"") {
                    members.push(text);
                }
            });
        }
        let body = vec![members.join(",\n"); times].join(",\n");
        format!("{{\n{body}\n}}\n")
    }

    #[test]
    fn permutations_move_items_into_place() {
        let mut items = vec!['a', 'b', 'c', 'd', 'e', 'f'];
        permute(&mut items, vec![3, 0, 1, 2, 5, 4]);
        assert_eq!(items, ['d', 'a', 'b', 'c', 'f', 'e']);
        let mut one = vec![1];
        permute(&mut one, vec![0]);
        assert_eq!(one, [1]);
    }

    #[test]
    fn parallel_and_sequential_checks_agree() {
        let text = examples_repeated(40);
        let source = SourceText::decode(text.as_bytes());
        let lint = |parallel_from: usize| {
            Linter::new(LintOptions {
                parallel_from,
                ..LintOptions::default()
            })
            .lint(&source)
        };
        let sequential = lint(usize::MAX);
        let parallel = lint(0);
        assert!(
            sequential.iparams > 4 * BATCH,
            "{} iparams: too few runs",
            sequential.iparams
        );
        assert_eq!(parallel.iparams, sequential.iparams);
        assert_eq!(parallel.redactions, sequential.redactions);
        assert_eq!(parallel.diagnostics, sequential.diagnostics);
        let count = |rule: &str| {
            sequential
                .diagnostics
                .iter()
                .filter(|d| d.rule == rule)
                .count()
        };
        assert!(count("duplicate-key") > sequential.iparams / 2);
        assert!(count("hidden-required") > 0);
    }
}
