//! Installation values, checked against their definitions as the installation page checks them.
//!
//! A values file is one JSON object mapping iparam keys to values: what an installer enters on
//! the installation page, the `config/iparam_test_data.json` of an older app, or what a
//! deployment script feeds in. Its findings point into the values file; since a finding's
//! places are all in one file, each finding about an iparam names where that iparam is defined
//! in its help ("`region` is defined at config/iparams.json:12:3").
//!
//! ```
//! use iparams_core::{Linter, SourceText};
//!
//! let definitions = br#"{"start": {"display_name": "Start", "type": "date", "required": true}}"#;
//! let report = Linter::default().check_values(
//!     &SourceText::decode(definitions),
//!     &SourceText::decode(br#"{"start": "2014-02-31"}"#),
//!     "config/iparams.json",
//! );
//! assert_eq!(report.diagnostics[0].rule, "value-format");
//! ```

mod get;

use std::collections::HashMap;

pub use get::{GetPreview, preview_get};

use crate::diagnostic::Diagnostic;
use crate::ecma_regex::MatchOutcome;
use crate::formats;
use crate::lint::{FileReport, Linter, mask_secrets, settle};
use crate::model::{Attribute, DefaultValue, Iparam, IparamType, RegexEntry, Text};
use crate::rules::{
    self, Check, Context, FileKind, REGISTRY, Rule, RuleSettings, match_patterns,
    value_definitions_invalid,
};
use crate::secrets::{self, MASKED};
use crate::source::SourceText;
use crate::span::{LineIndex, Span};
use crate::suggest;
use crate::syntax::{Member, RootShape, SyntaxError, Value, ValueKind, parse_value};

/// An iparam's definition and the value a values file gives it: what each values rule checks.
#[derive(Debug)]
pub struct Installed<'a> {
    pub iparam: &'a Iparam<'a, 'a>,
    /// The value given (the last one when the key is repeated, as `JSON.parse` keeps it);
    /// `None` when the file does not mention the key.
    pub value: Option<&'a Value<'a>>,
    /// The values object: a missing value is reported at its opening brace.
    object: Span,
    definitions: &'a DefinitionsFile<'a>,
    /// The value must never be shown: the iparam is secure, or its key names a secret.
    secret: bool,
}

/// Why a value counts as no answer to a required iparam.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unanswered {
    /// The key is not in the file.
    Absent,
    Null,
    /// `""`.
    Empty,
    /// `[]` for a multiselect.
    NoneSelected,
    /// `false` for a checkbox.
    Unchecked,
}

