//! The common shape of a finding drawn without miette, byte for byte as miette's graphical
//! handler draws it without colour: one label on one line, no related places.
//!
//! Going through miette costs about 200,000 instructions a finding, most of it in textwrap
//! (Unicode line breaking and optimal fit, run on every message and help text, even one that
//! fits on its line) and the rest in allocations per line and per label. Here a text that fits
//! is written as it is, a help text that must be wrapped is wrapped once per file by the same
//! textwrap call miette makes, and the code frame is drawn from slices of the text. Any other
//! shape (a related place, a span over several lines, a line with a control character or
//! non-ASCII text under the marker) returns `false` and is drawn by miette.

use std::collections::HashMap;
use std::fmt::Write as _;

use iparams_core::{Diagnostic, Severity, Span};
use miette::ThemeCharacters;

use crate::source_code::IndexedSource;

/// miette's default tab width.
const TAB_WIDTH: usize = 4;

/// One line of a code frame, as miette's handler splits its context.
#[derive(Debug, Clone, Copy)]
struct Line<'t> {
    /// 1-based.
    number: usize,
    offset: usize,
    /// With the line break.
    length: usize,
    /// Without the line break.
    text: &'t str,
}

impl Line<'_> {
    /// miette's `span_applies`: whether a span is drawn on this line.
    fn applies(&self, start: usize, len: usize) -> bool {
        let len = len.max(1);
        let end = self.offset + self.length;
        (start >= self.offset && start < end)
            || (start < self.offset && start + len > end)
            || (start + len > self.offset && start + len <= end)
    }

    /// miette's `span_line_only`.
    fn holds(&self, start: usize, len: usize) -> bool {
        start >= self.offset && start + len <= self.offset + self.length
    }
}

/// Draws findings of one file.
#[derive(Debug)]
pub struct Frames<'s, 't> {
    source: &'s IndexedSource<'t>,
    /// The terminal width miette is given.
    width: usize,
    chars: ThemeCharacters,
    /// Help texts already wrapped in this file: a large file repeats the same help many times.
    wrapped: HashMap<String, String>,
    lines: Vec<Line<'t>>,
}

impl<'s, 't> Frames<'s, 't> {
    pub fn new(source: &'s IndexedSource<'t>, width: usize) -> Self {
        Self {
            source,
            width,
            chars: ThemeCharacters::unicode(),
            wrapped: HashMap::new(),
            lines: Vec::with_capacity(3),
        }
    }

    /// Appends `diagnostic` with `help` to `out` as miette draws it; `false`, with nothing
    /// appended, when its shape is one for miette to draw.
    pub fn draw(&mut self, diagnostic: &Diagnostic, help: Option<&str>, out: &mut String) -> bool {
        if !diagnostic.related.is_empty() {
            return false;
        }
        let label = diagnostic.label.as_deref();
        if label.is_some_and(|label| label.contains('\n')) {
            return false;
        }
        let Some(marked) = self.frame_lines(diagnostic.span) else {
            return false;
        };

        // The header: the code, then a blank line.
        let severity = diagnostic.severity.as_str();
        let _ = write!(out, "{severity}[{}]\n\n", diagnostic.rule);
        // The message.
        let icon = match diagnostic.severity {
            Severity::Error => &self.chars.error,
            Severity::Warning => &self.chars.warning,
            Severity::Info => &self.chars.advice,
        };
        let first = format!("  {icon} ");
        let rest = format!("  {} ", self.chars.vbar);
        fill(out, &diagnostic.message, &first, &rest, self.width);
        out.push('\n');
        self.frame(diagnostic.span, label, marked, out);
        if let Some(help) = help {
            self.help(help, out);
            out.push('\n');
        }
        true
    }

