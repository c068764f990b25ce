//! Long lines, cut. A finding shown on a line longer than [`LONG_LINE`] bytes (a minified file
//! is one line of megabytes) is drawn from a short text made of the lines it shows, each long
//! one cut down to the bytes around the places marked on it and the rest elided with `…`. The
//! header's position and the line numbers stay the file's. Lines with control characters are
//! drawn from such a text too, each control escaped (`\u{1b}`) instead of reaching the terminal.
//!
//! Drawn whole, such a line would be written out again for every finding on it, and miette
//! cannot draw a mark past column 65,535: it pads to the column with a formatting width, which
//! Rust limits to 16 bits, and panics.

use iparams_core::{Diagnostic, Span};

use super::controls;
use super::source_code::{IndexedSource, Origin};

/// Lines longer than this are cut.
pub const LONG_LINE: usize = 1024;

/// The bytes kept on either side of a mark of `length` bytes on a long line: as many as let the
/// line fit in `width` columns with its number and elisions (about 10 columns), within bounds.
/// A mark longer than twice this keeps its two ends, its middle elided.
fn margin(width: usize, length: usize) -> usize {
    (width.saturating_sub(10 + length) / 2).clamp(16, 80)
}

const ELISION: &str = "…";

/// Gaps between the parts kept of a long line shorter than this are kept too.
const SHORTEST_ELIDED: usize = 12;

/// A finding re-expressed over a short text of the lines it shows.
#[derive(Debug)]
pub struct Cut {
    pub text: String,
    /// The finding, its marks moved onto `text`.
    pub diagnostic: Diagnostic,
    pub origin: Origin,
}

impl Cut {
    /// The cut of `diagnostic`'s lines for a terminal `width` columns wide, secrets (the
    /// `hidden` bytes, sorted) masked and control characters escaped; `None` when none of the
    /// lines it shows is long or holds a control character.
    pub fn of(
        source: &IndexedSource<'_>,
        hidden: &[Span],
        diagnostic: &Diagnostic,
        width: usize,
    ) -> Option<Self> {
        let text = source.text();
        let marks: Vec<Span> = std::iter::once(diagnostic.span)
            .chain(diagnostic.related.iter().map(|label| label.span))
            .collect();
        if marks
            .iter()
            .any(|mark| mark.end > text.len() || mark.start > mark.end)
        {
            return None;
        }
        let runs = shown_lines(source, &marks);
        let needs_cut = runs
            .iter()
            .flat_map(|&(first, last)| first..=last)
            .map(|line| source.line(line))
            .any(|line| {
                line.len() > LONG_LINE || controls::has_control(&text[line.start..line.end])
            });
        if !needs_cut {
            return None;
        }

        let mut cut = Cut {
            text: String::new(),
            diagnostic: diagnostic.clone(),
            origin: Origin::default(),
        };
        for (cut_line, line) in runs
            .iter()
            .flat_map(|&(first, last)| first..=last)
            .enumerate()
        {
            if cut_line > 0 {
                cut.text.push('\n');
            }
            cut.origin.push_line(cut_line, line);
            let line = source.line(line);
            let windows = if line.len() > LONG_LINE {
                windows(text, line, &marks, width)
            } else {
                vec![line]
            };
            let mut end = line.start;
            for window in windows {
                if window.start > end {
                    cut.text.push_str(ELISION);
                }
                cut.push_window(source, line, window, hidden);
                end = window.end;
            }
            if line.end > end {
                cut.text.push_str(ELISION);
            }
        }

        let origin = &cut.origin;
        let moved =
            |span: Span| Span::new(origin.cut_offset(span.start), origin.cut_offset(span.end));
        cut.diagnostic.span = moved(diagnostic.span);
        for label in &mut cut.diagnostic.related {
            label.span = moved(label.span);
        }
        Some(cut)
    }
}

impl Cut {
    /// Copies the file's bytes `window` of `line`, secrets masked and control characters
    /// escaped. Each stretch copied as it is, each masked character and each side of an escape
    /// is a piece of its own, so that marks, and the columns the header counts, keep their
    /// place.
    fn push_window(
        &mut self,
        source: &IndexedSource<'_>,
        line: Span,
        window: Span,
        hidden: &[Span],
    ) {
        let text = source.text();
        let column = |start: usize| {
            if start == line.start {
                1
            } else {
                source.position(start).column
            }
        };
        let secret = |at: usize| {
            let next = hidden.partition_point(|span| span.end <= at);
            hidden.get(next).is_some_and(|span| span.start <= at)
        };
        let copy = |cut: &mut Cut, from: usize, to: usize| {
            // An empty line is a piece too: marks on it land on it.
            if to > from || window.is_empty() {
                let piece = Span::new(from, to);
                cut.origin.push_piece(cut.text.len(), piece, column(from));
                cut.text.push_str(&text[from..to]);
            }
        };
        let mut copied_from = window.start;
        for (at, c) in text[window.start..window.end].char_indices() {
            let at = window.start + at;
            let (is_secret, is_control) = (secret(at), controls::is_control(c));
            if !is_secret && !is_control {
                continue;
            }
            copy(self, copied_from, at);
            let after = at + c.len_utf8();
            if is_secret {
                self.origin
                    .push_piece(self.text.len(), Span::new(at, after), column(at));
                self.text.push_str(&"*".repeat(c.len_utf8()));
            } else {
                // An empty piece on either side: a mark that starts on the control starts on
                // its escape, one that starts after it after it.
                self.origin
                    .push_piece(self.text.len(), Span::at(at), column(at));
                controls::push_escape(&mut self.text, c);
                self.origin
                    .push_piece(self.text.len(), Span::at(after), column(after));
            }
            copied_from = after;
        }
        copy(self, copied_from, window.end);
    }
}

