//! The common shapes of a finding drawn without miette, byte for byte as miette's graphical
//! handler draws them without colour: labels (the finding's own, and its related places) that
//! each lie on one line, no two on the same line; or a finding's one label over several lines.
//!
//! Going through miette costs about 200,000 instructions a finding, most of it in textwrap
//! (Unicode line breaking and optimal fit, run on every message and help text, even one that
//! fits on its line) and the rest in allocations per line and per label. Here a text that fits
//! is written as it is, a help text that must be wrapped is wrapped once per thread by the same
//! textwrap call miette makes, and the code frames are drawn from slices of the text. Any other
//! shape (a span over several lines beside other labels, two labels on one line, a line with an
//! escape character) returns `false` and is drawn by miette.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::ops::Range;
use std::sync::LazyLock;

use iparams_core::eight_bytes::{HIGHS, ONES, first_below};
use iparams_core::fast_hash::FastHashMap;
use iparams_core::{Diagnostic, Severity, Span};
use miette::ThemeCharacters;

use super::push_decimal;
use crate::source_code::{Context, IndexedSource};

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
    /// The mark drawn under it, an index into `Frames::marks`.
    mark: Option<usize>,
    /// Where it lies in the frame's mark over several lines, if the frame has one.
    reach: Reach,
    /// A secret is in it: it is drawn masked.
    masked: bool,
}

impl Line<'_> {
    /// miette's `span_applies`: whether a span is drawn on this line.
    fn applies(&self, span: Span) -> bool {
        let (start, len) = (span.start, span.len().max(1));
        let end = self.offset + self.length;
        (start >= self.offset && start < end)
            || (start < self.offset && start + len > end)
            || (start + len > self.offset && start + len <= end)
    }

    /// miette's `span_line_only`.
    fn holds(&self, span: Span) -> bool {
        span.start >= self.offset && span.end <= self.offset + self.length
    }

    /// Where this line lies in `span`, which is over several lines, as miette's gutter shows
    /// it; `None` for a line it treats otherwise.
    fn reach(&self, span: Span) -> Option<Reach> {
        let end = self.offset + self.length;
        Some(if !self.applies(span) {
            Reach::Outside
        } else if self.holds(span) {
            // A span that ends with the line's break is on that line alone for miette.
            return None;
        } else if span.start >= self.offset {
            Reach::Starts
        } else if span.end >= self.offset && span.end <= end {
            Reach::Ends
        } else if span.start < self.offset && span.end > end {
            Reach::Passes
        } else {
            return None;
        })
    }
}

/// Where a line lies in a mark over several lines: miette draws an arrow in the gutter to the
/// lines where it starts and ends, and a bar beside the lines between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    Outside,
    Starts,
    Passes,
    Ends,
}

/// A labelled span of a finding: its own (`label` 0) or related place `label - 1`.
#[derive(Debug, Clone, Copy)]
struct Mark {
    span: Span,
    label: usize,
}

/// One code frame: miette draws one for each group of marks whose context lines touch.
#[derive(Debug, Clone)]
struct Frame {
    /// Into `Frames::lines`.
    lines: Range<usize>,
    /// The mark whose position the frame's header gives.
    header: usize,
    /// Its one mark is over several lines: every line has a gutter.
    spread: bool,
}

/// Draws findings of one file.
#[derive(Debug)]
pub struct Frames<'s, 't> {
    source: &'s IndexedSource<'t>,
    /// The bytes of secrets in the text, sorted: masked wherever a line shows them.
    hidden: &'s [Span],
    /// The terminal width miette is given.
    width: usize,
    chars: &'static ThemeCharacters,
    // Room reused from finding to finding.
    marks: Vec<Mark>,
    frames: Vec<Frame>,
    lines: Vec<Line<'t>>,
    filler: Filler,
    /// The line that says a fix is available, its room reused.
    fix_line: String,
}

impl<'s, 't> Frames<'s, 't> {
    pub fn new(source: &'s IndexedSource<'t>, hidden: &'s [Span], width: usize) -> Self {
        Self {
            source,
            hidden,
            width,
            chars: &THEME,
            marks: Vec::with_capacity(2),
            frames: Vec::with_capacity(2),
            lines: Vec::with_capacity(3),
            // The room of the thread's last frames: a file's findings are drawn by frames of
            // their own, and most files have a few.
            filler: SPARE_FILLER.take().unwrap_or_default(),
            fix_line: String::new(),
        }
    }

