//! `--format sarif`: SARIF 2.1.0, read by code-scanning services (GitHub code scanning, GitLab,
//! Azure DevOps). Its rule table comes from the rule registry; columns are counted in UTF-16
//! code units, SARIF's default.

use std::io::{self, Write};
use std::sync::LazyLock;

use iparams_core::{Applicability, Diagnostic, LineCursor, REGISTRY, Severity, Span};
use serde_json::{Value, json};

use super::renderer::{CheckedFile, Renderer, Summary};

#[derive(Debug, Default)]
pub struct Sarif;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// Everything before the first result: the tool and its rule table, the same in every document.
/// Built once per process: the table holds every rule's docs in text and Markdown (hundreds of
/// kilobytes), and building it cost more than linting a typical file.
static OPENING: LazyLock<String> = LazyLock::new(|| {
    let rules: Vec<Value> = REGISTRY
        .iter()
        .map(|rule| {
            json!({
                "id": rule.name,
                "name": rule.name,
                "shortDescription": { "text": rule.summary },
                "helpUri": crate::docs::rule_url(rule.name),
                "fullDescription": { "text": rule.docs() },
                "help": {
                    "text": format!("{}\n\nVendor validator: {}", rule.docs(), rule.vendor()),
                    "markdown": crate::docs::rule_markdown(rule, 3),
                },
                "defaultConfiguration": { "level": level(rule.severity) },
                "properties": { "fix": rule.fix.map_or("none", safety) },
            })
        })
        .collect();
    let driver = json!({
        "name": "iparams-lint",
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "informationUri": env!("CARGO_PKG_REPOSITORY"),
        "rules": rules,
    });
    format!(
        "{{\"$schema\":\"{SCHEMA}\",\"version\":\"2.1.0\",\"runs\":[{{\"tool\":{{\"driver\":{driver}}},\"columnKind\":\"utf16CodeUnits\",\"results\":["
    )
});

impl Renderer for Sarif {
    fn file(&self, file: &CheckedFile<'_>, out: &mut dyn Write) -> io::Result<()> {
        let mut cursor = LineCursor::new(file.text);
        let uri = uri(file.path);
        let secrets = file.report.secret_texts(file.text);
        for (index, d) in file.report.diagnostics.iter().enumerate() {
            if index > 0 {
                out.write_all(b",")?;
            }
            serde_json::to_writer(&mut *out, &result(d, &uri, &mut cursor, &secrets))?;
        }
        Ok(())
    }

    fn begin(&self, _summary: &Summary, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(OPENING.as_bytes())
    }

    fn separator(&self) -> &'static [u8] {
        b","
    }

    fn end(&self, _summary: &Summary, _wrote_files: bool, out: &mut dyn Write) -> io::Result<()> {
        out.write_all(b"]}]}\n")
    }
}

/// One finding's result object.
fn result(d: &Diagnostic, uri: &str, cursor: &mut LineCursor<'_>, secrets: &[&str]) -> Value {
    let message = match &d.help {
        Some(help) => format!("{}\n{help}", d.message),
        None => d.message.to_string(),
    };
    // Every finding's rule is registered; -1 is SARIF's "none", never expected.
    let rule_index = REGISTRY
        .iter()
        .position(|rule| rule.name == d.rule)
        .map_or(json!(-1), |index| json!(index));
    let mut result = json!({
        "level": level(d.severity),
        "locations": [{
            "logicalLocations": [{ "fullyQualifiedName": d.pointer, "kind": "member" }],
            "physicalLocation": physical_location(uri, cursor, d.span),
        }],
        "message": { "text": message },
        "ruleId": d.rule,
        "ruleIndex": rule_index,
    });
    // A fix that would write a secret back (wrapping a secure default in an array) is not
    // shown: its safety says it can still be applied with --fix.
    let shown_fix = d.fix.as_deref().filter(|fix| {
        !fix.edits.iter().any(|edit| {
            secrets
                .iter()
                .any(|secret| edit.replacement.contains(secret))
        })
    });
    if let Some(fix) = shown_fix {
        let replacements: Vec<Value> = fix
            .edits
            .iter()
            .map(|edit| {
                json!({
                    "deletedRegion": { "byteLength": edit.span.len(), "byteOffset": edit.span.start },
                    "insertedContent": { "text": edit.replacement },
                })
            })
            .collect();
        result["fixes"] = json!([{
            "artifactChanges": [{ "artifactLocation": { "uri": uri }, "replacements": replacements }],
            "description": { "text": fix.title },
        }]);
    }
    if let Some(fix) = &d.fix {
        result["properties"] = json!({ "fixSafety": safety(fix.applicability) });
    }
    if !d.related.is_empty() {
        let related: Vec<Value> = d
            .related
            .iter()
            .enumerate()
            .map(|(id, label)| {
                json!({
                    "id": id,
                    "message": { "text": label.message },
                    "physicalLocation": physical_location(uri, cursor, label.span),
                })
            })
            .collect();
        result["relatedLocations"] = json!(related);
    }
    result
}

/// The physical location of `span`, its lines and UTF-16 columns from `cursor`.
fn physical_location(uri: &str, cursor: &mut LineCursor<'_>, span: Span) -> Value {
    // In the order the cursor walks (forward): start, then end.
    let (start_line, start_column) = (
        cursor.position(span.start).line,
        cursor.utf16_column(span.start),
    );
    let (end_line, end_column) = (
        cursor.position(span.end).line,
        cursor.utf16_column(span.end),
    );
    json!({
        "artifactLocation": { "uri": uri },
        "region": {
            "byteLength": span.len(),
            "byteOffset": span.start,
            "endColumn": end_column,
            "endLine": end_line,
            "startColumn": start_column,
            "startLine": start_line,
        },
    })
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn safety(applicability: Applicability) -> &'static str {
    match applicability {
        Applicability::Safe => "safe",
        Applicability::Unsafe => "unsafe",
    }
}

/// A relative URI reference for a path as the user gave it (`/` separators, percent-encoded),
/// or a `file:` URI for an absolute path.
fn uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut out = if path.starts_with('/') {
        "file://".to_owned()
    } else {
        String::new()
    };
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::uri;

    #[test]
    fn uris() {
        assert_eq!(
            uri("app one/config/iparams.json"),
            "app%20one/config/iparams.json"
        );
        assert_eq!(uri("/abs/x.json"), "file:///abs/x.json");
        assert_eq!(uri("é.json"), "%C3%A9.json");
    }
}
