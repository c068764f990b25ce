//! The default format: each finding with its code frame, drawn by miette, and a summary line.
//!
//! Only the first findings of a run are drawn in full (`--max-diagnostics`, 50 by default, as
//! biome does); each further one is listed on one line, as `--format concise` prints it, and a
//! closing note says how many were drawn and how to see them all. A run with thousands of
//! findings thus costs about what its concise output costs, and a reader sees the first
//! problems in full without scrolling past the rest.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};

use iparams_core::{Applicability, Diagnostic, Severity, Span};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};

use super::concise::Line;
use super::controls;
use super::cut::Cut;
use super::renderer::{CheckedFile, RenderOptions, Renderer, Summary, plural};
use super::source_code::IndexedSource;

/// What a fix's line under the help starts with.

#[derive(Debug)]
pub struct Human {
    options: RenderOptions,
    /// Findings of the run still to be drawn in full. While some are left, files are drawn in
    /// path order, one after the other (see [`Renderer::in_turn`]), so the run's first
    /// findings take them.
    frames_left: AtomicUsize,
    /// Findings listed on one line because none were left.
    listed: AtomicUsize,
}

impl Human {
    pub fn new(options: RenderOptions) -> Self {
        Self {
            frames_left: AtomicUsize::new(options.max_diagnostics.unwrap_or(usize::MAX)),
            listed: AtomicUsize::new(0),
            options,
        }
    }

    fn handler(&self) -> GraphicalReportHandler {
        let theme = if self.options.color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        GraphicalReportHandler::new_themed(theme)
            .with_width(self.options.width)
            // Lines break at spaces only: the defaults also break after `/` and at `-`, which
            // split URLs and paths in helps.
            .with_word_separator(textwrap::WordSeparator::AsciiSpace)
            .with_word_splitter(textwrap::WordSplitter::NoHyphenation)
            .with_links(false)
            .with_context_lines(1)
    }

    /// Takes up to `wanted` of the frames left in the run; returns how many it took.
    fn take_frames(&self, wanted: usize) -> usize {
        let taken = self
            .frames_left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                Some(left - left.min(wanted))
            });
        let left = taken.unwrap_or_else(|left| left);
        left.min(wanted)
    }

    /// Draws `findings` in full, a blank line between each two.
    fn draw(&self, file: &CheckedFile<'_>, findings: &[Diagnostic]) -> String {
        let mut rendered = String::new();
        let hidden = file.report.hidden_spans(file.text);
        let path = controls::escaped(file.path);
        let source = IndexedSource::new(&path, file.text);
        // Secrets are masked in a copy of the text, positions kept the file's, made only when a
        // frame shows one (a large file would otherwise be copied whole for a few frames). A
        // secret that holds a line break (a string broken by a raw newline) joins lines in the
        // copy: its lines are shown, and numbered, as the copy has them.
        let breaks_lines = hidden
            .iter()
            .any(|span| file.text[span.start..span.end].contains(['\n', '\r']));
        let masked_text = (breaks_lines
            || findings
                .iter()
                .any(|finding| shows_hidden(&source, &hidden, finding)))
        .then(|| file.report.redact(file.text));
        let masked = masked_text.as_deref().map(|text| {
            if breaks_lines {
                IndexedSource::new(&path, text)
            } else {
                IndexedSource::masked(text, &source)
            }
        });
        let shown = masked.as_ref().unwrap_or(&source);
        let handler = self.handler();
        for (index, diagnostic) in findings.iter().enumerate() {
            if index > 0 {
                rendered.push('\n');
            }
            // A finding on a line too long to show whole (a minified file) is drawn from a cut
            // of its lines, secrets masked in the cut itself.
            // From the masked copy when a secret joins lines there: its lines are the ones shown.
            let (cut_from, cut_hidden) = match &masked {
                Some(masked) if breaks_lines => (masked, &[][..]),
                _ => (&source, &hidden[..]),
            };
            let cut = Cut::of(cut_from, cut_hidden, diagnostic, self.options.width);
            let (cut_source, diagnostic) = match &cut {
                Some(cut) => (
                    Some(IndexedSource::cut(&path, &cut.text, &cut.origin)),
                    &cut.diagnostic,
                ),
                None => (None, diagnostic),
            };
            let source = cut_source.as_ref().unwrap_or(shown);
            if handler
                .render_report(&mut rendered, &Finding { diagnostic, source })
                .is_err()
            {
                let start = source.position(diagnostic.span.start);
                let (path, d) = (file.path, diagnostic);
                rendered.push_str(&format!("{}\n", Line { path, d, start }));
            }
        }
        rendered
    }
}

