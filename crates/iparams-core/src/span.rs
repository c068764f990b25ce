//! Byte ranges into a source text, and their line/column positions.

use std::fmt;
use std::sync::OnceLock;

use rayon::prelude::*;

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

/// Columns this far into a line are counted from the nearest [`Counts`] block rather than from
/// the line's start: a minified file is one long line, and each of many findings on it would
/// otherwise count its way from the first byte.
const BLOCK: usize = 1024;

/// Line starts of a text, to turn byte offsets into [`Position`]s.
///
/// Built once per file and only when something is reported, so a clean file never pays for it.
/// It keeps how many line breaks come before each [`LINES_BLOCK`] bytes of the text: a line,
/// or where it starts, is found by counting the breaks of one block at most, however long the
/// lines are (a minified file is one line), in a small part of the room a list of every line
/// start would take. Counts are `u32`: files are at most 4 GiB.
#[derive(Debug, Clone)]
pub struct LineIndex {
    /// Line breaks before each [`LINES_BLOCK`] bytes, and before the end of the text.
    breaks_before: Vec<u32>,
    /// What precedes each [`BLOCK`] of the text; made on the first column asked for far into
    /// a long line.
    blocks: OnceLock<Vec<Counts>>,
}

/// The bytes of text a [`LineIndex`] counts line breaks for: the most a lookup scans.
const LINES_BLOCK: usize = 256;

/// Texts from this size on have their line breaks counted on every thread.
const COUNTED_IN_PARALLEL_FROM: usize = 1 << 20;

/// Characters, and UTF-16 code units, in a stretch of text.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    chars: u32,
    utf16: u32,
}

impl Counts {
    fn of(bytes: &[u8]) -> Self {
        let chars = bytes.iter().filter(|&&b| !is_utf8_continuation(b)).count();
        // A four-byte character is two UTF-16 units; every other character is one.
        let astral = bytes.iter().filter(|&&b| b >= 0xF0).count();
        Self {
            chars: chars as u32,
            utf16: (chars + astral) as u32,
        }
    }

    fn plus(self, other: Counts) -> Counts {
        Counts {
            chars: self.chars + other.chars,
            utf16: self.utf16 + other.utf16,
        }
    }

