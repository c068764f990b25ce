//! App-aware checks: iparams.json read together with the app around it — its manifest, its
//! config/ folder, its installation-page callbacks, and every place its code reads an iparam.
//!
//! The caller (which owns the file system) gathers the files into an [`AppInput`]; everything
//! here works on their bytes.

pub mod js;
pub mod manifest;

use std::collections::HashSet;

use crate::diagnostic::Diagnostic;
use crate::lint::{FileReport, Linter};
use crate::model::IparamType;
use crate::rules::{self, Check, Context, REGISTRY, Rule, RuleSettings};
use crate::source::SourceText;
use crate::span::{LineIndex, Span};

pub use js::{JsFacts, Literal, Read, Script, UtilsCall, UtilsMethod};
pub use manifest::{Manifest, ManifestProblem, Platform};

/// One file of the app, as the caller read it; `path` is how output names it.
#[derive(Clone, Copy, Debug)]
pub struct AppFile<'a> {
    pub path: &'a str,
    pub bytes: &'a [u8],
}

/// What the caller found in one app folder.
#[derive(Clone, Debug)]
pub struct AppInput<'a> {
    pub manifest: AppFile<'a>,
    /// How output names the config/ folder, for findings about the folder itself.
    pub config_folder: &'a str,
    /// The entries of config/, with whether each is a folder.
    pub config_entries: Vec<(String, bool)>,
    pub iparams: Option<AppFile<'a>>,
    /// config/assets/iparams.js.
    pub callbacks: Option<AppFile<'a>>,
    /// config/*.json files that may hold request templates (requests.json, oauth_config.json).
    pub templates: Vec<AppFile<'a>>,
    /// Scripts and pages that run in the browser.
    pub frontend: Vec<AppFile<'a>>,
    /// Serverless code (server/).
    pub serverless: Vec<AppFile<'a>>,
}

/// What a file of an app is for, told by its path relative to the app folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Manifest,
    Iparams,
    Callbacks,
    Template,
    Frontend,
    Serverless,
    /// Not read: images, styles, other config files...
    Other,
}

/// The extensions of files that hold scripts (pages hold them inline).
const SCRIPT_EXTENSIONS: [&str; 10] = [
    ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".html", ".htm", ".vue", ".cts",
];

/// Folders whose files are never the app's own code.
pub const SKIPPED_FOLDERS: [&str; 4] = ["node_modules", ".git", ".fdk", "coverage"];

impl Role {
    /// The role of the file at `relative` (with `/` separators) inside an app folder.
    pub fn of(relative: &str) -> Role {
        let script = SCRIPT_EXTENSIONS
            .iter()
            .any(|ext| relative.to_ascii_lowercase().ends_with(ext));
        let skipped = relative
            .split('/')
            .any(|part| SKIPPED_FOLDERS.contains(&part));
        match relative {
            "manifest.json" => Role::Manifest,
            "config/iparams.json" => Role::Iparams,
            "config/assets/iparams.js" => Role::Callbacks,
            "config/iparam_test_data.json" => Role::Other,
            _ if skipped => Role::Other,
            _ if relative.starts_with("config/") => match relative["config/".len()..].contains('/')
            {
                false if relative.ends_with(".json") => Role::Template,
                _ => Role::Other,
            },
            _ if relative.starts_with("server/") && script => Role::Serverless,
            _ if script => Role::Frontend,
            _ => Role::Other,
        }
    }
}

impl<'a> AppInput<'a> {
    /// An app with only its manifest so far.
    pub fn new(manifest: AppFile<'a>, config_folder: &'a str) -> Self {
        Self {
            manifest,
            config_folder,
            config_entries: Vec::new(),
            iparams: None,
            callbacks: None,
            templates: Vec::new(),
            frontend: Vec::new(),
            serverless: Vec::new(),
        }
    }

    /// Adds a file of the app, `relative` being its path inside the app folder.
    pub fn add(&mut self, relative: &str, file: AppFile<'a>) {
        match Role::of(relative) {
            Role::Iparams => self.iparams = Some(file),
            Role::Callbacks => self.callbacks = Some(file),
            Role::Template => self.templates.push(file),
            Role::Frontend => self.frontend.push(file),
            Role::Serverless => self.serverless.push(file),
            Role::Manifest | Role::Other => {}
        }
    }

