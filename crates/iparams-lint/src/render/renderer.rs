//! What every format works with: the [`Renderer`] trait it implements, and what it is given (a
//! [`CheckedFile`], the [`RenderOptions`], the run's [`Summary`]).

use std::io::{self, Write};

use iparams_core::{
    Applicability, Diagnostic, FileReport, LineCursor, Position, Severity, syntax_fixable,
};

/// One checked file, as the renderers see it.
#[derive(Debug)]
pub struct CheckedFile<'a> {
    /// The path as the user gave it (or as discovered), for messages.
    pub path: &'a str,
    /// The decoded text: spans of `report` index into it.
    pub text: &'a str,
    pub report: &'a FileReport,
}

impl<'a> CheckedFile<'a> {
    pub fn new(path: &'a str, text: &'a str, report: &'a FileReport) -> Self {
        Self { path, text, report }
    }

    /// Hands each of `findings` (the file's, in order) to `each`, with the line and column of
    /// both its ends.
    pub(super) fn each_finding(
        &self,
        findings: &[Diagnostic],
        mut each: impl FnMut(&Diagnostic, Position, Position) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut cursor = LineCursor::new(self.text);
        for d in findings {
            let (start, end) = (cursor.position(d.span.start), cursor.position(d.span.end));
            each(d, start, end)?;
        }
        Ok(())
    }
}

/// Totals over the run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub files: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// Findings `--fix` would fix.
    pub fixable: usize,
    /// Findings only `--unsafe-fixes` would fix.
    pub unsafe_fixable: usize,
    /// Findings with a fix in files that are not valid JSON, whose fixes wait for the syntax
    /// errors to be fixed by hand (a fix is applied to a well-formed file only).
    pub withheld: usize,
    /// `--unsafe-fixes` was given: `--fix` applies the unsafe fixes too.
    pub unsafe_fixes: bool,
    /// Findings fixed in this run, and in how many files.
    pub fixed: usize,
    pub fixed_files: usize,
}

impl Summary {
    pub fn add(&mut self, report: &FileReport) {
        self.files += 1;
        self.add_findings(&report.diagnostics, report.well_formed);
    }

    /// Counts `findings`, of a file already counted, which is valid JSON (`well_formed`) or
    /// not: the fixes of a file that is not are withheld, unless each of its syntax errors has a
    /// fix of its own (a trailing comma), after which the others apply in the same run.
    fn add_findings(&mut self, findings: &[Diagnostic], well_formed: bool) {
        let well_formed = well_formed || syntax_fixable(findings);
        for finding in findings {
            match finding.severity {
                Severity::Error => self.errors += 1,
                Severity::Warning => self.warnings += 1,
                Severity::Info => self.infos += 1,
            }
            match finding.fix.as_ref().map(|fix| fix.applicability) {
                Some(_) if !well_formed => self.withheld += 1,
                Some(Applicability::Safe) => self.fixable += 1,
                Some(Applicability::Unsafe) => self.unsafe_fixable += 1,
                None => {}
            }
        }
    }

    /// Whether any finding is at `severity` or above.
    pub fn reaches(&self, severity: Severity) -> bool {
        match severity {
            Severity::Error => self.errors > 0,
            Severity::Warning => self.errors + self.warnings > 0,
            Severity::Info => self.errors + self.warnings + self.infos > 0,
        }
    }

    pub fn merge(&mut self, other: &Summary) {
        self.files += other.files;
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.infos += other.infos;
        self.fixable += other.fixable;
        self.unsafe_fixable += other.unsafe_fixable;
        self.withheld += other.withheld;
        self.unsafe_fixes |= other.unsafe_fixes;
        self.fixed += other.fixed;
        self.fixed_files += other.fixed_files;
    }

    /// The closing lines of the text formats, unless `--quiet`.
    pub(super) fn write_unless_quiet(
        &self,
        options: &RenderOptions,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if options.quiet {
            return Ok(());
        }
        out.write_all(self.text().as_bytes())
    }

