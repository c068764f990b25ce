//! The common shape of a finding drawn without miette, byte for byte as miette's graphical
//! handler draws it without colour: one label on one line, no related places.
//!
//! Going through miette costs about 200,000 instructions a finding, most of it in textwrap
//! (Unicode line breaking and optimal fit, run on every message and help text, even one that
//! fits on its line) and the rest in allocations per line and per label. Here a text that fits
//! is written as it is, a help text that must be wrapped is wrapped once per file by the same
//! textwrap call miette makes, and the code frame is drawn from slices of the text. Any other
//! shape (a related place, a span over several lines, a line with a control character)
//! returns `false` and is drawn by miette.

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
    filler: Filler,
}

impl<'s, 't> Frames<'s, 't> {
    pub fn new(source: &'s IndexedSource<'t>, width: usize) -> Self {
        Self {
            source,
            width,
            chars: ThemeCharacters::unicode(),
            wrapped: HashMap::new(),
            lines: Vec::with_capacity(3),
            filler: Filler::default(),
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
        self.filler
            .fill(out, &diagnostic.message, &first, &rest, self.width);
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
                if marked_line.is_some() || !line.holds(start, len) {
                    return None;
                }
                marked_line = Some(index);
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
        let mark = out.len();
        let filler = &mut self.filler;
        if filler
            .fill_ascii(out, help, FIRST, REST, self.width.saturating_sub(2))
            .is_some()
        {
            return;
        }
        out.truncate(mark);
        // What textwrap wraps is wrapped once per file.
        let width = self.width;
        let wrapped = self.wrapped.entry(help.to_owned()).or_insert_with(|| {
            let mut wrapped = String::new();
            filler.fill(&mut wrapped, help, FIRST, REST, width);
            wrapped
        });
        out.push_str(wrapped);
    }
}

/// Room reused from text to text: a large file fills tens of thousands.
#[derive(Debug, Default)]
pub struct Filler {
    fragments: Vec<Fragment>,
    widths: Vec<f64>,
    best: Vec<(usize, f64, bool)>,
    breaks: Vec<usize>,
}

/// A piece of a line that wrapping keeps whole: `start..end` of the line, then `space` spaces.
#[derive(Debug, Clone, Copy)]
struct Fragment {
    start: usize,
    end: usize,
    space: usize,
}

impl Filler {
    /// `text` filled as miette fills messages and help texts (`textwrap::fill` at the terminal
    /// width less 2), without the final line break.
    fn fill(&mut self, out: &mut String, text: &str, first: &str, rest: &str, width: usize) {
        let width = width.saturating_sub(2);
        if first.chars().count() == rest.chars().count() {
            let mark = out.len();
            if self.fill_ascii(out, text, first, rest, width).is_some() {
                return;
            }
            out.truncate(mark);
        }
        let options = textwrap::Options::new(width)
            .initial_indent(first)
            .subsequent_indent(rest)
            .break_words(true);
        out.push_str(&textwrap::fill(text, options));
    }