/// A core diagnostic in the shape miette draws.
struct Finding<'a> {
    diagnostic: &'a Diagnostic,
    source: &'a IndexedSource<'a>,
}

impl fmt::Debug for Finding<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl fmt::Display for Finding<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&controls::escaped(&self.diagnostic.message))
    }
}

impl std::error::Error for Finding<'_> {}

impl miette::Diagnostic for Finding<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let severity = self.diagnostic.severity.as_str();
        Some(Box::new(format!("{severity}[{}]", self.diagnostic.rule)))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        help(self.diagnostic).map(|help| Box::new(help) as Box<dyn fmt::Display + 'a>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let d = self.diagnostic;
        let label = |span: Span, text: Option<String>, primary: bool| {
            let span = (span.start, span.len());
            let text = text.map(|text| controls::escaped(&text).into_owned());
            if primary {
                LabeledSpan::new_primary_with_span(text, span)
            } else {
                LabeledSpan::new_with_span(text, span)
            }
        };
        let primary = label(d.span, d.label.as_deref().map(str::to_owned), true);
        let related = d
            .related
            .iter()
            .map(move |related| label(related.span, Some(related.message.to_string()), false));
        Some(Box::new(std::iter::once(primary).chain(related)))
    }
}

/// Whether a line drawn for `diagnostic` (each mark's, and one either side) holds any of the
/// `hidden` bytes (sorted): then frames are drawn from a masked copy.
fn shows_hidden(source: &IndexedSource<'_>, hidden: &[Span], diagnostic: &Diagnostic) -> bool {
    if hidden.is_empty() {
        return false;
    }
    let marks = std::iter::once(diagnostic.span).chain(diagnostic.related.iter().map(|l| l.span));
    marks.into_iter().any(|span| {
        let Some(shown) = source.context(span.start, span.end, 1, 1) else {
            return true;
        };
        let first = hidden.partition_point(|hidden| hidden.end <= shown.start);
        hidden
            .get(first)
            .is_some_and(|hidden| hidden.start <= shown.end)
    })
}

/// The help text drawn under a finding: its help, then the fix it has.
fn help(diagnostic: &Diagnostic) -> Option<Cow<'_, str>> {
    let help = diagnostic.help.as_deref().map(controls::escaped);
    let fix = diagnostic.fix.as_ref().map(|fix| {
        let safety = match fix.applicability {
            Applicability::Safe => "(safe)",
            Applicability::Unsafe => "(unsafe: --unsafe-fixes)",
        };
        format!("fix available {safety}: {}", fix.title)
    });
    match (help, fix) {
        (Some(help), Some(fix)) => Some(Cow::Owned(format!("{help}\n{fix}"))),
        (Some(help), None) => Some(help),
        (None, Some(fix)) => Some(Cow::Owned(controls::escaped(&fix).into_owned())),
        (None, None) => None,
    }
}

impl Renderer for Human {
    /// While findings are drawn in full: they are the run's first, in path order. Once none
    /// are left, a file's lines do not depend on the files before it.
    fn in_turn(&self) -> bool {
        self.frames_left.load(Ordering::Relaxed) > 0
    }

