//! Where a character of a string literal's unescaped text sits in the source: escapes make the
//! two differ.

use crate::span::Span;

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
