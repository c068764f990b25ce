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

use crate::app::{Declarations, Declared};
use crate::formats;
use crate::model::{Attribute, DefaultValue, Iparam, IparamType, Text};
use crate::pointer;
use crate::reading::{FileKind, describe_syntax_error};
use crate::secrets;
use crate::secrets::MASKED;
use crate::source::SourceText;
use crate::span::{LineIndex, Span};
use crate::suggest;
use crate::syntax::{Member, SyntaxError, Value, ValueKind, parse_value};

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

/// What installation values are checked against.
#[derive(Clone, Copy, Debug)]
pub enum Definitions<'d> {
    /// iparams.json's text, and how output names it.
    Json {
        source: &'d SourceText<'d>,
        path: &'d str,
    },
    /// The keys a custom installation page stores, as the check of its app found them.
    Page(&'d Declarations),
}

/// What one value is checked against.
#[derive(Debug)]
pub enum Definition<'a> {
    /// An iparam of iparams.json.
    Json(Box<Iparam<'a, 'a>>),
    /// A key a custom installation page stores: it has no type, options or default, and is
    /// secure when `__meta.secure` lists it. `place` is where the page's code writes it.
    Page {
        declared: &'a Declared,
        place: &'a str,
    },
}

impl<'a> Definition<'a> {
    pub fn key(&self) -> &str {
        match self {
            Definition::Json(iparam) => &iparam.key.text,
            Definition::Page { declared, .. } => &declared.key,
        }
    }

    /// The iparam of iparams.json, when it is one.
    pub fn iparam(&self) -> Option<&Iparam<'a, 'a>> {
        match self {
            Definition::Json(iparam) => Some(iparam),
            Definition::Page { .. } => None,
        }
    }

    pub fn is_secure(&self) -> bool {
        match self {
            Definition::Json(iparam) => iparam.is_secure(),
            Definition::Page { declared, .. } => declared.secure,
        }
    }

    /// Its values must never be shown: it is secure, or its key names a secret.
    pub(crate) fn is_secret(&self) -> bool {
        let sensitivity = match self {
            Definition::Json(iparam) => iparam.sensitivity,
            Definition::Page { declared, .. } => secrets::key_sensitivity(&declared.key),
        };
        self.is_secure() || sensitivity.is_word()
    }

    /// Where it is defined, `path:line:column`, in `file` for iparams.json.
    pub(crate) fn defined_at(&self, file: &DefinitionsFile<'_>) -> String {
        match self {
            Definition::Json(iparam) => file.place(iparam.key.span),
            Definition::Page { place, .. } => (*place).to_owned(),
        }
    }

    /// The pointer of a value below the key in a values file: `pointer_to(&["2"])`.
    pub(crate) fn pointer_to(&self, segments: &[&str]) -> String {
        pointer::of_tokens(std::iter::once(self.key()).chain(segments.iter().copied()))
    }
}

/// The definitions as read: what the iparams checked against them borrow from.
#[derive(Debug)]
pub(crate) enum ReadDefinitions<'d> {
    Json(Value<'d>),
    Page(&'d Declarations),
}

/// Reads `definitions`, or says why the values cannot be checked against them.
pub(crate) fn read_definitions(
    definitions: Definitions<'_>,
) -> Result<ReadDefinitions<'_>, Unusable> {
    match definitions {
        Definitions::Json { source, .. } => parse_definitions(source).map(ReadDefinitions::Json),
        Definitions::Page(page) if page.complete => Ok(ReadDefinitions::Page(page)),
        Definitions::Page(_) => Err(Unusable {
            problem: "the keys its `postConfigs` returns cannot be told from the code".to_owned(),
            at: None,
        }),
    }
}

impl ReadDefinitions<'_> {
    /// Each iparam once: a repeated key of iparams.json keeps its first place and its last
    /// definition, as `JSON.parse` builds the object.
    pub(crate) fn iparams(&self) -> Vec<Definition<'_>> {
        match self {
            ReadDefinitions::Json(root) => lower_definitions(root)
                .into_iter()
                .map(|iparam| Definition::Json(Box::new(iparam)))
                .collect(),
            ReadDefinitions::Page(page) => page
                .declared
                .iter()
                .zip(&page.places)
                .map(|(declared, place)| Definition::Page { declared, place })
                .collect(),
        }
    }
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

/// The file the values are checked against: iparams.json, or the one whose custom page's
/// `postConfigs` stores them.
#[derive(Debug)]
pub struct DefinitionsFile<'a> {
    pub(crate) text: &'a str,
    /// As shown to the user.
    pub(crate) path: &'a str,
    lines: LineIndex,
    page: bool,
    /// For a custom page, the keys it stores only sometimes.
    sometimes: &'a [String],
}

impl<'a> DefinitionsFile<'a> {
    pub(crate) fn new(text: &'a str, path: &'a str) -> Self {
        Self {
            text,
            path,
            lines: LineIndex::new(text),
            page: false,
            sometimes: &[],
        }
    }

    /// The iparams of the custom page whose keys are written in `path`; `sometimes` are the
    /// keys it stores only sometimes.
    pub(crate) fn of_page(path: &'a str, sometimes: &'a [String]) -> Self {
        Self {
            page: true,
            sometimes,
            ..Self::new("", path)
        }
    }

    /// Whether every installation stores `key`: a key a custom page's `postConfigs` returns on
    /// every path (for iparams.json, never: an optional iparam may be left out).
    pub fn always_stored(&self, key: &str) -> bool {
        self.page && !self.sometimes.iter().any(|sometimes| sometimes == key)
    }

    /// `path:line:column` of `span`.
    pub(crate) fn place(&self, span: Span) -> String {
        let at = self.lines.position(self.text, span.start);
        format!("{}:{}:{}", self.path, at.line, at.column)
    }
}

/// Why the definitions cannot be used: the values are then not checked, rather than checked
/// against a guess.
#[derive(Debug)]
pub struct Unusable {
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
        let (message, _, _) = describe_syntax_error(kind, FileKind::Iparams);
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

/// The spans of the values file that must be masked in any output: the values of secret
/// iparams (or of unknown keys that name a secret), and every string shaped like a credential.
pub(crate) fn secret_spans(members: &[Member<'_>], iparams: &[Definition<'_>]) -> Vec<Span> {
    let by_key: HashMap<&str, &Definition<'_>> = iparams
        .iter()
        .map(|iparam| (iparam.key(), iparam))
        .collect();
    let mut spans = Vec::new();
    for member in members {
        let secret = by_key.get(member.key.text.as_ref()).copied().map_or_else(
            || secrets::key_sensitivity(&member.key.text).is_word(),
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
