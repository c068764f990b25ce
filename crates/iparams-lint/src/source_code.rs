//! The file's text as miette reads it, through a line index.
//!
//! miette's own `SourceCode` for strings scans from the first byte for every label it draws,
//! which makes a large file with many findings quadratic; this one jumps to the lines.

use std::sync::Arc;

use iparams_core::LineIndex;
use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

#[derive(Debug)]
pub struct IndexedSource {
    name: String,
    text: Arc<str>,
    lines: LineIndex,
}

impl IndexedSource {
    pub fn new(name: String, text: Arc<str>) -> Self {
        let lines = LineIndex::new(&text);
        Self { name, text, lines }
    }

    /// The end of 0-based `line`, before its line break.
    fn line_end(&self, line: usize) -> usize {
        let end = self
            .lines
            .line_start(line + 1)
            .map_or(self.text.len(), |next| next - 1);
        let crlf = end > 0 && end < self.text.len() && self.text.as_bytes()[end - 1] == b'\r';
        if crlf { end - 1 } else { end }
    }
}

impl SourceCode for IndexedSource {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let start = span.offset();
        let end = start + span.len();
        if end > self.text.len() {
            return Err(MietteError::OutOfBounds);
        }
        let start_line = self.lines.line_of(start);
        let end_line = self.lines.line_of(end.saturating_sub(1).max(start));
        let first_line = start_line.saturating_sub(context_lines_before);
        let last_line = (end_line + context_lines_after).min(self.lines.line_count() - 1);
        let (data_start, column) = if context_lines_before == 0 {
            (start, self.lines.position(&self.text, start).column - 1)
        } else {
            (self.lines.line_start(first_line).unwrap_or(0), 0)
        };
        let data_end = if context_lines_before == 0 && context_lines_after == 0 {
            end
        } else {
            self.line_end(last_line).max(end)
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            &self.text.as_bytes()[data_start..data_end],
            SourceSpan::new(data_start.into(), data_end - data_start),
            first_line,
            column,
            last_line - first_line + 1,
        )))
    }
}
