//! The file's text as miette reads it, through a line index.
//!
//! miette's own `SourceCode` for strings scans from the first byte for every label it draws,
//! which makes a large file with many findings quadratic; this one jumps to the lines.

use iparams_core::LineIndex;
use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

#[derive(Debug)]
pub struct IndexedSource<'t> {
    name: &'t str,
    /// Borrowed: a copy of a large file per rendering would double the memory it takes.
    text: &'t str,
    lines: LineIndex,
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
        Self { name, text, lines }
    }

    pub fn name(&self) -> &'t str {
        self.name
    }

    pub fn text(&self) -> &'t str {
        self.text
    }

    pub fn lines(&self) -> &LineIndex {
        &self.lines
    }

    /// The end of 0-based `line`, before its line break.
    fn line_end(&self, line: usize) -> usize {
        let end = self
            .lines
            .line_start(self.text, line + 1)
            .map_or(self.text.len(), |next| next - 1);
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
        let start_line = self.lines.line_of(self.text, start);
        let end_line = self
            .lines
            .line_of(self.text, end.saturating_sub(1).max(start));
        let first_line = start_line.saturating_sub(before);
        let last_line = (end_line + after).min(self.lines.line_count() - 1);
        let data_start = if before == 0 {
            start
        } else {
            self.lines.line_start(self.text, first_line).unwrap_or(0)
        };
        let data_end = if before == 0 && after == 0 {
            end
        } else {
            self.line_end(last_line).max(end)
        };
        Some(Context {
            start: data_start,
            end: data_end,
            first_line,
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
            self.lines.position(self.text, start).column - 1
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
