//! `--format concise`: one line per finding, as compilers print them.

use std::io::{self, Write};

use super::{CheckedFile, RenderOptions, Renderer, Summary};

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
        file.each_finding(|d, start, _| {
            writeln!(
                out,
                "{}:{}:{}: {}[{}] {}",
                file.path, start.line, start.column, d.severity, d.rule, d.message
            )
        })
    }

    fn end(&self, summary: &Summary, _wrote_files: bool, out: &mut dyn Write) -> io::Result<()> {
        summary.write_unless_quiet(&self.options, out)
    }
}
