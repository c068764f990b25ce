//! `--format junit`: JUnit XML, which CI servers (GitLab, Jenkins) show as test reports. Each
//! file is a test suite; each finding at or above the failing severity is a failed test case.

use super::{CheckedFile, RenderOptions, Renderer, Summary};

#[derive(Debug)]
pub struct Junit {
    options: RenderOptions,
}

impl Junit {
    pub fn new(options: RenderOptions) -> Self {
        Self { options }
    }
}

impl Renderer for Junit {
    fn file(&self, file: &CheckedFile<'_>) -> String {
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
        format!(
            "  <testsuite name=\"{path}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">\n{cases}  </testsuite>\n"
        )
    }

    fn finish(&self, pieces: Vec<String>, _summary: &Summary) -> String {
        let (tests, failures) = pieces.iter().fold((0, 0), |(tests, failures), piece| {
            (
                tests + attribute(piece, "tests"),
                failures + attribute(piece, "failures"),
            )
        });
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"iparams-lint\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">\n{}</testsuites>\n",
            pieces.concat()
        )
    }
}

/// The number in the first `name="n"` of a rendered suite.
fn attribute(suite: &str, name: &str) -> usize {
    let key = format!(" {name}=\"");
    suite
        .find(&key)
        .and_then(|at| suite[at + key.len()..].split('"').next()?.parse().ok())
        .unwrap_or(0)
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
        assert_eq!(
            attribute(
                "<testsuite name=\"x\" tests=\"3\" failures=\"1\">",
                "failures"
            ),
            1
        );
    }
}