    /// The lines of the frame around `span` into `self.lines`, and which of them is marked;
    /// `None` for a shape left to miette.
    fn frame_lines(&mut self, span: Span) -> Option<usize> {
        let text = self.source.text();
        let (start, len) = (span.start, span.len());
        let marked = text.get(span.start..span.end)?;
        if marked.contains(['\n', '\r']) {
            return None;
        }
        let context = self.source.context(start, span.end, 1, 1)?;
        let data = text.get(context.start..context.end)?;
        if data.is_empty() {
            return None;
        }
        // miette's `get_lines`: "\r\n" and "\n" end a line; the last one may have no break.
        self.lines.clear();
        let (mut number, mut offset, mut rest) = (context.first_line, context.start, data);
        loop {
            number += 1;
            match memchr::memchr(b'\n', rest.as_bytes()) {
                Some(at) => {
                    let raw = &rest[..at];
                    self.lines.push(Line {
                        number,
                        offset,
                        length: at + 1,
                        text: raw.strip_suffix('\r').unwrap_or(raw),
                    });
                    offset += at + 1;
                    rest = &rest[at + 1..];
                    if rest.is_empty() {
                        break;
                    }
                }
                None => {
                    self.lines.push(Line {
                        number,
                        offset,
                        length: rest.len(),
                        text: rest,
                    });
                    break;
                }
            }
        }
        let mut marked_line = None;
        for (index, line) in self.lines.iter().enumerate() {
            let bytes = line.text.as_bytes();
            // Control characters other than tabs are drawn by miette's rules for them.
            if bytes.iter().any(|&b| (b < b' ' && b != b'\t') || b == 0x7f) {
                return None;
            }
            if line.applies(start, len) {
                // Columns under the marked line are counted here for ASCII text only.
                if marked_line.is_some() || !line.holds(start, len) || !line.text.is_ascii() {
                    return None;
                }
                marked_line = Some(index);
            } else if bytes.contains(&b'\t') && !line.text.is_ascii() {
                return None;
            }
        }
        marked_line
    }

    /// The code frame: miette's `render_context` for one label on one line, which needs no
    /// gutter.
    fn frame(&self, span: Span, label: Option<&str>, marked: usize, out: &mut String) {
        let c = &self.chars;
        let number_width = decimal_width(self.lines.last().map_or(0, |line| line.number));
        let position = self.source.lines().position(self.source.text(), span.start);
        pad(out, number_width + 2);
        let _ = writeln!(
            out,
            "{}{}[{}:{}:{}]",
            c.ltop,
            c.hbar,
            self.source.name(),
            position.line,
            position.column
        );
        for (index, line) in self.lines.iter().enumerate() {
            let _ = write!(out, " {:number_width$} {} ", line.number, c.vbar);
            expand_tabs(out, line.text);
            out.push('\n');
            if index != marked {
                continue;
            }
            let start = visual_width(&line.text[..span.start - line.offset]);
            let end = if span.is_empty() {
                start + 1
            } else {
                visual_width(&line.text[..span.end - line.offset]).max(start + 1)
            };
            let middle = (start + end) / 2;
            let _ = write!(out, " {:number_width$} {} ", "", c.vbar_break);
            pad(out, start);
            repeat(out, c.underline, middle - start);
            out.push(if span.is_empty() {
                c.uarrow
            } else if label.is_some() {
                c.underbar
            } else {
                c.underline
            });
            repeat(out, c.underline, end - middle - 1);
            out.push('\n');
            if let Some(label) = label {
                let _ = write!(out, " {:number_width$} {} ", "", c.vbar_break);
                pad(out, middle);
                let _ = writeln!(out, "{}{}{} {label}", c.lbot, c.hbar, c.hbar);
            }
        }
        pad(out, number_width + 2);
        out.push(c.lbot);
        repeat(out, c.hbar, 4);
        out.push('\n');
    }

    /// miette's footer: the help text after `help: `, wrapped.
    fn help(&mut self, help: &str, out: &mut String) {
        const FIRST: &str = "  help: ";
        const REST: &str = "        ";
        if fits(help, self.width, FIRST) {
            fill(out, help, FIRST, REST, self.width);
            return;
        }
        let width = self.width;
        let wrapped = self.wrapped.entry(help.to_owned()).or_insert_with(|| {
            let mut wrapped = String::new();
            fill(&mut wrapped, help, FIRST, REST, width);
            wrapped
        });
        out.push_str(wrapped);
    }
}

