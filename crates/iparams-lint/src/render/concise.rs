//! `--format concise`: one line per finding, as compilers print them.

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
    fn file(&self, file: &CheckedFile<'_>) -> String {
        file.report
            .diagnostics
            .iter()
            .zip(file.positions())
            .map(|(d, (start, _))| {
                format!(
                    "{}:{}:{}: {}[{}] {}\n",
                    file.path, start.line, start.column, d.severity, d.rule, d.message
                )
            })
            .collect()
    }

    fn finish(&self, pieces: Vec<String>, summary: &Summary) -> String {
        let mut out = pieces.concat();
        if !self.options.quiet {
            out.push_str(&summary.text());
        }
        out
    }
}