    /// Appends `diagnostic` to `out` as miette draws it; `false`, with nothing appended, when its
    /// shape is one for miette to draw.
    pub fn draw(&mut self, diagnostic: &Diagnostic, out: &mut String) -> bool {
        if self.plan(diagnostic).is_none() {
            return false;
        }

        // The header: the code, then a blank line.
        out.push_str(diagnostic.severity.as_str());
        out.push('[');
        out.push_str(diagnostic.rule);
        out.push_str("]\n\n");
        // The message.
        let indents = &*MESSAGE_INDENTS;
        let first = &indents.first[match diagnostic.severity {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
        }];
        self.filler
            .fill(out, &diagnostic.message, first, &indents.rest, self.width);
        out.push('\n');
        for frame in &self.frames {
            self.frame(frame, diagnostic, out);
        }
        // miette's footer is the help and the fix joined by a line break (`human::help`).
        // Each line of a footer is filled on its own, so the two are filled apart: a rule's
        // fixed help is then found filled, whatever its fix's title.
        let fix = diagnostic.fix.as_ref().map(|fix| fix.title.as_str());
        if let Some(help) = diagnostic.help.as_deref() {
            self.help(help, out);
            if fix.is_some() {
                out.push('\n');
            }
        }
        if let Some(title) = fix {
            let first = match diagnostic.help {
                Some(_) => HELP_REST,
                None => HELP_FIRST,
            };
            let mut line = std::mem::take(&mut self.fix_line);
            line.clear();
            line.push_str(FIX_AVAILABLE);
            line.push_str(title);
            self.filler.fill(out, &line, first, HELP_REST, self.width);
            self.fix_line = line;
        }
        if diagnostic.help.is_some() || fix.is_some() {
            out.push('\n');
        }
        true
    }

    /// The marks of `diagnostic`, grouped into frames as miette groups them, with the lines of
    /// each; `None` for a shape left to miette.
    fn plan(&mut self, diagnostic: &Diagnostic) -> Option<()> {
        let text = self.source.text();
        self.marks.clear();
        self.marks.push(Mark {
            span: diagnostic.span,
            label: 0,
        });
        for (index, related) in diagnostic.related.iter().enumerate() {
            self.marks.push(Mark {
                span: related.span,
                label: index + 1,
            });
        }
        // Whether the finding's one mark is over several lines: drawn only when it is alone.
        let mut spread = false;
        for mark in &self.marks {
            let marked = text.get(mark.span.start..mark.span.end)?;
            spread = has_line_break(marked);
            if memchr::memchr(b'\r', marked.as_bytes()).is_some()
                || (spread && self.marks.len() > 1)
                || label_of(diagnostic, mark.label).is_some_and(has_line_break)
            {
                return None;
            }
        }
        // miette's order (an unstable sort by start: two marks at one start are left to it).
        self.marks.sort_unstable_by_key(|mark| mark.span.start);
        if self
            .marks
            .windows(2)
            .any(|pair| pair[0].span.start == pair[1].span.start)
        {
            return None;
        }

        // miette's grouping: a mark whose context (a line either side) starts at most one
        // line after the previous group's context ends joins that group.
        self.frames.clear();
        self.lines.clear();
        // Each group with the context of its span, which its frame then shows.
        let mut group: Option<(Span, Context)> = None;
        for index in 0..self.marks.len() {
            let span = self.marks[index].span;
            let context = self.source.context(span.start, span.end, 1, 1)?;
            if let Some((left, left_context)) = group.as_mut()
                && left_context.first_line + left_context.line_count >= context.first_line
            {
                let joined = Span::new(left.start, left.end.max(span.end));
                if let Some(joined_context) = self.source.context(joined.start, joined.end, 1, 1) {
                    *left = joined;
                    *left_context = joined_context;
                    continue;
                }
            }
            if let Some((left, left_context)) = group.replace((span, context)) {
                self.push_frame(left, left_context, spread)?;
            }
        }
        let (last, context) = group?;
        self.push_frame(last, context, spread)
    }

