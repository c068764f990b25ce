//! `--format json`: the stable machine contract (version 1).

use iparams_core::{Diagnostic, LineIndex, Position};
use serde::Serialize;

use super::{CheckedFile, Renderer, Summary};

#[derive(Debug, Default)]
pub struct Json;

/// The format's version; it changes only when a field is removed or changes meaning.
const VERSION: u32 = 1;

#[derive(Serialize)]
struct File<'a> {
    path: &'a str,
    diagnostics: Vec<Finding<'a>>,
}

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
    fn file(&self, file: &CheckedFile<'_>) -> String {
        let lines = (!file.report.diagnostics.is_empty()).then(|| LineIndex::new(file.text));
        let diagnostics = file
            .report
            .diagnostics
            .iter()
            .map(|d: &Diagnostic| {
                let lines = lines.as_ref().expect("built when there are diagnostics");
                Finding {
                    rule: d.rule,
                    severity: d.severity.as_str(),
                    message: &d.message,
                    help: d.help.as_deref(),
                    pointer: &d.pointer,
                    span: Span {
                        start: d.span.start,
                        end: d.span.end,
                    },
                    start: lines.position(file.text, d.span.start).into(),
                    end: lines.position(file.text, d.span.end).into(),
                    fixable: d.is_fixable(),
                }
            })
            .collect();
        serde_json::to_string(&File {
            path: file.path,
            diagnostics,
        })
        .expect("plain data serializes")
    }

    fn finish(&self, pieces: Vec<String>, summary: &Summary) -> String {
        format!(
            "{{\"version\":{VERSION},\"files\":[{}],\"summary\":{{\"files\":{},\"errors\":{},\"warnings\":{},\"infos\":{}}}}}\n",
            pieces.join(","),
            summary.files,
            summary.errors,
            summary.warnings,
            summary.infos
        )
    }
}