    fn minus(self, other: Counts) -> Counts {
        Counts {
            chars: self.chars - other.chars,
            utf16: self.utf16 - other.utf16,
        }
    }
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let count = |block: &[u8]| memchr::memchr_iter(b'\n', block).count() as u32;
        let bytes = text.as_bytes();
        // None before the first block, then each block's breaks, counted on every thread for a
        // large text: the default format indexes a large file while nothing else runs.
        let mut breaks_before = Vec::with_capacity(bytes.len() / LINES_BLOCK + 2);
        breaks_before.push(0);
        if bytes.len() >= COUNTED_IN_PARALLEL_FROM {
            breaks_before.par_extend(bytes.par_chunks(LINES_BLOCK).with_min_len(1024).map(count));
        } else {
            breaks_before.extend(bytes.chunks(LINES_BLOCK).map(count));
        }
        // Then the breaks before each block, and before the end.
        let mut breaks = 0;
        for before in &mut breaks_before {
            breaks += *before;
            *before = breaks;
        }
        Self {
            breaks_before,
            blocks: OnceLock::new(),
        }
    }

    /// What `text[start..end]` holds.
    fn counts(&self, text: &str, start: usize, end: usize) -> Counts {
        if end - start <= BLOCK {
            Counts::of(&text.as_bytes()[start..end])
        } else {
            self.counts_before(text, end)
                .minus(self.counts_before(text, start))
        }
    }

    /// What the text holds before byte `offset`.
    fn counts_before(&self, text: &str, offset: usize) -> Counts {
        let blocks = self.blocks.get_or_init(|| {
            // Before each block, and before the end.
            let mut before = Counts::default();
            let mut blocks = vec![before];
            for block in text.as_bytes().chunks(BLOCK) {
                before = before.plus(Counts::of(block));
                blocks.push(before);
            }
            blocks
        });
        let block = offset / BLOCK;
        blocks[block].plus(Counts::of(&text.as_bytes()[block * BLOCK..offset]))
    }

    /// The 0-based line holding byte `offset` of `text` (the text this index was built from).
    pub fn line_of(&self, text: &str, offset: usize) -> usize {
        let offset = offset.min(text.len());
        let block = offset / LINES_BLOCK;
        let within = &text.as_bytes()[block * LINES_BLOCK..offset];
        self.breaks_before[block] as usize + memchr::memchr_iter(b'\n', within).count()
    }

    /// Where 0-based `line` of `text` starts, if there is such a line.
    pub fn line_start(&self, text: &str, line: usize) -> Option<usize> {
        if line == 0 {
            return Some(0);
        }
        if line >= self.line_count() {
            return None;
        }
        // Just after the text's `line`-th line break: in the last block with fewer before it.
        let block = self
            .breaks_before
            .partition_point(|&breaks| (breaks as usize) < line)
            - 1;
        let from = block * LINES_BLOCK;
        let bytes = &text.as_bytes()[from..(from + LINES_BLOCK).min(text.len())];
        let skipped = line - self.breaks_before[block] as usize - 1;
        memchr::memchr_iter(b'\n', bytes)
            .nth(skipped)
            .map(|at| from + at + 1)
    }

    /// Where 0-based line `target` of `text` starts, if there is such a line, knowing that
    /// byte `offset` is on line `line`: the breaks between them are looked for from `offset`
    /// itself, a block's worth of bytes either way (a frame's lines are a line or two away),
    /// and only past that through the blocks' counts.
    pub fn line_start_near(
        &self,
        text: &str,
        offset: usize,
        line: usize,
        target: usize,
    ) -> Option<usize> {
        let bytes = text.as_bytes();
        let offset = offset.min(bytes.len());
        if target <= line {
            // Back over the break that ends line `target - 1`, then any between.
            let from = offset.saturating_sub(LINES_BLOCK);
            let mut end = offset;
            for _ in target..=line {
                match memchr::memrchr(b'\n', &bytes[from..end]) {
                    Some(at) => end = from + at,
                    None => return self.line_start(text, target),
                }
            }
            return Some(end + 1);
        }
        // On past the break that ends line `line`, and any between.
        let to = (offset + LINES_BLOCK).min(bytes.len());
        let mut start = offset;
        for _ in line..target {
            match memchr::memchr(b'\n', &bytes[start..to]) {
                Some(at) => start += at + 1,
                None => return self.line_start(text, target),
            }
        }
        Some(start)
    }

    /// The position of byte `offset` of `text` (the text this index was built from).
    /// An offset inside a multi-byte character counts as that character.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line = self.line_of(text, offset);
        let start = self.line_start_near(text, offset, line, line).unwrap_or(0);
        Position {
            line: line + 1,
            column: self.counts(text, start, offset).chars as usize + 1,
        }
    }

    /// The column of byte `offset` counted in UTF-16 code units (1-based), as SARIF and LSP expect.
    pub fn utf16_column(&self, text: &str, offset: usize) -> usize {
        let offset = text.floor_char_boundary(offset);
        let line = self.line_of(text, offset);
        let start = self.line_start_near(text, offset, line, line).unwrap_or(0);
        self.counts(text, start, offset).utf16 as usize + 1
    }

    /// Whether some line of `text` may be longer than `length` bytes; `false` is certain. A
    /// line three blocks long holds a whole block without a line break (not the text's last,
    /// partial one), so the answer takes a look at each block's count, not at the text.
    pub fn lines_may_exceed(&self, text: &str, length: usize) -> bool {
        let whole_blocks = text.len() / LINES_BLOCK;
        length < 3 * LINES_BLOCK
            || self.breaks_before[..=whole_blocks]
                .windows(2)
                .any(|block| block[0] == block[1])
    }

    pub fn line_count(&self) -> usize {
        1 + *self.breaks_before.last().unwrap_or(&0) as usize
    }
}

/// Positions found by walking the text from the last offset asked about, for offsets asked in
/// (mostly) increasing order, as a file's sorted findings are: no index is built, so memory
/// stays flat however large the file, and a minified file's one long line is walked once.
/// The furthest place reached is kept too, so that a look back (a finding's related place,
/// earlier in the file) does not make the next look forward walk the text again; and so is a
/// spot every [`CURSOR_STEP`] bytes walked, which a look back starts from: it would otherwise
/// walk from its line's start, the first byte of a minified file.
#[derive(Debug, Clone)]
pub struct LineCursor<'t> {
    text: &'t str,
    current: Spot,
    furthest: Spot,
    /// A spot every [`CURSOR_STEP`] bytes up to the furthest.
    steps: Vec<Spot>,
}

/// How far apart the spots a look back starts from are: the most it walks.
const CURSOR_STEP: usize = 64 * 1024;

/// A place in the text, with its line and column counts.
#[derive(Debug, Clone, Copy, Default)]
struct Spot {
    /// 0-based line, and where it starts.
    line: usize,
    line_start: usize,
    at: usize,
    /// Characters and UTF-16 code units from the line's start to `at`.
    characters: usize,
    utf16_units: usize,
}

