//! Everything cross-file rules look at, across the files of one app.

use super::facts::AppFacts;
use super::file_id::FileId;
use super::input::UnreadFile;
use super::iparam_read::Read;
use super::iparams_source::IparamsSource;
use super::js::{JsFacts, Script};
use super::manifest::ManifestReading;
use super::outline::Declared;
use super::page::InstallPage;
use super::requests::Requests;
use super::written_credentials::WrittenCredential;
use crate::source::SourceText;
use crate::span::{LineIndex, Span};
use crate::syntax::Value;

/// config/requests.json as read: its tree and its templates.
#[derive(Debug)]
pub struct RequestsFile<'a> {
    pub file: FileId,
    /// The parsed tree, for rules about the file as a whole; `None` when nothing was read.
    pub root: Option<Value<'a>>,
    /// Its templates, lowered.
    pub requests: Requests<'a>,
    /// The credentials its templates write out, found once: every output masks them and
    /// `credential-in-template` reports them.
    pub written_credentials: Vec<WrittenCredential>,
}

/// Everything cross-file rules look at.
#[derive(Debug)]
pub struct AppModel<'a> {
    pub facts: &'a AppFacts,
    /// The manifest's reading, problems included.
    pub manifest: &'a ManifestReading,
    pub manifest_file: FileId,
    pub config_entries: &'a [(String, bool)],
    /// The files under config/assets/, by their paths from config/ (`assets/iparams.css`).
    pub config_assets: &'a [String],
    /// The file that defines the app's iparams: config/iparams.json when there is one, else the
    /// script of a custom installation page whose `postConfigs` returns them. `declared` is
    /// empty when it is not readable.
    pub iparams_file: Option<FileId>,
    pub declared: Vec<Declared>,
    /// iparams.json was read to its end (or every key the page's `postConfigs` returns is
    /// known), so `declared` lists every iparam: a key missing from it is really undefined.
    pub iparams_complete: bool,
    /// config/iparams.html, a custom installation page, with the scripts it runs.
    pub page: Option<InstallPage>,
    /// Where the app's iparams come from.
    pub source: IparamsSource,
    pub callbacks: Option<(FileId, JsFacts)>,
    /// The other scripts of config/assets/, which the installation page loads.
    pub install_scripts: Vec<(FileId, JsFacts)>,
    pub frontend: Vec<(FileId, JsFacts)>,
    pub serverless: Vec<(FileId, JsFacts)>,
    /// config/requests.json, when there is one.
    pub requests: Option<RequestsFile<'a>>,
    /// Scripts too large to read.
    pub unread: &'a [UnreadFile<'a>],
    /// The `<%= iparam.x %>` reads of request templates: requests.json's, then those of other
    /// config/*.json files (oauth_config.json).
    pub templates: Vec<(FileId, Vec<Read>)>,
    /// Each file's path inside the app, as the caller gave it.
    pub(crate) relatives: Vec<String>,
    pub(crate) paths: Vec<String>,
    pub(crate) sources: &'a [SourceText<'a>],
    /// iparams.json's lines, made when a note first points into it: most checks have none.
    pub(crate) iparams_lines: std::sync::OnceLock<LineIndex>,
    /// The templates that call the HR service ([`AppModel::hr_calls`]).
    pub(crate) hr_calls: super::hr_call::HrCalls,
}

impl AppModel<'_> {
    /// How output names file `id`.
    pub fn path(&self, id: FileId) -> &str {
        &self.paths[id]
    }

    /// What defines the app's iparams, for messages: iparams.json, or the custom installation
    /// page when the app has it and no iparams.json.
    pub fn definitions_name(&self) -> &'static str {
        self.source.described()
    }

    /// What iparams.json (or the page) defines, as a sentence of a help: "iparams.json defines
    /// `a`, `b`." (the first dozen), or that it defines none.
    pub fn defined_iparams(&self) -> String {
        let source = self.definitions_name();
        if self.declared.is_empty() {
            return format!("{source} defines no iparam.");
        }
        let keys: Vec<&str> = self
            .declared
            .iter()
            .take(12)
            .map(|d| d.key.as_str())
            .collect();
        let more = self.declared.len().saturating_sub(keys.len());
        let list = crate::suggest::list(keys);
        if more > 0 {
            format!("{source} defines {list} and {more} more.")
        } else {
            format!("{source} defines {list}.")
        }
    }

    pub fn declared(&self, key: &str) -> Option<&Declared> {
        self.declared.iter().find(|d| d.key == key)
    }

    /// "config/iparams.json:12:3": where something of iparams.json is, for notes in other files.
    pub fn defined_at(&self, span: Span) -> String {
        match self.iparams_file {
            Some(file) => {
                let text = self.sources[file].text();
                let lines = self.iparams_lines.get_or_init(|| LineIndex::new(text));
                let at = lines.position(text, span.start);
                format!("{}:{}:{}", self.paths[file], at.line, at.column)
            }
            None => "config/iparams.json".to_owned(),
        }
    }

    /// The text of file `id`.
    pub fn text(&self, id: FileId) -> &str {
        self.sources[id].text()
    }

    /// "app/scripts/app.js:3:7": where `span` of file `file` is, for notes in other files.
    pub fn position(&self, file: FileId, span: Span) -> String {
        let text = self.sources[file].text();
        let at = LineIndex::new(text).position(text, span.start);
        format!("{}:{}:{}", self.paths[file], at.line, at.column)
    }

    /// The JSON pointer of the value at `span` of file `file`, when the file is requests.json.
    pub fn pointer_at(&self, file: FileId, span: Span) -> Option<String> {
        let requests = self.requests.as_ref().filter(|r| r.file == file)?;
        requests.requests.pointer_at(span)
    }

    /// Every script that reads iparams, front end and serverless.
    pub fn readers(&self) -> impl Iterator<Item = &(FileId, JsFacts)> {
        self.frontend.iter().chain(&self.serverless)
    }

    /// The scripts of the installation page: config/assets/iparams.js, then the other scripts
    /// of config/assets/.
    pub fn install_page(&self) -> impl Iterator<Item = &(FileId, JsFacts)> {
        self.callbacks.iter().chain(&self.install_scripts)
    }

    /// Every script of the app, the installation page's first, with where it runs.
    pub fn scripts(&self) -> impl Iterator<Item = (FileId, Script, &JsFacts)> {
        let callbacks = self
            .install_page()
            .map(|(file, facts)| (*file, Script::Callbacks, facts));
        let frontend = self
            .frontend
            .iter()
            .map(|(file, facts)| (*file, Script::Frontend, facts));
        let serverless = self
            .serverless
            .iter()
            .map(|(file, facts)| (*file, Script::Serverless, facts));
        callbacks.chain(frontend).chain(serverless)
    }

    /// Whether some code reads iparams without naming which.
    pub fn reads_all(&self) -> bool {
        let mut scripts = self.readers().chain(self.install_page());
        scripts.any(|(_, facts)| facts.reads_all)
    }
}
