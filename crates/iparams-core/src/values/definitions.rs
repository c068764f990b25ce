//! The definitions the values are checked against: iparams.json, or what a custom installation
//! page stores written as one, read only when it is JSON without a single mistake.

use std::collections::HashMap;

use crate::model::Iparam;
use crate::reading::{FileKind, describe_syntax_error};
use crate::source::SourceText;
use crate::span::{LineIndex, Span};
use crate::syntax::{SyntaxError, Value, parse_value};

/// The iparams.json the values are checked against, or what a custom installation page stores
/// written as one.
#[derive(Debug)]
pub struct DefinitionsFile<'a> {
    pub(crate) text: &'a str,
    /// As shown to the user.
    pub(crate) path: &'a str,
    lines: LineIndex,
    /// For a custom page's iparams, the place of each key's name in `text`, as the page's
    /// scripts have it: `config/assets/iparams.js:7:5`.
    places: Vec<(Span, String)>,
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
            places: Vec::new(),
            page: false,
            sometimes: &[],
        }
    }

    /// The iparams of a custom page, written as `text` whose keys' names are at `places`;
    /// `sometimes` are the keys it stores only sometimes.
    pub(crate) fn of_page(
        text: &'a str,
        path: &'a str,
        places: Vec<(Span, String)>,
        sometimes: &'a [String],
    ) -> Self {
        Self {
            places,
            page: true,
            sometimes,
            ..Self::new(text, path)
        }
    }

    /// Whether every installation stores `key`: a key a custom page's `postConfigs` returns on
    /// every path (for iparams.json, never: an optional iparam may be left out).
    pub fn always_stored(&self, key: &str) -> bool {
        self.page && !self.sometimes.iter().any(|sometimes| sometimes == key)
    }

    /// `path:line:column` of `span`.
    pub(crate) fn place(&self, span: Span) -> String {
        if let Some((_, place)) = self.places.iter().find(|(at, _)| at.contains(span)) {
            return place.clone();
        }
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
