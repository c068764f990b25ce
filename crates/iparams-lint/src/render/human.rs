//! The default format: each finding with its code frame, drawn by miette, and a summary line.

use std::fmt;
use std::io::{self, Write};
use std::sync::Arc;

use iparams_core::{Diagnostic, Severity};
use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};

use super::{CheckedFile, RenderOptions, Renderer, Summary};
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
    source: &'a IndexedSource,
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
        let help = self.diagnostic.help.as_deref();
        let fix = self
            .diagnostic
            .fix
            .as_ref()
            .map(|fix| format!("fix available: {}", fix.title));
        match (help, fix) {
            (Some(help), Some(fix)) => Some(Box::new(format!("{help}\n{fix}"))),
            (Some(help), None) => Some(Box::new(help)),
            (None, Some(fix)) => Some(Box::new(fix)),
            (None, None) => None,
        }
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
        let text: Arc<str> = Arc::from(file.report.redact(file.text).as_ref());
        let source = IndexedSource::new(file.path.to_owned(), text);
        let handler = self.handler();
        let mut rendered = String::new();
        for (index, diagnostic) in file.report.diagnostics.iter().enumerate() {
            let finding = Finding {
                diagnostic,
                source: &source,
            };
            rendered.clear();
            if index > 0 {
                rendered.push('\n');
            }
            if handler.render_report(&mut rendered, &finding).is_err() {
                rendered.push_str(&format!(
                    "{}: {}[{}] {}\n",
                    file.path, diagnostic.severity, diagnostic.rule, diagnostic.message
                ));
            }
            out.write_all(rendered.as_bytes())?;
        }
        Ok(())
    }

    fn end(&self, summary: &Summary, wrote_files: bool, out: &mut dyn Write) -> io::Result<()> {
        // A blank line before the summary.
        if wrote_files && !self.options.quiet {
            out.write_all(b"\n")?;
        }
        summary.write_unless_quiet(&self.options, out)
    }
}
