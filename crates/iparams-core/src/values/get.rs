//! What `client.iparams.get()` would return for a set of values, so a developer sees what the
//! app's front end will and will not receive.

use super::answers::last_values;
use super::definitions::{Definitions, read_definitions};
use crate::edits::json_string;
use crate::secrets::{self, MASKED};
use crate::source::SourceText;
use crate::syntax::{Value, ValueKind, parse_value};

/// The object `client.iparams.get()` resolves to, and what it leaves out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GetPreview {
    /// The object as JSON, its members in the order of the definitions.
    pub json: String,
    /// Secure iparams, left out: only the request method can use them.
    pub secure: Vec<String>,
    /// Iparams with no value in the file (absent or `null`), left out.
    pub unset: Vec<String>,
    /// Iparams in the object whose values look secret (their key names a secret, or the value
    /// is shaped like a credential) although they are not secure: the front end receives
    /// them, but they are masked here.
    pub masked: Vec<String>,
    /// Keys of the values file that name no iparam, left out.
    pub unknown: Vec<String>,
}

/// The object `client.iparams.get()` would resolve to for `values`: every iparam with a value,
/// secure iparams excluded, as the format specifies. `Err` says why it cannot be known.
pub fn preview_get(
    definitions: Definitions<'_>,
    values: &SourceText<'_>,
) -> Result<GetPreview, String> {
    let named = match definitions {
        Definitions::Json { .. } => "iparams.json",
        Definitions::Page(_) => "config/iparams.html",
    };
    let read = read_definitions(definitions)
        .map_err(|unusable| format!("{named}: {}", unusable.problem))?;
    if values.is_unreadable() {
        return Err("the values file is UTF-16, not UTF-8".into());
    }
    let (root, errors) = parse_value(values.text());
    if !errors.is_empty() {
        return Err("the values file is not valid JSON".into());
    }
    let Some(members) = root.as_ref().and_then(Value::as_object) else {
        return Err("the values file is not a JSON object".into());
    };
    let iparams = read.iparams();
    let given = last_values(members);
    let mut preview = GetPreview {
        json: String::new(),
        secure: Vec::new(),
        unset: Vec::new(),
        masked: Vec::new(),
        unknown: Vec::new(),
    };
    let mut entries = Vec::new();
    for iparam in &iparams {
        let key = iparam.key().to_owned();
        let value = given
            .get(key.as_str())
            .map(|member| &member.value)
            .filter(|value| !matches!(value.kind, ValueKind::Null));
        let Some(value) = value else {
            preview.unset.push(key);
            continue;
        };
        if iparam.is_secure() {
            preview.secure.push(key);
            continue;
        }
        let mut credential = false;
        value.walk_strings(&mut |text, _| credential |= secrets::looks_secret(text));
        let shown = if iparam.is_secret() || credential {
            preview.masked.push(key.clone());
            MASKED.to_owned()
        } else {
            let mut out = String::new();
            write_json(value, &mut out);
            out
        };
        entries.push(format!("  {}: {shown}", json_string(&key)));
    }
    for member in members {
        let key = member.key.text.to_string();
        if !iparams.iter().any(|iparam| iparam.key() == key) && !preview.unknown.contains(&key) {
            preview.unknown.push(key);
        }
    }
    preview.json = if entries.is_empty() {
        "{}\n".to_owned()
    } else {
        format!("{{\n{}\n}}\n", entries.join(",\n"))
    };
    Ok(preview)
}

/// `value` as compact JSON (`["a", "b"]`), its numbers as written.
fn write_json(value: &Value<'_>, out: &mut String) {
    match &value.kind {
        ValueKind::Null => out.push_str("null"),
        ValueKind::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        ValueKind::Number(raw) => out.push_str(raw),
        ValueKind::String(text) => out.push_str(&json_string(text)),
        ValueKind::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                write_json(item, out);
            }
            out.push(']');
        }
        ValueKind::Object(members) => {
            out.push('{');
            for (index, member) in members.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                out.push_str(&json_string(&member.key.text));
                out.push_str(": ");
                write_json(&member.value, out);
            }
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFINITIONS: &str = r#"{
  "domain": {"display_name": "Domain", "type": "text"},
  "api_key": {"display_name": "API key", "type": "text", "secure": true},
  "token": {"display_name": "Token", "type": "text"},
  "teams": {"display_name": "Teams", "type": "multiselect", "options": ["a", "b"], "default_value": ["a"]},
  "notes": {"display_name": "Notes", "type": "paragraph"}
}"#;

    fn preview(values: &str) -> Result<GetPreview, String> {
        let source = SourceText::decode(DEFINITIONS.as_bytes());
        let definitions = Definitions::Json {
            source: &source,
            path: "config/iparams.json",
        };
        preview_get(definitions, &SourceText::decode(values.as_bytes()))
    }

    #[test]
    fn secure_iparams_are_left_out_and_secrets_masked() {
        let got = preview(
            r#"{"teams": ["b", "a"], "api_key": "k-1", "token": "t-1", "domain": "acme\n", "extra": 1}"#,
        )
        .expect("a preview");
        assert_eq!(
            got.json,
            "{\n  \"domain\": \"acme\\n\",\n  \"token\": \"********\",\n  \"teams\": [\"b\", \"a\"]\n}\n"
        );
        assert_eq!(got.secure, ["api_key"]);
        assert_eq!(got.masked, ["token"]);
        assert_eq!(got.unset, ["notes"]);
        assert_eq!(got.unknown, ["extra"]);
    }

    #[test]
    fn nothing_is_guessed_from_broken_files() {
        assert_eq!(
            preview(r#"{"domain": "a",}"#),
            Err("the values file is not valid JSON".to_owned())
        );
        assert_eq!(
            preview("[]"),
            Err("the values file is not a JSON object".to_owned())
        );
        assert_eq!(preview("{}").map(|p| p.json), Ok("{}\n".to_owned()));
    }
}