    /// The app of a multi-file example of the rule docs. `None` without a manifest.json.
    pub fn from_example(files: &[(&'a str, &'a str)]) -> Option<Self> {
        let manifest = files.iter().find(|(path, _)| *path == "manifest.json")?;
        let mut input = AppInput::new(
            AppFile {
                path: manifest.0,
                bytes: manifest.1.as_bytes(),
            },
            "config",
        );
        for (path, text) in files {
            input.add(
                path,
                AppFile {
                    path,
                    bytes: text.as_bytes(),
                },
            );
            if let Some(entry) = path.strip_prefix("config/") {
                let (name, folder) = entry
                    .split_once('/')
                    .map_or((entry, false), |(folder, _)| (folder, true));
                if !input.config_entries.iter().any(|(known, _)| known == name) {
                    input.config_entries.push((name.to_owned(), folder));
                }
            }
        }
        Some(input)
    }
}

/// What in-file rules may know of the app around iparams.json.
#[derive(Clone, Debug, Default)]
pub struct AppFacts {
    /// `None` when manifest.json cannot be read.
    pub manifest: Option<Manifest>,
    /// Whether config/assets/iparams.js exists and was read.
    pub has_callbacks: bool,
    /// Keys that a callback shows or gives a value with `utils.set`.
    pub revealed: HashSet<String>,
    /// Keys whose options a callback sets with `utils.set(key, {values: …})`.
    pub filled: HashSet<String>,
    /// The other SDK the app is written for, if its manifest says so (see
    /// [`manifest::FOREIGN_SDKS`]).
    pub foreign: Option<&'static str>,
}

impl AppFacts {
    pub fn platform(&self) -> Option<Platform> {
        self.manifest.as_ref()?.platform
    }
}

/// A `change` handler named in iparams.json.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handler {
    pub event: String,
    pub name: String,
    pub span: Span,
    pub pointer: String,
}

/// What cross-file rules need to know of one iparam.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declared {
    pub key: String,
    pub key_span: Span,
    pub pointer: String,
    pub ty: Option<IparamType>,
    pub secure: bool,
    pub handlers: Vec<Handler>,
}

/// Which file of the app a finding is in.
pub type FileId = usize;

/// One file's findings, with its text for code frames.
#[derive(Debug)]
pub struct CheckedSource<'a> {
    pub path: String,
    pub source: SourceText<'a>,
    pub report: FileReport,
}

/// Everything cross-file rules look at.
#[derive(Debug)]
pub struct AppModel<'a> {
    pub facts: &'a AppFacts,
    /// The manifest's reading, problems included.
    pub manifest: &'a manifest::ManifestReading,
    pub manifest_file: FileId,
    pub config_folder: FileId,
    pub config_entries: &'a [(String, bool)],
    /// config/iparams.json, when there is one; `declared` is empty when it is not readable.
    pub iparams_file: Option<FileId>,
    pub declared: Vec<Declared>,
    /// iparams.json was read to its end, so `declared` lists every iparam: a key missing from
    /// it is really undefined.
    pub iparams_complete: bool,
    pub callbacks: Option<(FileId, JsFacts)>,
    pub frontend: Vec<(FileId, JsFacts)>,
    pub serverless: Vec<(FileId, JsFacts)>,
    pub templates: Vec<(FileId, Vec<Read>)>,
    paths: Vec<String>,
    sources: &'a [SourceText<'a>],
    iparams_lines: Option<LineIndex>,
}

