//! The default format: each finding with its code frame, in miette's graphical look, and a
//! summary line. The common shape is drawn by [`Frames`](super::frame) at a fraction of the
//! cost; miette draws the rest.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};
use std::sync::OnceLock;

use iparams_core::{Diagnostic, Severity, Span};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};

use super::cut::{Cut, LONG_LINE};
use super::frame::{FIX_AVAILABLE, Frames};
use super::in_parallel::made_in_parallel;
use super::{BLOCK, CheckedFile, RenderOptions, Renderer, Summary, room_for};
use crate::source_code::IndexedSource;

#[derive(Debug)]
pub struct Human {
    options: RenderOptions,
}

impl Human {
    pub fn new(options: RenderOptions) -> Self {
        Self { options }
    }

    fn handler(&self) -> GraphicalReportHandler {
        let theme = if self.options.color {
            GraphicalTheme::unicode()
        } else {
            GraphicalTheme::unicode_nocolor()
        };
        GraphicalReportHandler::new_themed(theme)
            .with_width(self.options.width)
            .with_links(false)
            .with_context_lines(1)
    }

    /// Draws a file's findings, on up to `threads` threads when it has many.
    fn draw_file(
        &self,
        file: &CheckedFile<'_>,
        threads: usize,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if file.expected_findings() == 0 {
            return Ok(());
        }
        let source = IndexedSource::new(file.path, file.text);
        let hidden = file.report.hidden_spans(file.text);
        let (redacted, redacted_source) = (OnceLock::new(), OnceLock::new());
        let drawing = Drawing {
            human: self,
            file,
            source: &source,
            hidden: &hidden,
            // Colours are left to miette, and so is a file where a secret holds a line break
            // (a string broken by a raw newline or CR): masked, its lines are numbered otherwise.
            breaks_hidden: hidden
                .iter()
                .any(|span| file.text[span.start..span.end].contains(['\n', '\r'])),
            long_lines: source.lines().lines_may_exceed(file.text, LONG_LINE),
            redacted: &redacted,
            redacted_source: &redacted_source,
        };
        let mut drawn = 0;
        file.in_pieces(&mut |piece| {
            if threads < 2 || piece.len() < DRAWN_IN_PARALLEL_FROM {
                drawing.all_in_turn(piece, drawn, out)?;
            } else {
                drawing.all_in_parallel(piece, drawn, threads, out)?;
            }
            drawn += piece.len();
            Ok(())
        })
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
        f.write_str(&self.diagnostic.message)
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
        let primary = LabeledSpan::new_primary_with_span(
            d.label.as_deref().map(str::to_owned),
            (d.span.start, d.span.len()),
        );
        let related = d.related.iter().map(|label| {
            LabeledSpan::new_with_span(
                Some(label.message.to_string()),
                (label.span.start, label.span.len()),
            )
        });
        Some(Box::new(std::iter::once(primary).chain(related)))
    }
}

/// Whether a line miette shows for `diagnostic` (each label's, and one either side) holds any
/// of the `hidden` bytes (sorted, their ends too).
fn shows_hidden(source: &IndexedSource<'_>, hidden: &[Span], diagnostic: &Diagnostic) -> bool {
    let labels = std::iter::once(diagnostic.span).chain(diagnostic.related.iter().map(|l| l.span));
    labels.into_iter().any(|span| {
        let Some(context) = source.context(span.start, span.end, 1, 1) else {
            return true;
        };
        let first = hidden.partition_point(|hidden| hidden.end <= context.start);
        // The context ends before its last line break: a secret right after it is not shown.
        hidden
            .get(first)
            .is_some_and(|hidden| hidden.start < context.end)
    })
}

