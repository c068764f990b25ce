//! The rules: one file each, each with its metadata and its check.
//!
//! [`REGISTRY`] is the single list of rules; the CLI's `rules` and `explain`, SARIF's rule
//! table and `docs/rules.md` are all generated from it.

use std::any::Any;
use std::collections::HashMap;

use crate::diagnostic::{Applicability, Diagnostic, Severity};
use crate::ecma_regex::{Compiled, MAX_ABANDONED, MAX_MATCH_INPUT, MatchOutcome, RegexEngine};
use crate::model::{Iparam, RegexEntry};
use crate::positions::Positions;
use crate::span::Span;
use crate::syntax::Value;
use crate::values::Installed;

mod api_key_not_secure;
mod attribute_type;
mod config_folder;
mod data_bind_not_allowed;
mod data_bind_not_on_platform;
mod data_bind_product;
mod default_fails_regex;
mod default_not_in_options;
mod default_value_type;
mod deprecated_test_data;
mod duplicate_display_name;
pub(crate) mod duplicate_key;
mod duplicate_option;
mod empty_display_name;
mod empty_key;
mod empty_option;
mod empty_regex;
mod event_entry;
mod freshchat_domain;
mod hardcoded_credential;
mod hidden_required;
mod high_entropy_string;
mod invalid_default_format;
pub(crate) mod invalid_encoding;
pub(crate) mod invalid_handler_name;
pub(crate) mod invalid_json;
mod invalid_manifest;
mod invalid_regex;
mod invalid_utils_set;
mod iparam_not_object;
mod iparams_html_and_json;
mod javascript_syntax_error;
mod key_not_usable_in_templates;
mod missing_attribute;
mod missing_default;
mod missing_handler;
mod missing_iparams_file;
mod missing_options;
mod missing_product;
mod missing_regex_message;
mod modules_not_supported;
mod numeric_default;
mod options_not_allowed;
mod orphan_regex_message;
mod other_platform;
mod regex_delimiters;
mod regex_not_supported;
mod regex_timeout;
mod reserved_key;
pub(crate) mod root_not_object;
mod secret_label_not_secure;
mod secure_default_value;
mod secure_iparam_in_frontend;
mod sensitive_key_not_secure;
mod type_attributes_not_allowed;
mod type_not_on_platform;
mod unanchored_regex;
mod unexpected_config_file;
mod unknown_api_key_product;
mod unknown_attribute;
mod unknown_data_bind;
mod unknown_iparam_read;
mod unknown_module;
pub(crate) mod unknown_product;
mod unknown_type;
mod unknown_utils_key;
mod unsupported_event;
mod unused_iparam;
mod vendor_secure_false_positive;
// Installation values
mod hidden_required_value;
pub(crate) mod unknown_value_key;
pub(crate) mod value_definitions_invalid;
mod value_duplicate_option;
mod value_fails_regex;
mod value_format;
mod value_not_in_options;
mod value_regex_timeout;
mod value_required;
mod value_type;

/// What a rule is and how it is documented.
#[derive(Debug)]
pub struct Rule {
    /// Stable kebab-case name, used in output and configuration.
    pub name: &'static str,
    pub severity: Severity,
    /// One line: what the rule finds.
    pub summary: &'static str,
    /// What it checks and why it matters, in Markdown.
    pub docs: &'static str,
    /// A file the rule reports...
    pub bad: &'static str,
    /// ...and the same file corrected.
    pub good: &'static str,
    /// What the vendor's validator (`fdk validate`) does in the same case.
    pub vendor: &'static str,
    /// Whether findings carry a fix, and how safe it is.
    pub fix: Option<Applicability>,
    pub check: Check,
}

