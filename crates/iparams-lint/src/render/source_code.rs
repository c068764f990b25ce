//! The file's text as miette reads it, through a line index.
//!
//! miette's own `SourceCode` for strings scans from the first byte for every label it draws,
//! which makes a large file with many findings quadratic; this one jumps to the lines.

use iparams_core::{LineIndex, Position, Span};
use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

#[derive(Debug)]
pub struct IndexedSource<'t> {
    name: &'t str,
    /// Borrowed: a copy of a large file per rendering would double the memory it takes.
    text: &'t str,
    lines: LineIndex,
    /// What the text is of the file: positions and line numbers are always the file's.
    stands_for: StandsFor<'t>,
}

#[derive(Debug, Clone, Copy)]
enum StandsFor<'t> {
    /// The file's text itself.
    Itself,
    /// A cut of the file's lines.
    Cut(&'t Origin),
    /// The file's text with its secrets masked byte for byte: a masked character may take more
    /// bytes, and so more `*`s, than one.
    Masked(&'t IndexedSource<'t>),
}

/// Where the lines of a cut (a short text made of some of a file's lines, long ones cut to
/// pieces) are in the file.
#[derive(Debug, Default)]
pub struct Origin {
    /// Runs of consecutive lines of the file: the cut's line where each starts, and the
    /// file's (both 0-based), in order.
    runs: Vec<(usize, usize)>,
    /// Each piece of the file's text in the cut, in order.
    pieces: Vec<Piece>,
}

/// A stretch of the file's text copied into a cut.
#[derive(Debug, Clone, Copy)]
struct Piece {
    /// Where it starts in the cut.
    at: usize,
    /// Its bytes in the file.
    file: Span,
    /// The column it starts at in the file (1-based).
    column: usize,
}

impl Origin {
    /// The cut's next line is the file's 0-based `line`; `cut_line` is its number in the cut.
    pub fn push_line(&mut self, cut_line: usize, line: usize) {
        let follows = self
            .runs
            .last()
            .is_some_and(|&(cut, file)| file + (cut_line - cut) == line);
        if !follows {
            self.runs.push((cut_line, line));
        }
    }

    /// The file's bytes `file`, starting at its `column`, start at byte `at` of the cut.
    pub fn push_piece(&mut self, at: usize, file: Span, column: usize) {
        self.pieces.push(Piece { at, file, column });
    }

    /// Where byte `offset` of the file is in the cut: in the piece copied from around it, or
    /// at the end of the one before it (an offset in a line break, or elided).
    pub fn cut_offset(&self, offset: usize) -> usize {
        let piece = self
            .pieces
            .partition_point(|piece| piece.file.start <= offset);
        self.pieces.get(piece.wrapping_sub(1)).map_or(0, |piece| {
            piece.at + (offset - piece.file.start).min(piece.file.len())
        })
    }

    fn file_line(&self, cut_line: usize) -> usize {
        let run = self.runs.partition_point(|&(cut, _)| cut <= cut_line);
        self.runs
            .get(run.wrapping_sub(1))
            .map_or(cut_line, |&(cut, file)| file + (cut_line - cut))
    }
}

/// The lines a span is shown with: from `first_line` (0-based), bytes `start..end` of the text.
#[derive(Debug, Clone, Copy)]
pub struct Context {
    pub start: usize,
    pub end: usize,
    pub first_line: usize,
    pub line_count: usize,
}

impl<'t> IndexedSource<'t> {
    pub fn new(name: &'t str, text: &'t str) -> Self {
        let lines = LineIndex::new(text);
        Self {
            name,
            text,
            lines,
            stands_for: StandsFor::Itself,
        }
    }

    /// `file`'s text with its secrets masked byte for byte, shown with the file's positions.
    pub fn masked(text: &'t str, file: &'t IndexedSource<'t>) -> Self {
        Self {
            stands_for: StandsFor::Masked(file),
            ..Self::new(file.name, text)
        }
    }