    /// The frame miette draws for the group of marks `span` covers (from the first mark to the
    /// furthest end), `context` its lines, appended to `self.lines`; `spread` when its one mark
    /// is over several lines.
    fn push_frame(&mut self, span: Span, context: Context, spread: bool) -> Option<()> {
        let text = self.source.text();
        let data = text.get(context.start..context.end)?;
        if data.is_empty() {
            return None;
        }
        // miette's `get_lines`: "\r\n" and "\n" end a line; the last one may have no break.
        let first = self.lines.len();
        let (mut number, mut offset, mut rest) = (context.first_line, context.start, data);
        loop {
            number += 1;
            let (length, next) = match memchr::memchr(b'\n', rest.as_bytes()) {
                Some(at) => (at + 1, Some(&rest[at + 1..])),
                None => (rest.len(), None),
            };
            // A "\r" is dropped before a "\n" only: a context that ends in a CRLF file ends
            // before its "\n", and miette draws that last "\r" as a control character.
            let line_text = match next {
                Some(_) => {
                    let raw = &rest[..length - 1];
                    raw.strip_suffix('\r').unwrap_or(raw)
                }
                None => rest,
            };
            // Left to miette: an escape, which it measures as the start of a colour sequence
            // (up to an `m`), and a "\r" that ends the context, whose line it numbers as the
            // one before. Other control characters are written as they are and measured by
            // their Unicode width, here as there.
            if line_text.contains('\x1b') || (next.is_none() && line_text.ends_with('\r')) {
                return None;
            }
            let mut line = Line {
                number,
                offset,
                length,
                text: line_text,
                mark: None,
                reach: Reach::Outside,
                masked: false,
            };
            // A secret within the line's text is masked when it is drawn; one that reaches its
            // line break (a string broken by a raw newline) is left to miette's masked copy.
            let line_end = offset + line_text.len();
            let first = self.hidden.partition_point(|hidden| hidden.end <= offset);
            for hidden in self.hidden[first..]
                .iter()
                .take_while(|hidden| hidden.start < offset + length)
            {
                if hidden.start < offset || hidden.end > line_end {
                    return None;
                }
                line.masked = true;
            }
            if spread {
                line.reach = line.reach(self.marks[0].span)?;
            } else {
                for (index, mark) in self.marks.iter().enumerate() {
                    if line.applies(mark.span) {
                        // Within the text drawn, too: not at the "\n" of a "\r\n".
                        if line.mark.is_some()
                            || !line.holds(mark.span)
                            || mark.span.end > offset + line_text.len()
                        {
                            return None;
                        }
                        line.mark = Some(index);
                    }
                }
            }
            self.lines.push(line);
            match next {
                Some(next) if !next.is_empty() => {
                    offset += length;
                    rest = next;
                }
                _ => break,
            }
        }
        // The header gives the finding's own mark if the frame has it, else its first one.
        let inside = |mark: &&Mark| span.contains(mark.span);
        let header = self
            .marks
            .iter()
            .filter(inside)
            .find(|mark| mark.label == 0)
            .or_else(|| self.marks.iter().find(inside))?;
        let header = header.label;
        self.frames.push(Frame {
            lines: first..self.lines.len(),
            header,
            spread,
        });
        Some(())
    }

    /// A code frame: miette's `render_context` for labels each on a line of its own, which
    /// needs no gutter, or for one label over several lines, with the gutter of its arrows.
    fn frame(&self, frame: &Frame, diagnostic: &Diagnostic, out: &mut String) {
        let c = &self.chars;
        let lines = &self.lines[frame.lines.clone()];
        let number_width = decimal_width(lines.last().map_or(0, |line| line.number));
        let header = span_of(diagnostic, frame.header);
        // The file's position, as every other format gives it, masked secrets or not.
        let position = self.source.position(header.start);
        pad(out, number_width + 2);
        out.push(c.ltop);
        out.push(c.hbar);
        out.push('[');
        out.push_str(self.source.name());
        out.push(':');
        push_decimal(out, position.line);
        out.push(':');
        push_decimal(out, position.column);
        out.push_str("]\n");
        for line in lines {
            let text = match line.masked {
                true => Cow::Owned(self.mask(line)),
                false => Cow::Borrowed(line.text),
            };
            pad(
                out,
                1 + number_width.saturating_sub(decimal_width(line.number)),
            );
            push_decimal(out, line.number);
            out.push(' ');
            out.push(c.vbar);
            out.push(' ');
            if frame.spread {
                self.gutter(line.reach, diagnostic.label.is_some(), out);
            }
            expand_tabs(out, &text);
            out.push('\n');
            // miette's start of a line without a number: under a line, the label's.
            let unnumbered = |out: &mut String| {
                pad(out, number_width + 2);
                out.push(c.vbar_break);
                out.push(' ');
            };
            if line.reach == Reach::Ends
                && let Some(label) = diagnostic.label.as_deref()
            {
                // miette's `render_multi_line_end`: the label under the last line.
                unnumbered(out);
                out.push(c.lbot);
                repeat(out, c.hbar, 4);
                out.push(' ');
                out.push_str(label);
                out.push('\n');
            }
            let Some(mark) = line.mark else {
                continue;
            };
            let Mark { span, label } = self.marks[mark];
            let label = label_of(diagnostic, label);
            let start = visual_width(&text[..span.start - line.offset]);
            let end = if span.is_empty() {
                start + 1
            } else {
                // On from the start's column: a long line is measured once, not twice.
                let marked = &text[span.start - line.offset..span.end - line.offset];
                columns_after(start, marked).max(start + 1)
            };
            let middle = (start + end) / 2;
            unnumbered(out);
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
                unnumbered(out);
                pad(out, middle);
                out.push(c.lbot);
                out.push(c.hbar);
                out.push(c.hbar);
                out.push(' ');
                out.push_str(label);
                out.push('\n');
            }
        }
        pad(out, number_width + 2);
        out.push(c.lbot);
        repeat(out, c.hbar, 4);
        out.push('\n');
    }

    /// miette's `render_line_gutter` for a frame whose one mark is over several lines: an
    /// arrow to the line where it starts and to the one where it ends (a cross there when a label
    /// follows), a bar beside the lines between.
    fn gutter(&self, reach: Reach, labelled: bool, out: &mut String) {
        let c = &self.chars;
        let arrow = |out: &mut String, corner: char| {
            out.push(corner);
            out.push(c.hbar);
            out.push(c.rarrow);
            out.push(' ');
        };
        match reach {
            Reach::Outside => pad(out, 4),
            Reach::Starts => arrow(out, c.ltop),
            Reach::Ends => arrow(out, if labelled { c.lcross } else { c.lbot }),
            Reach::Passes => {
                out.push(c.vbar);
                pad(out, 3);
            }
        }
    }

    /// `line`'s text with the bytes of each secret in it as `*`, as `FileReport::redact`
    /// masks the whole text.
    fn mask(&self, line: &Line<'_>) -> String {
        iparams_core::masked(line.text, line.offset, self.hidden)
    }

    /// miette's footer: the help text after `help: `, wrapped.
    fn help(&mut self, help: &str, out: &mut String) {
        // A help whose lines all fit is written as it is; one to fill is filled once.
        let room = self.width.saturating_sub(2 + HELP_FIRST.len());
        if lines_of(help).all(|line| line.len() <= room) {
            let mark = out.len();
            if self
                .filler
                .fill_plain(
                    out,
                    help,
                    HELP_FIRST,
                    HELP_REST,
                    self.width.saturating_sub(2),
                )
                .is_some()
            {
                return;
            }
            out.truncate(mark);
        }
        FILLED_HELPS.with_borrow_mut(|filled| {
            if filled.width != self.width {
                filled.width = self.width;
                filled.texts.clear();
            } else if filled.texts.len() >= FILLED_HELPS_KEPT {
                // The helps seen again are the rules' fixed texts: they stay, and those seen
                // once (most quote a key of their file) make room.
                filled
                    .texts
                    .retain(|_, filled| std::mem::take(&mut filled.seen_again));
                if filled.texts.len() >= FILLED_HELPS_KEPT / 2 {
                    filled.texts.clear();
                }
            }
            if let Some(kept) = filled.texts.get_mut(help) {
                kept.seen_again = true;
                out.push_str(&kept.text);
                return;
            }
            // Room for the text and the indents of a few lines.
            let mut text = String::with_capacity(help.len() + help.len() / 8 + 16);
            self.filler
                .fill(&mut text, help, HELP_FIRST, HELP_REST, self.width);
            out.push_str(&text);
            let kept = FilledHelp {
                text,
                seen_again: false,
            };
            filled.texts.insert(help.to_owned(), kept);
        });
    }
}