    /// A blank line between the findings of different files.
    fn separator(&self) -> &'static [u8] {
        b"\n"
    }

    fn file(&self, file: &CheckedFile<'_>, out: &mut dyn Write) -> io::Result<()> {
        let findings = &file.report.diagnostics;
        let (drawn, listed) = findings.split_at(self.take_frames(findings.len()));
        if !drawn.is_empty() {
            out.write_all(self.draw(file, drawn).as_bytes())?;
            if !listed.is_empty() {
                out.write_all(b"\n")?;
            }
        }
        self.listed.fetch_add(listed.len(), Ordering::Relaxed);
        file.each_finding(listed, |d, start, _| {
            let path = file.path;
            writeln!(out, "{}", Line { path, d, start })
        })
    }

    fn end(&self, summary: &Summary, wrote_files: bool, out: &mut dyn Write) -> io::Result<()> {
        if self.options.quiet {
            return Ok(());
        }
        // A blank line before the closing lines.
        if wrote_files {
            out.write_all(b"\n")?;
        }
        let listed = self.listed.load(Ordering::Relaxed);
        if let (Some(max), 1..) = (self.options.max_diagnostics, listed) {
            writeln!(
                out,
                "The first {} drawn in full, the other {listed} listed one line each \
                 (--max-diagnostics {max}); --max-diagnostics none draws them all.",
                plural(max, "finding")
            )?;
        }
        summary.write_unless_quiet(&self.options, out)
    }
}

#[cfg(test)]
mod tests {
    use iparams_core::{FileReport, Span};

    use super::*;
    use crate::render::testing::{Random, headers};

    /// The default format without colour, at `width` columns, drawing every finding.
    fn plain(width: usize) -> Human {
        Human::new(RenderOptions {
            color: false,
            width,
            quiet: false,
            fail_level: Severity::Error,
            max_diagnostics: None,
        })
    }

    /// A text of short lines: JSON-like words, tabs, wide and combining characters, control
    /// characters, and now and then CRLF or an empty line.
    fn source_text(random: &mut Random) -> String {
        const PIECES: &[&str] = &[
            "{",
            "}",
            "\"key\": ",
            "\"display_name\"",
            "42",
            ", ",
            "\t",
            "é",
            "日本",
            "a\u{301}",
            "  ",
            "[1, 2]",
            "true",
            "x",
        ];
        const CONTROLS: &[&str] = &["\u{1}", "\r", "\u{7f}", "\u{b}", "\u{85}", "\u{1b}[1m"];
        let mut text = String::new();
        for _ in 0..1 + random.below(40) {
            for _ in 0..random.below(6) {
                text.push_str(if random.below(12) == 0 {
                    CONTROLS[random.below(CONTROLS.len())]
                } else {
                    PIECES[random.below(PIECES.len())]
                });
            }
            text.push_str(match random.below(40) {
                0 => "\r\n",
                1..=4 => "\n\n",
                _ => "\n",
            });
        }
        if random.below(3) == 0 {
            text.pop();
        }
        text
    }

