//! `--format junit`: JUnit XML, which CI servers (GitLab, Jenkins) show as test reports. Each
//! file is a test suite; each finding at or above the failing severity is a failed test case.

use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{CheckedFile, RenderOptions, Renderer, Summary};

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
        let path = escape(file.path);
        let mut cases = String::new();
        let mut failures = 0;
        for (d, (start, _)) in file.report.diagnostics.iter().zip(file.positions()) {
            let name = escape(&format!("{} at {}:{}", d.rule, start.line, start.column));
            let detail = escape(&format!(
                "{}:{}:{}: {}[{}] {}{}",
                file.path,
                start.line,
                start.column,
                d.severity,
                d.rule,
                d.message,
                d.help
                    .as_deref()
                    .map(|h| format!("\nhelp: {h}"))
                    .unwrap_or_default()
            ));
            if d.severity >= self.options.fail_level {
                failures += 1;
                cases.push_str(&format!(
                    "    <testcase name=\"{name}\" classname=\"{path}\">\n      <failure type=\"{}\" message=\"{}\">{detail}</failure>\n    </testcase>\n",
                    d.rule,
                    escape(&d.message)
                ));
            } else {
                cases.push_str(&format!(
                    "    <testcase name=\"{name}\" classname=\"{path}\">\n      <system-out>{detail}</system-out>\n    </testcase>\n"
                ));
            }
        }
        if file.report.diagnostics.is_empty() {
            cases.push_str(&format!(
                "    <testcase name=\"no findings\" classname=\"{path}\"/>\n"
            ));
        }
        let tests = file.report.diagnostics.len().max(1);
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

/// Text for an XML attribute or element; characters XML 1.0 cannot hold are dropped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' | '\r' => out.push(character),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escaping() {
        assert_eq!(escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;");
    }
}