    /// The closing lines of the text formats: what was fixed, then the counts.
    fn text(&self) -> String {
        let mut out = String::new();
        if self.fixed > 0 {
            out.push_str(&format!(
                "Fixed {} in {}.\n",
                plural(self.fixed, "problem"),
                plural(self.fixed_files, "file")
            ));
        }
        let files = if self.files == 1 {
            "1 file checked".to_owned()
        } else {
            format!("{} files checked", self.files)
        };
        out.push_str(&format!(
            "{files}: {}, {}",
            plural(self.errors, "error"),
            plural(self.warnings, "warning")
        ));
        if self.infos > 0 {
            out.push_str(&format!(", {}", plural(self.infos, "info")));
        }
        // What `--fix` would do, as ruff says it: with `--unsafe-fixes`, the unsafe fixes too.
        let (safe, risky) = match self.unsafe_fixes {
            true => (self.fixable + self.unsafe_fixable, 0),
            false => (self.fixable, self.unsafe_fixable),
        };
        match (safe, risky) {
            (0, 0) => {}
            (safe, 0) => out.push_str(&format!(" ({safe} fixable with --fix)")),
            (0, risky) => out.push_str(&format!(" ({risky} fixable with --fix --unsafe-fixes)")),
            (safe, risky) => out.push_str(&format!(
                " ({safe} fixable with --fix, {risky} more with --fix --unsafe-fixes)"
            )),
        }
        out.push('\n');
        if let Some(note) = self.withheld_note() {
            out.push_str(&note);
            out.push('\n');
        }
        out
    }

    /// Why some fixes were not applied, when some were not.
    pub fn withheld_note(&self) -> Option<String> {
        let count = match self.withheld {
            0 => return None,
            1 => "1 fix".to_owned(),
            many => format!("{many} fixes"),
        };
        Some(format!(
            "{count} withheld: fixes are applied to valid JSON only; fix the syntax errors first \
             (--fix removes trailing commas itself)."
        ))
    }
}

/// How the chosen format is to be drawn.
#[derive(Debug, Clone, Copy)]
pub struct RenderOptions {
    pub color: bool,
    pub width: usize,
    /// Findings only, no summary.
    pub quiet: bool,
    /// Findings at or above this severity fail the run (for formats that model pass/fail).
    pub fail_level: Severity,
    /// How many findings of a run the human format draws in full (`None`: all); it lists the
    /// others one line each. Machine formats are never capped.
    pub max_diagnostics: Option<usize>,
}

/// An output format.
pub trait Renderer: Sync {
    /// Whether the opening states totals (JUnit's), so that it can only be written once every
    /// file is checked: the files' output then waits in memory.
    fn totals_first(&self) -> bool {
        false
    }

    /// What comes before the first file; `summary` is the run's for a format with
    /// [`Renderer::totals_first`], and empty for the others.
    fn begin(&self, _summary: &Summary, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    /// Whether a file's output must be written in its turn, once every file before it is
    /// written (the human format, while it still draws the run's first findings in full),
    /// rather than kept until then.
    fn in_turn(&self) -> bool {
        false
    }

    /// What comes between the output of two files that both wrote something.
    fn separator(&self) -> &'static [u8] {
        b""
    }

    /// The output for one file; may be empty.
    fn file(&self, file: &CheckedFile<'_>, out: &mut dyn Write) -> io::Result<()>;

    /// What comes after the last file; `wrote_files` tells whether any file wrote something.
    fn end(&self, summary: &Summary, wrote_files: bool, out: &mut dyn Write) -> io::Result<()>;
}

/// The whole output of `renderer` for one checked file.
pub fn document(renderer: &dyn Renderer, file: &CheckedFile<'_>, summary: &Summary) -> String {
    let mut out = Vec::new();
    // Writing to memory cannot fail.
    let _ = renderer.begin(summary, &mut out);
    let opening = out.len();
    let _ = renderer.file(file, &mut out);
    let wrote_file = out.len() > opening;
    let _ = renderer.end(summary, wrote_file, &mut out);
    // Renderers write UTF-8; checked the fast way, and mended only if one ever does not.
    String::from_utf8(out)
        .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
}

/// "1 error", "2 warnings".
pub(crate) fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("{count} {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