    /// textwrap's fill of printable ASCII text, for indents of the same width: the same words
    /// (Unicode line breaking, as textwrap's default separator finds them, then its hyphen
    /// splitter), the same optimal fit. `None` when the text has something not modelled here
    /// (a word longer than a line, a break that Unicode rules forbid after a space, equally good
    /// ways to fill it); the caller then asks textwrap.
    fn fill_ascii(
        &mut self,
        out: &mut String,
        text: &str,
        first: &str,
        rest: &str,
        width: usize,
    ) -> Option<()> {
        let room = width.saturating_sub(first.chars().count());
        let fragments = &mut self.fragments;
        let mut lines = 0;
        for line in text.split('\n') {
            // textwrap loses a break in a line that ends with `-` (see `words`).
            if line.is_empty() || line.starts_with(' ') || line.ends_with([' ', '-']) {
                return None;
            }
            if !line.bytes().all(|b| (b' '..=b'~').contains(&b)) {
                return None;
            }
            if line.len() <= room {
                // Fits: one line as it is, whatever the words.
                out.push_str(if lines == 0 { first } else { rest });
                out.push_str(line);
                out.push('\n');
                lines += 1;
                continue;
            }
            // textwrap starts with an empty word when there is a first indent.
            fragments.clear();
            fragments.push(Fragment {
                start: 0,
                end: 0,
                space: 0,
            });
            words(line, fragments)?;
            if fragments.iter().any(|f| f.end - f.start > room) {
                return None;
            }
            optimal_fit(
                fragments,
                room,
                &mut self.widths,
                &mut self.best,
                &mut self.breaks,
            )?;
            let mut from = 0;
            for &to in &self.breaks {
                let last = fragments[to - 1];
                out.push_str(if lines == 0 { first } else { rest });
                out.push_str(&line[fragments[from].start..last.end]);
                out.push('\n');
                lines += 1;
                from = to;
            }
        }
        out.pop();
        Some(())
    }
}

/// The words of `line` (printable ASCII, no space at either end) as textwrap finds them.
fn words(line: &str, fragments: &mut Vec<Fragment>) -> Option<()> {
    let bytes = line.as_bytes();
    let mut start = 0;
    let mut previous_last: Option<u8> = None;
    while start < bytes.len() {
        let end = memchr::memchr(b' ', &bytes[start..]).map_or(bytes.len(), |at| start + at);
        let after = bytes[end..].iter().take_while(|&&b| b == b' ').count();
        let token = &line[start..end];
        let (head, tail) = (bytes[start], bytes[end - 1]);
        // Unicode forbids a break after spaces before a closing bracket, `!`, `?`, a
        // separator (`.,:;`) or `/`; after an opening bracket and spaces; and between a
        // quote, spaces and an opening bracket.
        if let Some(previous) = previous_last
            && (b")]}!?.,:;/".contains(&head)
                || b"([{".contains(&previous)
                || (b"\"'".contains(&previous) && b"([{".contains(&head)))
        {
            return None;
        }
        let first = fragments.len();
        if token.bytes().all(plain) && no_break_inside(token) {
            fragments.push(Fragment {
                start,
                end,
                space: 0,
            });
        } else {
            // Other marks are left to the Unicode rules themselves, on the word and its
            // spaces alone: no rule looks past the spaces after it. (With its spaces: textwrap
            // drops the break at the end of a text, and a text that ends with `-` loses its
            // last break before that instead.)
            let mut at = start;
            let separator = textwrap::WordSeparator::UnicodeBreakProperties;
            for word in separator.find_words(&line[start..end + after]) {
                let word_end = at + word.word.len();
                if word_end > end || (word_end < end && !word.whitespace.is_empty()) {
                    return None;
                }
                fragments.push(Fragment {
                    start: at,
                    end: word_end,
                    space: 0,
                });
                at = word_end + word.whitespace.len();
            }
            at = at.min(end);
            if at != end {
                return None;
            }
        }
        // textwrap's hyphen splitter: after each `-` between two letters or digits.
        let mut index = first;
        while index < fragments.len() {
            let fragment = fragments[index];
            let piece = &bytes[fragment.start..fragment.end];
            let split = (1..piece.len().saturating_sub(1)).find(|&i| {
                piece[i] == b'-'
                    && piece[i - 1].is_ascii_alphanumeric()
                    && piece[i + 1].is_ascii_alphanumeric()
            });
            if let Some(i) = split {
                fragments[index].end = fragment.start + i + 1;
                fragments.insert(
                    index + 1,
                    Fragment {
                        start: fragment.start + i + 1,
                        end: fragment.end,
                        space: 0,
                    },
                );
            }
            index += 1;
        }
        if let Some(last) = fragments.last_mut() {
            last.space = after;
        }
        previous_last = Some(tail);
        start = end + after;
    }
    Some(())
}

/// Letters, digits, and the marks that never allow a break next to letters or digits, nor
/// next to each other except as [`no_break_inside`] tells (Unicode classes AL, NU, QU, OP,
/// CP, IS and HY, whose breaks textwrap drops).
fn plain(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"#&*<=>@^_`~\"'()[].,:;-".contains(&byte)
}

/// Whether a word of [`plain`] marks has no break inside: Unicode breaks before an opening
/// bracket after a closing one or a separator, and before a digit after a separator that
/// does not follow a digit.
fn no_break_inside(token: &str) -> bool {
    let bytes = token.as_bytes();
    bytes.windows(2).enumerate().all(|(index, pair)| {
        let (a, b) = (pair[0], pair[1]);
        let separator = b".,:;".contains(&a);
        if b == b'(' || b == b'[' {
            return !(separator || a == b')' || a == b']');
        }
        if separator && b.is_ascii_digit() {
            return index > 0 && bytes[index - 1].is_ascii_digit();
        }
        true
    })
}

/// The ends of the lines textwrap's optimal fit chooses for `fragments` on lines of `room`
/// columns: the same costs (a line 1000, the square of the gap left on a line but the last,
/// 2500 a column of overflow, 25 a last line of one short word), minimised exactly. `None`
/// when two ways cost the same on the chosen path, where textwrap's order decides.
fn optimal_fit(
    fragments: &[Fragment],
    room: usize,
    widths: &mut Vec<f64>,
    best: &mut Vec<(usize, f64, bool)>,
    breaks: &mut Vec<usize>,
) -> Option<()> {
    let count = fragments.len();
    let target = (room as f64).max(1.0);
    // widths[k]: columns of fragments[..k] with their spaces.
    widths.clear();
    widths.push(0.0);
    let mut width = 0.0;
    for f in fragments {
        width += (f.end - f.start + f.space) as f64;
        widths.push(width);
    }
    best.clear();
    best.resize(count + 1, (0, 0.0, false));
    for j in 1..=count {
        let last_space = fragments[j - 1].space as f64;
        let mut chosen: Option<(usize, f64)> = None;
        let mut tied = false;
        for i in (0..j).rev() {
            let line = widths[j] - widths[i] - last_space;
            let mut cost = best[i].1 + 1000.0;
            if line > target {
                let overflow = (line - target) * 2500.0;
                // Further back, lines only get longer.
                if chosen.is_some_and(|(_, c)| 1000.0 + overflow > c) {
                    break;
                }
                cost += overflow;
            } else if j < count {
                let gap = target - line;
                cost += gap * gap;
            } else if i + 1 == j && line < target / 4.0 {
                cost += 25.0;
            }
            match chosen {
                Some((_, c)) if cost == c => tied = true,
                Some((_, c)) if cost > c => {}
                _ => {
                    chosen = Some((i, cost));
                    tied = false;
                }
            }
        }
        let (i, cost) = chosen?;
        best[j] = (i, cost, tied);
    }
    breaks.clear();
    let mut at = count;
    while at > 0 {
        if best[at].2 {
            return None;
        }
        breaks.push(at);
        at = best[at].0;
    }
    breaks.reverse();
    Some(())
}

/// The columns of a character as miette counts them (unicode-width, as miette's own
/// dependency), a tab stopping every [`TAB_WIDTH`] columns after `column`.
fn char_width(c: char, column: usize) -> usize {
    if c == '\t' {
        TAB_WIDTH - column % TAB_WIDTH
    } else {
        unicode_width::UnicodeWidthChar::width(c).unwrap_or(0)
    }
}

/// Columns of `text` (no control characters but tabs).
fn visual_width(text: &str) -> usize {
    if text.is_ascii() && !text.contains('\t') {
        return text.len();
    }
    text.chars()
        .fold(0, |column, c| column + char_width(c, column))
}

/// `text` with its tabs as spaces, as miette draws a line; other characters as they are.
fn expand_tabs(out: &mut String, text: &str) {
    if !text.contains('\t') {
        out.push_str(text);
        return;
    }
    let mut column = 0;
    for c in text.chars() {
        let width = char_width(c, column);
        if c == '\t' {
            pad(out, width);
        } else {
            out.push(c);
        }
        column += width;
    }
}

fn pad(out: &mut String, count: usize) {
    repeat(out, ' ', count);
}

fn repeat(out: &mut String, c: char, count: usize) {
    out.extend(std::iter::repeat_n(c, count));
}

/// Digits of `value` written in decimal (1 for 0).
fn decimal_width(value: usize) -> usize {
    value.checked_ilog10().map_or(1, |log| log as usize + 1)
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
        let long_word = "x".repeat(90);
        let words = "word ".repeat(18);
        let texts = [
            "a",
            "Iparam `x` has no `default_value`",
            "two\nlines",
            "with (punctuation), hyphen-ated/slashed \"quotes\"; and: colons!",
            &long_word,
            words.trim_end(),
        ];
        for width in [20, 60, 98, 100, 140] {
            for text in texts {
                for (first, rest) in [("  help: ", "        "), ("  × ", "  │ ")] {
                    let mut ours = String::new();
                    Filler::default().fill(&mut ours, text, first, rest, width);
                    assert_eq!(
                        ours,
                        textwrap_fill(text, first, rest, width),
                        "{text:?} at {width}"
                    );
                }
            }
        }
    }

