//! A values file's answers as the rules see them: each iparam with the value given to it
//! ([`Answer`]), the file as a whole ([`ValuesFile`]), and which of its values must never be
//! shown.

use std::collections::HashMap;

use super::definitions::{Definition, DefinitionsFile, Unusable};
use crate::app::page_functions::META;
use crate::formats;
use crate::model::{Attribute, DefaultValue, IparamType, Text};
use crate::secrets;
use crate::secrets::MASKED;
use crate::span::Span;
use crate::suggest;
use crate::syntax::{Member, Value, ValueKind};

/// An iparam's definition and the value a values file gives it (the installer's answer to that
/// field of the installation page): what each values rule checks.
#[derive(Debug)]
pub struct Answer<'a> {
    pub definition: &'a Definition<'a>,
    /// The value given (the last one when the key is repeated, as `JSON.parse` keeps it);
    /// `None` when the file does not mention the key.
    pub value: Option<&'a Value<'a>>,
    /// The values object: a missing value is reported at its opening brace.
    pub(crate) object: Span,
    pub(crate) definitions: &'a DefinitionsFile<'a>,
    /// The value must never be shown: the iparam is secure, or its key names a secret.
    pub(crate) secret: bool,
}

/// A values file with its definitions: what the rules about the file as a whole check.
#[derive(Debug)]
pub struct ValuesFile<'a> {
    /// The values object.
    pub object: &'a Value<'a>,
    pub members: &'a [Member<'a>],
    pub definitions: &'a DefinitionsFile<'a>,
    /// The iparams defined, once each, or why the definitions cannot be used.
    pub iparams: Result<&'a [Definition<'a>], &'a Unusable>,
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

impl<'a> Answer<'a> {
    pub fn key(&self) -> &'a str {
        self.definition.key()
    }

    pub fn ty(&self) -> Option<IparamType> {
        self.definition.iparam()?.known_type()
    }

    pub fn is_required(&self) -> bool {
        self.flag(Attribute::Required) == Some(true)
    }

    /// `"visible": false`: the installation page does not show the field.
    pub fn is_hidden(&self) -> bool {
        self.flag(Attribute::Visible) == Some(false)
    }

    fn flag(&self, attribute: Attribute) -> Option<bool> {
        self.definition.iparam()?.flag(attribute)
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
        let options = self.definition.iparam()?.options.as_deref();
        options.filter(|o| !o.is_empty())
    }

    /// Whether `value` must not be shown: the iparam's values are secret, or it holds a
    /// string shaped like a credential.
    pub fn masks(&self, value: &Value<'_>) -> bool {
        let mut credential = false;
        value.walk_strings(&mut |text, _| credential |= secrets::looks_secret(text));
        self.secret || credential
    }

    /// A string of the value (an element of a multiselect), quoted; masked when secret.
    pub fn quote_text(&self, text: &str) -> String {
        if self.secret || secrets::looks_secret(text) {
            MASKED.to_owned()
        } else {
            suggest::shortened(&crate::edits::json_string(text)).into_owned()
        }
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
        let iparam = self.definition.iparam()?;
        match iparam.default {
            DefaultValue::Text(text) if !text.text.is_empty() => Some(iparam.quote(&text)),
            _ => None,
        }
    }

    /// Where the iparam is defined: `config/iparams.json:12:3`.
    pub fn defined_at(&self) -> String {
        self.definition.defined_at(self.definitions)
    }

    /// The pointer of item `index` of the value (a multiselect's array).
    pub fn item_pointer(&self, index: usize) -> String {
        self.definition.pointer_to(&[&index.to_string()])
    }

    /// The span a finding about a missing value points at: the values object's opening brace.
    pub fn missing_span(&self) -> Span {
        Span::new(self.object.start, self.object.start + 1)
    }
}

/// The last member for each key of the values object, as `JSON.parse` keeps it.
pub(crate) fn last_values<'a, 'v>(members: &'a [Member<'v>]) -> HashMap<&'a str, &'a Member<'v>> {
    members
        .iter()
        .map(|member| (member.key.text.as_ref(), member))
        .collect()
}

/// The keys a values file's `__meta.secure` names (the vendor's saved values carry
/// `"__meta": {"secure": [keys]}` beside the values, install-page.md "INSTALL"): stored as
/// secure, whatever the definitions say of them now.
pub(crate) fn stored_secure<'a>(members: &'a [Member<'_>]) -> Vec<&'a str> {
    members
        .iter()
        .filter(|member| member.key.text == META)
        .filter_map(|meta| meta.value.get("secure")?.value.as_array())
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// The spans of the values file that must be masked in any output: the values of secret
/// iparams (or of unknown keys that name a secret), of keys stored as `secure`, and every
/// string shaped like a credential.
pub(crate) fn secret_spans(
    members: &[Member<'_>],
    iparams: &[Definition<'_>],
    secure: &[&str],
) -> Vec<Span> {
    let by_key: HashMap<&str, &Definition<'_>> = iparams
        .iter()
        .map(|iparam| (iparam.key(), iparam))
        .collect();
    let mut spans = Vec::new();
    for member in members {
        let key = member.key.text.as_ref();
        let secret = secure.contains(&key)
            || by_key.get(key).copied().map_or_else(
                || secrets::key_sensitivity(key).is_word(),
                |definition| definition.is_secret(),
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