impl AppModel<'_> {
    /// How output names file `id`.
    pub fn path(&self, id: FileId) -> &str {
        &self.paths[id]
    }

    /// The declared keys, for messages: "`a`, `b`, `c`" (the first dozen).
    pub fn declared_list(&self) -> String {
        let keys: Vec<&str> = self
            .declared
            .iter()
            .take(12)
            .map(|d| d.key.as_str())
            .collect();
        let more = self.declared.len().saturating_sub(keys.len());
        let list = crate::suggest::list(keys);
        if more > 0 {
            format!("{list} and {more} more")
        } else {
            list
        }
    }

    pub fn declared(&self, key: &str) -> Option<&Declared> {
        self.declared.iter().find(|d| d.key == key)
    }

    /// "config/iparams.json:12:3": where something of iparams.json is, for notes in other files.
    pub fn defined_at(&self, span: Span) -> String {
        match (self.iparams_file, &self.iparams_lines) {
            (Some(file), Some(lines)) => {
                let at = lines.position(self.sources[file].text(), span.start);
                format!("{}:{}:{}", self.paths[file], at.line, at.column)
            }
            _ => "config/iparams.json".to_owned(),
        }
    }

    /// "app/scripts/app.js:3:7": where `span` of file `file` is, for notes in other files.
    pub fn position(&self, file: FileId, span: Span) -> String {
        let text = self.sources[file].text();
        let at = LineIndex::new(text).position(text, span.start);
        format!("{}:{}:{}", self.paths[file], at.line, at.column)
    }

    /// Every script that reads iparams, front end and serverless.
    pub fn readers(&self) -> impl Iterator<Item = &(FileId, JsFacts)> {
        self.frontend.iter().chain(&self.serverless)
    }

    /// Whether some code reads iparams without naming which.
    pub fn reads_all(&self) -> bool {
        self.readers().any(|(_, facts)| facts.reads_all)
    }
}

/// Where cross-file rules report: each finding goes into the file it is about.
#[derive(Debug)]
pub struct AppContext<'c> {
    settings: &'c RuleSettings,
    findings: Vec<Vec<Diagnostic>>,
}

impl AppContext<'_> {
    pub fn is_enabled(&self, rule: &Rule) -> bool {
        self.settings.is_enabled(rule)
    }

    pub fn report(
        &mut self,
        file: FileId,
        rule: &Rule,
        span: Span,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let severity = match self.settings.level(rule) {
            rules::Level::On(severity) => severity,
            rules::Level::Off => rule.severity,
        };
        let findings = &mut self.findings[file];
        findings.push(Diagnostic::new(rule.name, severity, span, message));
        findings.last_mut().expect("a diagnostic was just pushed")
    }
}

/// The files of the app, with what was found in each.
struct Files<'a> {
    paths: Vec<String>,
    sources: Vec<SourceText<'a>>,
    reports: Vec<FileReport>,
}

impl<'a> Files<'a> {
    fn add(&mut self, path: &str, bytes: &'a [u8]) -> FileId {
        self.paths.push(path.to_owned());
        self.sources.push(SourceText::decode(bytes));
        self.reports.push(FileReport {
            well_formed: true,
            ..FileReport::default()
        });
        self.paths.len() - 1
    }
}

