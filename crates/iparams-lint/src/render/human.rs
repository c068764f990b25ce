//! The default format: each finding with its code frame, in miette's graphical look, and a
//! summary line. The common shape is drawn by [`Frames`](super::frame) at a fraction of the
//! cost; miette draws the rest.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};

use iparams_core::{Diagnostic, Severity};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};

use super::frame::Frames;
use super::{CheckedFile, RenderOptions, Renderer, Summary};
use crate::source_code::IndexedSource;

/// How much output is gathered before it is written.
const BLOCK: usize = 64 * 1024;

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
        let primary =
            LabeledSpan::new_primary_with_span(d.label.clone(), (d.span.start, d.span.len()));
        let related = d.related.iter().map(|label| {
            LabeledSpan::new_with_span(
                Some(label.message.clone()),
                (label.span.start, label.span.len()),
            )
        });
        Some(Box::new(std::iter::once(primary).chain(related)))
    }
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
        // Secrets are masked in the frames as well as in the messages.
        let text = file.report.redact(file.text);
        let source = IndexedSource::new(file.path, &text);
        // Colours are left to miette.
        let mut frames = (!self.options.color).then(|| Frames::new(&source, self.options.width));
        let handler = self.handler();
        let mut rendered = String::with_capacity(BLOCK);
        for (index, diagnostic) in file.report.diagnostics.iter().enumerate() {
            if index > 0 {
                rendered.push('\n');
            }
            let drawn = frames.as_mut().is_some_and(|frames| {
                frames.draw(diagnostic, help(diagnostic).as_deref(), &mut rendered)
            });
            if !drawn {
                let finding = Finding {
                    diagnostic,
                    source: &source,
                };
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