/// When a rule runs.
#[derive(Debug)]
pub enum Check {
    /// Reported while the text is decoded and parsed.
    Syntax,
    /// Run on each iparam.
    Iparam(fn(&Iparam<'_, '_>, &mut Context<'_>)),
    /// Sees every iparam, then the end of the file.
    File(fn() -> Box<dyn FileCheck>),
    /// Run once per app, across its files.
    App(fn(&crate::app::AppModel<'_>, &mut crate::app::AppContext<'_>)),
    /// Checks a values file against iparams.json (see [`crate::values`]): the rule's `bad` and
    /// `good` examples are values files for the iparams of `definitions`.
    Values {
        definitions: &'static str,
        /// The iparams.json the `good` example is checked against, when it is not
        /// `definitions`: for a rule about iparams.json itself as the values see it.
        good_definitions: Option<&'static str>,
        /// Run on each defined iparam with its value; `None` for a rule about the values file
        /// as a whole, reported while it is read.
        each: Option<fn(&Installed<'_>, &mut Context<'_>)>,
    },
}

impl Rule {
    /// For a values rule, the iparams.json files its `bad` and `good` examples are values for;
    /// `None` for the rules of iparams.json itself.
    pub fn example_definitions(&self) -> Option<(&'static str, &'static str)> {
        match self.check {
            Check::Values {
                definitions,
                good_definitions,
                ..
            } => Some((definitions, good_definitions.unwrap_or(definitions))),
            _ => None,
        }
    }
}

/// The kind of file a finding about the file itself is in: its help differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FileKind {
    /// An iparams.json.
    Definitions,
    /// A values file (`iparams-lint values`).
    Values,
    /// The manifest.json of an app.
    Manifest,
}

/// A check that needs the whole file: it sees each iparam, then `finish`.
///
/// A large file is checked in runs of consecutive iparams on several threads, each with its
/// own instance of the check; the instances are then joined in file order with `absorb`.
pub trait FileCheck: Any + Send {
    fn iparam(&mut self, iparam: &Iparam<'_, '_>, cx: &mut Context<'_>);
    /// Takes in what `later` saw of the iparams that follow the ones this instance saw.
    fn absorb(&mut self, later: Box<dyn FileCheck>);
    fn finish(&mut self, cx: &mut Context<'_>);
}

/// `later` as the check it is: lanes hold the same checks in the same order.
pub(crate) fn same_check<T: FileCheck>(later: Box<dyn FileCheck>) -> Box<T> {
    let later: Box<dyn Any> = later;
    later
        .downcast()
        .unwrap_or_else(|_| unreachable!("lanes hold the same checks in the same order"))
}

/// Every rule, grouped as the docs present them.
pub static REGISTRY: &[&Rule] = &[
    // The file
    &invalid_json::RULE,
    &invalid_encoding::RULE,
    &root_not_object::RULE,
    &duplicate_key::RULE,
    // Keys and required attributes
    &iparam_not_object::RULE,
    &empty_key::RULE,
    &reserved_key::RULE,
    &missing_attribute::RULE,
    &unknown_type::RULE,
    &unknown_attribute::RULE,
    &attribute_type::RULE,
    &empty_display_name::RULE,
    &duplicate_display_name::RULE,
    // Options
    &missing_options::RULE,
    &options_not_allowed::RULE,
    &duplicate_option::RULE,
    &empty_option::RULE,
    // Default values
    &default_value_type::RULE,
    &numeric_default::RULE,
    &default_not_in_options::RULE,
    &invalid_default_format::RULE,
    &missing_default::RULE,
    // Products
    &missing_product::RULE,
    &unknown_product::RULE,
    &unknown_api_key_product::RULE,
    &freshchat_domain::RULE,
    &type_attributes_not_allowed::RULE,
    &other_platform::RULE,
    // Secrets
    &api_key_not_secure::RULE,
    &sensitive_key_not_secure::RULE,
    &secret_label_not_secure::RULE,
    &vendor_secure_false_positive::RULE,
    &secure_default_value::RULE,
    &hardcoded_credential::RULE,
    &high_entropy_string::RULE,
    // Regexes
    &regex_not_supported::RULE,
    &empty_regex::RULE,
    &missing_regex_message::RULE,
    &orphan_regex_message::RULE,
    &invalid_regex::RULE,
    &regex_delimiters::RULE,
    &default_fails_regex::RULE,
    &regex_timeout::RULE,
    &unanchored_regex::RULE,
    // Events
    &unsupported_event::RULE,
    &event_entry::RULE,
    &invalid_handler_name::RULE,
    // data-bind
    &unknown_data_bind::RULE,
    &data_bind_not_allowed::RULE,
    // The installation as a whole
    &hidden_required::RULE,
    // The app around iparams.json
    &invalid_manifest::RULE,
    &iparams_html_and_json::RULE,
    &missing_iparams_file::RULE,
    &unexpected_config_file::RULE,
    &deprecated_test_data::RULE,
    &modules_not_supported::RULE,
    &unknown_module::RULE,
    &type_not_on_platform::RULE,
    &data_bind_product::RULE,
    &data_bind_not_on_platform::RULE,
    &missing_handler::RULE,
    &unknown_utils_key::RULE,
    &invalid_utils_set::RULE,
    &javascript_syntax_error::RULE,
    &unknown_iparam_read::RULE,
    &secure_iparam_in_frontend::RULE,
    &key_not_usable_in_templates::RULE,
    &unused_iparam::RULE,
    // Installation values (`iparams-lint values`)
    &value_definitions_invalid::RULE,
    &unknown_value_key::RULE,
    &value_required::RULE,
    &hidden_required_value::RULE,
    &value_type::RULE,
    &value_format::RULE,
    &value_not_in_options::RULE,
    &value_duplicate_option::RULE,
    &value_fails_regex::RULE,
    &value_regex_timeout::RULE,
];

/// The rule called `name`.
pub fn find(name: &str) -> Option<&'static Rule> {
    REGISTRY.iter().copied().find(|rule| rule.name == name)
}

/// A rule's level as configured: off, or on at a severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Off,
    On(Severity),
}

/// Per-rule levels; rules not mentioned run at their default severity. Levels can also be set
/// for the findings about one value, named by its JSON pointer.
#[derive(Clone, Debug, Default)]
pub struct RuleSettings {
    levels: HashMap<&'static str, Level>,
    at_pointers: Vec<PointerLevel>,
}

/// A level for the findings about the value at `pointer` (and the values below it).
#[derive(Clone, Debug, PartialEq, Eq)]
struct PointerLevel {
    pointer: String,
    /// `None`: every rule.
    rule: Option<&'static str>,
    level: Level,
}

/// The rule called `name`, or the closest name when there is none.
pub fn resolve(name: &str) -> Result<&'static Rule, Option<&'static str>> {
    find(name).ok_or_else(|| crate::suggest::closest(name, REGISTRY.iter().map(|r| r.name)))
}

impl RuleSettings {
    /// Sets the level of the rule called `name`; `Err` with a suggestion when there is no such rule.
    pub fn set(&mut self, name: &str, level: Level) -> Result<(), Option<&'static str>> {
        let rule = resolve(name)?;
        self.levels.insert(rule.name, level);
        Ok(())
    }

