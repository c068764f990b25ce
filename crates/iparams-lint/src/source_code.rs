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
    line_starts: Vec<usize>,
}

impl IndexedSource {
    pub fn new(name: String, text: Arc<str>) -> Self {
        let lines = LineIndex::new(&text);
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Self {
            name,
            text,
            lines,
            line_starts,
        }
    }

    /// The 0-based line holding byte `offset`.
    fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&start| start <= offset) - 1
    }

    /// The end of 0-based `line`, before its line break.
    fn line_end(&self, line: usize) -> usize {
        let end = self
            .line_starts
            .get(line + 1)
            .map_or(self.text.len(), |next| next - 1);
        if end > 0 && self.text.as_bytes().get(end - 1) == Some(&b'\r') && end < self.text.len() {
            end - 1
        } else {
            end
        }
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
        let start_line = self.line_of(start);
        let end_line = self.line_of(end.saturating_sub(1).max(start));
        let first_line = start_line.saturating_sub(context_lines_before);
        let last_line = (end_line + context_lines_after).min(self.line_starts.len() - 1);
        let (data_start, column) = if context_lines_before == 0 {
            (start, self.lines.position(&self.text, start).column - 1)
        } else {
            (self.line_starts[first_line], 0)
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
