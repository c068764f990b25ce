//! Output formats, one file each. A format renders each file on its own (files are checked in
//! parallel), then joins the pieces in path order with a summary.

mod human;
mod json;

pub use human::Human;
pub use json::Json;

use iparams_core::{FileReport, Severity};

/// One checked file, as the renderers see it.
#[derive(Debug)]
pub struct CheckedFile<'a> {
    /// The path as the user gave it (or as discovered), for messages.
    pub path: &'a str,
    /// The decoded text: spans of `report` index into it.
    pub text: &'a str,
    pub report: &'a FileReport,
}

/// Totals over the run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub files: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

impl Summary {
    pub fn add(&mut self, report: &FileReport) {
        self.files += 1;
        self.errors += report.count(Severity::Error);
        self.warnings += report.count(Severity::Warning);
        self.infos += report.count(Severity::Info);
    }
}

/// An output format.
pub trait Renderer: Sync {
    /// The output for one file; may be empty.
    fn file(&self, file: &CheckedFile<'_>) -> String;

    /// The whole output: the files' pieces in order, and the summary.
    fn finish(&self, pieces: Vec<String>, summary: &Summary) -> String;
}

/// "1 error", "2 warnings".
pub(crate) fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("{count} {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