/// Whether every line of `text` is printable ASCII that fits after `indent` unwrapped: then
/// textwrap, whatever its algorithm, puts each line on one line as it is.
fn fits(text: &str, width: usize, indent: &str) -> bool {
    // textwrap's widths for the indents are their display widths; the icons are one column.
    let room = width
        .saturating_sub(2)
        .saturating_sub(indent.chars().count());
    text.split('\n').all(|line| {
        !line.is_empty()
            && line.len() <= room
            && !line.ends_with(' ')
            && line.bytes().all(|b| (b' '..=b'~').contains(&b))
    })
}

/// `text` filled as miette fills messages and help texts (`textwrap::fill` at the terminal
/// width less 2), without the final line break.
fn fill(out: &mut String, text: &str, first: &str, rest: &str, width: usize) {
    if fits(text, width, first) && first.chars().count() == rest.chars().count() {
        for (index, line) in text.split('\n').enumerate() {
            if index > 0 {
                out.push('\n');
            }
            out.push_str(if index == 0 { first } else { rest });
            out.push_str(line);
        }
        return;
    }
    let options = textwrap::Options::new(width.saturating_sub(2))
        .initial_indent(first)
        .subsequent_indent(rest)
        .break_words(true);
    out.push_str(&textwrap::fill(text, options));
}

/// Columns of ASCII `text`, tabs stopping every [`TAB_WIDTH`] columns.
fn visual_width(text: &str) -> usize {
    text.bytes().fold(0, |column, byte| {
        column
            + if byte == b'\t' {
                TAB_WIDTH - column % TAB_WIDTH
            } else {
                1
            }
    })
}

/// `text` with its tabs as spaces, as miette draws a line; other characters as they are.
fn expand_tabs(out: &mut String, text: &str) {
    if !text.contains('\t') {
        out.push_str(text);
        return;
    }
    // Lines with tabs are ASCII here (see `frame_lines`).
    let mut column = 0;
    for byte in text.bytes() {
        if byte == b'\t' {
            let width = TAB_WIDTH - column % TAB_WIDTH;
            pad(out, width);
            column += width;
        } else {
            out.push(char::from(byte));
            column += 1;
        }
    }
}

fn pad(out: &mut String, count: usize) {
    repeat(out, ' ', count);
}

fn repeat(out: &mut String, c: char, count: usize) {
    out.extend(std::iter::repeat_n(c, count));
}

fn decimal_width(mut value: usize) -> usize {
    let mut width = 1;
    while value >= 10 {
        value /= 10;
        width += 1;
    }
    width
}

#[cfg(test)]
mod tests {
    use super::*;

    fn textwrap_fill(text: &str, first: &str, rest: &str, width: usize) -> String {
        let options = textwrap::Options::new(width - 2)
            .initial_indent(first)
            .subsequent_indent(rest)
            .break_words(true);
        textwrap::fill(text, options)
    }

    #[test]
    fn texts_that_fit_are_filled_as_textwrap_fills_them() {
        let texts = [
            "a",
            "Iparam `x` has no `default_value`",
            "two\nlines",
            "with (punctuation), hyphen-ated/slashed \"quotes\"; and: colons!",
            &"x".repeat(90),
            &"word ".repeat(18).trim_end().to_owned(),
        ];
        for width in [20, 60, 98, 100, 140] {
            for text in texts {
                for (first, rest) in [("  help: ", "        "), ("  × ", "  │ ")] {
                    let mut ours = String::new();
                    fill(&mut ours, text, first, rest, width);
                    assert_eq!(
                        ours,
                        textwrap_fill(text, first, rest, width),
                        "{text:?} at {width}"
                    );
                }
            }
        }
    }

    #[test]
    fn visual_widths_stop_tabs_every_four_columns() {
        assert_eq!(visual_width("\tab\tc"), 9);
        let mut out = String::new();
        expand_tabs(&mut out, "a\tb");
        assert_eq!(out, "a   b");
    }

    #[test]
    fn decimal_widths() {
        for value in [0, 9, 10, 99, 100, 123_456] {
            assert_eq!(decimal_width(value), value.to_string().len());
        }
    }
}
