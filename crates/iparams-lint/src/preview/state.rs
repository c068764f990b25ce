//! What the page shows, loaded through the workspace: the iparams in file order, the linter's
//! findings on the app (as `iparams-lint --format json APP` gives them), and what the store and
//! invoke endpoints need of the definitions and templates.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use iparams_core::app::requests::Requests;
use iparams_core::app::{Declarations, Declared, Manifest};
use iparams_core::secrets::MASKED_TEXT;
use iparams_core::syntax::{Value, ValueKind, parse_value};
use iparams_core::{Linter, SourceText, Span, pointer};
use serde_json::{Map, Value as Json, json};

use crate::cli::{Format, RuleArgs};
use crate::render::{self, CheckedFile, RenderOptions, Summary};
use crate::workspace::config::{Choices, JobRules};
use crate::workspace::{IPARAMS_FILE, MANIFEST_FILE, PAGE_FILE, Target, Workspace};

/// Where the templates are, relative to the app.
pub const REQUESTS_FILE: &str = "config/requests.json";
/// The callbacks, relative to the app.
pub const SCRIPT_FILE: &str = "config/assets/iparams.js";
/// The files whose edits reload the page.
pub const WATCHED: [&str; 4] = [IPARAMS_FILE, PAGE_FILE, SCRIPT_FILE, REQUESTS_FILE];

/// The app as last read.
#[derive(Debug)]
pub struct Snapshot {
    /// Grows on every reload; the page asks for changes since the one it shows.
    pub version: u64,
    /// The page's data, without the stored values (added per request: they change on store).
    pub page: Json,
    /// The iparams as `JSON.parse` keeps them (each key once, at its first place), as the
    /// server needs them (the page gets every attribute).
    pub defs: Vec<Declared>,
    /// The app writes its own installation page, [`PAGE_FILE`], and has no iparams.json: the
    /// page's keys are those its `postConfigs()` returns.
    pub custom_page: bool,
    /// The keys a custom page stores, when the check could tell every one: what the values it
    /// stores are checked against.
    pub page_keys: Option<Declarations>,
    pub requests: Requests<'static>,
    /// iparams.json as read, for checking values against it.
    pub iparams_text: String,
    /// manifest.json as the core reads it: the platform and `whitelisted-domains`, for the
    /// request API of older apps.
    pub manifest: Option<Manifest>,
    /// What the app was read at, to notice edits.
    pub stamps: Stamps,
}

/// When the app was last read: the modification times of [`WATCHED`] (`None` for a missing
/// one), and how many times an editor's text changed (a language server's preview reads its
/// open documents, which change without the disk).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamps {
    files: Vec<Option<SystemTime>>,
    edits: u64,
}

/// The app the preview serves, and how it is checked.
#[derive(Debug)]
pub struct App {
    pub root: PathBuf,
    pub workspace: Workspace,
    shown: String,
    /// Changes of the editor's text (see [`App::edit`]).
    edits: u64,
}

impl App {
    pub fn new(root: &Path, rules: &RuleArgs) -> Result<Self, String> {
        let workspace = Workspace::new(&Choices::of(rules, &[]))?;
        Ok(Self {
            root: root.to_owned(),
            workspace,
            shown: root.display().to_string(),
            edits: 0,
        })
    }

    /// The app's folder by its own name (`hr-sync` for the app served as `.` from inside it),
    /// the path as given when it cannot be resolved.
    fn name(&self) -> String {
        std::fs::canonicalize(&self.root)
            .ok()
            .and_then(|folder| folder.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| self.shown.clone())
    }

    /// What the app is at now: the watched files' modification times, and the editor's edits.
    pub fn stamps(&self) -> Stamps {
        let files = WATCHED
            .iter()
            .map(|relative| {
                std::fs::metadata(self.root.join(relative))
                    .and_then(|m| m.modified())
                    .ok()
            })
            .collect();
        Stamps {
            files,
            edits: self.edits,
        }
    }

    /// An editor's unsaved text of the file at `path` (`None`: the editor closed it, the disk's
    /// text counts again). The app is read through it from now on, and read again at the next
    /// look for changes, as after a save.
    pub fn edit(&mut self, path: &Path, text: Option<Vec<u8>>) {
        match text {
            Some(text) => self.workspace.overlay(path, text),
            None => self.workspace.remove_overlay(path),
        }
        self.edits += 1;
    }