    /// A span of fewer than `longest` bytes (more, to a character's end).
    fn spanning(random: &mut Random, text: &str, longest: usize) -> Span {
        let start = random.boundary(text);
        let mut end = (start + random.below(longest)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        Span::new(start, end)
    }

    fn render(human: &Human, text: &str, report: &FileReport) -> String {
        let mut out = Vec::new();
        let file = CheckedFile::new("config/iparams.json", text, report);
        human.file(&file, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// A file with secrets comes out as the same file with its secrets already masked, but for
    /// the headers' columns (the file's, where the masked copy counts a masked character's
    /// `*`s); and each header names a place a finding marks.
    #[test]
    fn secrets_are_masked_as_in_a_masked_copy() {
        let human = plain(60);
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        let mut masked = 0;
        for _ in 0..300 {
            let text = source_text(&mut random);
            let mut report = FileReport::default();
            for _ in 0..1 + random.below(3) {
                report.redactions.push(spanning(&mut random, &text, 8));
            }
            for _ in 0..1 + random.below(3) {
                let mut diagnostic = Diagnostic::new(
                    "invalid-json",
                    Severity::Error,
                    spanning(&mut random, &text, 40),
                    "Something",
                );
                if random.below(2) == 0 {
                    diagnostic.related(spanning(&mut random, &text, 8), "there");
                }
                report.diagnostics.push(diagnostic);
            }
            report.diagnostics.sort_by_key(|d| d.span.start);
            let redacted = report.redact(&text).into_owned();
            let plain_report = FileReport {
                redactions: Vec::new(),
                ..report.clone()
            };
            let ours = render(&human, &text, &report);
            let theirs = render(&human, &redacted, &plain_report);
            assert_eq!(
                without_columns(&ours),
                without_columns(&theirs),
                "{text:?} {report:?}"
            );
            let breaks_hidden = report
                .hidden_spans(&text)
                .iter()
                .any(|h| text[h.start..h.end].contains(['\n', '\r']));
            if !breaks_hidden {
                let index = iparams_core::LineIndex::new(&text);
                let marks: Vec<String> = report
                    .diagnostics
                    .iter()
                    .flat_map(|d| std::iter::once(d.span).chain(d.related.iter().map(|l| l.span)))
                    .map(|span| {
                        let position = index.position(&text, span.start);
                        format!("{}:{}", position.line, position.column)
                    })
                    .collect();
                for header in headers(&ours) {
                    assert!(marks.iter().any(|mark| mark == header), "{header} {ours}");
                }
            }
            masked += usize::from(ours.contains('*'));
        }
        assert!(masked > 50, "{masked}");
    }

    /// `out` with each header's column taken out.
    fn without_columns(out: &str) -> String {
        out.lines()
            .map(|line| match line.find("config/iparams.json:") {
                Some(at) => {
                    let (head, rest) = line.split_at(at);
                    let rest = rest.split(']').next().unwrap_or(rest);
                    let line_only = rest.rsplit_once(':').map_or(rest, |(keep, _)| keep);
                    format!("{head}{line_only}]\n")
                }
                None => format!("{line}\n"),
            })
            .collect()
    }

    /// A secret of wide characters before a finding on its line: the header gives the file's
    /// column, as the other formats do, not one that counts the secret's `*`s.
    #[test]
    fn a_masked_secret_does_not_move_the_column() {
        let text = "{\"k\": {\"default_value\": \"日本日本\", \"type\": \"txt\"}}\n";
        let secret = text.find("\"日本").unwrap();
        let start = text.find("\"txt\"").unwrap();
        let report = FileReport {
            redactions: vec![Span::new(secret, secret + "\"日本日本\"".len())],
            diagnostics: vec![Diagnostic::new(
                "unknown-type",
                Severity::Error,
                Span::new(start, start + 5),
                "Unknown type",
            )],
            ..FileReport::default()
        };
        let column = text[..start].chars().count() + 1;
        for color in [false, true] {
            let human = Human::new(RenderOptions {
                color,
                ..plain(80).options
            });
            let out = render(&human, text, &report);
            assert!(
                out.contains(&format!("config/iparams.json:1:{column}")),
                "{out}"
            );
            assert!(!out.contains('日'), "{out}");
        }
    }

    /// The first findings of a run, across files, are drawn in full; the rest are listed one
    /// line each, and the closing note counts them.
    #[test]
    fn findings_past_the_cap_are_listed_one_line_each() {
        let text = "{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3\n}\n";
        let finding = |key: &str| {
            let at = text.find(&format!("\"{key}\"")).unwrap();
            let mut d = Diagnostic::new(
                "iparam-not-object",
                Severity::Error,
                Span::new(at, at + 3),
                "Not an object",
            );
            d.label("here");
            d
        };
        let report = FileReport {
            diagnostics: vec![finding("a"), finding("b"), finding("c")],
            ..FileReport::default()
        };
        let human = Human::new(RenderOptions {
            max_diagnostics: Some(4),
            ..plain(80).options
        });
        let first = render(&human, text, &report);
        let second = render(&human, text, &report);
        assert_eq!(first.matches("╭─[").count(), 3, "{first}");
        assert_eq!(second.matches("╭─[").count(), 1, "{second}");
        assert!(
            second.ends_with(
                "config/iparams.json:3:3: error[iparam-not-object] Not an object\n\
                 config/iparams.json:4:3: error[iparam-not-object] Not an object\n"
            ),
            "{second}"
        );
        let mut end = Vec::new();
        let summary = Summary {
            files: 2,
            errors: 6,
            ..Summary::default()
        };
        human.end(&summary, true, &mut end).unwrap();
        let end = String::from_utf8(end).unwrap();
        assert!(
            end.starts_with(
                "\nThe first 4 findings drawn in full, the other 2 listed one line each"
            ),
            "{end}"
        );
        let unlimited = plain(80);
        render(&unlimited, text, &report);
        let mut end = Vec::new();
        unlimited.end(&summary, true, &mut end).unwrap();
        assert_eq!(
            String::from_utf8(end).unwrap(),
            "\n2 files checked: 6 errors, 0 warnings\n"
        );
    }
}
