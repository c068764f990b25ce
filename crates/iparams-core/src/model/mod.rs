//! The typed model: each top-level member of iparams.json lowered into an [`Iparam`].
//!
//! Lowering never fails and never reports: a value of the wrong shape is kept as it was
//! written, and the typed views simply do not see it, so each rule decides what to say about it.

mod types;

pub use types::{
    Attribute, CHANGE_EVENT, DATA_BIND_VALUES, IparamType, PRODUCT_PLACEHOLDER, REGEX_ERROR_SUFFIX,
    Shape, data_bind_description, looks_like_a_data_bind_name,
};

use std::borrow::Cow;

use crate::pointer;
use crate::positions::Positions;
use crate::secrets::{self, Secret};
use crate::span::Span;
use crate::suggest;
use crate::syntax::{Key, Member, Value, ValueKind};

/// A string value of the file and the span of its literal, quotes included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Text<'a> {
    pub text: &'a str,
    pub span: Span,
}

impl<'a> Text<'a> {
    pub fn of(value: &'a Value<'_>) -> Option<Self> {
        value.as_str().map(|text| Text {
            text,
            span: value.span,
        })
    }
}

/// What the `type` attribute says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypeField<'a> {
    /// No `type` attribute.
    Missing,
    /// `type` is there but not a string.
    NotAString,
    Known(IparamType, Span),
    Unknown(Text<'a>),
}

