//! Checking documents and publishing their findings. Each app is checked as the command checks
//! it (the workspace's plan, `load_app` through the editor's overlays, `Linter::check_app`), so
//! the findings are those of `iparams-lint --format json` for the same text; every open file
//! of a checked app gets its findings again, so an edit to iparams.json shows at once in the
//! scripts that read it. A finding about a file the app lacks shows in its manifest.json.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use iparams_core::{Diagnostic, FileReport, RuleSettings, Severity, SourceText, Span};
use lsp_server::{Message, Notification};
use lsp_types::Uri;
use serde_json::{Value, json};

use super::documents::{Document, Place};
use super::index::AppIndex;
use super::keys::Named;
use super::locations::location;
use super::positions::Cursor;
use super::state::State;
use crate::workspace::config::{self, JobRules};
use crate::workspace::{Job, MANIFEST_FILE, Plan, Target};

/// What the diagnostics say they come from.
pub const SOURCE: &str = "iparams-lint";

/// Checks the documents `dirty` (each app once, with all its open files), and returns the
/// notifications that publish what was found, closed documents' empty lists included.
pub fn check(state: &mut State, dirty: &BTreeSet<Uri>) -> Vec<Message> {
    let mut messages: Vec<Message> = std::mem::take(&mut state.closed)
        .into_iter()
        .map(|uri| publish(&uri, None, Vec::new()))
        .collect();
    let mut apps: BTreeSet<PathBuf> = BTreeSet::new();
    let mut published: BTreeSet<Uri> = BTreeSet::new();
    for uri in dirty {
        let Some(document) = state.documents.get(uri) else {
            continue;
        };
        match document.place.clone() {
            Place::App { root, .. } => {
                if apps.insert(root.clone()) {
                    published.extend(check_app(state, &root));
                }
            }
            Place::Alone(path) => {
                let report = check_alone(state, uri, Some(&path));
                store(state, uri, report);
                published.insert(uri.clone());
            }
            Place::Virtual => {
                let report = check_alone(state, uri, None);
                store(state, uri, report);
                published.insert(uri.clone());
            }
        }
    }
    for uri in &published {
        if let Some(document) = state.documents.get(uri) {
            let diagnostics = to_lsp(state, uri, document);
            messages.push(publish(uri, Some(document.version), diagnostics));
        }
    }
    messages
}

fn publish(uri: &Uri, version: Option<i32>, diagnostics: Vec<Value>) -> Message {
    // Built in place: `json!` and `Notification::new` would each copy the whole list again,
    // which for a large file's thousands of findings costs more than checking it.
    let mut params = serde_json::Map::new();
    params.insert("uri".into(), Value::String(uri.to_string()));
    if let Some(version) = version {
        params.insert("version".into(), Value::from(version));
    }
    params.insert("diagnostics".into(), Value::Array(diagnostics));
    Notification {
        method: "textDocument/publishDiagnostics".into(),
        params: Value::Object(params),
    }
    .into()
}

fn store(state: &mut State, uri: &Uri, report: FileReport) {
    if let Some(document) = state.documents.get_mut(uri) {
        document.checked_version = Some(document.version);
        document.report = report;
    }
}

/// The job the command would run for `location` (an app's folder, or a file): its rule levels,
/// or `None` when configuration ignores it. A configuration that cannot be read is told to
/// the user, and the defaults apply meanwhile.
pub fn job_for(state: &mut State, location: &Path) -> Option<Job> {
    refresh_configuration(state, location);
    let plan = match state.workspace.plan(&[location.to_owned()], None) {
        Ok(plan) => plan,
        Err(message) => {
            state.notes.push(format!(
                "iparams-lint: {message}; the default rule levels apply until it is fixed"
            ));
            Plan {
                jobs: vec![Job {
                    target: Target::File(location.to_owned()),
                    shown: location.display().to_string(),
                    settings: JobRules::default(),
                }],
                ..Plan::default()
            }
        }
    };
    plan.jobs.into_iter().next()
}