    /// Sets the level of rule `name` (every rule with `None`) for findings about the value at
    /// `pointer` or below it; later calls win over earlier ones.
    pub fn set_at(
        &mut self,
        pointer: &str,
        name: Option<&str>,
        level: Level,
    ) -> Result<(), Option<&'static str>> {
        let rule = name.map(resolve).transpose()?.map(|rule| rule.name);
        self.at_pointers.push(PointerLevel {
            pointer: pointer.to_owned(),
            rule,
            level,
        });
        Ok(())
    }

    pub fn level(&self, rule: &Rule) -> Level {
        self.levels
            .get(rule.name)
            .copied()
            .unwrap_or(Level::On(rule.severity))
    }

    /// The level for a finding of `rule` about the value at `pointer`.
    pub fn level_at(&self, rule: &Rule, pointer: &str) -> Level {
        self.configured_at(rule, pointer)
            .unwrap_or(Level::On(rule.severity))
    }

    /// The level configured for findings of `rule` about the value at `pointer`, by the rule's
    /// name or the pointer; `None` when nothing is configured for them.
    pub fn configured_at(&self, rule: &Rule, pointer: &str) -> Option<Level> {
        let covers = |at: &PointerLevel| {
            at.rule.is_none_or(|name| name == rule.name)
                && (pointer == at.pointer
                    || pointer
                        .strip_prefix(at.pointer.as_str())
                        .is_some_and(|rest| rest.starts_with('/')))
        };
        self.at_pointers
            .iter()
            .rev()
            .find(|at| covers(at))
            .map(|at| at.level)
            .or_else(|| self.levels.get(rule.name).copied())
    }

    /// Whether the rule runs at all: on by default, or on for some pointer.
    pub fn is_enabled(&self, rule: &Rule) -> bool {
        self.level(rule) != Level::Off
            || self
                .at_pointers
                .iter()
                .any(|at| at.level != Level::Off && at.rule.is_none_or(|name| name == rule.name))
    }
}

/// What a check can see and where it reports.
#[derive(Debug)]
pub struct Context<'c> {
    text: &'c str,
    settings: &'c RuleSettings,
    regexes: &'c mut RegexEngine,
    app: Option<&'c crate::app::AppFacts>,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

impl<'c> Context<'c> {
    pub(crate) fn new(
        text: &'c str,
        settings: &'c RuleSettings,
        regexes: &'c mut RegexEngine,
    ) -> Self {
        Self {
            text,
            settings,
            regexes,
            app: None,
            diagnostics: Vec::new(),
        }
    }

    pub(crate) fn with_app(mut self, app: Option<&'c crate::app::AppFacts>) -> Self {
        self.app = app;
        self
    }

    /// What is known of the app around the file; `None` for a file checked on its own.
    pub fn app(&self) -> Option<&'c crate::app::AppFacts> {
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