impl Drop for Frames<'_, '_> {
    fn drop(&mut self) {
        SPARE_FILLER.set(Some(std::mem::take(&mut self.filler)));
    }
}

/// How miette indents a message's lines: the first with the severity's icon (error, warning,
/// info), the others with a bar.
struct MessageIndents {
    first: [String; 3],
    rest: String,
}

/// miette's characters (its theme builds their strings each time it is asked).
static THEME: LazyLock<ThemeCharacters> = LazyLock::new(ThemeCharacters::unicode);

static MESSAGE_INDENTS: LazyLock<MessageIndents> = LazyLock::new(|| {
    let chars = &*THEME;
    MessageIndents {
        first: [&chars.error, &chars.warning, &chars.advice].map(|icon| format!("  {icon} ")),
        rest: format!("  {} ", chars.vbar),
    }
});

/// How miette indents the first line of a footer, and the others.
const HELP_FIRST: &str = "  help: ";
const HELP_REST: &str = "        ";

/// How a footer's line about a finding's fix starts (`human::help` writes it for miette).
pub const FIX_AVAILABLE: &str = "fix available: ";

/// Help texts already filled at a width, kept for the thread's next findings: a run repeats
/// the same helps in file after file, and filling one costs far more than looking it up.
#[derive(Default)]
struct FilledHelps {
    width: usize,
    texts: FastHashMap<String, FilledHelp>,
}

struct FilledHelp {
    text: String,
    /// Asked for again since it was filled, or since the helps were last thinned.
    seen_again: bool,
}

/// How many filled helps a thread keeps before it thins them out: about 300 kilobytes (a help
/// and its filled text take about 560 bytes). The helps that repeat are the rules' fixed texts, a
/// few hundred; 4,096 kept the unique ones of a large file too, 2 MB of them at its peak.
const FILLED_HELPS_KEPT: usize = 512;

thread_local! {
    static FILLED_HELPS: RefCell<FilledHelps> = RefCell::default();
    /// The filler of the thread's last frames, its room kept for the next.
    static SPARE_FILLER: Cell<Option<Filler>> = const { Cell::new(None) };
    /// The breaks found for each shape of a line (see `Filler::fill_plain`), for the thread's
    /// next lines of the same shape.
    static FITS: RefCell<FastHashMap<Shape, Vec<usize>>> = RefCell::default();
}

/// A line as the breaks are found from it: the room, then each fragment's width and the spaces
/// after it.
type Shape = Vec<(usize, usize)>;

/// How many shapes a thread keeps the breaks of before it starts again: about 200 kilobytes.
const FITS_KEPT: usize = 1024;

