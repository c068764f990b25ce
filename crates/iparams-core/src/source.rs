//! Turning the bytes of a file into text without losing track of where each byte was.

use std::borrow::Cow;

use crate::span::Span;

/// A file's text, ready to parse, and what was wrong with its encoding.
///
/// Byte offsets in the text are byte offsets in the file: a byte that is not UTF-8 is replaced
/// by one `?` rather than by U+FFFD (three bytes), so every span still points at the file.
#[derive(Debug, Clone)]
pub struct SourceText<'b> {
    text: Cow<'b, str>,
    pub problems: Vec<EncodingProblem>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncodingProblem {
    /// The file starts with the UTF-8 byte-order mark.
    ByteOrderMark,
    /// The file is UTF-16 (it starts with a UTF-16 byte-order mark, or its ASCII bytes
    /// alternate with zero bytes). Nothing else can be read.
    Utf16 { big_endian: bool },
    /// A run of bytes that is not UTF-8.
    InvalidUtf8 { span: Span, bytes: Vec<u8> },
}

impl<'b> SourceText<'b> {
    pub fn decode(bytes: &'b [u8]) -> Self {
        if let Some(big_endian) = utf16_endianness(bytes) {
            return Self {
                text: Cow::Borrowed(""),
                problems: vec![EncodingProblem::Utf16 { big_endian }],
            };
        }
        let mut problems = Vec::new();
        if bytes.starts_with(b"\xEF\xBB\xBF") {
            problems.push(EncodingProblem::ByteOrderMark);
        }
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => Cow::Owned(replace_invalid_bytes(bytes, &mut problems)),
        };
        Self { text, problems }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the text could not be read at all.
    pub fn is_unreadable(&self) -> bool {
        self.problems
            .iter()
            .any(|problem| matches!(problem, EncodingProblem::Utf16 { .. }))
    }
}

fn replace_invalid_bytes(bytes: &[u8], problems: &mut Vec<EncodingProblem>) -> String {
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        let invalid = chunk.invalid();
        if !invalid.is_empty() {
            let start = text.len();
            text.extend(std::iter::repeat_n('?', invalid.len()));
            let span = Span::new(start, text.len());
            // Adjacent runs are one mistake (one Latin-1 word), so they are one problem.
            match problems.last_mut() {
                Some(EncodingProblem::InvalidUtf8 { span: last, bytes }) if last.end == start => {
                    last.end = span.end;
                    bytes.extend_from_slice(invalid);
                }
                _ => problems.push(EncodingProblem::InvalidUtf8 {
                    span,
                    bytes: invalid.to_vec(),
                }),
            }
        }
    }
    text
}

/// UTF-16 shows as a byte-order mark, or as zero bytes beside the ASCII of `{` and `"`.
fn utf16_endianness(bytes: &[u8]) -> Option<bool> {
    match bytes {
        [0xFF, 0xFE, ..] => Some(false),
        [0xFE, 0xFF, ..] => Some(true),
        [first, 0, second, 0, ..] if first.is_ascii() && second.is_ascii() && *first != 0 => {
            Some(false)
        }
        [0, first, 0, second, ..] if first.is_ascii() && second.is_ascii() && *first != 0 => {
            Some(true)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_bytes_keep_their_offsets() {
        let bytes = b"{\"caf\xE9\": 1, \"x\xFF\xFE\": 2}";
        let source = SourceText::decode(bytes);
        assert_eq!(source.text().len(), bytes.len());
        assert_eq!(source.text(), "{\"caf?\": 1, \"x??\": 2}");
        assert_eq!(
            source.problems,
            vec![
                EncodingProblem::InvalidUtf8 {
                    span: Span::new(5, 6),
                    bytes: vec![0xE9]
                },
                EncodingProblem::InvalidUtf8 {
                    span: Span::new(14, 16),
                    bytes: vec![0xFF, 0xFE]
                },
            ]
        );
    }

    #[test]
    fn byte_order_marks() {
        assert_eq!(
            SourceText::decode(b"\xEF\xBB\xBF{}").problems,
            vec![EncodingProblem::ByteOrderMark]
        );
        assert!(SourceText::decode(b"\xFF\xFE{\0}\0").is_unreadable());
        assert!(SourceText::decode(b"{\0\"\0").is_unreadable());
        assert!(SourceText::decode(b"{}").problems.is_empty());
    }
}