impl Linter {
    /// Checks one app: iparams.json with every rule that can use the app, and the app's other
    /// files with the rules about them. Returns a report per file, in the order of the input.
    pub fn check_app<'a>(
        &mut self,
        input: &AppInput<'a>,
        rules: &RuleSettings,
    ) -> Vec<CheckedSource<'a>> {
        let mut files = Files {
            paths: Vec::new(),
            sources: Vec::new(),
            reports: Vec::new(),
        };
        let manifest_file = files.add(input.manifest.path, input.manifest.bytes);
        let config_folder = files.add(input.config_folder, b"");

        let manifest_reading = manifest::read(files.sources[manifest_file].text());
        files.reports[manifest_file] = self.lint_json_syntax(
            &files.sources[manifest_file],
            &manifest_reading.syntax_errors,
            rules,
        );

        let callbacks = input.callbacks.map(|file| {
            let id = files.add(file.path, file.bytes);
            (
                id,
                js::analyze(files.sources[id].text(), file.path, 0, Script::Callbacks),
            )
        });
        let facts = facts_of(
            &manifest_reading,
            callbacks.as_ref().map(|(_, facts)| facts),
        );

        let (iparams_file, declared, iparams_complete) = match input.iparams {
            Some(file) => {
                let id = files.add(file.path, file.bytes);
                let (report, declared) = self.lint_in_app(&files.sources[id], rules, &facts);
                let complete = report.read_to_end;
                files.reports[id] = report;
                (Some(id), declared, complete)
            }
            None => (None, Vec::new(), false),
        };
        let scripts = |files: &mut Files<'a>,
                       list: &[AppFile<'a>],
                       script: Script|
         -> Vec<(FileId, JsFacts)> {
            list.iter()
                .map(|file| {
                    let id = files.add(file.path, file.bytes);
                    (
                        id,
                        analyze_file(files.sources[id].text(), file.path, script),
                    )
                })
                .collect()
        };
        let frontend = scripts(&mut files, &input.frontend, Script::Frontend);
        let serverless = scripts(&mut files, &input.serverless, Script::Serverless);
        let templates = input
            .templates
            .iter()
            .map(|file| {
                let id = files.add(file.path, file.bytes);
                (id, template_reads(files.sources[id].text()))
            })
            .collect();

        let model = AppModel {
            facts: &facts,
            manifest: &manifest_reading,
            manifest_file,
            config_folder,
            config_entries: &input.config_entries,
            iparams_file,
            declared,
            iparams_complete,
            callbacks,
            frontend,
            serverless,
            templates,
            paths: files.paths.clone(),
            sources: &files.sources,
            iparams_lines: iparams_file.map(|id| LineIndex::new(files.sources[id].text())),
        };
        let mut cx = AppContext {
            settings: rules,
            findings: vec![Vec::new(); files.paths.len()],
        };
        for rule in REGISTRY.iter().filter(|rule| rules.is_enabled(rule)) {
            if let Check::App(check) = rule.check {
                check(&model, &mut cx);
            }
        }
        drop(model);
        for (id, mut findings) in cx.findings.into_iter().enumerate() {
            crate::lint::apply_levels(&mut findings, rules);
            let report = &mut files.reports[id];
            report.diagnostics.extend(findings);
            report
                .diagnostics
                .sort_by(|a, b| (a.span, a.rule).cmp(&(b.span, b.rule)));
        }
        files
            .paths
            .into_iter()
            .zip(files.sources)
            .zip(files.reports)
            .map(|((path, source), report)| CheckedSource {
                path,
                source,
                report,
            })
            .collect()
    }

    /// The syntax findings of a JSON file other than iparams.json.
    fn lint_json_syntax(
        &mut self,
        source: &SourceText<'_>,
        errors: &[crate::syntax::SyntaxError],
        rules: &RuleSettings,
    ) -> FileReport {
        let mut regexes = crate::ecma_regex::RegexEngine::default();
        let mut cx = Context::new(source.text(), rules, &mut regexes);
        if cx.is_enabled(&rules::invalid_encoding::RULE) {
            rules::invalid_encoding::report(&source.problems, &mut cx);
        }
        if cx.is_enabled(&rules::invalid_json::RULE) {
            rules::invalid_json::report(errors, rules::FileKind::Manifest, &mut cx);
        }
        let mut diagnostics = cx.diagnostics;
        crate::lint::apply_levels(&mut diagnostics, rules);
        FileReport {
            well_formed: errors.is_empty() && source.problems.is_empty(),
            diagnostics,
            ..FileReport::default()
        }
    }
}

impl AppInput<'_> {
    /// What in-file rules may know of this app (for fixing iparams.json before checking it).
    pub fn facts(&self) -> AppFacts {
        let reading = manifest::read(SourceText::decode(self.manifest.bytes).text());
        let callbacks = self.callbacks.map(|file| {
            js::analyze(
                SourceText::decode(file.bytes).text(),
                file.path,
                0,
                Script::Callbacks,
            )
        });
        facts_of(&reading, callbacks.as_ref())
    }
}

fn facts_of(reading: &manifest::ManifestReading, callbacks: Option<&JsFacts>) -> AppFacts {
    let readable =
        reading.syntax_errors.iter().all(|e| !e.fatal) && reading.manifest.platform.is_some();
    AppFacts {
        manifest: readable.then(|| reading.manifest.clone()),
        has_callbacks: callbacks.is_some(),
        revealed: callbacks.map(revealed_keys).unwrap_or_default(),
        filled: callbacks.map(filled_keys).unwrap_or_default(),
        foreign: reading.manifest.foreign,
    }
}

/// The keys whose options a callback sets (`utils.set(key, {values: […]})`).
fn filled_keys(callbacks: &JsFacts) -> HashSet<String> {
    set_keys(callbacks, &["values"])
}

/// The keys a callback makes visible or gives a value to, so a hidden required field can be
/// filled after all.
fn revealed_keys(callbacks: &JsFacts) -> HashSet<String> {
    set_keys(callbacks, &["visible", "value"])
}

