//! A recursive-descent JSON parser that keeps spans and recovers from hand-editing mistakes.

use std::borrow::Cow;

use super::error::{Found, SyntaxError, SyntaxErrorKind};
use super::scan::{leading_spaces, plain_run};
use super::tree::{JsonKind, Key, Member, Value, ValueKind};
use crate::span::Span;

/// How deep objects and arrays may nest. An iparams file needs four levels; the limit only
/// exists so that hostile input ends in an error instead of a stack overflow.
pub const MAX_DEPTH: usize = 128;

/// What the top level of a document turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootShape {
    /// An object; its members were handed to the caller one by one.
    Object(Span),
    /// Some other value.
    Other(JsonKind, Span),
    /// No value could be read (empty file, or a fatal error before the first value).
    Absent,
}

/// The outcome of [`parse_document`].
#[derive(Debug, Clone)]
pub struct Document {
    pub root: RootShape,
    /// Every syntax problem, in source order; at most the last one is fatal.
    pub errors: Vec<SyntaxError>,
}

impl Document {
    /// Whether the parser had to stop before the end of the text.
    pub fn is_incomplete(&self) -> bool {
        self.errors.iter().any(|error| error.fatal)
    }
}

/// Parses `text`, handing each member of a top-level object to `on_member` as soon as it is
/// read, so a large file is never held as one tree. Members are given even when an error later
/// in the file stops the parser.
pub fn parse_document<'s>(text: &'s str, mut on_member: impl FnMut(Member<'s>)) -> Document {
    let mut parser = Parser::new(text);
    let root = parser.parse_root(&mut on_member);
    Document {
        root,
        errors: parser.errors,
    }
}

/// Parses `text` into one tree. Returns `None` when no top-level value could be read.
pub fn parse_value(text: &str) -> (Option<Value<'_>>, Vec<SyntaxError>) {
    let mut parser = Parser::new(text);
    let mut members = Vec::new();
    let root = parser.parse_root(&mut |member| members.push(member));
    let value = match root {
        RootShape::Object(span) => Some(Value {
            kind: ValueKind::Object(members),
            span,
        }),
        RootShape::Other(..) => parser.other_root.take(),
        RootShape::Absent => None,
    };
    (value, parser.errors)
}

/// The error has been recorded; the parser must stop.
pub(super) struct Fatal;

pub(super) type Parse<T> = Result<T, Fatal>;

pub(super) struct Parser<'s> {
    text: &'s str,
    bytes: &'s [u8],
    pub(super) pos: usize,
    depth: usize,
    pub(super) errors: Vec<SyntaxError>,
    /// A non-object top-level value, kept for [`parse_value`].
    other_root: Option<Value<'s>>,
    /// Where the last string that ran into the end of its line was closed: its comma is
    /// probably inside it, so a missing comma right after it is not reported again.
    closed_at_line_end: Option<usize>,
    /// The members and items of the objects and arrays being read, innermost last: each is
    /// moved into a vector of its exact size when it closes, rather than grown one by one.
    members: Vec<Member<'s>>,
    items: Vec<Value<'s>>,
    /// Where a stretch of the top-level object read on its own ends: right after a top-level
    /// comma at one of these places, in order (none when the document is read whole).
    stops: Vec<usize>,
}

const BOM: &str = "\u{feff}";

impl<'s> Parser<'s> {
    pub(super) fn new(text: &'s str) -> Self {
        // The byte-order mark is the encoding layer's finding; here it is just skipped.
        let pos = if text.starts_with(BOM) { BOM.len() } else { 0 };
        Self {
            text,
            bytes: text.as_bytes(),
            pos,
            depth: 0,
            errors: Vec::new(),
            other_root: None,
            closed_at_line_end: None,
            members: Vec::new(),
            items: Vec::new(),
            stops: Vec::new(),
        }
    }

    /// A parser at `pos` in `text`, as after the top-level value (see [`Parser::after_root`]).
    pub(super) fn at(text: &'s str, pos: usize) -> Self {
        Self {
            pos,
            ..Self::new(text)
        }
    }