/// The lines a finding with `marks` is shown with (each mark's, and one either side), as runs
/// of consecutive lines (first and last, 0-based): runs that touch are one, as miette joins
/// the frames of marks whose lines touch.
fn shown_lines(source: &IndexedSource<'_>, marks: &[Span]) -> Vec<(usize, usize)> {
    let (text, lines) = (source.text(), source.lines());
    let last_line = lines.line_count() - 1;
    let mut shown: Vec<(usize, usize)> = marks
        .iter()
        .map(|mark| {
            let first = lines.line_of(text, mark.start);
            let last = lines.line_of(text, mark.end.saturating_sub(1).max(mark.start));
            (first.saturating_sub(1), (last + 1).min(last_line))
        })
        .collect();
    shown.sort_unstable();
    let mut runs: Vec<(usize, usize)> = Vec::with_capacity(shown.len());
    for (first, last) in shown {
        match runs.last_mut() {
            Some((_, run_last)) if first <= *run_last + 1 => *run_last = (*run_last).max(last),
            _ => runs.push((first, last)),
        }
    }
    runs
}

/// The parts of long `line` kept in the cut, in order: around each end of each mark on it, or
/// its start when none is.
fn windows(text: &str, line: Span, marks: &[Span], width: usize) -> Vec<Span> {
    let around = |start: usize, end: usize, margin: usize| {
        Span::new(
            text.floor_char_boundary(start.saturating_sub(margin).max(line.start)),
            text.ceil_char_boundary((end + margin).min(line.end)),
        )
    };
    let mut windows = Vec::new();
    for mark in marks {
        if mark.start > line.end || mark.end < line.start {
            continue;
        }
        let (start, end) = (mark.start.max(line.start), mark.end.min(line.end));
        let margin = margin(width, end - start);
        if end - start <= 2 * margin {
            windows.push(around(start, end, margin));
        } else {
            windows.push(around(start, start, margin));
            windows.push(around(end, end, margin));
        }
    }
    if windows.is_empty() {
        let margin = margin(width, 0);
        windows.push(around(line.start, line.start + margin, margin));
    }
    windows.sort_unstable_by_key(|window| window.start);
    let mut joined: Vec<Span> = Vec::with_capacity(windows.len());
    for window in windows {
        match joined.last_mut() {
            // A short gap is kept: eliding a few bytes hides more than it saves.
            Some(last) if window.start <= last.end + SHORTEST_ELIDED => {
                last.end = last.end.max(window.end);
            }
            _ => joined.push(window),
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use iparams_core::{FileReport, LineIndex, Severity};

    use super::*;
    use crate::render::human::Human;
    use crate::render::testing::{Random, headers};
    use crate::render::{CheckedFile, RenderOptions, Renderer};

    fn draw(text: &str, report: &FileReport, color: bool) -> String {
        draw_at(100, text, report, color)
    }

    fn draw_at(width: usize, text: &str, report: &FileReport, color: bool) -> String {
        let human = Human::new(RenderOptions {
            color,
            width,
            quiet: false,
            fail_level: Severity::Error,
            max_diagnostics: None,
        });
        let file = CheckedFile::new("config/iparams.json", text, report);
        let mut out = Vec::new();
        human.file(&file, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// A finding past column 65,535 of a minified file, where miette's own drawing panics, is
    /// drawn from a cut: the file's position, the bytes around the mark, the rest elided.
    #[test]
    fn a_finding_far_into_a_minified_file_is_drawn_from_a_cut() {
        let filler = "x".repeat(70_000);
        let text = format!(r#"{{"a":"{filler}","k":{{"type":"txt","secure":true}}}}"#);
        let start = text.find(r#""txt""#).unwrap();
        let mut report = FileReport::default();
        let mut diagnostic = Diagnostic::new(
            "invalid-type",
            Severity::Error,
            Span::new(start, start + 5),
            "Type \"txt\" is not a type",
        );
        diagnostic.label("here");
        report.diagnostics.push(diagnostic);
        let expected = [
            "error[invalid-type]",
            "",
            "  × Type \"txt\" is not a type",
            "   ╭─[config/iparams.json:1:70021]",
            " 1 │ …xxxxxxxxxxxxxxxxxxxxxxxxxxxx\",\"k\":{\"type\":\"txt\",\"secure\":true}}",
            "   ·                                            ──┬──",
            "   ·                                              ╰── here",
            "   ╰────",
            "",
        ]
        .join("\n");
        assert_eq!(draw(&text, &report, false), expected);
        // miette draws it alike in colour.
        let colored = draw(&text, &report, true);
        assert!(colored.contains("config/iparams.json:1:70021"), "{colored}");
        assert!(colored.lines().all(|line| line.len() < 400), "{colored}");
        // A narrower terminal keeps fewer bytes around the mark: the line fits.
        let narrow = draw_at(60, &text, &report, false);
        let shown = narrow
            .lines()
            .find(|line| line.starts_with(" 1 │"))
            .unwrap();
        assert!(shown.chars().count() <= 60, "{narrow}");
        assert!(shown.contains("\"txt\""), "{narrow}");
    }

    /// A text with a few long lines among short ones: letters, quotes, wide and multi-byte
    /// characters, tabs, and secrets.
    fn long_lines(random: &mut Random) -> String {
        const PIECES: &[&str] = &[
            "abc", "\"", ": ", "é", "日本", "😀", "\t", "xyz", "{", SECRET,
        ];
        let mut text = String::new();
        for _ in 0..1 + random.below(6) {
            let length = if random.below(2) == 0 {
                random.below(60)
            } else {
                LONG_LINE + random.below(90_000)
            };
            let start = text.len();
            while text.len() - start < length {
                text.push_str(PIECES[random.below(PIECES.len())]);
            }
            text.push_str(if random.below(4) == 0 { "\r\n" } else { "\n" });
        }
        text
    }

    /// A secret value: the only `q` of the texts made here and of what is drawn.
    const SECRET: &str = "\"qwq\"";

    fn span(random: &mut Random, text: &str, longest: usize) -> Span {
        let start = random.boundary(text);
        let mut end = (start + random.below(longest)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        Span::new(start, end)
    }

    /// Whatever the lines and marks (on long lines or short, across lines, several on one
    /// line), a finding's headers give the file's position of its primary mark; no line drawn
    /// is long; and no secret is shown.
    #[test]
    fn cuts_keep_the_files_positions_and_hide_its_secrets() {
        let mut random = Random(0x2545_f491_4f6c_dd1d);
        let (mut cut, mut masked) = (0, 0);
        for _ in 0..60 {
            let text = long_lines(&mut random);
            let index = LineIndex::new(&text);
            let source = IndexedSource::new("", &text);
            let mut report = FileReport::default();
            for (at, _) in text.match_indices(SECRET) {
                report.redactions.push(Span::new(at, at + SECRET.len()));
            }
            for _ in 0..1 + random.below(4) {
                let mut diagnostic = Diagnostic::new(
                    "invalid-json",
                    Severity::Error,
                    span(&mut random, &text, 300),
                    "Something",
                );
                diagnostic.label("this");
                for _ in 0..random.below(3) {
                    diagnostic.related(span(&mut random, &text, 300), "that");
                }
                report.diagnostics.push(diagnostic);
            }
            report.diagnostics.sort_by_key(|d| d.span.start);
            for color in [false, true] {
                let out = draw(&text, &report, color);
                let headers = headers(&out);
                for diagnostic in &report.diagnostics {
                    let position = |offset| {
                        let position = index.position(&text, offset);
                        format!("{}:{}", position.line, position.column)
                    };
                    let marks: Vec<String> = std::iter::once(diagnostic.span)
                        .chain(diagnostic.related.iter().map(|label| label.span))
                        .map(|span| position(span.start))
                        .collect();
                    assert!(headers.contains(&marks[0].as_str()), "{marks:?} {out}");
                    cut += usize::from(Cut::of(&source, &[], diagnostic, 100).is_some());
                }
                for line in out.lines() {
                    assert!(line.chars().count() < 2_000, "{line}");
                }
                assert!(!out.contains('q'), "{out}");
                masked += usize::from(out.contains("\"***\""));
            }
        }
        assert!(cut > 100 && masked > 20, "{cut} cut, {masked} masked");
    }

    /// Control characters are drawn escaped, and the header keeps the file's column past them.
    #[test]
    fn controls_are_escaped_and_columns_kept() {
        let text = "{\n  \"re\x1b[2Jgion\": {\"type\": \"txt\"}\u{9b}\n}\n";
        let at = text.find("\"txt\"").expect("the mark");
        let mut report = FileReport::default();
        report.diagnostics.push(Diagnostic::new(
            "unknown-type",
            Severity::Error,
            Span::new(at, at + 5),
            "Something",
        ));
        for color in [false, true] {
            let out = draw(text, &report, color);
            assert_eq!(headers(&out), ["2:26"], "{out}");
            assert!(
                out.contains("re\\u{1b}[2Jgion") && out.contains("}\\u{9b}"),
                "{out}"
            );
            assert!(!out.contains('\x1b') || color, "{out}");
        }
    }
}
