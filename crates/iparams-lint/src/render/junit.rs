//! `--format junit`: JUnit XML, which CI servers (GitLab, Jenkins) show as test reports. Each
//! file is a test suite; each finding at or above the failing severity is a failed test case.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::renderer::{CheckedFile, RenderOptions, Renderer, Summary};

#[derive(Debug)]
pub struct Junit {
    options: RenderOptions,
    /// Totals of the suites written, for the opening `<testsuites>`.
    tests: AtomicUsize,
    failures: AtomicUsize,
}

impl Junit {
    pub fn new(options: RenderOptions) -> Self {
        Self {
            options,
            tests: AtomicUsize::new(0),
            failures: AtomicUsize::new(0),
        }
    }
}

impl Renderer for Junit {
    fn totals_first(&self) -> bool {
        true
    }

    fn begin(&self, _summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        write!(
            out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"iparams-lint\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n",
            self.tests.load(Ordering::Relaxed),
            self.failures.load(Ordering::Relaxed)
        )
    }

    fn file(&self, file: &CheckedFile<'_>, out: &mut dyn Write) -> io::Result<()> {
        let mut path = String::new();
        escape_into(&mut path, file.path);
        let mut cases = String::new();
        let (mut failures, mut findings) = (0, 0);
        file.each_finding(&file.report.diagnostics, |d, start, _| {
            findings += 1;
            let failed = d.severity >= self.options.fail_level;
            failures += usize::from(failed);
            let (line, column) = (start.line, start.column);
            cases.push_str("    <testcase name=\"");
            escape_into(&mut cases, d.rule);
            let _ = write!(cases, " at {line}:{column}\" classname=\"{path}\">\n      ");
            if failed {
                let _ = write!(cases, "<failure type=\"{}\" message=\"", d.rule);
                escape_into(&mut cases, &d.message);
                cases.push_str("\">");
            } else {
                cases.push_str("<system-out>");
            }
            // The detail: `path:line:column: severity[rule] message`, then the help.
            let _ = write!(cases, "{path}:{line}:{column}: ");
            escape_into(&mut cases, d.severity.as_str());
            cases.push('[');
            escape_into(&mut cases, d.rule);
            cases.push_str("] ");
            escape_into(&mut cases, &d.message);
            if let Some(help) = &d.help {
                escape_into(&mut cases, "\nhelp: ");
                escape_into(&mut cases, help);
            }
            cases.push_str(if failed {
                "</failure>\n    </testcase>\n"
            } else {
                "</system-out>\n    </testcase>\n"
            });
            Ok(())
        })?;
        if findings == 0 {
            let _ = writeln!(
                cases,
                "    <testcase name=\"no findings\" classname=\"{path}\"/>"
            );
        }
        let tests = findings.max(1);
        self.tests.fetch_add(tests, Ordering::Relaxed);
        self.failures.fetch_add(failures, Ordering::Relaxed);
        write!(
            out,
            "  <testsuite name=\"{path}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">\n{cases}  </testsuite>\n"
        )
    }

    fn end(&self, _summary: &Summary, _wrote_files: bool, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(b"</testsuites>\n")
    }
}

/// Appends `text` to `out` for an XML attribute or element; characters XML 1.0 cannot hold
/// (control characters but tab, CR and LF, and U+FFFE and U+FFFF) are dropped. Runs of bytes that
/// need nothing are copied whole.
fn escape_into(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    let (mut copied, mut at) = (0, 0);
    while at < bytes.len() {
        let (replacement, length) = match bytes[at] {
            b'&' => ("&amp;", 1),
            b'<' => ("&lt;", 1),
            b'>' => ("&gt;", 1),
            b'"' => ("&quot;", 1),
            b'\'' => ("&apos;", 1),
            b'\n' => ("&#10;", 1),
            b'\t' | b'\r' => ("", 0),
            0..=0x1f => ("", 1),
            // U+FFFE and U+FFFF in UTF-8.
            0xef if matches!(bytes.get(at + 1..at + 3), Some([0xbf, 0xbe | 0xbf])) => ("", 3),
            _ => ("", 0),
        };
        if length == 0 {
            at += 1;
            continue;
        }
        out.push_str(&text[copied..at]);
        out.push_str(replacement);
        at += length;
        copied = at;
    }
    out.push_str(&text[copied..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escaping() {
        let mut out = String::from("kept ");
        escape_into(&mut out, "a<b & \"c\"\u{1}\t'é\u{fffe}\u{ffff}\u{fffd}\n>");
        assert_eq!(
            out,
            "kept a&lt;b &amp; &quot;c&quot;\t&apos;é\u{fffd}&#10;&gt;"
        );
    }
}
