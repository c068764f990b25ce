//! What the values are checked against: iparams.json, read only when it is JSON without a single
//! mistake, or the keys a custom installation page stores; each iparam as a [`Definition`].

use std::collections::HashMap;

use crate::app::{Declarations, Declared};
use crate::model::Iparam;
use crate::pointer;
use crate::reading::{FileKind, describe_syntax_error};
use crate::secrets;
use crate::source::SourceText;
use crate::span::{LineIndex, Span};
use crate::syntax::{SyntaxError, Value, parse_value};

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