/// The help text drawn under a finding: its help, then the fix it has.
fn help(diagnostic: &Diagnostic) -> Option<Cow<'_, str>> {
    let help = diagnostic.help.as_deref();
    let fix = diagnostic
        .fix
        .as_ref()
        .map(|fix| format!("{FIX_AVAILABLE}{}", fix.title));
    match (help, fix) {
        (Some(help), Some(fix)) => Some(Cow::Owned(format!("{help}\n{fix}"))),
        (Some(help), None) => Some(Cow::Borrowed(help)),
        (None, Some(fix)) => Some(Cow::Owned(fix)),
        (None, None) => None,
    }
}

impl Renderer for Human {
    /// A blank line between the findings of different files.
    fn separator(&self) -> &'static [u8] {
        b"\n"
    }

    fn file(&self, file: &CheckedFile<'_>, out: &mut dyn Write) -> io::Result<()> {
        self.draw_file(file, rayon::current_num_threads(), out)
    }

    fn end(&self, summary: &Summary, wrote_files: bool, out: &mut dyn Write) -> io::Result<()> {
        // A blank line before the summary.
        if wrote_files && !self.options.quiet {
            out.write_all(b"\n")?;
        }
        summary.write_unless_quiet(&self.options, out)
    }
}

/// Files with this many findings are drawn on every thread, a run of them at a time.
const DRAWN_IN_PARALLEL_FROM: usize = 2 * RUN;

/// How many consecutive findings a thread draws at a time when a file's are drawn in parallel:
/// enough that taking the next costs little, few enough that the runs waiting to be written
/// take a few hundred kilobytes (a run takes about 160).
const RUN: usize = 256;

/// How many runs a thread may draw before their turn to be written: two keeps every thread
/// busy while the writer writes.
const RUNS_AHEAD: usize = 2;

/// What drawing one file's findings needs, shared by the threads that draw them.
struct Drawing<'d, 'f> {
    human: &'d Human,
    file: &'d CheckedFile<'f>,
    source: &'d IndexedSource<'f>,
    /// The bytes of secrets, sorted.
    hidden: &'d [Span],
    /// Whether a secret holds a line break.
    breaks_hidden: bool,
    /// Whether a line may be long enough to be cut.
    long_lines: bool,
    // Secrets are masked in the frames as well as in the messages: the frames drawn here mask
    // the lines they show; miette draws from a masked copy of the whole text, made for the
    // first finding it draws that shows a secret (copying a large file for none cost its size).
    redacted: &'d OnceLock<Cow<'f, str>>,
    redacted_source: &'d OnceLock<IndexedSource<'d>>,
}

/// What a thread draws a run of findings with: the frames (their room reused from finding to
/// finding) and, from the first finding miette draws (most files have none), miette's handler.
struct Drawer<'d, 'f> {
    frames: Option<Frames<'d, 'f>>,
    handler: Option<GraphicalReportHandler>,
}

impl<'d, 'f> Drawing<'d, 'f> {
    fn drawer(&self) -> Drawer<'d, 'f> {
        let options = &self.human.options;
        Drawer {
            frames: (!options.color && !self.breaks_hidden)
                .then(|| Frames::new(self.source, self.hidden, options.width)),
            handler: None,
        }
    }

