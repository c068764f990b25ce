//! `--format github`: workflow commands that GitHub Actions shows as annotations on the lines.

use std::io::{self, Write};

use iparams_core::Severity;

use super::controls::escaped;
use super::renderer::{CheckedFile, RenderOptions, Renderer, Summary};

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
        file.each_finding(&file.report.diagnostics, |d, start, end| {
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
            )
        })
    }

    fn end(&self, summary: &Summary, _wrote_files: bool, out: &mut dyn Write) -> io::Result<()> {
        summary.write_unless_quiet(&self.options, out)
    }
}

/// Escapes the message of a workflow command (control characters too: the log is a terminal).
fn data(text: &str) -> String {
    escape(&escaped(text), false)
}

/// Escapes a property value of a workflow command.
fn property(text: &str) -> String {
    escape(&escaped(text), true)
}

/// `text` with `%`, CR and LF percent-encoded, and `:` and `,` too in a property; one pass,
/// the runs between them copied whole.
fn escape(text: &str, property: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for (at, byte) in text.bytes().enumerate() {
        let escaped = match byte {
            b'%' => "%25",
            b'\r' => "%0D",
            b'\n' => "%0A",
            b':' if property => "%3A",
            b',' if property => "%2C",
            _ => continue,
        };
        out.push_str(&text[copied..at]);
        out.push_str(escaped);
        copied = at + 1;
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(data("50% done\nnext"), "50%25 done%0Anext");
        assert_eq!(property("a,b:c"), "a%2Cb%3Ac");
        assert_eq!(property("%:\r\n,é"), "%25%3A\\u{d}%0A%2Cé");
        assert_eq!(data("a:b,c\r"), "a:b,c\\u{d}");
        assert_eq!(data("key\x1b]8;;x\x07"), "key\\u{1b}]8;;x\\u{7}");
    }
}