/// `default_value`, lowered according to the iparam's type.
#[derive(Clone, Debug, PartialEq)]
pub enum DefaultValue<'a, 's> {
    Absent,
    /// A string, on a type whose default is a string.
    Text(Text<'a>),
    /// A boolean, on a checkbox.
    Flag(bool, Span),
    /// An array on a multiselect: its string elements (other elements are left to the
    /// `default-value-type` rule, which reads the array itself).
    List(Vec<Text<'a>>, &'a Value<'s>),
    /// A JSON number on a `number` iparam, where the format documents a string.
    Number(&'a str, Span),
    /// Any other shape for the type.
    Mismatched(&'a Value<'s>),
    /// The type is missing or unknown, so nothing can be said of the default.
    Unchecked(&'a Value<'s>),
}

/// One member of the definition object, with the attribute its key names, if any.
#[derive(Clone, Copy, Debug)]
pub struct AttributeMember<'a, 's> {
    pub attribute: Option<Attribute>,
    pub member: &'a Member<'s>,
}

/// One `regex` entry: a pattern and the message shown when it fails.
#[derive(Clone, Copy, Debug)]
pub struct RegexEntry<'a, 's> {
    pub name: &'a Key<'s>,
    pub pattern: &'a Value<'s>,
    /// The `<name>-error` member.
    pub message: Option<&'a Member<'s>>,
}

/// The `regex` object, split into patterns and their messages.
#[derive(Clone, Debug)]
pub struct Regexes<'a, 's> {
    pub member: &'a Member<'s>,
    pub patterns: Vec<RegexEntry<'a, 's>>,
    /// `<name>-error` members whose `<name>` has no pattern.
    pub orphan_messages: Vec<&'a Member<'s>>,
}

/// A credential-looking string found in a definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CredentialHit {
    pub span: Span,
    pub kind: &'static str,
}

/// One iparam definition.
#[derive(Debug)]
pub struct Iparam<'a, 's> {
    pub key: &'a Key<'s>,
    /// The definition as written; normally an object.
    pub value: &'a Value<'s>,
    /// Every member of the definition, in order, duplicates included.
    pub members: Vec<AttributeMember<'a, 's>>,
    pub ty: TypeField<'a>,
    /// The string elements of `options`, when it is an array.
    pub options: Option<Vec<Text<'a>>>,
    pub default: DefaultValue<'a, 's>,
    /// `type_attributes.product`, when it is a string.
    pub product: Option<Text<'a>>,
    /// How the key reads to the secure-key heuristics.
    pub sensitivity: secrets::Sensitivity,
    /// Whether the vendor's validator warns that the key "appears to be a secure param".
    pub vendor_warns: bool,
    /// Strings that look like real credentials.
    pub credentials: Vec<CredentialHit>,
    /// Long random tokens (outside `regex`), not of a known format: the token within its
    /// string when the string holds more (and has no escapes), or the whole string.
    pub random_tokens: Vec<Span>,
    /// Spans whose text must never be shown: secret defaults and credentials.
    pub secrets: Vec<Span>,
    /// The `regex` attribute split into patterns and messages, when it is an object: split
    /// once here, as several rules read it.
    regexes: Option<Regexes<'a, 's>>,
    /// The last member for each attribute, as `JSON.parse` would keep it.
    attributes: [Option<&'a Member<'s>>; Attribute::ALL.len()],
}

impl<'a, 's> Iparam<'a, 's> {
    /// Lowers one top-level member.
    pub fn lower(member: &'a Member<'s>) -> Self {
        let mut attributes = [None; Attribute::ALL.len()];
        let members: Vec<_> = member
            .value
            .as_object()
            .unwrap_or_default()
            .iter()
            .map(|member| {
                let attribute = Attribute::from_name(&member.key.text);
                if let Some(attribute) = attribute {
                    attributes[attribute.index()] = Some(member);
                }
                AttributeMember { attribute, member }
            })
            .collect();

        let ty = match attributes[Attribute::Type.index()] {
            None => TypeField::Missing,
            Some(member) => match Text::of(&member.value) {
                None => TypeField::NotAString,
                Some(text) => match IparamType::from_name(text.text) {
                    Some(ty) => TypeField::Known(ty, text.span),
                    None => TypeField::Unknown(text),
                },
            },
        };
        let options = attributes[Attribute::Options.index()]
            .and_then(|m| m.value.as_array())
            .map(|items| items.iter().filter_map(Text::of).collect());
        let known_type = match ty {
            TypeField::Known(ty, _) => Some(ty),
            _ => None,
        };
        let default = attributes[Attribute::DefaultValue.index()]
            .map_or(DefaultValue::Absent, |m| {
                lower_default(known_type, &m.value)
            });
        let product = attributes[Attribute::TypeAttributes.index()]
            .and_then(|m| m.value.get("product"))
            .and_then(|m| Text::of(&m.value));

        let (sensitivity, vendor_warns) = secrets::read_key(&member.key.text);
        let mut iparam = Iparam {
            key: &member.key,
            value: &member.value,
            members,
            ty,
            options,
            default,
            product,
            sensitivity,
            vendor_warns,
            credentials: Vec::new(),
            random_tokens: Vec::new(),
            secrets: Vec::new(),
            regexes: None,
            attributes,
        };
        iparam.find_secrets();
        iparam.regexes = iparam.split_regexes();
        iparam
    }

    fn find_secrets(&mut self) {
        let mut credentials = Vec::new();
        let mut random_tokens = Vec::new();
        let mut look =
            |text: &str, span: Span, patterns: bool| match secrets::secret_in(text, !patterns) {
                Some(Secret::Credential(kind)) => credentials.push(CredentialHit { span, kind }),
                Some(Secret::RandomToken(start, end)) => {
                    // Only the token is hidden, so that the rest of a description stays readable;
                    // the whole string when it is all token, or when escapes make its text and its
                    // source differ.
                    let plain = span.end - span.start == text.len() + 2;
                    let whole = start == 0 && end == text.len();
                    random_tokens.push(if plain && !whole {
                        Span::new(span.start + 1 + start, span.start + 1 + end)
                    } else {
                        span
                    });
                }
                None => {}
            };
        match self.value.as_object() {
            Some(members) => {
                for member in members {
                    // Regex patterns look random: only known credential formats count there.
                    let patterns = member.key.text == Attribute::Regex.name();
                    member
                        .value
                        .walk_strings(&mut |text, span| look(text, span, patterns));
                }
            }
            None => self
                .value
                .walk_strings(&mut |text, span| look(text, span, false)),
        }
        let mut hidden: Vec<Span> = credentials.iter().map(|hit| hit.span).collect();
        hidden.extend_from_slice(&random_tokens);
        if let Some(value) = self.string(Attribute::DataBind)
            && !types::looks_like_a_data_bind_name(value.text)
        {
            hidden.push(value.span);
        }
        if self.is_secure() || self.sensitivity.is_word() {
            // Every default, the ones a repeat drops too, and whatever its JSON type: a PIN
            // written as a number is as secret as a string.
            for default in &self.members {
                if default.attribute == Some(Attribute::DefaultValue) {
                    walk_scalars(&default.member.value, &mut |value| hidden.push(value.span));
                }
            }
        }
        hidden.sort_unstable();
        hidden.dedup();
        self.credentials = credentials;
        self.random_tokens = random_tokens;
        self.secrets = hidden;
    }

    /// The member for `attribute`; the last one when it is repeated.
    pub fn get(&self, attribute: Attribute) -> Option<&'a Member<'s>> {
        self.attributes[attribute.index()]
    }

    /// The attribute's value if it is a boolean.
    pub fn flag(&self, attribute: Attribute) -> Option<bool> {
        self.get(attribute)?.value.as_bool()
    }

    /// The attribute's value if it is a string.
    pub fn string(&self, attribute: Attribute) -> Option<Text<'a>> {
        Text::of(&self.get(attribute)?.value)
    }

    pub fn is_object(&self) -> bool {
        matches!(self.value.kind, ValueKind::Object(_))
    }

    pub fn known_type(&self) -> Option<IparamType> {
        match self.ty {
            TypeField::Known(ty, _) => Some(ty),
            _ => None,
        }
    }

    pub fn is_secure(&self) -> bool {
        self.flag(Attribute::Secure) == Some(true)
    }

    /// RFC 6901 pointer of the definition: `/<key>`. Made when a finding needs it: most
    /// iparams have none.
    pub fn pointer(&self) -> String {
        pointer::of_key(&self.key.text)
    }

    /// The pointer of a value below this iparam: `pointer_to(&["options", "2"])`.
    pub fn pointer_to(&self, segments: &[&str]) -> String {
        pointer::of_tokens(std::iter::once(self.key.text.as_ref()).chain(segments.iter().copied()))
    }

    /// The pointer of an attribute of this iparam.
    pub fn pointer_of(&self, attribute: Attribute) -> String {
        self.pointer_to(&[attribute.name()])
    }

    /// Whether `text` lies in a value that must not be shown (a secure iparam's, or one shaped
    /// like a credential).
    pub fn masks(&self, text: &Text<'_>) -> bool {
        self.masks_span(text.span)
    }

    /// Whether the value at `span` holds, or lies in, a value that must not be shown (a
    /// description holding a token is not quoted either).
    pub fn masks_span(&self, span: Span) -> bool {
        self.secrets
            .iter()
            .any(|secret| secret.start < span.end && span.start < secret.end)
    }

    /// Quotes a string of this definition for a message, masked when it must not be shown.
    pub fn quote(&self, text: &Text<'_>) -> String {
        if self.masks(text) {
            secrets::MASKED.to_owned()
        } else {
            let quoted = ["\"", text.text, "\""].concat();
            match suggest::shortened(&quoted) {
                Cow::Borrowed(_) => quoted,
                Cow::Owned(cut) => cut,
            }
        }
    }

    /// The `regex` attribute split into patterns and messages, when it is an object.
    pub fn regexes(&self) -> Option<&Regexes<'a, 's>> {
        self.regexes.as_ref()
    }

    fn split_regexes(&self) -> Option<Regexes<'a, 's>> {
        let member = self.get(Attribute::Regex)?;
        let entries = member.value.as_object()?;
        let keys = Positions::new(entries, |entry| Some(entry.key.text.as_ref()));
        let mut patterns: Vec<RegexEntry<'a, 's>> = Vec::new();
        let mut orphan_messages = Vec::new();
        for (at, entry) in entries.iter().enumerate() {
            match entry.key.text.strip_suffix(REGEX_ERROR_SUFFIX) {
                Some(name) if !name.is_empty() => {
                    if keys.last(name).is_none() {
                        orphan_messages.push(entry);
                    }
                }
                // A repeated pattern name: the last one is the one that applies, as
                // `JSON.parse` keeps it.
                _ if keys.last(&entry.key.text) != Some(at) => {}
                _ => {
                    let message_key = [&entry.key.text, REGEX_ERROR_SUFFIX].concat();
                    patterns.push(RegexEntry {
                        name: &entry.key,
                        pattern: &entry.value,
                        message: keys.last(&message_key).map(|at| &entries[at]),
                    });
                }
            }
        }
        Some(Regexes {
            member,
            patterns,
            orphan_messages,
        })
    }

    /// Every `{event: handler}` pair of `events`, whatever the shapes around it.
    pub fn event_pairs(&self) -> impl Iterator<Item = &'a Member<'s>> + use<'a, 's> {
        self.get(Attribute::Events)
            .and_then(|m| m.value.as_array())
            .unwrap_or_default()
            .iter()
            .filter_map(Value::as_object)
            .flatten()
    }
}

/// Calls `visit` on every value in `value` that is neither an array nor an object, itself
/// included, depth first.
pub(crate) fn walk_scalars<'v, 's>(value: &'v Value<'s>, visit: &mut dyn FnMut(&'v Value<'s>)) {
    match &value.kind {
        ValueKind::Array(items) => items.iter().for_each(|item| walk_scalars(item, visit)),
        ValueKind::Object(members) => members
            .iter()
            .for_each(|member| walk_scalars(&member.value, visit)),
        _ => visit(value),
    }
}

fn lower_default<'a, 's>(ty: Option<IparamType>, value: &'a Value<'s>) -> DefaultValue<'a, 's> {
    let Some(ty) = ty else {
        return DefaultValue::Unchecked(value);
    };
    match (ty, &value.kind) {
        (IparamType::Checkbox, ValueKind::Bool(flag)) => DefaultValue::Flag(*flag, value.span),
        (IparamType::Checkbox, _) => DefaultValue::Mismatched(value),
        (IparamType::Multiselect, ValueKind::Array(items)) => {
            DefaultValue::List(items.iter().filter_map(Text::of).collect(), value)
        }
        (IparamType::Multiselect, _) => DefaultValue::Mismatched(value),
        (IparamType::Number, ValueKind::Number(raw)) => DefaultValue::Number(raw, value.span),
        (_, ValueKind::String(_)) => {
            Text::of(value).map_or(DefaultValue::Mismatched(value), DefaultValue::Text)
        }
        _ => DefaultValue::Mismatched(value),
    }
}
