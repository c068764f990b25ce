//! Byte offsets ⇄ LSP positions, in the encoding negotiated with the client.
//!
//! LSP lines end at `\n`, `\r\n` or a lone `\r` (the core's [`iparams_core::LineIndex`] knows
//! only `\n`, which is what the command's line numbers use), and a position's `character`
//! counts UTF-8 bytes, UTF-16 code units or code points, as the client and server agreed.

use lsp_types::{Position, PositionEncodingKind, Range};

/// How a position's `character` is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
    Utf32,
}

impl Encoding {
    /// The first encoding the client offers that the server knows, in the client's order of
    /// preference; UTF-16, the protocol's default, when it offers none.
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Self {
        offered
            .unwrap_or_default()
            .iter()
            .find_map(|kind| match kind {
                PositionEncodingKind::UTF8 => Some(Encoding::Utf8),
                PositionEncodingKind::UTF16 => Some(Encoding::Utf16),
                PositionEncodingKind::UTF32 => Some(Encoding::Utf32),
                _ => None,
            })
            .unwrap_or(Encoding::Utf16)
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf32 => PositionEncodingKind::UTF32,
        }
    }

    /// How many units `c` counts for.
    fn units(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf32 => 1,
        }
    }

    /// How many units `text` counts for.
    fn count(self, text: &str) -> usize {
        match self {
            Encoding::Utf8 => text.len(),
            Encoding::Utf16 => text.chars().map(char::len_utf16).sum(),
            Encoding::Utf32 => text.chars().count(),
        }
    }
}

/// Where each line of a text starts, for converting positions of that text.
#[derive(Debug, Clone)]
pub struct LineMap {
    /// Byte offsets of line starts; the first is 0.
    starts: Vec<usize>,
    len: usize,
}

impl LineMap {
    pub fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut at = 0;
        while let Some(found) = memchr_2(bytes, at) {
            // `\r\n` is one break; a lone `\r` is one too.
            let next = if bytes[found] == b'\r' && bytes.get(found + 1) == Some(&b'\n') {
                found + 2
            } else {
                found + 1
            };
            starts.push(next);
            at = next;
        }
        Self {
            starts,
            len: text.len(),
        }
    }

    /// The 0-based line holding byte `offset`.
    fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&start| start <= offset) - 1
    }

    /// Where line `line`'s content ends: before its line break.
    fn line_end(&self, text: &str, line: usize) -> usize {
        match self.starts.get(line + 1) {
            None => self.len,
            Some(&next) => {
                let bytes = text.as_bytes();
                if next >= 2 && bytes[next - 2] == b'\r' && bytes[next - 1] == b'\n' {
                    next - 2
                } else {
                    next - 1
                }
            }
        }
    }

    /// The position of byte `offset` of `text`. An offset inside a character counts as that
    /// character's start; one inside a `\r\n` as the end of the line's content.
    pub fn position(&self, text: &str, offset: usize, encoding: Encoding) -> Position {
        let offset = text.floor_char_boundary(offset.min(self.len));
        let line = self.line_of(offset);
        let start = self.starts[line];
        let offset = offset.min(self.line_end(text, line));
        Position {
            line: line as u32,
            character: encoding.count(&text[start..offset]) as u32,
        }
    }

    /// The byte offset of `position` in `text`. A line past the end is the end of the text; a
    /// character past the end of its line is the end of the line (as the protocol asks); one
    /// inside a character is that character's end.
    pub fn offset(&self, text: &str, position: Position, encoding: Encoding) -> usize {
        let line = position.line as usize;
        let Some(&start) = self.starts.get(line) else {
            return self.len;
        };
        let end = self.line_end(text, line);
        let wanted = position.character as usize;
        if encoding == Encoding::Utf8 {
            // Inside a character: its end, as the UTF-16 and UTF-32 counts below give.
            return text.ceil_char_boundary((start + wanted).min(end));
        }
        let mut units = 0;
        for (at, c) in text[start..end].char_indices() {
            if units >= wanted {
                return start + at;
            }
            units += encoding.units(c);
        }
        end
    }

    pub fn range(&self, text: &str, start: usize, end: usize, encoding: Encoding) -> Range {
        Range {
            start: self.position(text, start, encoding),
            end: self.position(text, end, encoding),
        }
    }

    /// The byte range of `range` in `text`, its ends in order.
    pub fn span(&self, text: &str, range: Range, encoding: Encoding) -> (usize, usize) {
        let start = self.offset(text, range.start, encoding);
        let end = self.offset(text, range.end, encoding);
        (start.min(end), start.max(end))
    }
}

/// The first `\n` or `\r` at or after `from`.
fn memchr_2(bytes: &[u8], from: usize) -> Option<usize> {
    memchr::memchr2(b'\n', b'\r', &bytes[from..]).map(|at| at + from)
}

/// Many positions of one text, asked for in increasing order as a file's sorted findings are:
/// each is counted from the previous one on its line rather than from the line's start, so a
/// minified file's single long line is walked once, not once per finding.
#[derive(Debug)]
pub struct Cursor<'t> {
    text: &'t str,
    map: &'t LineMap,
    encoding: Encoding,
    /// The last position found, with its offset.
    last: Option<(usize, Position)>,
}

impl<'t> Cursor<'t> {
    pub fn new(text: &'t str, map: &'t LineMap, encoding: Encoding) -> Self {
        Self {
            text,
            map,
            encoding,
            last: None,
        }
    }