    /// Texts of words from `alphabet`, of 1 to 14 characters, separated by one or two spaces.
    fn random_texts(alphabet: &[u8], count: usize) -> Vec<String> {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below as u64) as usize
        };
        (0..count)
            .map(|_| {
                let mut text = String::new();
                for word in 0..1 + next(40) {
                    if word > 0 {
                        text.push_str(if next(10) == 0 { "  " } else { " " });
                    }
                    let plainish = next(3) > 0;
                    for _ in 0..1 + next(14) {
                        let byte = if plainish {
                            b"abcdefghijklmnopqrstuvwxyz`"[next(27)]
                        } else {
                            alphabet[next(alphabet.len())]
                        };
                        text.push(char::from(byte));
                    }
                }
                if next(8) == 0 {
                    text.push_str("\nfix available: Replace `x` with `y`");
                }
                text
            })
            .collect()
    }

    #[test]
    fn long_texts_are_filled_as_textwrap_fills_them() {
        let printable: Vec<u8> = (b'!'..=b'~').collect();
        let mut ours_count = 0;
        let mut filler = Filler::default();
        let texts = random_texts(&printable, 20_000)
            .into_iter()
            .chain(random_texts(b"ab1-.,:;()[]'\"", 20_000));
        for text in texts {
            for width in [30, 60, 100] {
                for (first, rest) in [("  help: ", "        "), ("  × ", "  │ ")] {
                    let mut ours = String::new();
                    if filler
                        .fill_ascii(&mut ours, &text, first, rest, width - 2)
                        .is_some()
                    {
                        ours_count += 1;
                        assert_eq!(
                            ours,
                            textwrap_fill(&text, first, rest, width),
                            "{text:?} at {width}"
                        );
                    }
                }
            }
        }
        // A good part of these random texts is filled here (real ones, more), and each the same.
        assert!(ours_count > 60_000, "{ours_count}");
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