    /// A parser of the top-level object's members from `from`, right after its brace or after a
    /// comma, that stops right after any top-level comma at one of `stops` (in order).
    pub(super) fn in_stretch(text: &'s str, from: usize, stops: Vec<usize>) -> Self {
        Self {
            pos: from,
            depth: 1,
            stops,
            ..Self::new(text)
        }
    }

    fn parse_root(&mut self, on_member: &mut dyn FnMut(Member<'s>)) -> RootShape {
        let root = match self.parse_root_value(on_member) {
            Ok(root) => root,
            Err(Fatal) => return self.partial_root(),
        };
        self.after_root();
        root
    }

    /// After the top-level value: anything but whitespace and comments is an error.
    pub(super) fn after_root(&mut self) {
        if self.skip_trivia().is_ok() && self.pos < self.bytes.len() {
            let end = self.text[self.pos..]
                .find('\n')
                .map_or(self.bytes.len(), |n| self.pos + n);
            self.error(SyntaxErrorKind::TrailingContent, Span::new(self.pos, end));
        }
    }

    fn parse_root_value(&mut self, on_member: &mut dyn FnMut(Member<'s>)) -> Parse<RootShape> {
        self.skip_trivia()?;
        match self.peek() {
            None => {
                self.errors.push(SyntaxError {
                    kind: SyntaxErrorKind::Empty,
                    span: Span::at(self.pos),
                    related: None,
                    fatal: true,
                });
                Ok(RootShape::Absent)
            }
            Some(b'{') => {
                let span = self.parse_object_members(Some(on_member))?;
                Ok(RootShape::Object(span))
            }
            Some(_) => {
                let value = self.parse_value()?;
                let shape = RootShape::Other(value.json_kind(), value.span);
                self.other_root = Some(value);
                Ok(shape)
            }
        }
    }

    /// After a fatal error: the root was an object if the text starts with `{`.
    pub(super) fn partial_root(&self) -> RootShape {
        let start = if self.text.starts_with(BOM) {
            BOM.len()
        } else {
            0
        };
        match self.text[start..].trim_start().as_bytes().first() {
            Some(b'{') => {
                let open = self.text.len() - self.text[start..].trim_start().len();
                RootShape::Object(Span::new(open, self.text.len()))
            }
            _ => RootShape::Absent,
        }
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn peek_char(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn found(&self) -> Found {
        self.peek_char().map_or(Found::EndOfFile, Found::Char)
    }

    /// The span of the character at the current position (empty at the end of the text).
    fn char_span(&self) -> Span {
        Span::new(
            self.pos,
            self.pos + self.peek_char().map_or(0, char::len_utf8),
        )
    }

    /// Reports a missing comma after the value ending at `end`, unless that value is a string
    /// that was cut at the end of its line.
    fn missing_comma(&mut self, end: usize) {
        if self.closed_at_line_end != Some(end) {
            self.error(SyntaxErrorKind::MissingComma, Span::at(end));
        }
    }

    fn error(&mut self, kind: SyntaxErrorKind, span: Span) {
        self.errors.push(SyntaxError {
            kind,
            span,
            related: None,
            fatal: false,
        });
    }

    fn fatal<T>(&mut self, kind: SyntaxErrorKind, span: Span, related: Option<Span>) -> Parse<T> {
        self.errors.push(SyntaxError {
            kind,
            span,
            related,
            fatal: true,
        });
        Err(Fatal)
    }

    /// Skips whitespace and comments, reporting comments and odd whitespace. Called around every token, so
    /// plain whitespace is skipped here and the rest left to [`Parser::skip_other_trivia`].
    #[inline(always)]
    pub(super) fn skip_trivia(&mut self) -> Parse<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'\n') => self.pos += 1 + leading_spaces(&self.bytes[self.pos + 1..]),
                _ => break,
            }
        }
        match self.peek() {
            Some(b'/' | 0x80..) => self.skip_other_trivia(),
            _ => Ok(()),
        }
    }