    fn masked_source(&self) -> &IndexedSource<'d> {
        self.redacted_source.get_or_init(|| {
            let text = self
                .redacted
                .get_or_init(|| self.file.report.redact(self.file.text));
            // A secret that holds a line break joins lines in the masked copy: its lines are
            // shown, and so are its positions.
            if self.breaks_hidden {
                IndexedSource::new(self.file.path, text)
            } else {
                IndexedSource::masked(text, self.source)
            }
        })
    }

    /// Appends `diagnostic`, finding `index` of the file, to `rendered`, after a blank line
    /// unless it is the first.
    fn draw(
        &self,
        drawer: &mut Drawer<'d, 'f>,
        diagnostic: &Diagnostic,
        index: usize,
        rendered: &mut String,
    ) {
        if index > 0 {
            rendered.push('\n');
        }
        if self.long_lines
            && let Some(cut) = Cut::of(
                self.source,
                self.hidden,
                diagnostic,
                self.human.options.width,
            )
        {
            // Secrets are masked in the cut itself.
            let source = IndexedSource::cut(self.file.path, &cut.text, &cut.origin);
            let options = &self.human.options;
            let mut frames = (!options.color).then(|| Frames::new(&source, &[], options.width));
            if !frames
                .as_mut()
                .is_some_and(|frames| frames.draw(&cut.diagnostic, rendered))
            {
                self.by_miette(&mut drawer.handler, &source, &cut.diagnostic, rendered);
            }
            return;
        }
        let drawn = drawer
            .frames
            .as_mut()
            .is_some_and(|frames| frames.draw(diagnostic, rendered));
        if drawn {
            return;
        }
        // The masked copy only when miette would show a secret: a large file that has secrets
        // and a finding for miette would otherwise copy all its text.
        let shows_secret = !self.hidden.is_empty()
            && (self.breaks_hidden || shows_hidden(self.source, self.hidden, diagnostic));
        let source = if shows_secret {
            self.masked_source()
        } else {
            self.source
        };
        self.by_miette(&mut drawer.handler, source, diagnostic, rendered);
    }

    /// Appends `diagnostic` over `source` as miette draws it, with the drawer's `handler`.
    fn by_miette(
        &self,
        handler: &mut Option<GraphicalReportHandler>,
        source: &IndexedSource<'_>,
        diagnostic: &Diagnostic,
        rendered: &mut String,
    ) {
        let handler = handler.get_or_insert_with(|| self.human.handler());
        if handler
            .render_report(rendered, &Finding { diagnostic, source })
            .is_err()
        {
            rendered.push_str(&format!(
                "{}: {}[{}] {}\n",
                self.file.path, diagnostic.severity, diagnostic.rule, diagnostic.message
            ));
        }
    }

    /// Draws `findings`, the file's from finding `first` on, on this thread, written a block at
    /// a time.
    fn all_in_turn(
        &self,
        findings: &[Diagnostic],
        first: usize,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let mut drawer = self.drawer();
        let mut rendered = String::with_capacity(room_for(findings.len()));
        for (index, diagnostic) in (first..).zip(findings) {
            self.draw(&mut drawer, diagnostic, index, &mut rendered);
            if rendered.len() >= BLOCK {
                out.write_all(rendered.as_bytes())?;
                rendered.clear();
            }
        }
        out.write_all(rendered.as_bytes())
    }

    /// Draws `findings` (the file's from finding `first` on) on `threads` threads, a run of
    /// [`RUN`] at a time, each run written as soon as those before it are: the same bytes as
    /// [`Self::all_in_turn`], with at most [`RUNS_AHEAD`] runs a thread held in memory.
    fn all_in_parallel(
        &self,
        findings: &[Diagnostic],
        first: usize,
        threads: usize,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        made_in_parallel(
            findings.len().div_ceil(RUN),
            threads,
            RUNS_AHEAD * threads,
            || self.drawer(),
            |drawer, run, rendered| {
                let start = run * RUN;
                let indices = first + start..;
                for (index, diagnostic) in indices.zip(findings[start..].iter().take(RUN)) {
                    self.draw(drawer, diagnostic, index, rendered);
                }
            },
            out,
        )
    }
}

#[cfg(test)]
mod tests {
    use iparams_core::{FileReport, Fix, Span};

    use super::*;
    use crate::render::testing::{Random, headers};

