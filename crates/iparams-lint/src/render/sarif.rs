//! `--format sarif`: SARIF 2.1.0, read by code-scanning services (GitHub code scanning, GitLab,
//! Azure DevOps). Its rule table comes from the rule registry; columns are counted in UTF-16
//! code units, SARIF's default.

use iparams_core::{Applicability, LineIndex, REGISTRY, Severity};
use serde_json::{Value, json};

use super::{CheckedFile, Renderer, Summary};

#[derive(Debug, Default)]
pub struct Sarif;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

impl Renderer for Sarif {
    fn file(&self, file: &CheckedFile<'_>) -> String {
        if file.report.diagnostics.is_empty() {
            return String::new();
        }
        let lines = LineIndex::new(file.text);
        let uri = uri(file.path);
        let region = |start: usize, end: usize| {
            let (first, last) = (
                lines.position(file.text, start),
                lines.position(file.text, end),
            );
            json!({
                "startLine": first.line,
                "startColumn": lines.utf16_column(file.text, start),
                "endLine": last.line,
                "endColumn": lines.utf16_column(file.text, end),
                "byteOffset": start,
                "byteLength": end - start,
            })
        };
        let results: Vec<String> = file
            .report
            .diagnostics
            .iter()
            .map(|d| {
                let rule_index = REGISTRY.iter().position(|rule| rule.name == d.rule).expect("registered rule");
                let mut text = d.message.clone();
                if let Some(help) = &d.help {
                    text.push('\n');
                    text.push_str(help);
                }
                let mut result = json!({
                    "ruleId": d.rule,
                    "ruleIndex": rule_index,
                    "level": level(d.severity),
                    "message": { "text": text },
                    "locations": [{
                        "physicalLocation": { "artifactLocation": { "uri": uri }, "region": region(d.span.start, d.span.end) },
                        "logicalLocations": [{ "fullyQualifiedName": d.pointer, "kind": "member" }],
                    }],
                });
                if !d.related.is_empty() {
                    result["relatedLocations"] = d
                        .related
                        .iter()
                        .enumerate()
                        .map(|(id, label)| {
                            json!({
                                "id": id,
                                "message": { "text": label.message },
                                "physicalLocation": { "artifactLocation": { "uri": uri }, "region": region(label.span.start, label.span.end) },
                            })
                        })
                        .collect();
                }
                // A fix that would write a secret back (wrapping a secure default in an array)
                // is not shown: its safety says it can still be applied with --fix.
                let shown_fix = d.fix.as_ref().filter(|fix| {
                    !fix.edits.iter().any(|edit| file.report.reveals_secret(file.text, &edit.replacement))
                });
                if let Some(fix) = shown_fix {
                    let replacements: Vec<Value> = fix
                        .edits
                        .iter()
                        .map(|edit| {
                            json!({
                                "deletedRegion": { "byteOffset": edit.span.start, "byteLength": edit.span.len() },
                                "insertedContent": { "text": edit.replacement },
                            })
                        })
                        .collect();
                    result["fixes"] = json!([{
                        "description": { "text": fix.title },
                        "artifactChanges": [{ "artifactLocation": { "uri": uri }, "replacements": replacements }],
                    }]);
                }
                if let Some(fix) = &d.fix {
                    result["properties"] = json!({ "fixSafety": safety(fix.applicability) });
                }
                result.to_string()
            })
            .collect();
        results.join(",")
    }

    fn finish(&self, pieces: Vec<String>, _summary: &Summary) -> String {
        let rules: Vec<Value> = REGISTRY
            .iter()
            .map(|rule| {
                json!({
                    "id": rule.name,
                    "name": rule.name,
                    "shortDescription": { "text": rule.summary },
                    "fullDescription": { "text": rule.docs },
                    "help": {
                        "text": format!("{}\n\nVendor validator: {}", rule.docs, rule.vendor),
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
        let results = pieces
            .into_iter()
            .filter(|piece| !piece.is_empty())
            .collect::<Vec<_>>()
            .join(",");
        format!(
            "{{\"$schema\":\"{SCHEMA}\",\"version\":\"2.1.0\",\"runs\":[{{\"tool\":{{\"driver\":{driver}}},\"columnKind\":\"utf16CodeUnits\",\"results\":[{results}]}}]}}\n"
        )
    }
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