impl<'t> LineCursor<'t> {
    pub fn new(text: &'t str) -> Self {
        Self {
            text,
            current: Spot::default(),
            furthest: Spot::default(),
            steps: Vec::new(),
        }
    }

    /// The position of byte `offset`; an offset inside a multi-byte character counts as that
    /// character, as [`LineIndex::position`] does.
    pub fn position(&mut self, offset: usize) -> Position {
        let spot = self.seek(offset);
        Position {
            line: spot.line + 1,
            column: spot.characters + 1,
        }
    }

    /// The 1-based column of byte `offset` in UTF-16 code units, as SARIF and LSP count.
    pub fn utf16_column(&mut self, offset: usize) -> usize {
        self.seek(self.text.floor_char_boundary(offset)).utf16_units + 1
    }

    fn seek(&mut self, offset: usize) -> Spot {
        let offset = offset.min(self.text.len());
        let bytes = self.text.as_bytes();
        self.current = if offset >= self.furthest.at {
            // Walked through each step's boundary, leaving a spot at it.
            let mut spot = self.furthest;
            loop {
                let next = self.steps.last().map_or(0, |step| step.at) + CURSOR_STEP;
                if next > offset {
                    break;
                }
                spot = spot.walked_to(bytes, next);
                self.steps.push(spot);
            }
            self.furthest = spot.walked_to(bytes, offset);
            self.furthest
        } else {
            // Behind the furthest: from the nearest known spot before `offset`.
            let before = self.steps.partition_point(|step| step.at <= offset);
            let step = before
                .checked_sub(1)
                .map_or_else(Spot::default, |i| self.steps[i]);
            let from = if (step.at..=offset).contains(&self.current.at) {
                self.current
            } else {
                step
            };
            from.walked_to(bytes, offset)
        };
        self.current
    }
}

impl Spot {
    /// This spot moved forward to `offset`, counting only the bytes in between.
    fn walked_to(mut self, bytes: &[u8], offset: usize) -> Spot {
        let between = &bytes[self.at..offset];
        if let Some(last) = memchr::memrchr(b'\n', between) {
            self.line += memchr::memchr_iter(b'\n', between).count();
            self.line_start = self.at + last + 1;
            self.at = self.line_start;
            self.characters = 0;
            self.utf16_units = 0;
        }
        let walked = Counts::of(&bytes[self.at..offset]);
        self.characters += walked.chars as usize;
        self.utf16_units += walked.utf16 as usize;
        self.at = offset;
        self
    }
}

