//! Code actions: a quick fix per fix of a finding (safe ones preferred, unsafe ones labelled
//! and never preferred), `source.fixAll.iparams-lint` with the safe fixes as `--fix` applies
//! them (`Linter::fix_in`), and turning a finding off in `.iparams-lint.toml` with a
//! `"path#/pointer"` override (JSON has no comments to do it in the file).

use std::path::PathBuf;
use std::time::Duration;

use iparams_core::{Applicability, Diagnostic, Edit, SourceText};
use lsp_types::{CodeActionKind, CodeActionParams, Uri};
use serde_json::{Value, json};

use super::diagnostics::{self, Definitions};
use super::documents::{Document, Place};
use super::locations::uri_of;
use super::positions::{Cursor, LineMap};
use super::preview;
use super::state::State;
use crate::workspace::IPARAMS_FILE;
use crate::workspace::config::{self, FILE_NAME};

/// The kind of the action that applies every safe fix.
pub const FIX_ALL: &str = "source.fixAll.iparams-lint";

pub fn code_actions(state: &mut State, params: CodeActionParams) -> Value {
    let uri = params.text_document.uri;
    let Some(document) = state.documents.get(&uri) else {
        return json!([]);
    };
    let only: Option<Vec<String>> = params
        .context
        .only
        .map(|kinds| kinds.into_iter().map(|kind| kind_name(&kind)).collect());
    let wants = |kind: &str| {
        only.as_ref().is_none_or(|only| {
            only.iter()
                .any(|o| kind == o || kind.starts_with(&format!("{o}.")))
        })
    };
    let (start, end) = document
        .lines
        .span(&document.text, params.range, state.encoding);
    let mut actions = Vec::new();
    if wants("quickfix") {
        let secrets = document.report.secret_texts(&document.text);
        let mut cursor = Cursor::new(&document.text, &document.lines, state.encoding);
        for d in &document.report.diagnostics {
            if !(d.span.start <= end && start <= d.span.end) {
                continue;
            }
            let lsp = diagnostics::one(d, &uri, &mut cursor, &Definitions::default(), state);
            // A fix that would write a secret back is not shown (as in SARIF output): its
            // text would go over the protocol.
            let fix = d.fix.as_deref().filter(|fix| {
                !fix.edits
                    .iter()
                    .any(|edit| secrets.iter().any(|s| edit.replacement.contains(s)))
            });
            if let Some(fix) = fix {
                let safe = fix.applicability == Applicability::Safe;
                let title = if safe {
                    fix.title.clone()
                } else {
                    format!("{} (unsafe)", fix.title)
                };
                let edits: Vec<&Edit> = fix.edits.iter().collect();
                actions.push(json!({
                    "title": title,
                    "kind": "quickfix",
                    "diagnostics": [lsp],
                    "isPreferred": safe,
                    "edit": document_edit(&uri, document, &edits, state),
                }));
            }
            if let Some(action) = turn_off(state, document, d, lsp) {
                actions.push(action);
            }
        }
    }
    let preview = wants(preview::PREVIEW_ACTION)
        .then(|| preview::action(&uri, document))
        .flatten();
    if wants(FIX_ALL)
        && let Some(action) = fix_all(state, &uri)
    {
        actions.push(action);
    }
    actions.extend(preview);
    Value::Array(actions)
}

fn kind_name(kind: &CodeActionKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(ToOwned::to_owned))
        .unwrap_or_default()
}

/// A workspace edit of the open document, tied to its version so a stale edit is refused.
fn document_edit(uri: &Uri, document: &Document, edits: &[&Edit], state: &State) -> Value {
    let mut sorted: Vec<&&Edit> = edits.iter().collect();
    sorted.sort_by_key(|edit| (edit.span.start, edit.span.end));
    let mut cursor = Cursor::new(&document.text, &document.lines, state.encoding);
    let edits: Vec<Value> = sorted
        .into_iter()
        .map(|edit| {
            json!({
                "range": cursor.range(edit.span.start, edit.span.end),
                "newText": edit.replacement,
            })
        })
        .collect();
    json!({
        "documentChanges": [{
            "textDocument": { "uri": uri, "version": document.version },
            "edits": edits,
        }]
    })
}