impl<'a> Installed<'a> {
    pub fn key(&self) -> &'a str {
        &self.iparam.key.text
    }

    pub fn ty(&self) -> Option<IparamType> {
        self.iparam.known_type()
    }

    pub fn is_required(&self) -> bool {
        self.iparam.flag(Attribute::Required) == Some(true)
    }

    /// `"visible": false`: the installation page does not show the field.
    pub fn is_hidden(&self) -> bool {
        self.iparam.flag(Attribute::Visible) == Some(false)
    }

    /// The value, unless it is no value at all: absent, `null`, `""` or `[]`. Checks of an
    /// optional iparam's value stop here when it is empty, as on the installation page.
    pub fn given(&self) -> Option<&'a Value<'a>> {
        self.value.filter(|value| match &value.kind {
            ValueKind::Null => false,
            ValueKind::String(text) => !text.is_empty(),
            ValueKind::Array(items) => !items.is_empty(),
            _ => true,
        })
    }

    /// Why the value does not answer the iparam if it were required: no value, or an unticked
    /// checkbox (any falsy value, as older FDK releases treated them; a JSON `0` is a number an
    /// installer can type, so it counts as an answer).
    pub fn unanswered(&self) -> Option<Unanswered> {
        let Some(value) = self.value else {
            return Some(Unanswered::Absent);
        };
        match &value.kind {
            ValueKind::Null => Some(Unanswered::Null),
            ValueKind::String(text) if text.is_empty() => Some(Unanswered::Empty),
            ValueKind::Array(items) if items.is_empty() => Some(Unanswered::NoneSelected),
            ValueKind::Bool(false) if self.ty() == Some(IparamType::Checkbox) => {
                Some(Unanswered::Unchecked)
            }
            _ => None,
        }
    }

    /// The given value as the text an input of the installation page holds: a string, or a
    /// JSON number given to a `number` iparam, as written.
    pub fn text(&self) -> Option<&'a str> {
        match &self.given()?.kind {
            ValueKind::String(text) => Some(text),
            ValueKind::Number(raw) if self.ty() == Some(IparamType::Number) => Some(raw),
            _ => None,
        }
    }

    /// The string elements of the iparam's `options`, when it has any.
    pub fn options(&self) -> Option<&'a [Text<'a>]> {
        self.iparam.options.as_deref().filter(|o| !o.is_empty())
    }

    /// The outcome of each of the iparam's regex patterns on the value, for the types whose
    /// value is typed in (choices from options are not matched).
    pub fn regex_outcomes(&self, cx: &mut Context<'_>) -> Vec<(RegexEntry<'a, 'a>, MatchOutcome)> {
        let typed_in = self
            .ty()
            .is_none_or(|ty| !ty.has_options() && ty != IparamType::Checkbox);
        match self.text() {
            Some(text) if typed_in => {
                match_patterns(self.iparam, text, self.definitions.text, cx.regexes())
            }
            _ => Vec::new(),
        }
    }

    /// Whether `value` must not be shown: the iparam's values are secret, or it holds a
    /// string shaped like a credential.
    pub fn masks(&self, value: &Value<'_>) -> bool {
        let mut credential = false;
        value.walk_strings(&mut |text, _| credential |= secrets::looks_secret(text));
        self.secret || credential
    }

    /// The value as written in the values file, for a message; masked when secret.
    pub fn quote(&self, value: &Value<'_>, cx: &Context<'_>) -> String {
        if self.masks(value) {
            MASKED.to_owned()
        } else {
            suggest::shortened(cx.source(value.span)).into_owned()
        }
    }

    /// A string of the value (an element of a multiselect), quoted; masked when secret.
    pub fn quote_text(&self, text: &str) -> String {
        if self.secret || secrets::looks_secret(text) {
            MASKED.to_owned()
        } else {
            suggest::shortened(&crate::fixes::json_string(text)).into_owned()
        }
    }

    /// The value and its JSON kind (`` `"true"` (a string) ``), or its kind alone when secret.
    pub fn describe(&self, value: &Value<'_>, cx: &Context<'_>) -> String {
        rules::describe_value(cx.source(value.span), value, self.masks(value))
    }

    /// "the dropdown iparam `priority`".
    pub fn subject(&self) -> String {
        rules::subject(self.iparam)
    }

    /// "dropdown iparam `priority`", to follow an adjective: "the required dropdown iparam …".
    pub fn named(&self) -> String {
        match self.ty() {
            Some(ty) => format!("{} iparam `{}`", ty.name(), self.key()),
            None => format!("iparam `{}`", self.key()),
        }
    }

    /// What a valid value looks like, for help texts: "one of \"Low\", \"High\"", "an address
    /// such as …", "`true`".
    pub fn what_to_give(&self) -> String {
        let options = self
            .options()
            .map(|o| suggest::quoted_list(o.iter().map(|t| t.text)));
        match (self.ty(), options) {
            (Some(IparamType::Checkbox), _) => "`true`".to_owned(),
            (Some(IparamType::Multiselect), Some(options)) => {
                format!("an array of one or more of {options}")
            }
            (_, Some(options)) => format!("one of {options}"),
            (Some(IparamType::Domain), None) => {
                "the account's sub-domain, such as `acme` (the page shows the rest of the domain)"
                    .to_owned()
            }
            (Some(IparamType::ApiKey), None) => "the product's API key".to_owned(),
            (Some(ty), None) => formats::format_example(ty).unwrap_or("a value").to_owned(),
            (None, None) => "a value".to_owned(),
        }
    }

    /// The iparam's default, quoted (masked when secret), when it is a non-empty string.
    pub fn quoted_default(&self) -> Option<String> {
        match self.iparam.default {
            DefaultValue::Text(text) if !text.text.is_empty() => Some(self.iparam.quote(&text)),
            _ => None,
        }
    }

    /// Where the iparam is defined: `config/iparams.json:12:3`.
    pub fn defined_at(&self) -> String {
        self.definitions.place(self.iparam.key.span)
    }

    /// The pointer of item `index` of the value (a multiselect's array).
    pub fn item_pointer(&self, index: usize) -> String {
        self.iparam.pointer_to(&[&index.to_string()])
    }

    /// The span a finding about a missing value points at: the values object's opening brace.
    pub fn missing_span(&self) -> Span {
        Span::new(self.object.start, self.object.start + 1)
    }

    /// Records a finding about this iparam's value: its pointer is the key's, and its help
    /// ends by naming where the iparam is defined.
    pub fn report<'c>(
        &self,
        cx: &'c mut Context<'_>,
        rule: &Rule,
        span: Span,
        message: String,
        help: &str,
    ) -> &'c mut Diagnostic {
        let help = format!(
            "{help}\n`{}` is defined at {}.",
            self.key(),
            self.defined_at()
        );
        cx.report(rule, span, message)
            .pointer(self.iparam.pointer.clone())
            .help(help)
    }
}