    /// Reads and checks the app; `version` is the snapshot's.
    pub fn load(&mut self, version: u64) -> Snapshot {
        let stamps = self.stamps();
        let mut notes = Vec::new();
        let settings = self
            .workspace
            .rules_for_app(&self.root)
            .unwrap_or_else(|message| {
                notes.push(message);
                JobRules::default()
            });
        // Checked as every front-end checks an app: with a manifest.json that cannot be read,
        // iparams.json alone, and a note that says so.
        let mut linter = Linter::default();
        let target = Target::App(self.root.clone());
        let checked = self
            .workspace
            .check(&mut linter, &target, &self.shown, &settings);
        notes.extend(checked.errors.iter().cloned());
        // Each finding, with whether it is in iparams.json.
        let mut findings: Vec<(bool, Json)> = Vec::new();
        for verdict in &checked.verdicts {
            let in_iparams = verdict.relative.as_deref() == Some(IPARAMS_FILE);
            let source = checked.source(verdict);
            let found = json_findings(&verdict.shown, source.text(), &verdict.report);
            findings.extend(found.into_iter().map(|finding| (in_iparams, finding)));
        }
        let app = checked.loaded.app().expect("an app's folder loads an app");
        let iparams_shown = app.shown(IPARAMS_FILE);
        let iparams_text = app
            .file(IPARAMS_FILE)
            .map(|file| SourceText::decode(&file.bytes).text().to_owned());

        // What the check would never print of iparams.json (a secure default, a token in a
        // description, a credential as a `data-bind`): the page is output too.
        let hidden = checked
            .verdicts
            .iter()
            .find(|verdict| verdict.relative.as_deref() == Some(IPARAMS_FILE))
            .map(|verdict| verdict.report.redactions.as_slice())
            .unwrap_or_default();

        let custom_page = app.iparams_source().is_page();
        // The templates, the manifest and the declarations as the check read them.
        let summary = checked.summary.as_ref();
        let (iparams, defs, broken) = match &iparams_text {
            None if custom_page => (Json::Null, Vec::new(), false),
            None => {
                notes.push(format!("{iparams_shown} cannot be read"));
                (Json::Null, Vec::new(), true)
            }
            Some(text) => match parse_value(text) {
                (Some(root), errors) if errors.is_empty() => {
                    let declared = summary.map(|summary| summary.declarations.unique());
                    let defs = declared.into_iter().flatten().cloned().collect();
                    (page_list(&root, hidden), defs, false)
                }
                // A syntax error: its finding is shown instead of a form built from a guess.
                _ => (Json::Null, Vec::new(), true),
            },
        };
        // Each finding of iparams.json tied to its iparam, by pointer.
        let findings: Vec<Json> = findings
            .into_iter()
            .map(|(in_iparams, mut finding)| {
                let key = pointer::key_of(finding["pointer"].as_str().unwrap_or(""));
                let at = key.filter(|key| in_iparams && defs.iter().any(|d| d.key == *key));
                finding["key"] = at.map_or(Json::Null, Json::String);
                finding
            })
            .collect();

        let requests = summary
            .and_then(|summary| summary.requests.clone())
            .unwrap_or_default();
        let manifest = app
            .file(MANIFEST_FILE)
            .and(summary)
            .map(|summary| summary.manifest.clone());
        let page_keys = summary
            .map(|summary| summary.declarations.clone())
            .filter(|declarations| custom_page && declarations.complete);
        // A custom page loads its own scripts; the generated one loads the callbacks.
        let script = !custom_page
            && (app.file(SCRIPT_FILE).is_some() || self.root.join(SCRIPT_FILE).is_file());
        let products: Vec<&str> = manifest
            .iter()
            .flat_map(|manifest| &manifest.products)
            .map(|product| product.name.as_str())
            .collect();

        let remote_hosts = summary
            .map(|summary| summary.page_hosts.clone())
            .unwrap_or_default();
        let page = json!({
            "version": version,
            "app": self.shown,
            "app_name": self.name(),
            "iparams": iparams,
            "broken": broken,
            "findings": findings,
            "script": script,
            "custom_page": custom_page.then_some(PAGE_FILE),
            "products": products,
            "remote_hosts": remote_hosts,
            "notes": notes,
        });
        Snapshot {
            version,
            page,
            defs,
            custom_page,
            page_keys,
            requests,
            iparams_text: iparams_text.unwrap_or_default(),
            manifest,
            stamps,
        }
    }
}

/// A file's findings as `--format json` writes them, each with its path.
pub fn json_findings(path: &str, text: &str, report: &iparams_core::FileReport) -> Vec<Json> {
    let renderer = render::renderer(
        Format::Json,
        RenderOptions {
            color: false,
            width: 100,
            quiet: true,
            fail_level: iparams_core::Severity::Error,
            max_diagnostics: None,
        },
    );
    let mut summary = Summary::default();
    summary.add(report);
    let document = render::document(
        renderer.as_ref(),
        &CheckedFile::new(path, text, report),
        &summary,
    );
    let parsed: Json = serde_json::from_str(&document).unwrap_or(Json::Null);
    parsed["files"][0]["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .map(|mut diagnostic| {
            diagnostic["path"] = json!(path);
            diagnostic
        })
        .collect()
}