/// Every safe fix, as `--fix` applies them: iparams.json only (with the app's facts when it is
/// in an app), and only while the file is well-formed.
fn fix_all(state: &mut State, uri: &Uri) -> Option<Value> {
    let document = state.documents.get(uri)?;
    if !document.is_iparams()
        || !document.report.diagnostics.iter().any(|d| {
            d.fix
                .as_ref()
                .is_some_and(|fix| fix.applicability == Applicability::Safe)
        })
    {
        return None;
    }
    let location = match &document.place {
        Place::App { root, .. } => Some(root.clone()),
        _ => document.path(),
    };
    let settings = match location {
        Some(location) => diagnostics::job_for(state, &location)?
            .settings
            .main()
            .clone(),
        None => iparams_core::RuleSettings::default(),
    };
    let document = state.documents.get(uri)?;
    let source = SourceText::decode(document.text.as_bytes());
    let facts = match &document.place {
        Place::App { root, .. } => {
            let app = state.workspace.load_app(root, &root.display().to_string());
            app.input().map(|input| input.facts())
        }
        _ => None,
    };
    let outcome = state
        .linter
        .fix_in(&source, &settings, Applicability::Safe, facts.as_ref());
    let fixed = outcome.text.as_deref()?;
    let edits = match outcome.passes.as_slice() {
        [only] => only.clone(),
        _ => differences(&document.text, fixed),
    };
    let secrets = document.report.secret_texts(&document.text);
    if edits
        .iter()
        .any(|edit| secrets.iter().any(|s| edit.replacement.contains(s)))
    {
        return None;
    }
    let edits: Vec<&Edit> = edits.iter().collect();
    Some(json!({
        "title": format!("Fix {} with iparams-lint", crate::render::plural(outcome.fixed, "problem")),
        "kind": FIX_ALL,
        "edit": document_edit(uri, document, &edits, state),
    }))
}

/// The edits from `old` to `new`, character by character (when fixes took several passes,
/// their edits are in the coordinates of different texts).
fn differences(old: &str, new: &str) -> Vec<Edit> {
    let diff = similar::TextDiff::configure()
        .timeout(Duration::from_millis(500))
        .diff_chars(old, new);
    // Byte offsets of each character of `old`, and of its end.
    let offsets: Vec<usize> = old
        .char_indices()
        .map(|(at, _)| at)
        .chain([old.len()])
        .collect();
    let new_offsets: Vec<usize> = new
        .char_indices()
        .map(|(at, _)| at)
        .chain([new.len()])
        .collect();
    let mut edits: Vec<Edit> = Vec::new();
    for op in diff.ops() {
        let (old_range, new_range) = (op.old_range(), op.new_range());
        if matches!(op.tag(), similar::DiffTag::Equal) {
            continue;
        }
        let span = iparams_core::Span::new(offsets[old_range.start], offsets[old_range.end]);
        let text = &new[new_offsets[new_range.start]..new_offsets[new_range.end]];
        match edits.last_mut() {
            Some(last) if last.span.end == span.start => {
                last.span.end = span.end;
                last.replacement.push_str(text);
            }
            _ => edits.push(Edit::replace(span, text)),
        }
    }
    edits
}

/// The file whose rule levels apply to a document: the app's iparams.json (the command sets
/// one app's levels from it), or the file itself.
fn settings_location(document: &Document) -> Option<(PathBuf, PathBuf)> {
    match &document.place {
        Place::App { root, .. } => Some((root.join(IPARAMS_FILE), root.clone())),
        // Beside the app-like folder that holds config/iparams.json, else beside the file.
        Place::Alone(path) => {
            let folder = path.parent()?;
            let home = match folder.file_name() {
                Some(name) if name == "config" => folder.parent().unwrap_or(folder),
                _ => folder,
            };
            Some((path.clone(), home.to_owned()))
        }
        Place::Virtual => None,
    }
}

/// "Turn off <rule> here": an override for the finding's JSON pointer (the whole app or file
/// when the finding has none) in the nearest `.iparams-lint.toml`, created beside the app when
/// there is none.
fn turn_off(state: &State, document: &Document, d: &Diagnostic, lsp: Value) -> Option<Value> {
    let (location, home) = settings_location(document)?;
    let config_path = config::find(location.parent()?).unwrap_or_else(|| home.join(FILE_NAME));
    let folder = config_path.parent()?;
    let relative = std::path::absolute(&location)
        .ok()?
        .strip_prefix(std::path::absolute(folder).ok()?)
        .ok()?
        .to_string_lossy()
        .replace('\\', "/");
    let glob = escape_glob(&relative);
    let (key, title) = if d.pointer.is_empty() {
        let whole = if matches!(document.place, Place::App { .. }) {
            "in this app"
        } else {
            "in this file"
        };
        (glob, format!("Turn off {} {whole}", d.rule))
    } else {
        (
            format!("{glob}#{}", d.pointer),
            format!("Turn off {} here ({})", d.rule, d.pointer),
        )
    };
    let config_uri = uri_of(&config_path)?;
    let quoted = toml::Value::String(key).to_string();
    let edit = match crate::read::read_text(&config_path) {
        Ok(text) => {
            let (offset, insert) = override_insertion(&text, &quoted, d.rule)?;
            let lines = LineMap::new(&text);
            let at = lines.position(&text, offset, state.encoding);
            json!({ "documentChanges": [{
                "textDocument": { "uri": config_uri, "version": null },
                "edits": [{ "range": { "start": at, "end": at }, "newText": insert }],
            }] })
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            let text = format!("[overrides]\n{quoted} = {{ {} = \"off\" }}\n", d.rule);
            let at = json!({ "line": 0, "character": 0 });
            json!({ "documentChanges": [
                { "kind": "create", "uri": config_uri, "options": { "ignoreIfExists": true } },
                { "textDocument": { "uri": config_uri, "version": null },
                  "edits": [{ "range": { "start": at, "end": at }, "newText": text }] },
            ] })
        }
        // A configuration that cannot be read (a FIFO, a device, over the limit) is not edited.
        Err(_) => return None,
    };
    Some(json!({
        "title": title,
        "kind": "quickfix",
        "diagnostics": [lsp],
        "isPreferred": false,
        "edit": edit,
    }))
}

