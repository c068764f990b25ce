//! The tree the parser builds: values, members and keys, each with its byte range.

use std::borrow::Cow;

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
