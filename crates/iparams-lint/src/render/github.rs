//! `--format github`: workflow commands that GitHub Actions shows as annotations on the lines.

use std::io::{self, Write};

use iparams_core::Severity;

use super::{CheckedFile, RenderOptions, Renderer, Summary};

#[derive(Debug)]
pub struct Github {
    options: RenderOptions,
}

impl Github {
    pub fn new(options: RenderOptions) -> Self {
        Self { options }
    }
}

impl Renderer for Github {
    fn file(&self, file: &CheckedFile<'_>, out: &mut dyn Write) -> io::Result<()> {
        for (d, (start, end)) in file.report.diagnostics.iter().zip(file.positions()) {
            let command = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let mut message = d.message.clone();
            if let Some(help) = &d.help {
                message.push_str("\n\n");
                message.push_str(help);
            }
            writeln!(
                out,
                "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
                property(file.path),
                start.line,
                start.column,
                end.line,
                end.column,
                property(&format!("iparams-lint ({})", d.rule)),
                data(&message)
            )?;
        }
        Ok(())
    }

    fn end(&self, summary: &Summary, _wrote_files: bool, out: &mut dyn Write) -> io::Result<()> {
        summary.write_unless_quiet(&self.options, out)
    }
}

/// Escapes the message of a workflow command.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a property value of a workflow command.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(data("50% done\nnext"), "50%25 done%0Anext");
        assert_eq!(property("a,b:c"), "a%2Cb%3Ac");
    }
}