    fn skip_other_trivia(&mut self) -> Parse<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'/') if self.bytes.get(self.pos + 1) == Some(&b'/') => {
                    let end = self.text[self.pos..]
                        .find('\n')
                        .map_or(self.bytes.len(), |n| self.pos + n);
                    let end = if self.bytes[end - 1] == b'\r' {
                        end - 1
                    } else {
                        end
                    };
                    self.error(SyntaxErrorKind::Comment, Span::new(self.pos, end));
                    self.pos = end;
                }
                Some(b'/') if self.bytes.get(self.pos + 1) == Some(&b'*') => {
                    let Some(close) = self.text[self.pos + 2..].find("*/") else {
                        let span = Span::new(self.pos, self.pos + 2);
                        return self.fatal(SyntaxErrorKind::UnterminatedComment, span, None);
                    };
                    let end = self.pos + 2 + close + 2;
                    self.error(SyntaxErrorKind::Comment, Span::new(self.pos, end));
                    self.pos = end;
                }
                Some(byte) if byte >= 0x80 => match self.peek_char() {
                    Some(character) if character.is_whitespace() || character == '\u{feff}' => {
                        let span = self.char_span();
                        self.error(SyntaxErrorKind::InvalidWhitespace { character }, span);
                        self.pos = span.end;
                    }
                    _ => return Ok(()),
                },
                _ => return Ok(()),
            }
        }
    }

    fn parse_value(&mut self) -> Parse<Value<'s>> {
        self.skip_trivia()?;
        match self.peek() {
            Some(b'{') => {
                let first = self.members.len();
                let span = self.parse_object_members(None)?;
                Ok(Value {
                    kind: ValueKind::Object(self.members.drain(first..).collect()),
                    span,
                })
            }
            Some(b'[') => self.parse_array(),
            Some(quote @ (b'"' | b'\'')) => {
                let (text, span) = self.parse_string(quote)?;
                Ok(Value {
                    kind: ValueKind::String(text),
                    span,
                })
            }
            Some(b'-' | b'+' | b'.' | b'0'..=b'9') => Ok(self.parse_number()),
            Some(byte) if is_word_start(byte) => Ok(self.parse_word()),
            _ => {
                let span = self.char_span();
                let found = self.found();
                self.fatal(SyntaxErrorKind::ExpectedValue { found }, span, None)
            }
        }
    }

    fn enter(&mut self, open: Span) -> Parse<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return self.fatal(SyntaxErrorKind::TooDeep { limit: MAX_DEPTH }, open, None);
        }
        Ok(())
    }

    /// Parses an object whose `{` is at the current position, handing over each member (or
    /// keeping it on the stack of members).
    fn parse_object_members(
        &mut self,
        on_member: Option<&mut dyn FnMut(Member<'s>)>,
    ) -> Parse<Span> {
        let open = Span::new(self.pos, self.pos + 1);
        self.enter(open)?;
        self.pos += 1;
        let stopped = self.read_members(open, None, on_member)?;
        debug_assert!(stopped.is_none(), "only a stretch has places to stop at");
        self.pos += 1;
        self.depth -= 1;
        Ok(Span::new(open.start, self.pos))
    }

    /// Reads the members of the object opened at `open` up to its `}` (left unread), from the
    /// current position: right after the brace, or after the comma `comma`. Members handed to
    /// `on_member` (those of the top-level object) may instead end at one of
    /// [`Parser::stops`]: the place, right after a comma, is returned.
    pub(super) fn read_members(
        &mut self,
        open: Span,
        mut comma: Option<Span>,
        mut on_member: Option<&mut dyn FnMut(Member<'s>)>,
    ) -> Parse<Option<usize>> {
        let mut previous_end: Option<usize> = None;
        loop {
            self.skip_trivia()?;
            let key = match self.peek() {
                Some(b'}') => {
                    if let Some(comma) = comma {
                        self.error(SyntaxErrorKind::TrailingComma, comma);
                    }
                    break;
                }
                Some(b',') => {
                    self.error(SyntaxErrorKind::ExtraComma, self.char_span());
                    self.pos += 1;
                    continue;
                }
                Some(quote @ (b'"' | b'\'')) => {
                    let (text, span) = self.parse_string(quote)?;
                    Key { text, span }
                }
                Some(byte) if is_word_start(byte) => self.parse_unquoted_key(),
                None => return self.unclosed('}', open),
                Some(_) => {
                    let span = self.char_span();
                    let found = self.found();
                    return self.fatal(SyntaxErrorKind::ExpectedKey { found }, span, None);
                }
            };
            if let (Some(end), None) = (previous_end, comma) {
                self.missing_comma(end);
            }
            self.skip_trivia()?;
            if self.peek() != Some(b':') {
                let span = self.char_span();
                let found = self.found();
                return self.fatal(
                    SyntaxErrorKind::ExpectedColon { found },
                    span,
                    Some(key.span),
                );
            }
            self.pos += 1;
            let value = self.parse_value()?;
            previous_end = Some(value.span.end);
            let member = Member { key, value };
            match on_member.as_mut() {
                Some(on_member) => on_member(member),
                None => self.members.push(member),
            }
            comma = self.after_item(b'}', open)?;
            // Only the top-level object's members are handed over, and only its commas stop
            // a stretch: a guess inside an iparam must not end the reading of that iparam.
            if on_member.is_some()
                && let Some(comma) = comma
                && self.stops.binary_search(&comma.end).is_ok()
            {
                return Ok(Some(comma.end));
            }
        }
        Ok(None)
    }

    fn parse_array(&mut self) -> Parse<Value<'s>> {
        let open = Span::new(self.pos, self.pos + 1);
        self.enter(open)?;
        self.pos += 1;
        let first = self.items.len();
        let mut comma: Option<Span> = None;
        loop {
            self.skip_trivia()?;
            match self.peek() {
                Some(b']') => {
                    if let Some(comma) = comma {
                        self.error(SyntaxErrorKind::TrailingComma, comma);
                    }
                    break;
                }
                Some(b',') => {
                    self.error(SyntaxErrorKind::ExtraComma, self.char_span());
                    self.pos += 1;
                    continue;
                }
                None => return self.unclosed(']', open),
                Some(_) => {}
            }
            let item = self.parse_value()?;
            if let (Some(previous), None) = (self.items[first..].last(), comma) {
                let end = previous.span.end;
                self.missing_comma(end);
            }
            self.items.push(item);
            comma = self.after_item(b']', open)?;
        }
        self.pos += 1;
        self.depth -= 1;
        Ok(Value {
            kind: ValueKind::Array(self.items.drain(first..).collect()),
            span: Span::new(open.start, self.pos),
        })
    }

    /// After an item: consumes a comma (returning its span), or stops before the closing
    /// bracket, or before the next item when the comma is missing.
    fn after_item(&mut self, close: u8, open: Span) -> Parse<Option<Span>> {
        self.skip_trivia()?;
        match self.peek() {
            Some(b',') => {
                let span = self.char_span();
                self.pos += 1;
                Ok(Some(span))
            }
            Some(byte) if byte == close => Ok(None),
            // The next item starts without a comma: the loop reports it and goes on.
            Some(b'"' | b'\'' | b'{' | b'[' | b'-' | b'0'..=b'9') => Ok(None),
            Some(byte) if is_word_start(byte) => Ok(None),
            None => self.unclosed(char::from(close), open),
            Some(_) => {
                let span = self.char_span();
                let found = self.found();
                let kind = SyntaxErrorKind::ExpectedCommaOrClose {
                    close: char::from(close),
                    found,
                };
                self.fatal(kind, span, Some(open))
            }
        }
    }

    fn unclosed<T>(&mut self, close: char, open: Span) -> Parse<T> {
        self.fatal(SyntaxErrorKind::Unclosed { close }, open, None)
    }

    /// Parses a string literal delimited by `quote`. Single quotes are an error, recovered.
    fn parse_string(&mut self, quote: u8) -> Parse<(Cow<'s, str>, Span)> {
        let start = self.pos;
        self.pos += 1;
        // Fast path: no escapes, no control characters.
        let body_start = self.pos;
        self.pos += plain_run(&self.bytes[self.pos..], quote);
        let text = if self.peek() == Some(quote) {
            self.pos += 1;
            Cow::Borrowed(&self.text[body_start..self.pos - 1])
        } else {
            let mut owned = String::from(&self.text[body_start..self.pos]);
            self.parse_string_slow(quote, start, &mut owned)?;
            Cow::Owned(owned)
        };
        let span = Span::new(start, self.pos);
        if quote == b'\'' {
            self.error(SyntaxErrorKind::SingleQuotedString, span);
        }
        Ok((text, span))
    }

    fn parse_string_slow(&mut self, quote: u8, start: usize, out: &mut String) -> Parse<()> {
        loop {
            let Some(character) = self.peek_char() else {
                let span = Span::new(start, start + 1);
                return self.fatal(SyntaxErrorKind::UnterminatedString, span, None);
            };
            match character {
                c if c as u32 == u32::from(quote) => {
                    self.pos += 1;
                    return Ok(());
                }
                '\n' | '\r' => {
                    // JSON strings cannot span lines: close this one here and carry on.
                    self.error(
                        SyntaxErrorKind::UnterminatedString,
                        Span::new(start, self.pos),
                    );
                    self.closed_at_line_end = Some(self.pos);
                    return Ok(());
                }
                '\\' => self.parse_escape(quote, out),
                c if (c as u32) < 0x20 => {
                    self.error(
                        SyntaxErrorKind::ControlCharacter { character: c },
                        self.char_span(),
                    );
                    out.push(c);
                    self.pos += 1;
                }
                c => {
                    out.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
    }

    fn parse_escape(&mut self, quote: u8, out: &mut String) {
        let start = self.pos;
        let Some(escaped) = self.text[start + 1..].chars().next() else {
            self.pos += 1;
            return;
        };
        self.pos += 1 + escaped.len_utf8();
        let simple = match escaped {
            '"' => Some('"'),
            '\\' => Some('\\'),
            '/' => Some('/'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            '\'' if quote == b'\'' => Some('\''),
            _ => None,
        };
        if let Some(character) = simple {
            out.push(character);
            return;
        }
        if escaped == 'u'
            && let Some(unit) = self.hex4(self.pos)
        {
            self.pos += 4;
            out.push(self.finish_utf16(unit));
            return;
        }
        if escaped == '\n' || escaped == '\r' {
            self.pos -= escaped.len_utf8();
        } else {
            out.push(escaped);
        }
        let span = Span::new(start, self.pos);
        self.error(
            SyntaxErrorKind::InvalidEscape {
                escape: self.text[span.start..span.end].to_owned(),
            },
            span,
        );
    }

    fn hex4(&self, at: usize) -> Option<u16> {
        let digits = self.text.get(at..at + 4)?;
        if digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            u16::from_str_radix(digits, 16).ok()
        } else {
            None
        }
    }

    /// Completes a `\u` escape, joining a surrogate pair. A lone surrogate, which
    /// `JSON.parse` accepts, becomes U+FFFD.
    fn finish_utf16(&mut self, unit: u16) -> char {
        if (0xD800..0xDC00).contains(&unit)
            && self.text[self.pos..].starts_with("\\u")
            && let Some(low @ 0xDC00..=0xDFFF) = self.hex4(self.pos + 2)
        {
            self.pos += 6;
            let code = 0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
            return char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER);
        }
        char::from_u32(u32::from(unit)).unwrap_or(char::REPLACEMENT_CHARACTER)
    }

    fn parse_number(&mut self) -> Value<'s> {
        let start = self.pos;
        while let Some(byte) = self.peek() {
            if byte.is_ascii_alphanumeric() || matches!(byte, b'.' | b'+' | b'-') {
                self.pos += 1;
            } else {
                break;
            }
        }
        let span = Span::new(start, self.pos);
        let text = &self.text[start..self.pos];
        if !is_json_number(text) {
            self.error(
                SyntaxErrorKind::InvalidNumber {
                    text: text.to_owned(),
                },
                span,
            );
        }
        Value {
            kind: ValueKind::Number(text),
            span,
        }
    }

    /// A bare word where a value belongs: a literal, a misspelt literal, or an unquoted string.
    fn parse_word(&mut self) -> Value<'s> {
        let span = self.scan_word();
        let word = &self.text[span.start..span.end];
        let kind = match word {
            "true" => {
                return Value {
                    kind: ValueKind::Bool(true),
                    span,
                };
            }
            "false" => {
                return Value {
                    kind: ValueKind::Bool(false),
                    span,
                };
            }
            "null" => {
                return Value {
                    kind: ValueKind::Null,
                    span,
                };
            }
            _ => match word.to_ascii_lowercase().as_str() {
                "true" => (ValueKind::Bool(true), Some("true")),
                "false" => (ValueKind::Bool(false), Some("false")),
                "null" | "none" | "nil" | "undefined" => (ValueKind::Null, Some("null")),
                "nan" | "infinity" => (ValueKind::Number(word), None),
                _ => (ValueKind::String(Cow::Borrowed(word)), None),
            },
        };
        let error = match (&kind.0, kind.1) {
            (_, Some(replacement)) => SyntaxErrorKind::WrongLiteral {
                found: word.to_owned(),
                replacement,
            },
            (ValueKind::Number(_), None) => SyntaxErrorKind::InvalidNumber {
                text: word.to_owned(),
            },
            _ => SyntaxErrorKind::UnquotedString {
                word: word.to_owned(),
            },
        };
        self.error(error, span);
        Value { kind: kind.0, span }
    }

    fn parse_unquoted_key(&mut self) -> Key<'s> {
        let span = self.scan_word();
        let name = &self.text[span.start..span.end];
        self.error(
            SyntaxErrorKind::UnquotedKey {
                name: name.to_owned(),
            },
            span,
        );
        Key {
            text: Cow::Borrowed(name),
            span,
        }
    }

    fn scan_word(&mut self) -> Span {
        let start = self.pos;
        while let Some(byte) = self.peek() {
            if is_word_start(byte) || byte.is_ascii_digit() || byte == b'-' || byte == b'.' {
                self.pos += 1;
            } else {
                break;
            }
        }
        Span::new(start, self.pos)
    }
}