/// Reads configuration again when the file that applies to `location` changed since the last
/// check there (edited, created or removed), whether or not the editor said so.
fn refresh_configuration(state: &mut State, location: &Path) {
    // An app's levels are those of its iparams.json, whose folder the search starts from.
    let folder = if location.is_dir() {
        location.join("config")
    } else {
        location.parent().unwrap_or(location).to_owned()
    };
    let current = config::find(&folder).map(|path| {
        let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        (path, modified)
    });
    match state.configs.get(&folder) {
        Some(seen) if *seen == current => {}
        Some(_) => {
            state.workspace.forget_configuration();
            state.configs.clear();
            state.configs.insert(folder, current);
        }
        None => {
            state.configs.insert(folder, current);
        }
    }
}

/// Checks the app in `root` with the open documents' text; stores each open file's findings
/// and the app's new index, and returns their URIs.
fn check_app(state: &mut State, root: &Path) -> Vec<Uri> {
    // Gone before anything else, so that no answer comes from the text before this check
    // (when configuration leaves the app unchecked, or the check fails, the next request
    // loads the app again).
    state.indexes.forget(root);
    let open: Vec<(Uri, String)> = state
        .documents
        .iter()
        .filter_map(|(uri, document)| match &document.place {
            Place::App { root: r, relative } if r == root => Some((uri.clone(), relative.clone())),
            _ => None,
        })
        .collect();
    let mut reports: Vec<FileReport> = vec![FileReport::default(); open.len()];
    if let Some(job) = job_for(state, root) {
        let checked =
            state
                .workspace
                .check(&mut state.linter, &job.target, &job.shown, &job.settings);
        let notes = checked
            .errors
            .iter()
            .map(|error| format!("iparams-lint: {error}"));
        state.notes.extend(notes);
        if let Some(app) = checked.loaded.app() {
            let index = AppIndex::build(app, checked.summary.as_ref());
            state.indexes.checked(root, index);
        }
        let mut lacking = Vec::new();
        for verdict in checked.verdicts {
            let found = open
                .iter()
                .position(|(_, relative)| verdict.relative.as_ref() == Some(relative));
            let findings = !verdict.report.diagnostics.is_empty();
            match (found, &verdict.relative) {
                (Some(index), _) => reports[index] = verdict.report,
                // Only a file with findings is looked for on disk: each edit checks the app
                // again, and most of its files have none.
                (None, Some(relative)) if findings && !root.join(relative).exists() => {
                    lacking.extend(verdict.report.diagnostics);
                }
                (None, _) => {}
            }
        }
        let manifest = open
            .iter()
            .position(|(_, relative)| relative == MANIFEST_FILE);
        if let Some(index) = manifest {
            reports[index]
                .diagnostics
                .extend(lacking.into_iter().map(at_the_top));
        }
    }
    for ((uri, _), report) in open.iter().zip(reports) {
        store(state, uri, report);
    }
    open.into_iter().map(|(uri, _)| uri).collect()
}

/// A finding about a file the app lacks (config/iparams.json when config/ has no page source),
/// moved to the top of the app's manifest.json: no editor can open a file that is not there.
/// Its places and its fix were in that file, so they go.
fn at_the_top(mut diagnostic: Diagnostic) -> Diagnostic {
    diagnostic.span = Span::new(0, 0);
    diagnostic.related.clear();
    diagnostic.fix = None;
    diagnostic
}

/// A document outside any app: an iparams.json gets the rules of iparams.json itself, as the
/// command checks a lone file; anything else has nothing to check.
fn check_alone(state: &mut State, uri: &Uri, path: Option<&Path>) -> FileReport {
    let Some(document) = state.documents.get(uri) else {
        return FileReport::default();
    };
    if !document.is_iparams() {
        return FileReport::default();
    }
    let Some(path) = path else {
        // An untitled buffer: its text, with the default rule levels.
        let source = SourceText::decode(document.text.as_bytes());
        return state.linter.lint_with(&source, &RuleSettings::default());
    };
    let Some(job) = job_for(state, path) else {
        return FileReport::default();
    };
    // The document's text is the workspace's overlay of its file.
    let target = Target::File(path.to_owned());
    let mut checked = state
        .workspace
        .check(&mut state.linter, &target, &job.shown, &job.settings);
    match checked.verdicts.pop() {
        Some(verdict) if checked.verdicts.is_empty() => verdict.report,
        _ => FileReport::default(),
    }
}

