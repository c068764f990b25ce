//! Finding where a string's plain run ends, eight bytes at a time, to read JSON strings and to
//! write them.
//!
//! Strings are most of a JSON file's bytes, and most of a string is bytes that need no care:
//! neither the closing quote, nor a backslash, nor a control character. Reading and writing
//! JSON both look for the first byte that does.

use crate::eight_bytes::{ONES, first_below, first_equal};

/// The index of the first byte of `bytes` that is `quote`, `\` or below 0x20, or its length.
pub(crate) fn plain_run(bytes: &[u8], quote: u8) -> usize {
    first_flagged(
        bytes,
        |word| first_below(word, 0x20) | first_equal(word, quote) | first_equal(word, b'\\'),
        |byte| byte == quote || byte == b'\\' || byte < 0x20,
    )
}

/// `text` as a JSON string literal, escaped as serde_json escapes it: quotes, backslashes and
/// control characters.
pub fn write_string(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    let mut rest = text.as_bytes();
    loop {
        let plain = plain_run(rest, b'"');
        out.extend_from_slice(&rest[..plain]);
        let Some(&byte) = rest.get(plain) else {
            break;
        };
        match byte {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(byte >> 4)]);
                out.push(HEX[usize::from(byte & 0xf)]);
            }
        }
        rest = &rest[plain + 1..];
    }
    out.push(b'"');
}

/// How many spaces `bytes` starts with: the indentation after a line break, skipped before
/// every key of a pretty-printed file.
pub(crate) fn leading_spaces(bytes: &[u8]) -> usize {
    // Non-zero in the bytes that are not spaces.
    first_flagged(bytes, |word| word ^ (ONES * 0x20), |byte| byte != b' ')
}

/// The index of the first byte of `bytes` that `flagged` holds, or its length, read a word at
/// a time: `flags` maps eight bytes to a word whose lowest non-zero byte is the first flagged
/// one (bytes above it may be flagged wrongly: borrows only run towards higher bytes).
fn first_flagged(bytes: &[u8], flags: impl Fn(u64) -> u64, flagged: impl Fn(u8) -> bool) -> usize {
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in words.by_ref() {
        let found = flags(u64::from_le_bytes(
            word.try_into().expect("chunks of eight"),
        ));
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    let rest = words.remainder();
    at + rest
        .iter()
        .position(|&byte| flagged(byte))
        .unwrap_or(rest.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `plain_run` must find, byte by byte.
    fn slow(bytes: &[u8], quote: u8) -> usize {
        bytes
            .iter()
            .position(|&b| b == quote || b == b'\\' || b < 0x20)
            .unwrap_or(bytes.len())
    }

    #[test]
    fn agrees_with_a_byte_by_byte_search() {
        let specials = [b'"', b'\'', b'\\', 0, 0x1f, b'\n'];
        let fillers = [b'a', b' ', 0x20, 0x7f, 0x80, 0xc3, 0xff, b'!', b'#', b']'];
        for length in 0..24 {
            for position in 0..=length {
                for special in specials {
                    for filler in fillers {
                        let mut bytes = vec![filler; length];
                        if position < length {
                            bytes[position] = special;
                        }
                        for quote in [b'"', b'\''] {
                            assert_eq!(
                                plain_run(&bytes, quote),
                                slow(&bytes, quote),
                                "{bytes:?} {quote}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn counts_leading_spaces_as_a_byte_by_byte_count_does() {
        for length in 0..24 {
            for stop in 0..=length {
                for other in [b'\n', b'\t', b'!', 0x00, 0x80, 0xa0] {
                    let mut bytes = vec![b' '; length];
                    if stop < length {
                        bytes[stop] = other;
                    }
                    let slow = bytes.iter().take_while(|&&b| b == b' ').count();
                    assert_eq!(leading_spaces(&bytes), slow, "{bytes:?}");
                }
            }
        }
    }
}