/// The keys given one of `attributes` by a `utils.set` call.
fn set_keys(callbacks: &JsFacts, attributes: &[&str]) -> HashSet<String> {
    callbacks
        .utils_calls
        .iter()
        .filter(|call| {
            call.method == UtilsMethod::Set
                && call
                    .attributes
                    .iter()
                    .any(|a| attributes.contains(&a.name.as_str()))
        })
        .filter_map(|call| call.key.as_ref().map(|(key, _)| key.clone()))
        .collect()
}

/// A script, or the inline scripts of a page.
fn analyze_file(text: &str, path: &str, script: Script) -> JsFacts {
    let lower = path.to_ascii_lowercase();
    if lower.ends_with(".html") || lower.ends_with(".htm") || lower.ends_with(".vue") {
        let mut facts = JsFacts::default();
        for (code, offset) in js::inline_scripts(text) {
            facts.merge(js::analyze(code, "inline.js", offset, script));
        }
        facts
    } else {
        js::analyze(text, path, 0, script)
    }
}

/// `<%= iparam.key %>` placeholders of request templates.
pub fn template_reads(text: &str) -> Vec<Read> {
    const OPEN: &str = "<%=";
    let mut reads = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find(OPEN).map(|at| at + from) {
        let Some(close) = text[open..].find("%>").map(|at| at + open) else {
            break;
        };
        let inner = &text[open + OPEN.len()..close];
        let trimmed = inner.trim();
        if let Some(key) = trimmed.strip_prefix("iparam.") {
            let start =
                open + OPEN.len() + (inner.len() - inner.trim_start().len()) + "iparam.".len();
            reads.push(Read {
                key: key.to_owned(),
                span: Span::new(start, start + key.len()),
            });
        }
        from = close + 2;
    }
    reads
}

/// Whether a rule only reports with the app around iparams.json (its examples are apps).
pub fn is_app_rule(rule: &Rule) -> bool {
    matches!(rule.check, Check::App(_)) || rule.bad.starts_with(EXAMPLE_FILE_MARK)
}

/// Multi-file examples in rule docs start each file with `=== path ===`.
pub const EXAMPLE_FILE_MARK: &str = "=== ";

/// The files of a multi-file example: (path, contents).
pub fn example_files(example: &str) -> Vec<(&str, &str)> {
    let mut files = Vec::new();
    let mut rest = example;
    while let Some(after) = rest.strip_prefix(EXAMPLE_FILE_MARK) {
        let Some((header, body)) = after.split_once('\n') else {
            break;
        };
        let path = header.trim_end_matches(" ===");
        let end = body
            .find(&format!("\n{EXAMPLE_FILE_MARK}"))
            .map_or(body.len(), |at| at + 1);
        files.push((path, &body[..end]));
        rest = &body[end..];
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_placeholders() {
        let text = r#"{"headers": {"Authorization": "Bearer <%= iparam.api_key %>", "X": "<%=iparam.first-name%>", "Y": "<%= context.x %>"}}"#;
        let reads: Vec<_> = template_reads(text)
            .into_iter()
            .map(|r| (r.key, &text[r.span.start..r.span.end]))
            .collect();
        assert_eq!(
            reads,
            [
                ("api_key".to_owned(), "api_key"),
                ("first-name".to_owned(), "first-name")
            ]
        );
    }

    #[test]
    fn roles_by_path() {
        assert_eq!(Role::of("config/iparams.json"), Role::Iparams);
        assert_eq!(Role::of("config/requests.json"), Role::Template);
        assert_eq!(Role::of("config/assets/iparams.js"), Role::Callbacks);
        assert_eq!(Role::of("config/assets/other.js"), Role::Other);
        assert_eq!(Role::of("server/lib/handler.js"), Role::Serverless);
        assert_eq!(Role::of("app/index.html"), Role::Frontend);
        assert_eq!(Role::of("src/components/App.tsx"), Role::Frontend);
        assert_eq!(Role::of("app/node_modules/x/index.js"), Role::Other);
        assert_eq!(Role::of("app/styles/style.css"), Role::Other);
    }

    #[test]
    fn multi_file_examples() {
        let files =
            example_files("=== manifest.json ===\n{}\n=== config/iparams.json ===\n{\"a\": 1}\n");
        assert_eq!(
            files,
            [
                ("manifest.json", "{}\n"),
                ("config/iparams.json", "{\"a\": 1}\n")
            ]
        );
    }
}