    /// The default format without colour, at `width` columns.
    fn plain(width: usize) -> Human {
        Human::new(RenderOptions {
            color: false,
            width,
            quiet: false,
            fail_level: Severity::Error,
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
        // Now and then: control characters, and an escape (which miette measures as colour).
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

    fn span(random: &mut Random, text: &str) -> Span {
        spanning(random, text, 8)
    }

    /// A span of fewer than `longest` bytes (more, to a character's end).
    fn spanning(random: &mut Random, text: &str, longest: usize) -> Span {
        let start = random.boundary(text);
        let mut end = start + random.below(longest);
        end = end.min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        Span::new(start, end)
    }

    /// Findings with up to three related places, or with one label over several lines, drawn
    /// directly wherever `Frames` takes them, come out byte for byte as miette draws them,
    /// secrets masked alike.
    #[test]
    fn frames_are_drawn_as_miette_draws_them() {
        let human = plain(80);
        let mut random = Random(0x2545_f491_4f6c_dd1d);
        let (mut drawn, mut related_drawn, mut frames_drawn, mut masked_drawn) = (0, 0, 0, 0);
        let mut spread_drawn = 0;
        for _ in 0..6_000 {
            let text = source_text(&mut random);
            let source = IndexedSource::new("config/iparams.json", &text);
            let width = 20 + random.below(100);
            // Secrets, now and then overlapping: drawn masked here, from a masked copy there.
            let mut report = FileReport::default();
            for _ in 0..random.below(4).saturating_sub(1) {
                report.redactions.push(span(&mut random, &text));
            }
            let hidden = report.hidden_spans(&text);
            if hidden
                .iter()
                .any(|h| text[h.start..h.end].contains(['\n', '\r']))
            {
                continue;
            }
            let redacted = report.redact(&text);
            let redacted_source = IndexedSource::masked(&redacted, &source);
            let mut frames = Frames::new(&source, &hidden, width);
            // Now and then long enough to be over several lines.
            let longest = [8, 8, 60][random.below(3)];
            let mut diagnostic = Diagnostic::new(
                "duplicate-display-name",
                [Severity::Error, Severity::Warning, Severity::Info][random.below(3)],
                spanning(&mut random, &text, longest),
                "Iparams `a` and `b` have the same display name",
            );
            if random.below(4) > 0 {
                diagnostic.label("this one");
            }
            for index in 0..random.below(4) {
                diagnostic.related(span(&mut random, &text), format!("place {index}"));
            }
            if longest > 8 && random.below(2) == 0 {
                diagnostic.related.clear();
            }
            if random.below(2) == 0 {
                diagnostic.help("Give each iparam its own name.");
            }
            // A fix, whose line miette joins to the help's, or draws alone; a long title
            // wraps at the narrower widths.
            match random.below(3) {
                0 => {}
                1 => {
                    diagnostic.fix(Fix::safe("Rename `b`", Vec::new()));
                }
                _ => {
                    let name = "x".repeat(random.below(60));
                    let title = format!("Give `b` a display name of its own, such as \"{name}\"");
                    diagnostic.fix(Fix::unsafe_(title, Vec::new()));
                }
            }
            let mut ours = String::new();
            if !frames.draw(&diagnostic, &mut ours) {
                assert!(ours.is_empty(), "a declined finding left output");
                continue;
            }
            let handler = human.handler().with_width(width);
            let mut theirs = String::new();
            let finding = Finding {
                diagnostic: &diagnostic,
                source: &redacted_source,
            };
            handler.render_report(&mut theirs, &finding).unwrap();
            assert_eq!(
                ours, theirs,
                "{diagnostic:?} in {text:?}, hiding {hidden:?}"
            );
            drawn += 1;
            masked_drawn += usize::from(ours.contains('*'));
            spread_drawn += usize::from(ours.contains('▶'));
            if !diagnostic.related.is_empty() {
                related_drawn += 1;
                frames_drawn += ours.matches('╭').count();
            }
        }
        // Many shapes are drawn here (labels sharing a line are not), many with related places,
        // some in several frames, some over several lines, some with a secret masked.
        assert!(drawn > 1_200, "{drawn}");
        assert!(spread_drawn > 400, "{spread_drawn}");
        assert!(related_drawn > 400, "{related_drawn}");
        assert!(frames_drawn > related_drawn, "{frames_drawn}");
        assert!(masked_drawn > 100, "{masked_drawn}");
    }

    /// A file with secrets comes out as the same file with its secrets already masked: the
    /// frames mask the lines they show, miette draws from a masked copy when it shows one.
    #[test]
    fn secrets_are_masked_as_in_a_masked_copy() {
        let human = plain(60);
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        let mut masked = 0;
        for _ in 0..3_000 {
            let text = source_text(&mut random);
            let mut report = FileReport::default();
            for _ in 0..1 + random.below(3) {
                report.redactions.push(span(&mut random, &text));
            }
            for _ in 0..1 + random.below(3) {
                // Up to 40 bytes: some over several lines, for miette.
                let start = random.boundary(&text);
                let mut end = (start + random.below(40)).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                let mut diagnostic = Diagnostic::new(
                    "invalid-json",
                    Severity::Error,
                    Span::new(start, end),
                    "Something",
                );
                if random.below(2) == 0 {
                    diagnostic.related(span(&mut random, &text), "there");
                }
                report.diagnostics.push(diagnostic);
            }
            report.diagnostics.sort_by_key(|d| d.span.start);
            let redacted = report.redact(&text).into_owned();
            let plain = FileReport {
                redactions: Vec::new(),
                ..report.clone()
            };
            let render = |text: &str, report: &FileReport| {
                let mut out = Vec::new();
                let file = CheckedFile::new("config/iparams.json", text, report);
                human.file(&file, &mut out).unwrap();
                String::from_utf8(out).unwrap()
            };
            let ours = render(&text, &report);
            // The same but for the headers' columns: the file's here, where the masked copy
            // counts a masked character's `*`s.
            let theirs = render(&redacted, &plain);
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
        assert!(masked > 500, "{masked}");
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
            let mut out = Vec::new();
            let file = CheckedFile::new("config/iparams.json", text, &report);
            human.file(&file, &mut out).unwrap();
            let out = String::from_utf8(out).unwrap();
            assert!(
                out.contains(&format!("config/iparams.json:1:{column}")),
                "{out}"
            );
            assert!(!out.contains('日'), "{out}");
        }
    }

    /// A file with more findings than one thread draws at a time comes out the same drawn on
    /// several threads as on one: findings in order, one blank line between each two, secrets
    /// masked, with colour (miette draws every finding) and without (the frames draw most).
    #[test]
    fn findings_drawn_in_parallel_come_out_as_drawn_in_turn() {
        let mut random = Random(0x5851_f42d_4c95_7f2d);
        let mut text = String::new();
        while text.len() < 40_000 {
            text.push_str(&source_text(&mut random));
        }
        let mut report = FileReport::default();
        for _ in 0..20 {
            report.redactions.push(span(&mut random, &text));
        }
        let count = DRAWN_IN_PARALLEL_FROM + 3 * RUN + 17;
        for index in 0..count {
            let mut diagnostic = Diagnostic::new(
                "duplicate-display-name",
                Severity::Warning,
                span(&mut random, &text),
                format!("Finding {index}"),
            );
            diagnostic.label("here");
            if random.below(3) == 0 {
                diagnostic.related(span(&mut random, &text), "and there");
            }
            if random.below(2) == 0 {
                diagnostic.help(format!("Help number {} of a few.", random.below(20)));
            }
            report.diagnostics.push(diagnostic);
        }
        report.diagnostics.sort_by_key(|d| d.span.start);
        let file = CheckedFile::new("config/iparams.json", &text, &report);
        for color in [false, true] {
            let human = Human::new(RenderOptions {
                color,
                ..plain(80).options
            });
            let draw = |threads| {
                let mut out = Vec::new();
                human.draw_file(&file, threads, &mut out).unwrap();
                String::from_utf8(out).unwrap()
            };
            let in_turn = draw(1);
            assert_eq!(in_turn.matches("Finding ").count(), count);
            assert!(in_turn.contains('*'), "some secret is shown, masked");
            for threads in [2, 3] {
                assert!(
                    draw(threads) == in_turn,
                    "{threads} threads, colour {color}"
                );
            }
        }
    }
}