    pub fn is_enabled(&self, rule: &Rule) -> bool {
        self.settings.is_enabled(rule)
    }

    /// The severity of a finding of `rule` whose own severity is `default` (a rule whose
    /// findings are not all equally serious): the rule's configured level when one is set.
    pub fn severity_for(&self, rule: &Rule, default: Severity) -> Severity {
        match self.settings.levels.get(rule.name) {
            Some(Level::On(severity)) => *severity,
            _ => default,
        }
    }

    /// Records a finding of `rule` at its configured severity; the returned diagnostic can be
    /// given a label, help, pointer and fix.
    pub fn report(
        &mut self,
        rule: &Rule,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let severity = match self.settings.level(rule) {
            Level::On(severity) => severity,
            Level::Off => rule.severity,
        };
        self.diagnostics
            .push(Diagnostic::new(rule.name, severity, span, message));
        self.diagnostics
            .last_mut()
            .expect("a diagnostic was just pushed")
    }
}

/// How a value reads in a message: its source and kind when short (`` `"true"` (a string) ``),
/// its kind alone otherwise or when it is secret.
pub(crate) fn describe(
    cx: &Context<'_>,
    iparam: &Iparam<'_, '_>,
    value: &crate::syntax::Value<'_>,
) -> String {
    let secret = iparam
        .secrets
        .iter()
        .any(|s| s.start < value.span.end && value.span.start < s.end);
    describe_value(cx.source(value.span), value, secret)
}

/// [`describe`] for a value whose source is `source` and whose secrecy is already known.
pub(crate) fn describe_value(source: &str, value: &Value<'_>, secret: bool) -> String {
    let kind = value.json_kind().described();
    if secret || source.len() > 40 || source.contains('\n') || kind == "null" {
        kind.to_owned()
    } else {
        format!("`{source}` ({kind})")
    }
}

/// Each string pattern of the iparam's `regex`, compiled.
pub(crate) fn compiled_patterns<'a, 's>(
    iparam: &Iparam<'a, 's>,
    cx: &mut Context<'_>,
) -> Vec<(RegexEntry<'a, 's>, Compiled)> {
    let text = cx.text();
    compile_patterns(iparam, text, cx.regexes())
}

/// Each string pattern of the iparam's `regex`, compiled; `definitions` is the text of the
/// iparams.json the iparam was lowered from.
pub(crate) fn compile_patterns<'a, 's>(
    iparam: &Iparam<'a, 's>,
    definitions: &str,
    regexes: &mut RegexEngine,
) -> Vec<(RegexEntry<'a, 's>, Compiled)> {
    let Some(found) = iparam.regexes() else {
        return Vec::new();
    };
    found
        .patterns
        .iter()
        .copied()
        .filter_map(|entry| {
            let pattern = entry.pattern.as_str()?;
            let literal = &definitions[entry.pattern.span.start..entry.pattern.span.end];
            Some((entry, regexes.compile(literal, pattern)))
        })
        .collect()
}

/// The outcome of each valid pattern of the iparam's `regex` on `text`, as the installation
/// page tests a value (patterns that do not compile are left to `invalid-regex`).
pub(crate) fn match_patterns<'a, 's>(
    iparam: &Iparam<'a, 's>,
    text: &str,
    definitions: &str,
    regexes: &mut RegexEngine,
) -> Vec<(RegexEntry<'a, 's>, MatchOutcome)> {
    compile_patterns(iparam, definitions, regexes)
        .into_iter()
        .filter_map(|(entry, compiled)| match compiled {
            Compiled::Valid(regex) => Some((entry, regexes.test(&regex, text))),
            _ => None,
        })
        .collect()
}

/// What a regex-timeout finding says of a match that did not finish.
pub(crate) struct Unfinished {
    /// Follows "Regex `name` of iparam `key`", before "the default value" or "the value".
    pub verb: String,
    pub label: &'static str,
    pub help: String,
}

/// How to report `outcome`, when the match did not finish; `None` when it did.
pub(crate) fn unfinished(outcome: MatchOutcome, regexes: &RegexEngine) -> Option<Unfinished> {
    match outcome {
        MatchOutcome::Matched | MatchOutcome::NotMatched => None,
        MatchOutcome::TimedOut => Some(Unfinished {
            verb: format!("ran for over {} ms on", regexes.timeout().as_millis()),
            label: "catastrophic backtracking",
            help: "The pattern repeats a repetition (as in `(a+)+`), so some values take \
                   exponential time and would freeze the installation page. Rewrite it without \
                   nested repetition."
                .to_owned(),
        }),
        MatchOutcome::Skipped => Some(Unfinished {
            verb: "was not run on".to_owned(),
            label: "not checked",
            help: format!(
                "Matching stops for a text over {MAX_MATCH_INPUT} bytes and, for a pattern that \
                 repeats a group, once {MAX_ABANDONED} matches have run out of time: whether this \
                 one matches is not known. Fix the patterns reported as too slow first."
            ),
        }),
    }
}

