//! The span-keeping JSON layer: every key and value knows its byte range.
//!
//! The parser is written for a linter rather than a loader: it keeps duplicate keys, recovers
//! from the mistakes people make by hand (trailing commas, comments, missing commas, single
//! quotes, unquoted keys, `True`), reports each one with its position, and never recurses
//! deeper than [`MAX_DEPTH`].

mod error;
mod parser;
mod scan;
mod stretches;

use std::borrow::Cow;

pub use error::{SyntaxError, SyntaxErrorKind};
pub use parser::{Document, MAX_DEPTH, RootShape, parse_document, parse_value};
pub use scan::write_string;
use scan::{leading_spaces, plain_run};
#[cfg(test)]
pub(crate) use stretches::evenly;
pub use stretches::{likely_boundaries, parse_document_in_stretches};

use crate::span::Span;

/// A JSON value and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Value<'s> {
    pub kind: ValueKind<'s>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ValueKind<'s> {
    Null,
    Bool(bool),
    /// The number as written; it may be malformed when the parser recovered from a bad number.
    Number(&'s str),
    String(Cow<'s, str>),
    Array(Vec<Value<'s>>),
    /// Members in source order, duplicates included.
    Object(Vec<Member<'s>>),
}

/// One `"key": value` pair of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member<'s> {
    pub key: Key<'s>,
    pub value: Value<'s>,
}

/// An object key: its unescaped text and the span of the literal, quotes included.
#[derive(Debug, Clone, PartialEq)]
pub struct Key<'s> {
    pub text: Cow<'s, str>,
    pub span: Span,
}

/// The JSON kind of a value, for messages like "expected a string, found an array".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonKind {
    Null,
    Boolean,
    Number,
    String,
    Array,
    Object,
}

impl JsonKind {
    /// The kind with its article, as it reads in a sentence.
    pub const fn described(self) -> &'static str {
        match self {
            JsonKind::Null => "null",
            JsonKind::Boolean => "a boolean",
            JsonKind::Number => "a number",
            JsonKind::String => "a string",
            JsonKind::Array => "an array",
            JsonKind::Object => "an object",
        }
    }
}

impl<'s> Value<'s> {
    pub fn json_kind(&self) -> JsonKind {
        match self.kind {
            ValueKind::Null => JsonKind::Null,
            ValueKind::Bool(_) => JsonKind::Boolean,
            ValueKind::Number(_) => JsonKind::Number,
            ValueKind::String(_) => JsonKind::String,
            ValueKind::Array(_) => JsonKind::Array,
            ValueKind::Object(_) => JsonKind::Object,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            ValueKind::String(text) => Some(text),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.kind {
            ValueKind::Bool(value) => Some(value),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Value<'s>]> {
        match &self.kind {
            ValueKind::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&[Member<'s>]> {
        match &self.kind {
            ValueKind::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The member of an object with this key; the last one wins, as in `JSON.parse`.
    pub fn get(&self, key: &str) -> Option<&Member<'s>> {
        self.as_object()?
            .iter()
            .rev()
            .find(|member| member.key.text == key)
    }

    /// The pointer segments from this value down to the value whose span is `span`.
    pub fn path_to(&self, span: Span) -> Vec<String> {
        let mut path = Vec::new();
        let mut current = self;
        while current.span != span {
            let next = match &current.kind {
                ValueKind::Array(items) => items
                    .iter()
                    .enumerate()
                    .find(|(_, item)| item.span.contains(span))
                    .map(|(i, item)| (i.to_string(), item)),
                ValueKind::Object(members) => members
                    .iter()
                    .rev()
                    .find(|member| member.value.span.contains(span))
                    .map(|member| (member.key.text.to_string(), &member.value)),
                _ => None,
            };
            let Some((segment, child)) = next else { break };
            path.push(segment);
            current = child;
        }
        path
    }

    /// Calls `visit` on every string in this value, itself included, depth first.
    pub fn walk_strings(&self, visit: &mut dyn FnMut(&str, Span)) {
        match &self.kind {
            ValueKind::String(text) => visit(text, self.span),
            ValueKind::Array(items) => items.iter().for_each(|item| item.walk_strings(visit)),
            ValueKind::Object(members) => members
                .iter()
                .for_each(|member| member.value.walk_strings(visit)),
            _ => {}
        }
    }
}

/// The source span of bytes `start..end` of the unescaped text of the string literal at
/// `literal` in `source` (its quotes included in `literal`).
pub fn span_in_literal(source: &str, literal: Span, start: usize, end: usize) -> Span {
    let raw = source.get(literal.start..literal.end).unwrap_or("");
    Span::new(
        literal.start + offset_in_literal(raw, start),
        literal.start + offset_in_literal(raw, end),
    )
}

/// Where, in the source, character `index` (in bytes of the unescaped text) of the string
/// literal `raw` sits, `raw` being the literal with its quotes. Escapes make the two differ.
pub fn offset_in_literal(raw: &str, index: usize) -> usize {
    let bytes = raw.as_bytes();
    let (mut source, mut unescaped) = (1, 0);
    while source < bytes.len().saturating_sub(1) && unescaped < index {
        if bytes[source] == b'\\' && source + 1 < bytes.len() {
            let escape_len = if bytes[source + 1] == b'u' { 6 } else { 2 };
            let produced = if bytes[source + 1] == b'u' {
                u32::from_str_radix(raw.get(source + 2..source + 6).unwrap_or(""), 16)
                    .ok()
                    .and_then(char::from_u32)
                    .map_or(3, char::len_utf8)
            } else {
                1
            };
            source += escape_len;
            unescaped += produced;
        } else {
            source += 1;
            unescaped += 1;
        }
    }
    source.min(raw.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_in_literals_skip_escapes() {
        assert_eq!(offset_in_literal(r#""abc""#, 0), 1);
        assert_eq!(offset_in_literal(r#""abc""#, 2), 3);
        // `\\d` is one backslash in the text but two in the source.
        assert_eq!(offset_in_literal(r#""\\d+(""#, 3), 5);
        assert_eq!(offset_in_literal(r#""\u00e9x""#, 2), 7);
    }
}