/// Where and what to insert in an existing configuration `text` to turn `rule` off for the
/// override key `quoted`: into that key's inline table when it has one, else a new line under
/// `[overrides]`, else a new `[overrides]` table at the end. `None` when the rule is already
/// listed there.
fn override_insertion(text: &str, quoted: &str, rule: &str) -> Option<(usize, String)> {
    let mut offset = 0;
    let mut overrides_end = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix(quoted) {
            let rest = rest.trim_start();
            if let Some(table) = rest.strip_prefix('=').map(str::trim_start)
                && table.starts_with('{')
            {
                if table.contains(&format!("{rule} ")) || table.contains(&format!("{rule}=")) {
                    return None;
                }
                let brace = offset + line.find('{')?;
                return Some((brace + 1, format!(" {rule} = \"off\",")));
            }
        }
        if trimmed == "[overrides]" {
            overrides_end = Some(offset + line.len());
        }
        offset += line.len();
    }
    let entry = format!("{quoted} = {{ {rule} = \"off\" }}\n");
    Some(match overrides_end {
        Some(at) if text[..at].ends_with('\n') => (at, entry),
        Some(at) => (at, format!("\n{entry}")),
        None => {
            let before = if text.is_empty() || text.ends_with('\n') {
                ""
            } else {
                "\n"
            };
            let gap = if text.trim().is_empty() { "" } else { "\n" };
            (text.len(), format!("{before}{gap}[overrides]\n{entry}"))
        }
    })
}

/// `path` as a glob that matches only itself.
fn escape_glob(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | '\\') {
            out.push('[');
            out.push(c);
            out.push(']');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_go_into_the_existing_table_or_a_new_one() {
        let key = "\"config/iparams.json#/a\"";
        assert_eq!(
            override_insertion("", key, "r"),
            Some((
                0,
                "[overrides]\n\"config/iparams.json#/a\" = { r = \"off\" }\n".into()
            ))
        );
        let text = "[rules]\nx = \"off\"";
        let (at, insert) = override_insertion(text, key, "r").unwrap();
        assert_eq!(at, text.len());
        assert_eq!(
            insert,
            "\n\n[overrides]\n\"config/iparams.json#/a\" = { r = \"off\" }\n"
        );
        let text = "[overrides]\n\"other\" = { y = \"off\" }\n";
        assert_eq!(
            override_insertion(text, key, "r"),
            Some((12, "\"config/iparams.json#/a\" = { r = \"off\" }\n".into()))
        );
        let text = "[overrides]\n\"config/iparams.json#/a\" = { y = \"off\" }\n";
        let (at, insert) = override_insertion(text, key, "r").unwrap();
        let mut edited = text.to_owned();
        edited.insert_str(at, &insert);
        assert_eq!(
            edited,
            "[overrides]\n\"config/iparams.json#/a\" = { r = \"off\", y = \"off\" }\n"
        );
        assert_eq!(override_insertion(&edited, key, "r"), None);
    }

    #[test]
    fn fix_passes_become_character_edits() {
        let old = "{\"a\": \"Text\", \"b\": \"true\"}";
        let new = "{\"a\": \"text\", \"b\": true}";
        let edits = differences(old, new);
        let refs: Vec<&Edit> = edits.iter().collect();
        let mut out = String::new();
        let mut at = 0;
        for edit in refs {
            out.push_str(&old[at..edit.span.start]);
            out.push_str(&edit.replacement);
            at = edit.span.end;
        }
        out.push_str(&old[at..]);
        assert_eq!(out, new);
        assert!(edits.len() >= 2, "{edits:?}");
    }

    #[test]
    fn globs_match_only_the_path() {
        assert_eq!(
            escape_glob("apps/a*b/config/iparams.json"),
            "apps/a[*]b/config/iparams.json"
        );
    }
}