/// The link to a rule's documentation.
pub fn rule_url(rule: &str) -> String {
    crate::docs::rule_url(rule)
}

fn severity(severity: Severity) -> u8 {
    match severity {
        Severity::Error => 1,
        Severity::Warning => 2,
        Severity::Info => 3,
    }
}

/// The document's findings as LSP diagnostics, in the negotiated encoding.
pub fn to_lsp(state: &State, uri: &Uri, document: &Document) -> Vec<Value> {
    let report = &document.report;
    if report.diagnostics.is_empty() {
        return Vec::new();
    }
    let definitions = definitions_for(state, document);
    let mut cursor = Cursor::new(&document.text, &document.lines, state.encoding);
    report
        .diagnostics
        .iter()
        .map(|d| one(d, uri, &mut cursor, &definitions, state))
        .collect()
}

/// One finding as an LSP diagnostic.
pub fn one(
    d: &Diagnostic,
    uri: &Uri,
    cursor: &mut Cursor<'_>,
    definitions: &Definitions,
    state: &State,
) -> Value {
    let range = cursor.range(d.span.start, d.span.end);
    let mut message = d.message.clone();
    if let Some(help) = &d.help {
        message.push('\n');
        message.push_str(help);
    }
    let mut related: Vec<Value> = d
        .related
        .iter()
        .map(|label| {
            json!({
                "location": { "uri": uri, "range": range_value(cursor.range(label.span.start, label.span.end)) },
                "message": label.message,
            })
        })
        .collect();
    // A finding about a read of an iparam points at the key's definition in iparams.json.
    for (read, definition) in &definitions.pairs {
        if read.0 < d.span.end.max(d.span.start + 1) && d.span.start < read.1.max(read.0 + 1) {
            related.push(definition_location(state, definition));
        }
    }
    // Built field by field: `json!` would copy each string once more, per finding.
    let mut out = serde_json::Map::new();
    out.insert("range".into(), range_value(range));
    out.insert("severity".into(), Value::from(severity(d.severity)));
    out.insert("code".into(), Value::from(d.rule));
    let mut href = serde_json::Map::new();
    href.insert("href".into(), Value::String(rule_url(d.rule)));
    out.insert("codeDescription".into(), Value::Object(href));
    out.insert("source".into(), Value::from(SOURCE));
    out.insert("message".into(), Value::String(message));
    if !related.is_empty() {
        out.insert("relatedInformation".into(), Value::Array(related));
    }
    Value::Object(out)
}

/// A range as JSON, built directly (not through `Serialize`, a copy per finding).
pub fn range_value(range: lsp_types::Range) -> Value {
    let position = |p: lsp_types::Position| {
        let mut map = serde_json::Map::new();
        map.insert("line".into(), Value::from(p.line));
        map.insert("character".into(), Value::from(p.character));
        Value::Object(map)
    };
    let mut map = serde_json::Map::new();
    map.insert("start".into(), position(range.start));
    map.insert("end".into(), position(range.end));
    Value::Object(map)
}

/// For a file that reads iparams: each read (its byte range) with the key's definition.
#[derive(Debug, Default)]
pub struct Definitions {
    pairs: Vec<((usize, usize), Named)>,
}

fn definitions_for(state: &State, document: &Document) -> Definitions {
    let Place::App { root, relative } = &document.place else {
        return Definitions::default();
    };
    // Built after the check whose findings these are.
    let Some(index) = state.indexes.built(root) else {
        return Definitions::default();
    };
    let reads = index.reads_in(&root.join(relative));
    Definitions {
        pairs: reads
            .iter()
            .filter_map(|read| {
                let definition = index.definition(&read.key)?.clone();
                Some(((read.spot.start, read.spot.end), definition))
            })
            .collect(),
    }
}

/// The location of an iparam's key in iparams.json, as related information.
fn definition_location(state: &State, definition: &Named) -> Value {
    let location = location(state, &definition.spot);
    json!({
        "location": location,
        "message": format!("`{}` is defined here", definition.key),
    })
}
