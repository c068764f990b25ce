//! `--format json`: the stable machine contract (version 1).

use std::io::{self, Write};

use iparams_core::{LineCursor, Position};
use serde::Serialize;

use super::{CheckedFile, Renderer, Summary};

#[derive(Debug, Default)]
pub struct Json;

/// The format's version; it changes only when a field is removed or changes meaning.
const VERSION: u32 = 1;

#[derive(Serialize)]
struct Finding<'a> {
    rule: &'a str,
    severity: &'a str,
    message: &'a str,
    help: Option<&'a str>,
    pointer: &'a str,
    span: Span,
    start: LineColumn,
    end: LineColumn,
    fixable: bool,
}

#[derive(Serialize)]
struct Span {
    start: usize,
    end: usize,
}

#[derive(Serialize)]
struct LineColumn {
    line: usize,
    column: usize,
}

impl From<Position> for LineColumn {
    fn from(position: Position) -> Self {
        Self {
            line: position.line,
            column: position.column,
        }
    }
}

impl Renderer for Json {
    fn begin(&self, _summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        write!(out, "{{\"version\":{VERSION},\"files\":[")
    }

    fn separator(&self) -> &'static [u8] {
        b","
    }

    fn file(&self, file: &CheckedFile<'_>, out: &mut dyn Write) -> io::Result<()> {
        // Findings are serialized into a buffer written in blocks: fewer, larger writes.
        let mut buffer = Vec::with_capacity(BLOCK);
        buffer.extend_from_slice(b"{\"path\":");
        serde_json::to_writer(&mut buffer, file.path)?;
        buffer.extend_from_slice(b",\"diagnostics\":[");
        let mut cursor = LineCursor::new(file.text);
        for (index, d) in file.report.diagnostics.iter().enumerate() {
            if index > 0 {
                buffer.push(b',');
            }
            let finding = Finding {
                rule: d.rule,
                severity: d.severity.as_str(),
                message: &d.message,
                help: d.help.as_deref(),
                pointer: &d.pointer,
                span: Span {
                    start: d.span.start,
                    end: d.span.end,
                },
                start: cursor.position(d.span.start).into(),
                end: cursor.position(d.span.end).into(),
                fixable: d.is_fixable(),
            };
            serde_json::to_writer(&mut buffer, &finding)?;
            if buffer.len() >= BLOCK {
                out.write_all(&buffer)?;
                buffer.clear();
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

/// How much output is gathered before it is written.
const BLOCK: usize = 64 * 1024;
