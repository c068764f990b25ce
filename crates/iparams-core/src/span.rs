//! Byte ranges into a source text, and their line/column positions.

use std::fmt;

/// A half-open byte range `start..end` into the source text.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Self { start, end }
    }

    /// An empty span at `offset`, for "something is missing here".
    pub const fn at(offset: usize) -> Self {
        Self {
            start: offset,
            end: offset,
        }
    }

    pub const fn len(self) -> usize {
        self.end - self.start
    }

    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }

    pub const fn contains(self, other: Span) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    /// The span inside a string literal's quotes.
    pub const fn inner(self) -> Span {
        if self.len() >= 2 {
            Span::new(self.start + 1, self.end - 1)
        } else {
            self
        }
    }

    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// A 1-based line and column. Columns count Unicode scalar values (characters), as editors do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// Line starts of a text, to turn byte offsets into [`Position`]s.
///
/// Built once per file and only when something is reported, so a clean file never pays for it.
/// Offsets are `u32`: files are at most 4 GiB, and a large file's index stays half as big.
#[derive(Debug, Clone)]
pub struct LineIndex {
    line_starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|at| (at + 1) as u32));
        Self { line_starts }
    }

    /// The 0-based line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        self.line_starts
            .partition_point(|&start| start as usize <= offset)
            - 1
    }

    /// Where 0-based `line` starts, if there is such a line.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.line_starts.get(line).map(|&start| start as usize)
    }

    /// The position of byte `offset` of `text` (the text this index was built from).
    /// An offset inside a multi-byte character counts as that character.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line = self.line_of(offset);
        let start = self.line_starts[line] as usize;
        let column = text.as_bytes()[start..offset]
            .iter()
            .filter(|&&b| !is_utf8_continuation(b))
            .count()
            + 1;
        Position {
            line: line + 1,
            column,
        }
    }

    /// The column of byte `offset` counted in UTF-16 code units (1-based), as SARIF and LSP expect.
    pub fn utf16_column(&self, text: &str, offset: usize) -> usize {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let start = self.line_starts[self.line_of(offset)] as usize;
        text[start..offset]
            .chars()
            .map(char::len_utf16)
            .sum::<usize>()
            + 1
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}

fn is_utf8_continuation(byte: u8) -> bool {
    byte & 0b1100_0000 == 0b1000_0000
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters_not_bytes() {
        let text = "{\n  \"é\": 1,\n  \"x\": 2\n}";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 0), Position { line: 1, column: 1 });
        let one = text.find('1').unwrap();
        assert_eq!(index.position(text, one), Position { line: 2, column: 8 });
        assert_eq!(
            index.position(text, text.len()),
            Position { line: 4, column: 2 }
        );
        assert_eq!(index.line_count(), 4);
    }

    #[test]
    fn utf16_columns_count_surrogate_pairs_twice() {
        let text = "\"😀x\"";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(index.position(text, x).column, 3);
        assert_eq!(index.utf16_column(text, x), 4);
    }
}