/// The lines of `text`, as `text.split('\n')` gives them: searched for with memchr's vector
/// search, where std's search for a `char` costs more on the short texts of every finding.
fn lines_of(text: &str) -> impl Iterator<Item = &str> {
    let ends = memchr::memchr_iter(b'\n', text.as_bytes()).chain(std::iter::once(text.len()));
    let mut start = 0;
    ends.map(move |end| {
        let line = &text[start..end];
        start = end + 1;
        line
    })
}

/// Whether `text` holds a `\n`.
fn has_line_break(text: &str) -> bool {
    memchr::memchr(b'\n', text.as_bytes()).is_some()
}

/// The text of label `index` of `diagnostic`: its own label (0), or a related place's.
fn label_of(diagnostic: &Diagnostic, index: usize) -> Option<&str> {
    match index {
        0 => diagnostic.label.as_deref(),
        _ => Some(&diagnostic.related[index - 1].message),
    }
}

/// The span of label `index` of `diagnostic`, numbered as in [`label_of`].
fn span_of(diagnostic: &Diagnostic, index: usize) -> Span {
    match index {
        0 => diagnostic.span,
        _ => diagnostic.related[index - 1].span,
    }
}

/// Room reused from text to text: a large file fills tens of thousands.
#[derive(Debug, Default)]
pub struct Filler {
    fragments: Vec<Fragment>,
    widths: Vec<f64>,
    best: Vec<(usize, f64, bool)>,
    breaks: Vec<usize>,
    shape: Shape,
    /// Lines whose filling a tie decided (two ways of the same cost), for the tests to see that
    /// case is met.
    #[cfg(test)]
    ties: usize,
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
            if self.fill_plain(out, text, first, rest, width).is_some() {
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

    /// textwrap's fill of printable text, for indents of the same width: a line that fits (by
    /// textwrap's own measure) as it is; a longer line of printable ASCII by the same words
    /// (Unicode line breaking, as textwrap's default separator finds them, then its hyphen
    /// splitter) and the same optimal fit (equally good ways to fill it decided as textwrap
    /// decides them).
    /// `None` when the text has something not modelled here (a longer line with other
    /// characters, a word longer than a line, a break that Unicode rules forbid after a space);
    /// the caller then asks textwrap.
    fn fill_plain(
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
        for line in lines_of(text) {
            // textwrap loses a break in a line that ends with `-` (see `words`).
            if line.is_empty() || line.starts_with(' ') || line.ends_with([' ', '-']) {
                return None;
            }
            let ascii = printable_ascii(line);
            if !ascii
                && line
                    .chars()
                    .any(|c| c.is_control() || ('\u{2028}'..='\u{2029}').contains(&c))
            {
                return None;
            }
            // textwrap's own measure for other text: one line, if it fits, whatever the words.
            let width = if ascii {
                line.len()
            } else {
                textwrap::core::display_width(line)
            };
            if width <= room {
                // Fits: one line as it is, whatever the words.
                out.push_str(if lines == 0 { first } else { rest });
                out.push_str(line);
                out.push('\n');
                lines += 1;
                continue;
            }
            if !ascii {
                return None;
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
            // The breaks depend only on the room and each word's width and spaces: helps that
            // differ in a key of the same length are filled alike, and found filled.
            self.shape.clear();
            self.shape.push((room, 0));
            self.shape
                .extend(fragments.iter().map(|f| (f.end - f.start, f.space)));
            let breaks = &mut self.breaks;
            let known = FITS.with_borrow(|fits| {
                fits.get(self.shape.as_slice()).map(|known| {
                    breaks.clear();
                    breaks.extend_from_slice(known);
                })
            });
            if known.is_none() {
                let tied = optimal_fit(
                    fragments,
                    room,
                    &mut self.widths,
                    &mut self.best,
                    &mut self.breaks,
                )?;
                #[cfg(test)]
                {
                    self.ties += usize::from(tied);
                }
                #[cfg(not(test))]
                let _ = tied;
                FITS.with_borrow_mut(|fits| {
                    if fits.len() >= FITS_KEPT {
                        fits.clear();
                    }
                    fits.insert(self.shape.clone(), self.breaks.clone());
                });
            }
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
        let first = fragments.len();
        let (end, plain) = plain_word_at(bytes, start, fragments);
        let after = bytes[end..].iter().take_while(|&&b| b == b' ').count();
        let (head, tail) = (bytes[start], bytes[end - 1]);
        // Unicode forbids a break after spaces before a closing bracket, `!`, `?`, a
        // separator (`.,:;`) or `/`; after an opening bracket and spaces; and between a
        // quote, spaces and an opening bracket.
        let opening = |byte: u8| matches!(byte, b'(' | b'[' | b'{');
        if let Some(previous) = previous_last
            && (matches!(
                head,
                b')' | b']' | b'}' | b'!' | b'?' | b'.' | b',' | b':' | b';' | b'/'
            ) || opening(previous)
                || (matches!(previous, b'"' | b'\'') && opening(head)))
        {
            return None;
        }
        if !plain {
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
            split_at_hyphens(bytes, fragments, first);
        }
        if let Some(last) = fragments.last_mut() {
            last.space = after;
        }
        previous_last = Some(tail);
        start = end + after;
    }
    Some(())
}

/// Whether `text` is all printable ASCII, a space to `~`: eight bytes at a time, as every
/// message and help is asked.
fn printable_ascii(text: &str) -> bool {
    let mut words = text.as_bytes().chunks_exact(8);
    for word in &mut words {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        // A byte's high bit set in any of: the byte itself (not ASCII); below a space; the byte
        // plus one (0x7F, DEL, once no byte is above it, and none carries into the next).
        if (word | first_below(word, 0x20) | word.wrapping_add(ONES)) & HIGHS != 0 {
            return false;
        }
    }
    words
        .remainder()
        .iter()
        .all(|&b| (b' '..=b'~').contains(&b))
}

/// Reads the word of `bytes` that starts at `start`, up to the next space or the end: where it
/// ends, and whether it is plain (all plain bytes with no break inside, as [`CLASSES`] tells). A
/// plain word's fragments are pushed as it is read: the word, split after each `-` between two
/// letters or digits, as textwrap's hyphen splitter splits it. Nothing is pushed for another
/// word. A word of [`SIMPLE`] bytes alone is found by one pass over that table; any other is read
/// again from its start, byte by byte.
fn plain_word_at(bytes: &[u8], start: usize, fragments: &mut Vec<Fragment>) -> (usize, bool) {
    // Most words are letters, digits and marks that neither break nor split: one fragment.
    let simple = bytes[start..]
        .iter()
        .position(|&byte| !SIMPLE[usize::from(byte)])
        .map_or(bytes.len(), |length| start + length);
    if bytes.get(simple).is_none_or(|&byte| byte == b' ') {
        fragments.push(Fragment {
            start,
            end: simple,
            space: 0,
        });
        return (simple, true);
    }
    let first = fragments.len();
    let (mut before, mut plain, mut piece, mut at) = ([OTHER, OTHER], true, start, start);
    while at < bytes.len() && bytes[at] != b' ' {
        let byte = bytes[at];
        if plain {
            let class = CLASSES[usize::from(byte)];
            match (before[1], class) {
                // Unicode breaks before an opening bracket after a closing one or a separator,
                // and before a digit after a separator that does not follow a digit.
                (_, OTHER) | (SEPARATOR | CLOSING, OPENING) => plain = false,
                (SEPARATOR, DIGIT) if before[0] != DIGIT => plain = false,
                _ => {}
            }
            before = [before[1], class];
            split_before(bytes, at, &mut piece, fragments);
        }
        at += 1;
    }
    if plain {
        fragments.push(Fragment {
            start: piece,
            end: at,
            space: 0,
        });
    } else {
        fragments.truncate(first);
    }
    (at, plain)
}

/// textwrap's hyphen splitter at byte `at` of a word: the piece that starts at `piece` ends
/// before it, pushed, when it follows a `-` between two letters or digits (not at the piece's
/// first byte), and the next piece starts there.
fn split_before(bytes: &[u8], at: usize, piece: &mut usize, fragments: &mut Vec<Fragment>) {
    if at >= *piece + 2
        && bytes[at].is_ascii_alphanumeric()
        && bytes[at - 1] == b'-'
        && bytes[at - 2].is_ascii_alphanumeric()
    {
        fragments.push(Fragment {
            start: *piece,
            end: at,
            space: 0,
        });
        *piece = at;
    }
}

/// textwrap's hyphen splitter on `fragments[first..]` (a word the Unicode rules split): each
/// split after every `-` between two letters or digits, as [`plain_word_at`] splits a plain one.
fn split_at_hyphens(bytes: &[u8], fragments: &mut Vec<Fragment>, first: usize) {
    let found: Vec<Fragment> = fragments.drain(first..).collect();
    for fragment in found {
        let mut piece = fragment.start;
        for at in fragment.start..fragment.end {
            split_before(bytes, at, &mut piece, fragments);
        }
        fragments.push(Fragment {
            start: piece,
            end: fragment.end,
            space: fragment.space,
        });
    }
}

/// How [`plain_word_at`] sees a byte: letters, digits, and the marks that never allow a break
/// next to letters or digits, nor next to each other but as `plain_word_at` tells (Unicode
/// classes AL, NU, QU, OP, CP, IS and HY, whose breaks textwrap drops); anything else is
/// `OTHER`.
const OTHER: u8 = 0;
const DIGIT: u8 = 1;
const MARK: u8 = 2;
/// `.,:;`
const SEPARATOR: u8 = 3;
/// `([`
const OPENING: u8 = 4;
/// `)]`
const CLOSING: u8 = 5;
const CLASSES: [u8; 256] = {
    let mut classes = [OTHER; 256];
    let mut byte = 0;
    while byte < 128 {
        let b = byte as u8;
        classes[byte] = match b {
            b'0'..=b'9' => DIGIT,
            b'.' | b',' | b':' | b';' => SEPARATOR,
            b'(' | b'[' => OPENING,
            b')' | b']' => CLOSING,
            b'a'..=b'z'
            | b'A'..=b'Z'
            | b'#'
            | b'&'
            | b'*'
            | b'<'
            | b'='
            | b'>'
            | b'@'
            | b'^'
            | b'_'
            | b'`'
            | b'~'
            | b'"'
            | b'\''
            | b'-' => MARK,
            _ => OTHER,
        };
        byte += 1;
    }
    classes
};

/// The bytes that [`plain_word_at`] passes over with nothing to do: digits, and marks but `-`
/// (no rule breaks between them, and textwrap splits only after a `-`).
const SIMPLE: [bool; 256] = {
    let mut simple = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        simple[byte] = byte != b'-' as usize && matches!(CLASSES[byte], DIGIT | MARK);
        byte += 1;
    }
    simple
};

/// The ends of the lines textwrap's optimal fit chooses for `fragments` on lines of `room`
/// columns: the same costs (a line 1000, the square of the gap left on a line but the last,
/// 2500 a column of overflow, 25 a last line of one short word), minimised exactly. Where two
/// ways to end a line cost the same, textwrap's search (SMAWK) keeps the line that starts at
/// the earlier word, and so does this one. `true` when such a tie was on the chosen path.
fn optimal_fit(
    fragments: &[Fragment],
    room: usize,
    widths: &mut Vec<f64>,
    best: &mut Vec<(usize, f64, bool)>,
    breaks: &mut Vec<usize>,
) -> Option<bool> {
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
            // From the nearest start back: an equal cost found later starts earlier, and wins.
            match chosen {
                Some((_, c)) if cost == c => {
                    chosen = Some((i, cost));
                    tied = true;
                }
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
    let mut tied = false;
    let mut at = count;
    while at > 0 {
        tied |= best[at].2;
        breaks.push(at);
        at = best[at].0;
    }
    breaks.reverse();
    Some(tied)
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

/// Columns of `text` (no escape character).
fn visual_width(text: &str) -> usize {
    columns_after(0, text)
}

/// The column `text` ends at when it starts at `column`: runs of printable ASCII counted by
/// their length, any other character by [`char_width`].
fn columns_after(mut column: usize, mut text: &str) -> usize {
    loop {
        let printable = text
            .bytes()
            .take_while(|b| (b' '..=b'~').contains(b))
            .count();
        column += printable;
        text = &text[printable..];
        let Some(c) = text.chars().next() else {
            return column;
        };
        column += char_width(c, column);
        text = &text[c.len_utf8()..];
    }
}

/// `text` with its tabs as spaces, as miette draws a line; other characters as they are.
fn expand_tabs(out: &mut String, text: &str) {
    // Each run up to a tab is copied whole and measured only to place the tab's stop.
    let mut column = 0;
    for piece in text.split_inclusive('\t') {
        let Some(before_tab) = piece.strip_suffix('\t') else {
            out.push_str(piece);
            break;
        };
        out.push_str(before_tab);
        column = columns_after(column, before_tab);
        let width = char_width('\t', column);
        pad(out, width);
        column += width;
    }
}

fn pad(out: &mut String, mut count: usize) {
    // Copied in slices: a mark far along a long line is indented by thousands of columns.
    const SPACES: &str = "                                                                ";
    while count > 0 {
        let slice = count.min(SPACES.len());
        out.push_str(&SPACES[..slice]);
        count -= slice;
    }
}

fn repeat(out: &mut String, c: char, count: usize) {
    let mut encoded = [0; 4];
    let encoded = c.encode_utf8(&mut encoded);
    out.reserve(encoded.len() * count);
    for _ in 0..count {
        out.push_str(encoded);
    }
}

/// Digits of `value` written in decimal (1 for 0).
fn decimal_width(value: usize) -> usize {
    value.checked_ilog10().map_or(1, |log| log as usize + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::testing::Random;

    fn textwrap_fill(text: &str, first: &str, rest: &str, width: usize) -> String {
        let options = textwrap::Options::new(width - 2)
            .initial_indent(first)
            .subsequent_indent(rest)
            .break_words(true);
        textwrap::fill(text, options)
    }

    /// Whether `filler` fills `text` itself at `width` (else it leaves it to textwrap); when it
    /// does, its lines must be textwrap's.
    fn filled_as_textwrap(
        filler: &mut Filler,
        text: &str,
        first: &str,
        rest: &str,
        width: usize,
    ) -> bool {
        let mut ours = String::new();
        let filled = filler
            .fill_plain(&mut ours, text, first, rest, width - 2)
            .is_some();
        if filled {
            assert_eq!(
                ours,
                textwrap_fill(text, first, rest, width),
                "{text:?} at {width}"
            );
        }
        filled
    }

    #[test]
    fn lines_are_split_as_std_splits_them() {
        let pieces = ["", "\n", "a", "é", "\r\n", "help: x", "\n\n", "漢字"];
        let mut random = Random(0x51_7cc1_b727_220a);
        for _ in 0..2_000 {
            let text: String = (0..random.below(9))
                .map(|_| pieces[random.below(pieces.len())])
                .collect();
            let ours: Vec<&str> = lines_of(&text).collect();
            let std: Vec<&str> = text.split('\n').collect();
            assert_eq!(ours, std, "{text:?}");
            assert_eq!(has_line_break(&text), text.contains('\n'));
        }
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

    /// Lines with characters of every width (accents, combining marks, CJK, emoji, a no-break
    /// space) are written as they are wherever they fit, as textwrap writes them.
    #[test]
    fn other_lines_that_fit_are_written_as_textwrap_writes_them() {
        let pieces = [
            "Clé",
            "d'API",
            "Número",
            "日本語",
            "e\u{301}",
            "😀",
            "a\u{a0}b",
            "👍🏽",
            "x",
            "«q»",
            "Região",
            "\u{200b}",
            "ÿ",
        ];
        let mut random = Random(0x1234_5678_9abc_def1);
        let (mut written, mut declined) = (0, 0);
        for _ in 0..5_000 {
            let mut text = String::new();
            for word in 0..1 + random.below(12) {
                if word > 0 {
                    text.push(' ');
                }
                text.push_str(pieces[random.below(pieces.len())]);
            }
            for width in [20, 40, 100] {
                let (first, rest) = ("  × ", "  │ ");
                if filled_as_textwrap(&mut Filler::default(), &text, first, rest, width) {
                    written += 1;
                } else {
                    declined += 1;
                }
            }
        }
        // Those that fit are written here; the longer ones are left to textwrap.
        assert!(written > 6_000 && declined > 2_000, "{written} {declined}");
    }

    /// Texts of words from `alphabet`, of 1 to 14 characters, separated by one or two spaces.
    fn random_texts(alphabet: &[u8], count: usize) -> Vec<String> {
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        let mut next = move |below: usize| random.below(below);
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
                    if filled_as_textwrap(&mut filler, &text, first, rest, width) {
                        ours_count += 1;
                    }
                }
            }
        }
        // A good part of these random texts is filled here (real ones, more), and each the same,
        // ties between fillings of the same cost included.
        assert!(ours_count > 60_000, "{ours_count}");
        assert!(filler.ties > 1_000, "{}", filler.ties);
    }

    /// Ties are common where words are short and alike: of two ways of the same cost, the one
    /// textwrap keeps is the one whose line starts at the earlier word.
    #[test]
    fn ties_are_decided_as_textwrap_decides_them() {
        let mut random = Random(0x2545_f491_4f6c_dd1d);
        let mut filler = Filler::default();
        let mut filled = 0;
        for _ in 0..30_000 {
            let longest = 1 + random.below(8);
            let mut text = String::new();
            for word in 0..2 + random.below(80) {
                if word > 0 {
                    text.push_str(if random.below(12) == 0 { "  " } else { " " });
                }
                for _ in 0..1 + random.below(longest) {
                    text.push(char::from(b"abcdefghij"[random.below(10)]));
                }
            }
            let width = 12 + random.below(100);
            if filled_as_textwrap(&mut filler, &text, "  help: ", "        ", width) {
                filled += 1;
            }
        }
        assert!(filled > 25_000, "{filled}");
        assert!(filler.ties > 2_000, "{}", filler.ties);
    }

    #[test]
    fn columns_are_counted_as_character_by_character() {
        let pieces = [
            "a", "\t", "é", "漢", "\u{301}", "\u{7}", "~ ", "\r", "\u{fffd}", "ab\tc",
        ];
        let mut state = 7_u64;
        for _ in 0..2_000 {
            let mut text = String::new();
            for _ in 0..state % 12 {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(pieces[(state >> 33) as usize % pieces.len()]);
            }
            for start in [0, 1, 3] {
                let by_character = text
                    .chars()
                    .fold(start, |column, c| column + char_width(c, column));
                assert_eq!(columns_after(start, &text), by_character, "{text:?}");
            }
            let mut expanded = String::new();
            expand_tabs(&mut expanded, &text);
            assert!(!expanded.contains('\t'));
            assert_eq!(visual_width(&expanded), visual_width(&text), "{text:?}");
        }
    }

    #[test]
    fn printable_ascii_is_told_as_byte_by_byte() {
        let others = [
            "\u{1f}", " ", "~", "\u{7f}", "\u{80}", "é", "日", "\t", "\0", "ÿ",
        ];
        let mut random = Random(0x9E37_79B9_7F4A_7C15);
        let mut printable = 0;
        for _ in 0..20_000 {
            // Mostly printable, so that a word of eight is often all printable.
            let mut text = String::new();
            for _ in 0..random.below(40) {
                match random.below(12) {
                    0 => text.push_str(others[random.below(others.len())]),
                    _ => text.push(char::from(b'!' + random.below(94) as u8)),
                }
            }
            let by_byte = text.bytes().all(|b| (b' '..=b'~').contains(&b));
            printable += usize::from(by_byte);
            assert_eq!(printable_ascii(&text), by_byte, "{text:?}");
        }
        assert!(
            (2_000..18_000).contains(&printable),
            "{printable} printable"
        );
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
