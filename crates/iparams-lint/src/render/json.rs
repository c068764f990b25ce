//! `--format json`: the stable machine contract (version 1).
//!
//! Written by hand rather than through serde: a large file has tens of thousands of findings,
//! and building a value for each cost more than checking it.

use std::io::{self, Write};

use iparams_core::syntax::write_string;
use iparams_core::{Diagnostic, LineCursor, Position};

use super::renderer::{CheckedFile, Renderer, Summary};

/// How much output is gathered before it is written.
const BLOCK: usize = 64 * 1024;

#[derive(Debug, Default)]
pub struct Json;

/// The format's version; it changes only when a field is removed or changes meaning.
const VERSION: u32 = 1;

impl Renderer for Json {
    fn begin(&self, _summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{{\"version\":{VERSION},\"files\":[")
    }

    fn separator(&self) -> &'static [u8] {
        b","
    }

    fn file(&self, file: &CheckedFile<'_>, out: &mut dyn Write) -> io::Result<()> {
        let mut buffer = Vec::new();
        buffer.extend_from_slice(b"{\"path\":");
        write_string(&mut buffer, file.path);
        buffer.extend_from_slice(b",\"diagnostics\":[");
        let mut cursor = LineCursor::new(file.text);
        let mut first = true;
        for d in &file.report.diagnostics {
            {
                if !std::mem::take(&mut first) {
                    buffer.push(b',');
                }
                finding(&mut buffer, d, &mut cursor);
                if buffer.len() >= BLOCK {
                    out.write_all(&buffer)?;
                    buffer.clear();
                }
            }
        }
        buffer.extend_from_slice(b"]}");
        out.write_all(&buffer)
    }

    fn end(&self, summary: &Summary, _wrote_files: bool, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "],\"summary\":{{\"files\":{},\"errors\":{},\"warnings\":{},\"infos\":{}}}}}",
            summary.files, summary.errors, summary.warnings, summary.infos
        )
    }
}

/// One finding's object.
fn finding(buffer: &mut Vec<u8>, d: &Diagnostic, cursor: &mut LineCursor<'_>) {
    buffer.extend_from_slice(b"{\"rule\":");
    write_string(buffer, d.rule);
    buffer.extend_from_slice(b",\"severity\":");
    write_string(buffer, d.severity.as_str());
    buffer.extend_from_slice(b",\"message\":");
    write_string(buffer, &d.message);
    buffer.extend_from_slice(b",\"help\":");
    match &d.help {
        Some(help) => write_string(buffer, help),
        None => buffer.extend_from_slice(b"null"),
    }
    buffer.extend_from_slice(b",\"pointer\":");
    write_string(buffer, &d.pointer);
    buffer.extend_from_slice(b",\"span\":{\"start\":");
    write_decimal(buffer, d.span.start);
    buffer.extend_from_slice(b",\"end\":");
    write_decimal(buffer, d.span.end);
    buffer.extend_from_slice(b"},\"start\":");
    position(buffer, cursor.position(d.span.start));
    buffer.extend_from_slice(b",\"end\":");
    position(buffer, cursor.position(d.span.end));
    buffer.extend_from_slice(if d.is_fixable() {
        b",\"fixable\":true"
    } else {
        b",\"fixable\":false"
    });
    buffer.push(b'}');
}

fn position(out: &mut Vec<u8>, position: Position) {
    out.extend_from_slice(b"{\"line\":");
    write_decimal(out, position.line);
    out.extend_from_slice(b",\"column\":");
    write_decimal(out, position.column);
    out.push(b'}');
}

fn write_decimal(out: &mut Vec<u8>, value: usize) {
    // Writing to memory cannot fail.
    let _ = write!(out, "{value}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_in_decimal() {
        for value in [0, 7, 10, 99, 1234567, usize::MAX] {
            let mut out = Vec::new();
            write_decimal(&mut out, value);
            assert_eq!(out, value.to_string().as_bytes());
        }
    }

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        for text in [
            "",
            "plain",
            "quote \" and \\ backslash",
            "lines\nand\ttabs\r",
            "\u{0}\u{8}\u{c}\u{1f}\u{7f}",
            "é and 😀 stay",
        ] {
            let mut out = Vec::new();
            write_string(&mut out, text);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(text).unwrap()
            );
        }
    }
}