/// The outcome of each valid pattern of the iparam on its default value, when the iparam's
/// type takes a regex and its default is a non-empty string.
pub(crate) fn default_matches<'a, 's>(
    iparam: &Iparam<'a, 's>,
    cx: &mut Context<'_>,
) -> Vec<(RegexEntry<'a, 's>, crate::model::Text<'a>, MatchOutcome)> {
    use crate::model::DefaultValue;
    let DefaultValue::Text(default) = iparam.default else {
        return Vec::new();
    };
    if default.text.is_empty() || !iparam.known_type().is_some_and(|ty| ty.accepts_regex()) {
        return Vec::new();
    }
    let text = cx.text();
    match_patterns(iparam, default.text, text, cx.regexes())
        .into_iter()
        .map(|(entry, outcome)| (entry, default, outcome))
        .collect()
}

/// Each string of `items` that repeats an earlier one: its index, itself and the first one.
pub(crate) fn repeated_strings<'v, 's>(
    items: &'v [Value<'s>],
) -> impl Iterator<Item = (usize, &'v str, &'v Value<'s>, &'v Value<'s>)> {
    let positions = Positions::new(items, Value::as_str);
    items.iter().enumerate().filter_map(move |(index, item)| {
        let text = item.as_str()?;
        let first = positions.first(text).filter(|&first| first < index)?;
        Some((index, text, item, &items[first]))
    })
}

/// The fix that marks an iparam secure: `false` becomes `true`, or `"secure": true` is added.
pub(crate) fn mark_secure(
    cx: &Context<'_>,
    iparam: &Iparam<'_, '_>,
) -> Option<crate::diagnostic::Fix> {
    use crate::diagnostic::{Edit, Fix};
    let edit = match iparam.get(crate::model::Attribute::Secure) {
        Some(member) => Edit::replace(member.value.span, "true"),
        None => crate::fixes::insert_member(cx.text(), iparam.value, "secure", "true")?,
    };
    Some(Fix::unsafe_("Mark it `\"secure\": true`", vec![edit]))
}

/// The iparam named with its type, as messages refer to it: "the dropdown iparam `priority`".
pub(crate) fn subject(iparam: &Iparam<'_, '_>) -> String {
    match iparam.known_type() {
        Some(ty) => format!("the {} iparam `{}`", ty.name(), iparam.key.text),
        None => format!("iparam `{}`", iparam.key.text),
    }
}

/// The text with its first letter in upper case, to open a sentence.
pub(crate) fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for rule in REGISTRY {
            assert!(seen.insert(rule.name), "{} is registered twice", rule.name);
            assert!(
                rule.name
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'-')
                    && !rule.name.starts_with('-'),
                "{} is not kebab-case",
                rule.name
            );
            assert!(
                !rule.summary.is_empty() && !rule.docs.is_empty() && !rule.vendor.is_empty(),
                "{}",
                rule.name
            );
        }
    }

    #[test]
    fn pointer_levels_cover_the_value_and_below() {
        let mut settings = RuleSettings::default();
        settings.set("unknown-type", Level::Off).unwrap();
        settings
            .set_at("/a", Some("unknown-type"), Level::On(Severity::Info))
            .unwrap();
        settings.set_at("/a/type", None, Level::Off).unwrap();
        let rule = &unknown_type::RULE;
        assert!(settings.is_enabled(rule));
        assert_eq!(settings.level_at(rule, "/b/type"), Level::Off);
        assert_eq!(
            settings.level_at(rule, "/a/options"),
            Level::On(Severity::Info)
        );
        assert_eq!(settings.level_at(rule, "/ab"), Level::Off);
        assert_eq!(settings.level_at(rule, "/a/type"), Level::Off);
        assert_eq!(settings.set_at("/a", Some("nope"), Level::Off), Err(None));
    }

    #[test]
    fn settings_reject_unknown_rules_with_a_suggestion() {
        let mut settings = RuleSettings::default();
        assert_eq!(
            settings.set("unknown-typ", Level::Off),
            Err(Some("unknown-type"))
        );
        assert_eq!(
            settings.set("unknown-type", Level::On(Severity::Warning)),
            Ok(())
        );
        assert_eq!(
            settings.level(&unknown_type::RULE),
            Level::On(Severity::Warning)
        );
    }
}