fn is_word_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || byte == b'_' || byte == b'$'
}

/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
fn is_json_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = usize::from(bytes.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while bytes.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    match bytes.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<SyntaxErrorKind> {
        parse_value(text)
            .1
            .into_iter()
            .map(|error| error.kind)
            .collect()
    }

    #[test]
    fn spans_cover_keys_and_values() {
        let text = r#"{ "a" : [1, "x\n"], "b": {"c": null} }"#;
        let (value, errors) = parse_value(text);
        assert!(errors.is_empty());
        let value = value.unwrap();
        assert_eq!(value.span, Span::new(0, text.len()));
        let a = value.get("a").unwrap();
        assert_eq!(&text[a.key.span.start..a.key.span.end], "\"a\"");
        assert_eq!(&text[a.value.span.start..a.value.span.end], r#"[1, "x\n"]"#);
        let items = a.value.as_array().unwrap();
        assert_eq!(items[1].as_str(), Some("x\n"));
        assert_eq!(&text[items[1].span.start..items[1].span.end], r#""x\n""#);
        let c = value.get("b").unwrap().value.get("c").unwrap();
        assert_eq!(c.value.kind, ValueKind::Null);
    }

    #[test]
    fn duplicate_keys_are_all_kept() {
        let (value, _) = parse_value(r#"{"a": 1, "a": 2}"#);
        let value = value.unwrap();
        assert_eq!(value.as_object().unwrap().len(), 2);
        assert_eq!(value.get("a").unwrap().value.kind, ValueKind::Number("2"));
    }

    #[test]
    fn recovers_from_trailing_commas_and_comments() {
        let text = "{\n // note\n \"a\": [1, 2,],\n /* x */ \"b\": true,\n}";
        let (value, errors) = parse_value(text);
        let got: Vec<_> = errors.iter().map(|e| (&e.kind, e.fatal)).collect();
        assert_eq!(
            got,
            vec![
                (&SyntaxErrorKind::Comment, false),
                (&SyntaxErrorKind::TrailingComma, false),
                (&SyntaxErrorKind::Comment, false),
                (&SyntaxErrorKind::TrailingComma, false),
            ]
        );
        assert_eq!(value.unwrap().get("b").unwrap().value.as_bool(), Some(true));
        assert_eq!(&text[errors[0].span.start..errors[0].span.end], "// note");
    }

    #[test]
    fn recovers_from_missing_commas_quotes_and_literals() {
        let text = "{\"a\": True\n \"b\": 'x', c: text, \"d\": 01}";
        let (value, errors) = parse_value(text);
        let value = value.unwrap();
        assert!(errors.iter().all(|e| !e.fatal));
        assert_eq!(
            errors.iter().map(|e| e.kind.clone()).collect::<Vec<_>>(),
            vec![
                SyntaxErrorKind::WrongLiteral {
                    found: "True".into(),
                    replacement: "true"
                },
                SyntaxErrorKind::MissingComma,
                SyntaxErrorKind::SingleQuotedString,
                SyntaxErrorKind::UnquotedKey { name: "c".into() },
                SyntaxErrorKind::UnquotedString {
                    word: "text".into()
                },
                SyntaxErrorKind::InvalidNumber { text: "01".into() },
            ]
        );
        assert_eq!(value.get("a").unwrap().value.as_bool(), Some(true));
        assert_eq!(value.get("b").unwrap().value.as_str(), Some("x"));
        assert_eq!(value.get("c").unwrap().value.as_str(), Some("text"));
    }

    #[test]
    fn unclosed_objects_point_at_their_opening() {
        let text = "{\"a\": {\"b\": 1}";
        let (_, errors) = parse_value(text);
        let last = errors.last().unwrap();
        assert!(last.fatal);
        assert_eq!(last.kind, SyntaxErrorKind::Unclosed { close: '}' });
        assert_eq!(last.span, Span::new(0, 1));
    }

    #[test]
    fn members_before_a_fatal_error_are_still_delivered() {
        let mut keys = Vec::new();
        let document = parse_document(r#"{"a": {}, "b": {}, "c": {"x": @}}"#, |m| {
            keys.push(m.key.text.into_owned())
        });
        assert_eq!(keys, ["a", "b"]);
        assert!(document.is_incomplete());
        assert!(matches!(document.root, RootShape::Object(_)));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000);
        let errors = kinds(&text);
        assert_eq!(errors, vec![SyntaxErrorKind::TooDeep { limit: MAX_DEPTH }]);
        let text = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(kinds(&text).is_empty());
    }

    #[test]
    fn escapes_and_surrogates() {
        let (value, errors) = parse_value(r#"["\ud83d\ude00", "\ud800", "a\qb", "é\t"]"#);
        let items: Vec<_> = value
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(items, ["😀", "\u{fffd}", "aqb", "é\t"]);
        assert_eq!(errors.len(), 1);
        assert_eq!(
            errors[0].kind,
            SyntaxErrorKind::InvalidEscape {
                escape: "\\q".into()
            }
        );
    }

    #[test]
    fn strings_do_not_run_past_the_end_of_their_line() {
        let text = "{\"a\": \"open\n, \"b\": 1}";
        let (value, errors) = parse_value(text);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].kind, SyntaxErrorKind::UnterminatedString);
        assert_eq!(
            value.unwrap().get("b").unwrap().value.kind,
            ValueKind::Number("1")
        );
        // The comma inside the unclosed string is not reported missing a second time.
        let (_, errors) = parse_value("{\"a\": \"open,\n \"b\": 1}");
        assert_eq!(
            errors.iter().map(|e| e.kind.clone()).collect::<Vec<_>>(),
            vec![SyntaxErrorKind::UnterminatedString]
        );
    }

    #[test]
    fn empty_and_non_object_documents() {
        assert_eq!(kinds("  \n"), vec![SyntaxErrorKind::Empty]);
        let document = parse_document("[1]", |_| {});
        assert!(matches!(
            document.root,
            RootShape::Other(JsonKind::Array, _)
        ));
        assert_eq!(kinds("{} x"), vec![SyntaxErrorKind::TrailingContent]);
    }

    #[test]
    fn json_number_grammar() {
        for ok in ["0", "-0", "12", "1.5", "1e5", "1E+5", "-1.25e-3"] {
            assert!(is_json_number(ok), "{ok}");
        }
        for bad in ["01", "+1", "1.", ".5", "0x1F", "-", "1e", "--1", "Infinity"] {
            assert!(!is_json_number(bad), "{bad}");
        }
    }
}