/// The page's list of iparams: each key once as `JSON.parse` keeps it (the last member, at the
/// place of the first), with every attribute and the regex entries in file order, and what lies
/// in the `hidden` spans masked.
fn page_list(root: &Value<'_>, hidden: &[Span]) -> Json {
    let Some(members) = root.as_object() else {
        return json!([]);
    };
    let mut order: Vec<&str> = Vec::new();
    for member in members {
        if !order.contains(&member.key.text.as_ref()) {
            order.push(&member.key.text);
        }
    }
    let mut page = Vec::new();
    for key in order {
        let Some(member) = members.iter().rev().find(|m| m.key.text == key) else {
            continue;
        };
        let mut attributes = match to_json(&member.value, hidden) {
            Json::Object(map) => map,
            _ => Map::new(),
        };
        // The regex entries in file order: the pattern and message lists follow it.
        if let Some(regex) = member
            .value
            .as_object()
            .and_then(|attrs| attrs.iter().rev().find(|a| a.key.text == "regex"))
            .and_then(|a| a.value.as_object())
        {
            let entries: Vec<Json> = regex
                .iter()
                .map(|entry| json!([entry.key.text, to_json(&entry.value, hidden)]))
                .collect();
            attributes.insert("regex".into(), Json::Array(entries));
        }
        attributes.insert("key".into(), json!(key));
        page.push(Json::Object(attributes));
    }
    Json::Array(page)
}

/// A parsed value as serde_json's (objects keep the last of duplicate keys), with what lies in
/// the `hidden` spans masked.
fn to_json(value: &Value<'_>, hidden: &[Span]) -> Json {
    let overlaps = |span: Span| {
        hidden
            .iter()
            .any(|h| h.start < span.end && span.start < h.end)
    };
    match &value.kind {
        ValueKind::String(text) => Json::String(shown_string(text, value.span, hidden)),
        ValueKind::Array(items) => Json::Array(items.iter().map(|v| to_json(v, hidden)).collect()),
        ValueKind::Object(members) => Json::Object(
            members
                .iter()
                .map(|m| (m.key.text.to_string(), to_json(&m.value, hidden)))
                .collect(),
        ),
        _ if overlaps(value.span) => json!(MASKED_TEXT),
        ValueKind::Null => Json::Null,
        ValueKind::Bool(b) => Json::Bool(*b),
        ValueKind::Number(text) => serde_json::from_str(text).unwrap_or(Json::Null),
    }
}

/// A string value of the file at `span` (quotes included), its hidden parts masked: only the
/// token inside a description, so that the rest stays readable; the whole string when escapes
/// make its text and its source differ.
fn shown_string(text: &str, span: Span, hidden: &[Span]) -> String {
    let inner = Span::new(span.start + 1, span.end.saturating_sub(1));
    let mut parts: Vec<Span> = hidden
        .iter()
        .filter(|h| h.start < span.end && span.start < h.end)
        .map(|h| Span::new(h.start.max(inner.start), h.end.min(inner.end)))
        .collect();
    if parts.is_empty() {
        return text.to_owned();
    }
    let plain = inner.end - inner.start == text.len();
    let cuts_clean = |p: &Span| {
        p.start < p.end
            && text.is_char_boundary(p.start - inner.start)
            && text.is_char_boundary(p.end - inner.start)
    };
    if !plain || !parts.iter().all(cuts_clean) {
        return MASKED_TEXT.to_owned();
    }
    parts.sort_unstable();
    let mut shown = String::with_capacity(text.len());
    let mut at = 0;
    for part in parts {
        let (start, end) = (part.start - inner.start, part.end - inner.start);
        if start >= at {
            shown.push_str(&text[at..start]);
            shown.push_str(MASKED_TEXT);
        }
        at = at.max(end);
    }
    shown.push_str(&text[at..]);
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_list_keeps_file_order_and_regex_order() {
        let text = r#"{"z": {"type": "text", "regex": {"b": "x", "a": "y"}}, "a": {"type": "api_key", "secure": true}, "z": {"type": "text", "regex": {"b": "x", "a": "y"}}}"#;
        let (root, _) = parse_value(text);
        let page = page_list(&root.expect("an object"), &[]);
        assert_eq!(page.as_array().map(Vec::len), Some(2));
        assert_eq!(page[0]["key"], "z");
        assert_eq!(page[0]["regex"], json!([["b", "x"], ["a", "y"]]));
        assert_eq!(page[1]["secure"], true);
    }

    #[test]
    fn hidden_parts_of_the_file_are_masked_in_the_page_list() {
        let text =
            r#"{"a": {"display_name": "Key ab12 here", "secure": true, "default_value": 4821}}"#;
        let (root, _) = parse_value(text);
        let token = text.find("ab12").expect("the token");
        let pin = text.find("4821").expect("the default");
        let hidden = [Span::new(token, token + 4), Span::new(pin, pin + 4)];
        let page = page_list(&root.expect("an object"), &hidden);
        assert_eq!(page[0]["display_name"], "Key ******** here");
        assert_eq!(page[0]["default_value"], MASKED_TEXT);
        assert_eq!(page[0]["secure"], true);
        // A string whose escapes move its text from its source is masked whole.
        let text = r#"{"a": {"display_name": "\u0041 ab12"}}"#;
        let (root, _) = parse_value(text);
        let token = text.find("ab12").expect("the token");
        let page = page_list(&root.expect("an object"), &[Span::new(token, token + 4)]);
        assert_eq!(page[0]["display_name"], MASKED_TEXT);
    }
}