/// The iparams.json the values are checked against.
#[derive(Debug)]
pub(crate) struct DefinitionsFile<'a> {
    pub(crate) text: &'a str,
    /// As shown to the user.
    pub(crate) path: &'a str,
    lines: LineIndex,
}

impl<'a> DefinitionsFile<'a> {
    fn new(text: &'a str, path: &'a str) -> Self {
        Self {
            text,
            path,
            lines: LineIndex::new(text),
        }
    }

    /// `path:line:column` of `span`.
    fn place(&self, span: Span) -> String {
        let at = self.lines.position(self.text, span.start);
        format!("{}:{}:{}", self.path, at.line, at.column)
    }
}

/// Why the definitions cannot be used: the values are then not checked, rather than checked
/// against a guess.
#[derive(Debug)]
pub(crate) struct Unusable {
    pub(crate) problem: String,
    /// Where in iparams.json, when there is a place.
    pub(crate) at: Option<Span>,
}

/// The top-level object of iparams.json, when the file is JSON without a single mistake.
pub(crate) fn parse_definitions<'d>(source: &'d SourceText<'_>) -> Result<Value<'d>, Unusable> {
    if source.is_unreadable() {
        return Err(Unusable {
            problem: "UTF-16, not UTF-8".into(),
            at: None,
        });
    }
    let (root, errors) = parse_value(source.text());
    if let Some(SyntaxError { kind, span, .. }) = errors.first() {
        let (message, _, _) = rules::invalid_json::describe(kind, FileKind::Definitions);
        return Err(Unusable {
            problem: format!("not valid JSON: {message}"),
            at: Some(*span),
        });
    }
    match root {
        Some(root) if root.as_object().is_some() => Ok(root),
        Some(root) => Err(Unusable {
            problem: format!(
                "{} at the top level, not an object of iparams",
                root.json_kind().described()
            ),
            at: Some(root.span),
        }),
        None => Err(Unusable {
            problem: "empty".into(),
            at: None,
        }),
    }
}

/// Each iparam of the definitions object, once: a repeated key keeps its first place and its
/// last definition, as `JSON.parse` builds the object.
pub(crate) fn lower_definitions<'a, 's>(root: &'a Value<'s>) -> Vec<Iparam<'a, 's>> {
    let mut iparams: Vec<Iparam<'a, 's>> = Vec::new();
    let mut places: HashMap<&str, usize> = HashMap::new();
    for member in root.as_object().unwrap_or_default() {
        let iparam = Iparam::lower(member);
        match places.get(member.key.text.as_ref()) {
            Some(&place) => iparams[place] = iparam,
            None => {
                places.insert(&member.key.text, iparams.len());
                iparams.push(iparam);
            }
        }
    }
    iparams
}

