//! `--format concise`: one line per finding, as compilers print them.

use std::fmt;
use std::io::{self, Write};

use iparams_core::{Diagnostic, Position};

use super::controls::escaped;
use super::renderer::{CheckedFile, RenderOptions, Renderer, Summary};

#[derive(Debug)]
pub struct Concise {
    options: RenderOptions,
}

impl Concise {
    pub fn new(options: RenderOptions) -> Self {
        Self { options }
    }
}

impl Renderer for Concise {
    fn file(&self, file: &CheckedFile<'_>, out: &mut dyn Write) -> io::Result<()> {
        file.each_finding(&file.report.diagnostics, |d, start, _| {
            let path = file.path;
            writeln!(out, "{}", Line { path, d, start })
        })
    }

    fn end(&self, summary: &Summary, _wrote_files: bool, out: &mut dyn Write) -> io::Result<()> {
        summary.write_unless_quiet(&self.options, out)
    }
}

/// The line of finding `d` of the file at `path`, which starts at `start`, without its line
/// break: `path:line:col: severity[rule] message`, control characters of the path and the
/// message escaped.
pub(super) struct Line<'a> {
    pub path: &'a str,
    pub d: &'a Diagnostic,
    pub start: Position,
}

impl fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Line { path, d, start } = self;
        write!(
            f,
            "{}:{}:{}: {}[{}] {}",
            escaped(path),
            start.line,
            start.column,
            d.severity,
            d.rule,
            escaped(&d.message)
        )
    }
}
