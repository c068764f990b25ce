//! The default format: each finding with its code frame, in miette's graphical look, and a
//! summary line. The common shape is drawn by [`Frames`](super::frame) at a fraction of the
//! cost; miette draws the rest.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::fmt;
use std::io::{self, Write};

use iparams_core::{Diagnostic, Severity, Span};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};

use super::frame::Frames;
use super::{BLOCK, CheckedFile, RenderOptions, Renderer, Summary};
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
        .map(|fix| format!("fix available: {}", fix.title));
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
        if file.report.diagnostics.is_empty() {
            return Ok(());
        }
        // Secrets are masked in the frames as well as in the messages: the frames drawn here
        // mask the lines they show; miette draws from a masked copy of the whole text, made
        // for the first finding it draws (copying a large file for none cost its size).
        let source = IndexedSource::new(file.path, file.text);
        let hidden = file.report.hidden_spans(file.text);
        let redacted = OnceCell::new();
        let redacted_source = OnceCell::new();
        let masked_source = || {
            redacted_source.get_or_init(|| {
                IndexedSource::new(
                    file.path,
                    redacted.get_or_init(|| file.report.redact(file.text)),
                )
            })
        };
        // Colours are left to miette, and so is a file where a secret holds a line break (a
        // string broken by a raw newline or CR): masked, its lines are numbered otherwise.
        let breaks_hidden = hidden
            .iter()
            .any(|span| file.text[span.start..span.end].contains(['\n', '\r']));
        let mut frames = (!self.options.color && !breaks_hidden)
            .then(|| Frames::new(&source, &hidden, self.options.width));
        // Made at the first finding miette draws: most files have none.
        let mut handler = None;
        let mut rendered = String::with_capacity(BLOCK);
        for (index, diagnostic) in file.report.diagnostics.iter().enumerate() {
            if index > 0 {
                rendered.push('\n');
            }
            let drawn = frames.as_mut().is_some_and(|frames| {
                frames.draw(diagnostic, help(diagnostic).as_deref(), &mut rendered)
            });
            if !drawn {
                // The masked copy only when miette would show a secret: a large file that
                // has secrets and a finding for miette would otherwise copy all its text.
                let shows_secret = !hidden.is_empty()
                    && (breaks_hidden || shows_hidden(&source, &hidden, diagnostic));
                let finding = Finding {
                    diagnostic,
                    source: if shows_secret {
                        masked_source()
                    } else {
                        &source
                    },
                };
                let handler = handler.get_or_insert_with(|| self.handler());
                if handler.render_report(&mut rendered, &finding).is_err() {
                    rendered.push_str(&format!(
                        "{}: {}[{}] {}\n",
                        file.path, diagnostic.severity, diagnostic.rule, diagnostic.message
                    ));
                }
            }
            if rendered.len() >= BLOCK {
                out.write_all(rendered.as_bytes())?;
                rendered.clear();
            }
        }
        out.write_all(rendered.as_bytes())
    }

    fn end(&self, summary: &Summary, wrote_files: bool, out: &mut dyn Write) -> io::Result<()> {
        // A blank line before the summary.
        if wrote_files && !self.options.quiet {
            out.write_all(b"\n")?;
        }
        summary.write_unless_quiet(&self.options, out)
    }
}

#[cfg(test)]
mod tests {
    use iparams_core::{FileReport, Span};

    use super::*;
    use crate::render::testing::Random;

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
        let start = random.boundary(text);
        let mut end = start + random.below(8);
        end = end.min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        Span::new(start, end)
    }

    /// Findings with up to three related places, drawn directly wherever `Frames` takes them,
    /// come out byte for byte as miette draws them, secrets masked alike.
    #[test]
    fn frames_are_drawn_as_miette_draws_them() {
        let human = plain(80);
        let mut random = Random(0x2545_f491_4f6c_dd1d);
        let (mut drawn, mut related_drawn, mut frames_drawn, mut masked_drawn) = (0, 0, 0, 0);
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
            let redacted_source = IndexedSource::new("config/iparams.json", &redacted);
            let mut frames = Frames::new(&source, &hidden, width);
            let mut diagnostic = Diagnostic::new(
                "duplicate-display-name",
                [Severity::Error, Severity::Warning, Severity::Info][random.below(3)],
                span(&mut random, &text),
                "Iparams `a` and `b` have the same display name",
            );
            if random.below(4) > 0 {
                diagnostic.label("this one");
            }
            for index in 0..random.below(4) {
                diagnostic.related(span(&mut random, &text), format!("place {index}"));
            }
            if random.below(2) == 0 {
                diagnostic.help("Give each iparam its own name.");
            }
            let mut ours = String::new();
            if !frames.draw(&diagnostic, help(&diagnostic).as_deref(), &mut ours) {
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
            if !diagnostic.related.is_empty() {
                related_drawn += 1;
                frames_drawn += ours.matches('╭').count();
            }
        }
        // Many shapes are drawn here (spans over lines and labels sharing a line are not), many
        // with related places, some in several frames, some with a secret masked.
        assert!(drawn > 1_200, "{drawn}");
        assert!(related_drawn > 600, "{related_drawn}");
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
                let file = CheckedFile {
                    path: "config/iparams.json",
                    text,
                    report,
                };
                human.file(&file, &mut out).unwrap();
                String::from_utf8(out).unwrap()
            };
            let ours = render(&text, &report);
            assert_eq!(ours, render(&redacted, &plain), "{text:?} {report:?}");
            masked += usize::from(ours.contains('*'));
        }
        assert!(masked > 500, "{masked}");
    }
}