/// The last member for each key of the values object, as `JSON.parse` keeps it.
pub(crate) fn last_values<'a, 'v>(members: &'a [Member<'v>]) -> HashMap<&'a str, &'a Member<'v>> {
    members
        .iter()
        .map(|member| (member.key.text.as_ref(), member))
        .collect()
}

impl Linter {
    /// Checks the values file `values` against the iparams.json `definitions` (shown as
    /// `definitions_path` in messages), with the linter's options.
    pub fn check_values(
        &mut self,
        definitions: &SourceText<'_>,
        values: &SourceText<'_>,
        definitions_path: &str,
    ) -> FileReport {
        self.with_own_rules(|linter, rules| {
            linter.check_values_with(definitions, values, definitions_path, rules)
        })
    }

    /// [`Linter::check_values`] with `rules` in place of the linter's own.
    pub fn check_values_with(
        &mut self,
        definitions: &SourceText<'_>,
        values: &SourceText<'_>,
        definitions_path: &str,
        rules: &RuleSettings,
    ) -> FileReport {
        let text = values.text();
        let mut cx = Context::new(text, rules, &mut self.regexes);
        let mut report = FileReport::default();
        if cx.is_enabled(&rules::invalid_encoding::RULE) {
            rules::invalid_encoding::report(&values.problems, &mut cx);
        }
        if !values.is_unreadable() {
            let (root, errors) = parse_value(text);
            report.well_formed = errors.is_empty() && values.problems.is_empty();
            if cx.is_enabled(&rules::invalid_json::RULE) {
                rules::invalid_json::report(&errors, FileKind::Values, &mut cx);
            }
            if let Some(root) = root {
                check_object(&root, definitions, definitions_path, &mut cx, &mut report);
            }
        }
        report.diagnostics = settle(cx.diagnostics, rules);
        report.redactions.sort_unstable();
        report.redactions.dedup();
        report
    }
}

/// Checks the values object `root` against the definitions.
fn check_object(
    root: &Value<'_>,
    definitions: &SourceText<'_>,
    definitions_path: &str,
    cx: &mut Context<'_>,
    report: &mut FileReport,
) {
    let Some(members) = root.as_object() else {
        if cx.is_enabled(&rules::root_not_object::RULE) {
            let shape = RootShape::Other(root.json_kind(), root.span);
            rules::root_not_object::report(shape, FileKind::Values, cx);
        }
        return;
    };
    report.iparams = members.len();
    if cx.is_enabled(&rules::duplicate_key::RULE) {
        rules::duplicate_key::check_tree(root, cx);
    }
    let file = DefinitionsFile::new(definitions.text(), definitions_path);
    let parsed = match parse_definitions(definitions) {
        Ok(parsed) => parsed,
        Err(unusable) => {
            // Nothing is known of the values, so nothing of them may be shown.
            report
                .redactions
                .extend(members.iter().map(|m| m.value.span));
            if cx.is_enabled(&value_definitions_invalid::RULE) {
                let place = unusable.at.map(|span| file.place(span));
                value_definitions_invalid::report(root.span, &file, place, &unusable.problem, cx);
            }
            return;
        }
    };
    let iparams = lower_definitions(&parsed);
    let given = last_values(members);
    report.redactions.extend(secret_spans(members, &iparams));
    let checks: Vec<_> = REGISTRY
        .iter()
        .filter(|rule| cx.is_enabled(rule))
        .filter_map(|rule| match rule.check {
            Check::Values {
                each: Some(check), ..
            } => Some(check),
            _ => None,
        })
        .collect();
    for iparam in &iparams {
        let value = given.get(iparam.key.text.as_ref()).map(|m| &m.value);
        let installed = Installed {
            iparam,
            value,
            object: root.span,
            definitions: &file,
            secret: is_secret(iparam),
        };
        let first = cx.diagnostics.len();
        for check in &checks {
            check(&installed, cx);
        }
        if let Some(value) = value.filter(|_| installed.secret) {
            let text = cx.text();
            mask_secrets(&mut cx.diagnostics[first..], text, &[value.span]);
        }
    }
    if cx.is_enabled(&rules::unknown_value_key::RULE) {
        rules::unknown_value_key::report(members, &iparams, &file, cx);
    }
}

