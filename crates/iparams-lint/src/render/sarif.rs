//! `--format sarif`: SARIF 2.1.0, read by code-scanning services (GitHub code scanning, GitLab,
//! Azure DevOps). Its rule table comes from the rule registry; columns are counted in UTF-16
//! code units, SARIF's default.

use std::io::{self, Write};
use std::sync::LazyLock;

use iparams_core::syntax::write_string;
use iparams_core::{Applicability, Diagnostic, LineCursor, REGISTRY, Severity, Span};
use serde_json::{Value, json};

use super::{BLOCK, CheckedFile, Renderer, Summary, room_for, write_decimal};

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
    /// Each finding as serde_json writes its `json!` object, keys in sorted order, but written
    /// directly: building the object cost more than the rest of a finding.
    fn file(&self, file: &CheckedFile<'_>, out: &mut dyn Write) -> io::Result<()> {
        let mut cursor = LineCursor::new(file.text);
        let uri = uri(file.path);
        let secrets = file.report.secret_texts(file.text);
        let mut buffer = Vec::with_capacity(room_for(file.report.diagnostics.len()));
        let mut first = true;
        for d in &file.report.diagnostics {
            {
                if !std::mem::take(&mut first) {
                    buffer.push(b',');
                }
                result(&mut buffer, d, &uri, &mut cursor, &secrets);
                if buffer.len() >= BLOCK {
                    out.write_all(&buffer)?;
                    buffer.clear();
                }
            }
        }
        out.write_all(&buffer)
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
fn result(
    buffer: &mut Vec<u8>,
    d: &Diagnostic,
    uri: &str,
    cursor: &mut LineCursor<'_>,
    secrets: &[&str],
) {
    buffer.push(b'{');
    // A fix that would write a secret back (wrapping a secure default in an array)
    // is not shown: its safety says it can still be applied with --fix.
    let shown_fix = d.fix.as_deref().filter(|fix| {
        !fix.edits.iter().any(|edit| {
            secrets
                .iter()
                .any(|secret| edit.replacement.contains(secret))
        })
    });
    if let Some(fix) = shown_fix {
        buffer.extend_from_slice(b"\"fixes\":[{\"artifactChanges\":[{");
        artifact_location(buffer, uri);
        buffer.extend_from_slice(b",\"replacements\":[");
        for (index, edit) in fix.edits.iter().enumerate() {
            if index > 0 {
                buffer.push(b',');
            }
            buffer.extend_from_slice(b"{\"deletedRegion\":{\"byteLength\":");
            write_decimal(buffer, edit.span.len());
            buffer.extend_from_slice(b",\"byteOffset\":");
            write_decimal(buffer, edit.span.start);
            buffer.extend_from_slice(b"},\"insertedContent\":");
            text_object(buffer, &edit.replacement);
            buffer.push(b'}');
        }
        buffer.extend_from_slice(b"]}],\"description\":");
        text_object(buffer, &fix.title);
        buffer.extend_from_slice(b"}],");
    }
    buffer.extend_from_slice(b"\"level\":");
    write_string(buffer, level(d.severity));
    buffer.extend_from_slice(b",\"locations\":[{\"logicalLocations\":[{\"fullyQualifiedName\":");
    write_string(buffer, &d.pointer);
    buffer.extend_from_slice(b",\"kind\":\"member\"}],");
    physical_location(buffer, uri, cursor, d.span);
    buffer.extend_from_slice(b"}],\"message\":");
    match &d.help {
        Some(help) => text_object(buffer, &format!("{}\n{help}", d.message)),
        None => text_object(buffer, &d.message),
    }
    if let Some(fix) = &d.fix {
        buffer.extend_from_slice(b",\"properties\":{\"fixSafety\":");
        write_string(buffer, safety(fix.applicability));
        buffer.push(b'}');
    }
    if !d.related.is_empty() {
        buffer.extend_from_slice(b",\"relatedLocations\":[");
        for (id, label) in d.related.iter().enumerate() {
            if id > 0 {
                buffer.push(b',');
            }
            buffer.extend_from_slice(b"{\"id\":");
            write_decimal(buffer, id);
            buffer.extend_from_slice(b",\"message\":");
            text_object(buffer, &label.message);
            buffer.push(b',');
            physical_location(buffer, uri, cursor, label.span);
            buffer.push(b'}');
        }
        buffer.push(b']');
    }
    buffer.extend_from_slice(b",\"ruleId\":");
    write_string(buffer, d.rule);
    buffer.extend_from_slice(b",\"ruleIndex\":");
    // `values --verify` findings carry a rule outside the table: -1, SARIF's "none".
    match REGISTRY.iter().position(|rule| rule.name == d.rule) {
        Some(rule_index) => write_decimal(buffer, rule_index),
        None => buffer.extend_from_slice(b"-1"),
    }
    buffer.push(b'}');
}

/// `{"text":…}`.
fn text_object(buffer: &mut Vec<u8>, text: &str) {
    buffer.extend_from_slice(b"{\"text\":");
    write_string(buffer, text);
    buffer.push(b'}');
}

/// `"artifactLocation":{"uri":…}`.
fn artifact_location(buffer: &mut Vec<u8>, uri: &str) {
    buffer.extend_from_slice(b"\"artifactLocation\":{\"uri\":");
    write_string(buffer, uri);
    buffer.push(b'}');
}

/// `"physicalLocation":{…}` of `span`, its lines and UTF-16 columns from `cursor`.
fn physical_location(buffer: &mut Vec<u8>, uri: &str, cursor: &mut LineCursor<'_>, span: Span) {
    // In the order the cursor was asked before (it walks forward), written in sorted order.
    let start_line = cursor.position(span.start).line;
    let start_column = cursor.utf16_column(span.start);
    let end_line = cursor.position(span.end).line;
    let end_column = cursor.utf16_column(span.end);
    buffer.extend_from_slice(b"\"physicalLocation\":{");
    artifact_location(buffer, uri);
    buffer.extend_from_slice(b",\"region\":{\"byteLength\":");
    write_decimal(buffer, span.len());
    buffer.extend_from_slice(b",\"byteOffset\":");
    write_decimal(buffer, span.start);
    for (key, value) in [
        (&b",\"endColumn\":"[..], end_column),
        (b",\"endLine\":", end_line),
        (b",\"startColumn\":", start_column),
        (b",\"startLine\":", start_line),
    ] {
        buffer.extend_from_slice(key);
        write_decimal(buffer, value);
    }
    buffer.extend_from_slice(b"}}");
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