    /// A cut of file `name`'s lines, shown with the file's positions and line numbers.
    pub fn cut(name: &'t str, text: &'t str, origin: &'t Origin) -> Self {
        Self {
            stands_for: StandsFor::Cut(origin),
            ..Self::new(name, text)
        }
    }

    pub fn text(&self) -> &'t str {
        self.text
    }

    pub fn lines(&self) -> &LineIndex {
        &self.lines
    }

    /// The position of byte `offset` in the file.
    pub fn position(&self, offset: usize) -> Position {
        let origin = match self.stands_for {
            StandsFor::Itself => return self.lines.position(self.text, offset),
            StandsFor::Masked(file) => return file.position(offset),
            StandsFor::Cut(origin) => origin,
        };
        let position = self.lines.position(self.text, offset);
        let line = origin.file_line(position.line - 1) + 1;
        let piece = origin.pieces.partition_point(|piece| piece.at <= offset);
        let column = match origin.pieces.get(piece.wrapping_sub(1)) {
            Some(piece) if self.lines.line_of(self.text, piece.at) == position.line - 1 => {
                piece.column
                    + self
                        .text
                        .get(piece.at..offset)
                        .map_or(0, |copied| copied.chars().count())
            }
            _ => position.column,
        };
        Position { line, column }
    }

    /// The bytes of 0-based `line`, without its line break.
    pub fn line(&self, line: usize) -> Span {
        let start = self
            .lines
            .line_start(self.text, line)
            .unwrap_or(self.text.len());
        Span::new(start, self.line_end(line).max(start))
    }

    /// The end of 0-based `line`, before its line break.
    fn line_end(&self, line: usize) -> usize {
        self.end_before(self.lines.line_start(self.text, line + 1))
    }

    /// The end of the line before the one that starts at `next` (the last line's when none
    /// does), before its line break.
    fn end_before(&self, next: Option<usize>) -> usize {
        let end = next.map_or(self.text.len(), |next| next - 1);
        let crlf = end > 0 && end < self.text.len() && self.text.as_bytes()[end - 1] == b'\r';
        if crlf { end - 1 } else { end }
    }

    /// The bytes miette is given for `start..end` with `before` and `after` lines around it, as
    /// [`SourceCode::read_span`] reads them; `None` when the span is out of bounds.
    pub fn context(
        &self,
        start: usize,
        end: usize,
        before: usize,
        after: usize,
    ) -> Option<Context> {
        if end > self.text.len() {
            return None;
        }
        // The span's last byte (its start, for an empty span): its line is the span's last.
        let last_byte = end.saturating_sub(1).max(start);
        let start_line = self.lines.line_of(self.text, start);
        let end_line = self.lines.line_of(self.text, last_byte);
        let first_line = start_line.saturating_sub(before);
        let last_line = (end_line + after).min(self.lines.line_count() - 1);
        // The lines around are found from the span's ends, a line or two away.
        let data_start = if before == 0 {
            start
        } else {
            self.lines
                .line_start_near(self.text, start, start_line, first_line)
                .unwrap_or(0)
        };
        let data_end = if before == 0 && after == 0 {
            end
        } else {
            let next = self
                .lines
                .line_start_near(self.text, last_byte, end_line, last_line + 1);
            self.end_before(next).max(end)
        };
        Some(Context {
            start: data_start,
            end: data_end,
            first_line: match self.stands_for {
                StandsFor::Cut(origin) => origin.file_line(first_line),
                StandsFor::Itself | StandsFor::Masked(_) => first_line,
            },
            line_count: last_line - first_line + 1,
        })
    }
}

impl SourceCode for IndexedSource<'_> {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let start = span.offset();
        let end = start + span.len();
        let context = self
            .context(start, end, context_lines_before, context_lines_after)
            .ok_or(MietteError::OutOfBounds)?;
        let column = if context_lines_before == 0 {
            self.position(start).column - 1
        } else {
            0
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.to_owned(),
            &self.text.as_bytes()[context.start..context.end],
            SourceSpan::new(context.start.into(), context.end - context.start),
            context.first_line,
            column,
            context.line_count,
        )))
    }
}