fn is_utf8_continuation(byte: u8) -> bool {
    byte & 0b1100_0000 == 0b1000_0000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_agrees_with_the_index_in_any_order() {
        let text = "{\n  \"é\": \"😀x\",\n\n  \"x\": 2\n}";
        let index = LineIndex::new(text);
        let mut cursor = LineCursor::new(text);
        let offsets: Vec<usize> = (0..=text.len()).chain((0..=text.len()).rev()).collect();
        for offset in offsets.iter().chain([7, 30, 2, 2, 19, 0].iter()) {
            assert_eq!(
                cursor.position(*offset),
                index.position(text, *offset),
                "{offset}"
            );
            assert_eq!(
                cursor.utf16_column(*offset),
                index.utf16_column(text, *offset),
                "{offset}"
            );
        }
    }

    /// Far into a long line, looks back and forth start from the spots left on the way, and
    /// agree with the index wherever they land (a spot may fall inside a character).
    #[test]
    fn the_cursor_looks_back_into_a_long_line_as_the_index_does() {
        let long = "ab\u{e9}\u{1F600}\"".repeat(CURSOR_STEP / 3);
        let text = format!("{{\n  \"k\": \"{long}\",\n{long}\n\n  \"x\": 2\n}}");
        let index = LineIndex::new(&text);
        let mut cursor = LineCursor::new(&text);
        // A fixed walk of offsets, forward and back, some far apart.
        let mut offset = 0usize;
        for step in 0..600usize {
            offset = (offset + step * 7_919 + 104_729) % (text.len() + 1);
            assert_eq!(
                cursor.position(offset),
                index.position(&text, offset),
                "{offset}"
            );
            assert_eq!(
                cursor.utf16_column(offset),
                index.utf16_column(&text, offset),
                "{offset}"
            );
        }
        assert_eq!(cursor.steps.len(), cursor.furthest.at / CURSOR_STEP);
        assert!(cursor.steps.len() >= 2 * long.len() / CURSOR_STEP - 1);
    }

    /// `lines_may_exceed` is never wrong when it says no; it says no to lines shorter than a
    /// block, and yes to a long line.
    #[test]
    fn a_long_line_is_never_missed() {
        let mut text = String::new();
        for length in (0..3_000).step_by(37) {
            text.push_str(&"z".repeat(length % 600));
            text.push('\n');
            let index = LineIndex::new(&text);
            let longest = text.split('\n').map(str::len).max().unwrap_or(0);
            for limit in [0, 100, 499, 768, 1_024] {
                if !index.lines_may_exceed(&text, limit) {
                    assert!(longest <= limit, "{limit} {longest}");
                }
            }
            assert!(longest >= LINES_BLOCK || !index.lines_may_exceed(&text, 1_024));
        }
        text.push_str(&"z".repeat(1_025));
        assert!(LineIndex::new(&text).lines_may_exceed(&text, 1_024));
    }

    /// Lines are found from the blocks' counts as a list of every line start finds them, at
    /// every offset and every line, whatever the lines' lengths (empty, CRLF, multi-byte,
    /// longer than a block) and wherever they fall among the blocks.
    #[test]
    fn lines_found_by_blocks_agree_with_every_line_start() {
        let long = "y".repeat(LINES_BLOCK * 2 + 37);
        let lines = [
            "",
            "{",
            "  \"é\": 1,\r",
            "x",
            "",
            "  \"a much longer line\": [1, 2, 3]",
            &long,
        ];
        for count in [1, 2, 15, 16, 17, 83, 400] {
            let text: String = (0..count)
                .map(|n| lines[n * 7 % lines.len()])
                .collect::<Vec<_>>()
                .join("\n");
            let starts: Vec<usize> = std::iter::once(0)
                .chain(text.match_indices('\n').map(|(at, _)| at + 1))
                .collect();
            let index = LineIndex::new(&text);
            assert_eq!(index.line_count(), starts.len());
            for (line, &start) in starts.iter().enumerate() {
                assert_eq!(index.line_start(&text, line), Some(start), "line {line}");
            }
            assert_eq!(index.line_start(&text, starts.len()), None);
            // From any byte, to any line a few away: as the blocks' counts find it.
            for offset in (0..=text.len()).step_by(7) {
                let line = index.line_of(&text, offset);
                for target in line.saturating_sub(3)..line + 4 {
                    assert_eq!(
                        index.line_start_near(&text, offset, line, target),
                        index.line_start(&text, target),
                        "{count} lines, from byte {offset} (line {line}) to line {target}"
                    );
                }
            }
            for offset in 0..=text.len() {
                let line = starts.partition_point(|&start| start <= offset) - 1;
                assert_eq!(
                    index.line_of(&text, offset),
                    line,
                    "{count} lines, byte {offset}"
                );
            }
        }
    }

    /// A text large enough to have its breaks counted on every thread is indexed as a small
    /// one is: the lines at sampled bytes, and their starts, are a plain count's.
    #[test]
    fn a_large_text_counted_in_parallel_has_the_same_lines() {
        let mut text = String::new();
        let mut line = 0;
        while text.len() <= COUNTED_IN_PARALLEL_FROM + 3 * LINES_BLOCK {
            // Lines of 0 to 700 bytes: some in one block, some across several.
            text.push_str(&"x".repeat(line * 37 % 701));
            text.push('\n');
            line += 1;
        }
        let index = LineIndex::new(&text);
        assert_eq!(index.line_count(), text.matches('\n').count() + 1);
        for offset in (0..=text.len()).step_by(4_099) {
            let line = text[..offset].matches('\n').count();
            assert_eq!(index.line_of(&text, offset), line, "byte {offset}");
            let start = text[..offset].rfind('\n').map_or(0, |at| at + 1);
            assert_eq!(index.line_start(&text, line), Some(start), "line {line}");
        }
    }

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
    fn columns_far_into_a_long_line() {
        let line = format!("{}😀{}é", "a".repeat(3000), "b".repeat(BLOCK * 2));
        let text = format!("x\n{line}\ny");
        let index = LineIndex::new(&text);
        for offset in [
            2,
            2 + BLOCK,
            3002,
            3006,
            text.len() - 4,
            text.len() - 2,
            text.len(),
        ] {
            let start = index
                .line_start(&text, index.line_of(&text, offset))
                .unwrap();
            let before = &text[start..offset];
            assert_eq!(
                index.position(&text, offset).column,
                before.chars().count() + 1,
                "{offset}"
            );
            assert_eq!(
                index.utf16_column(&text, offset),
                before.encode_utf16().count() + 1,
                "{offset}"
            );
        }
        // The end of a text whose length is a whole number of blocks.
        let text = "a".repeat(BLOCK * 3);
        let index = LineIndex::new(&text);
        assert_eq!(index.position(&text, text.len()).column, BLOCK * 3 + 1);
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