/// The values of a secure iparam, or of one whose key names a secret, must never be shown.
pub(crate) fn is_secret(iparam: &Iparam<'_, '_>) -> bool {
    iparam.is_secure() || iparam.sensitivity.is_word()
}

/// The spans of the values file that must be masked in any output: the values of secret
/// iparams (or of unknown keys that name a secret), and every string shaped like a credential.
fn secret_spans(members: &[Member<'_>], iparams: &[Iparam<'_, '_>]) -> Vec<Span> {
    let by_key: HashMap<&str, &Iparam<'_, '_>> = iparams
        .iter()
        .map(|iparam| (iparam.key.text.as_ref(), iparam))
        .collect();
    let mut spans = Vec::new();
    for member in members {
        let secret = by_key.get(member.key.text.as_ref()).copied().map_or_else(
            || secrets::key_sensitivity(&member.key.text).is_word(),
            is_secret,
        );
        if secret && !matches!(member.value.kind, ValueKind::Null) {
            spans.push(member.value.span);
        }
        member.value.walk_strings(&mut |text, span| {
            if secrets::looks_secret(text) {
                spans.push(span);
            }
        });
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(definitions: &str, values: &str) -> FileReport {
        Linter::default().check_values(
            &SourceText::decode(definitions.as_bytes()),
            &SourceText::decode(values.as_bytes()),
            "config/iparams.json",
        )
    }

    fn rules_of(report: &FileReport) -> Vec<&'static str> {
        report.diagnostics.iter().map(|d| d.rule).collect()
    }

    #[test]
    fn findings_point_into_the_values_and_name_the_definition() {
        let definitions = "{\n  \"region\": {\"display_name\": \"Region\", \"type\": \"dropdown\", \"options\": [\"eu\", \"us\"], \"default_value\": \"eu\"}\n}\n";
        let values = "{\"region\": \"EU\"}";
        let report = check(definitions, values);
        assert_eq!(rules_of(&report), ["value-not-in-options"]);
        let finding = &report.diagnostics[0];
        assert_eq!(&values[finding.span.start..finding.span.end], "\"EU\"");
        assert_eq!(finding.pointer, "/region");
        assert!(
            finding
                .help
                .as_deref()
                .is_some_and(|h| h.ends_with("`region` is defined at config/iparams.json:2:3.")),
            "{finding:?}"
        );
    }

    #[test]
    fn the_last_of_repeated_keys_counts_on_both_sides() {
        let definitions = r#"{"n": {"display_name": "N", "type": "text"}, "n": {"display_name": "N", "type": "number"}}"#;
        let report = check(definitions, r#"{"n": "12", "n": "twelve"}"#);
        assert_eq!(rules_of(&report), ["duplicate-key", "value-format"]);
    }

    #[test]
    fn broken_definitions_stop_the_check_with_one_finding() {
        let report = check(
            "{\"a\": {\"display_name\": \"A\", \"type\": \"text\",}}",
            r#"{"a": "x", "b": 1}"#,
        );
        assert_eq!(rules_of(&report), ["value-definitions-invalid"]);
        assert_eq!(report.diagnostics[0].span, Span::new(0, 1));
        assert!(
            report.diagnostics[0].help.as_deref().is_some_and(
                |h| h.starts_with("config/iparams.json:1:43: not valid JSON: Trailing comma.")
            ),
            "{:?}",
            report.diagnostics[0]
        );
    }

    #[test]
    fn secret_values_are_redacted_whatever_their_json_kind() {
        let definitions = r#"{"pin": {"display_name": "PIN", "type": "text", "secure": true}}"#;
        let values = r#"{"pin": 123456}"#;
        let report = check(definitions, values);
        assert_eq!(rules_of(&report), ["value-type"]);
        assert!(!report.diagnostics[0].message.contains("123456"));
        assert_eq!(report.redact(values), r#"{"pin": ******}"#);
    }
}