    pub fn position(&mut self, offset: usize) -> Position {
        let offset = self.text.floor_char_boundary(offset);
        let line = self.map.line_of(offset);
        let position = match self.last {
            Some((from, at))
                if at.line as usize == line
                    && from <= offset
                    && offset <= self.map.line_end(self.text, line) =>
            {
                Position {
                    line: at.line,
                    character: at.character + self.encoding.count(&self.text[from..offset]) as u32,
                }
            }
            _ => self.map.position(self.text, offset, self.encoding),
        };
        if offset <= self.map.line_end(self.text, line) {
            self.last = Some((offset, position));
        }
        position
    }

    pub fn range(&mut self, start: usize, end: usize) -> Range {
        Range {
            start: self.position(start),
            end: self.position(end),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn the_three_line_breaks() {
        let text = "a\nb\r\nc\rd";
        let map = LineMap::new(text);
        assert_eq!(map.position(text, 2, Encoding::Utf16), at(1, 0));
        assert_eq!(map.position(text, 5, Encoding::Utf16), at(2, 0));
        assert_eq!(map.position(text, 7, Encoding::Utf16), at(3, 0));
        // Between `\r` and `\n`: the end of line 1's content.
        assert_eq!(map.position(text, 4, Encoding::Utf16), at(1, 1));
        assert_eq!(map.offset(text, at(1, 9), Encoding::Utf16), 3);
        assert_eq!(map.offset(text, at(9, 0), Encoding::Utf16), text.len());
    }

    #[test]
    fn columns_in_each_encoding() {
        let text = "é😀x";
        let map = LineMap::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(map.position(text, x, Encoding::Utf8), at(0, 6));
        assert_eq!(map.position(text, x, Encoding::Utf16), at(0, 3));
        assert_eq!(map.position(text, x, Encoding::Utf32), at(0, 2));
        // Inside a character, in any encoding: the character's end.
        assert_eq!(map.offset(text, at(0, 2), Encoding::Utf16), x);
        assert_eq!(map.offset(text, at(0, 1), Encoding::Utf8), "é".len());
        assert_eq!(map.offset(text, at(0, 4), Encoding::Utf8), x);
    }

    #[test]
    fn negotiation_follows_the_clients_order() {
        let offered = [PositionEncodingKind::UTF32, PositionEncodingKind::UTF8];
        assert_eq!(Encoding::negotiate(Some(&offered)), Encoding::Utf32);
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
        let unknown = [PositionEncodingKind::Custom("utf-7".into())];
        assert_eq!(Encoding::negotiate(Some(&unknown)), Encoding::Utf16);
    }

    mod properties {
        use proptest::prelude::*;

        use super::super::*;

        /// Texts of line breaks of the three kinds and characters of one to four bytes.
        fn texts() -> impl Strategy<Value = String> {
            proptest::collection::vec(
                prop_oneof![
                    Just("a"),
                    Just("\n"),
                    Just("\r"),
                    Just("\r\n"),
                    Just("é"),
                    Just("€"),
                    Just("😀"),
                    Just("\"x\""),
                ],
                0..40,
            )
            .prop_map(|parts| parts.concat())
        }

        const ENCODINGS: [Encoding; 3] = [Encoding::Utf8, Encoding::Utf16, Encoding::Utf32];

        /// The offsets a position can name: character boundaries, except between the `\r`
        /// and `\n` of one line break.
        fn nameable(text: &str) -> Vec<usize> {
            (0..=text.len())
                .filter(|&at| text.is_char_boundary(at))
                .filter(|&at| {
                    !(at > 0 && text[..at].ends_with('\r') && text[at..].starts_with('\n'))
                })
                .collect()
        }

        /// The position of `offset` counted the slow way: split into lines, count units.
        fn reference(text: &str, offset: usize, encoding: Encoding) -> Position {
            let before = &text[..offset];
            let mut line = 0;
            let mut start = 0;
            let bytes = before.as_bytes();
            let mut at = 0;
            while at < bytes.len() {
                if bytes[at] == b'\n' || bytes[at] == b'\r' {
                    if bytes[at] == b'\r' && text.as_bytes().get(at + 1) == Some(&b'\n') {
                        at += 1;
                    }
                    line += 1;
                    start = at + 1;
                }
                at += 1;
            }
            let column = &text[start.min(offset)..offset];
            let character = match encoding {
                Encoding::Utf8 => column.len(),
                Encoding::Utf16 => column.encode_utf16().count(),
                Encoding::Utf32 => column.chars().count(),
            };
            Position {
                line: line as u32,
                character: character as u32,
            }
        }

        proptest! {
            #[test]
            fn offsets_round_trip_in_every_encoding(text in texts()) {
                let map = LineMap::new(&text);
                for encoding in ENCODINGS {
                    for offset in nameable(&text) {
                        let position = map.position(&text, offset, encoding);
                        prop_assert_eq!(position, reference(&text, offset, encoding));
                        prop_assert_eq!(map.offset(&text, position, encoding), offset);
                    }
                }
            }

            #[test]
            fn the_cursor_agrees_with_the_map(text in texts(), jumps in proptest::collection::vec(0usize..200, 0..10)) {
                let map = LineMap::new(&text);
                for encoding in ENCODINGS {
                    let mut cursor = Cursor::new(&text, &map, encoding);
                    // Mostly forward, with jumps back, as findings and their related places are.
                    let offsets = nameable(&text);
                    let mut order: Vec<usize> = offsets.clone();
                    order.extend(jumps.iter().map(|j| offsets[j % offsets.len()]));
                    for offset in order {
                        prop_assert_eq!(cursor.position(offset), map.position(&text, offset, encoding));
                    }
                }
            }
        }
    }
}
