//! Rules about installation values (`iparams-lint values`), checked against iparams.json or
//! what a custom installation page stores.

pub(super) mod hidden_required_value;
pub(super) mod missing_value_key;
pub(super) mod unknown_value_key;
pub(super) mod value_definitions_invalid;
pub(super) mod value_duplicate_option;
pub(super) mod value_fails_regex;
pub(super) mod value_format;
pub(super) mod value_not_in_options;
pub(super) mod value_regex_timeout;
pub(super) mod value_required;
pub(super) mod value_type;
pub(super) mod verify_credentials;

use crate::diagnostic::Diagnostic;
use crate::ecma_regex::MatchOutcome;
use crate::model::{IparamType, RegexEntry};
use crate::rules::framework::{Context, Rule};
use crate::rules::helpers::{describe_value, match_patterns, subject};
use crate::secrets::MASKED;
use crate::span::Span;
use crate::suggest;
use crate::syntax::Value;
use crate::values::Answer;

/// What the values rules do with an answer: match it, quote it, report about it.
impl<'a> Answer<'a> {
    /// The outcome of each of the iparam's regex patterns on the value, for the types whose
    /// value is typed in (choices from options are not matched).
    pub fn regex_outcomes(&self, cx: &mut Context<'_>) -> Vec<(RegexEntry<'a, 'a>, MatchOutcome)> {
        let typed_in = self
            .ty()
            .is_none_or(|ty| !ty.has_options() && ty != IparamType::Checkbox);
        match (self.definition.iparam(), self.text()) {
            (Some(iparam), Some(text)) if typed_in => {
                match_patterns(iparam, text, self.definitions.text, cx.regexes())
            }
            _ => Vec::new(),
        }
    }

    /// The value as written in the values file, for a message; masked when secret.
    pub fn quote(&self, value: &Value<'_>, cx: &Context<'_>) -> String {
        if self.masks(value) {
            MASKED.to_owned()
        } else {
            suggest::shortened(cx.source(value.span)).into_owned()
        }
    }

    /// The value and its JSON kind (`` `"true"` (a string) ``), or its kind alone when secret.
    pub fn describe(&self, value: &Value<'_>, cx: &Context<'_>) -> String {
        describe_value(cx.source(value.span), value, self.masks(value))
    }

    /// "the dropdown iparam `priority`".
    pub fn subject(&self) -> String {
        match self.definition.iparam() {
            Some(iparam) => subject(iparam),
            None => format!("iparam `{}`", self.key()),
        }
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
            .pointer(self.definition.pointer_to(&[]))
            .help(help)
    }
}
