//! What the language server holds between messages, which the message loop and every handler
//! share.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::SystemTime;

use iparams_core::Linter;
use lsp_server::{Message, Notification, Request};
use lsp_types::{Position, Uri};
use serde_json::{Value, json};

use super::documents::{Documents, Place};
use super::index::{AppIndex, Indexes};
use super::positions::Encoding;
use super::previews::Previews;
use crate::workspace::config::{Choices, JobRules};
use crate::workspace::{Target, Workspace};

/// How documentation is sent: Markdown to clients that list it, plain text to those that list
/// only that, and a bare string to those that list nothing (older clients, which take no
/// markup object).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Markup {
    Markdown,
    PlainText,
    String,
}

impl Markup {
    /// Documentation in this form (Markdown is written to read well as text).
    pub fn wrap(self, value: String) -> Value {
        match self {
            Markup::Markdown => json!({ "kind": "markdown", "value": value }),
            Markup::PlainText => json!({ "kind": "plaintext", "value": value }),
            Markup::String => Value::String(value),
        }
    }
}

/// What the server holds between messages.
pub struct State {
    pub encoding: Encoding,
    pub documents: Documents,
    pub workspace: Workspace,
    pub linter: Linter,
    /// The configuration file each checked folder had at its last check, with its modification
    /// time: a change (edited, created, removed) means reading configuration again.
    pub configs: HashMap<PathBuf, Option<(PathBuf, Option<SystemTime>)>>,
    /// Messages for the user (a configuration that cannot be read), shown once each.
    pub notes: Vec<String>,
    shown_notes: BTreeSet<String>,
    /// Documents closed since the last check: their findings are emptied.
    pub closed: Vec<Uri>,
    /// What documentation the client shows in completion items, and in hovers.
    pub completion_markup: Markup,
    pub hover_markup: Markup,
    /// Each app's index, by its folder, from the app's last check: every edit to an open
    /// document checks its app again (which replaces what the index knew) before the next
    /// request is read.
    pub indexes: Indexes,
    /// The installation pages the server serves ([`super::preview`]).
    pub previews: Previews,
    /// The document of an app opened or edited last: the app a preview asked for without a
    /// URI shows.
    pub last_in_app: Option<PathBuf>,
    /// The client opens a URL it is sent (`window/showDocument`).
    pub show_document: bool,
    /// Requests and notifications to the client, sent after the answer being made.
    pub outbox: Vec<Message>,
    requests_made: u64,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("encoding", &self.encoding)
            .field("documents", &self.documents.len())
            .finish_non_exhaustive()
    }
}

impl State {
    pub fn new(encoding: Encoding) -> Self {
        Self {
            encoding,
            documents: Documents::new(),
            workspace: Workspace::new(&Choices::default()).expect("no configuration is given"),
            linter: Linter::default(),
            configs: HashMap::new(),
            notes: Vec::new(),
            shown_notes: BTreeSet::new(),
            closed: Vec::new(),
            completion_markup: Markup::Markdown,
            hover_markup: Markup::Markdown,
            indexes: Indexes::default(),
            previews: Previews::default(),
            last_in_app: None,
            show_document: false,
            outbox: Vec::new(),
            requests_made: 0,
        }
    }

    /// The open document at `uri` has a new text (opened or edited): it stands for its file in
    /// the checks and in the preview of its app, which is the app previewed when none is named.
    pub fn took_text(&mut self, uri: &Uri) {
        let Some(document) = self.documents.get(uri) else {
            return;
        };
        let Some(path) = document.path() else {
            return;
        };
        self.workspace
            .overlay(&path, document.text.clone().into_bytes());
        self.previews.edited(&path, Some(&document.text));
        if matches!(document.place, Place::App { .. }) {
            self.last_in_app = Some(path);
        }
    }

    /// Configuration may have changed: the checks and every preview read it again.
    pub fn forget_configuration(&mut self) {
        self.configs.clear();
        self.workspace.forget_configuration();
        self.previews.forget_configuration();
    }

    /// Queues a notification to the client.
    pub fn notify(&mut self, method: &str, params: Value) {
        self.outbox
            .push(Notification::new(method.into(), params).into());
    }

    /// Queues a request to the client, with an id of its own.
    pub fn request(&mut self, method: &str, params: Value) {
        self.requests_made += 1;
        let id = format!("iparams-lint/{}", self.requests_made);
        self.outbox
            .push(Request::new(id.into(), method.into(), params).into());
    }

    /// Whether `note` is shown for the first time (each is shown once).
    pub fn first_showing(&mut self, note: &str) -> bool {
        self.shown_notes.insert(note.to_owned())
    }

    /// The index of the app whose folder is `root`: from its last check, or from a check now
    /// when configuration left the app unchecked.
    pub fn index(&mut self, root: &Path) -> Rc<AppIndex> {
        let (workspace, linter) = (&self.workspace, &mut self.linter);
        self.indexes.get(root, || {
            let target = Target::App(root.to_owned());
            let shown = root.display().to_string();
            let checked = workspace.check(linter, &target, &shown, &JobRules::default());
            let app = checked.loaded.app().expect("an app's folder loads an app");
            AppIndex::build(app, checked.summary.as_ref())
        })
    }

    /// The index of the app the open document at `uri` is a file of.
    pub fn index_of(&mut self, uri: &Uri) -> Option<Rc<AppIndex>> {
        let Place::App { root, .. } = &self.documents.get(uri)?.place else {
            return None;
        };
        let root = root.clone();
        Some(self.index(&root))
    }

    /// For the open document at `uri`, in an app: the app's index, the document's path and
    /// the byte offset of `position` in it.
    pub fn indexed_spot(
        &mut self,
        uri: &Uri,
        position: Position,
    ) -> Option<(Rc<AppIndex>, PathBuf, usize)> {
        let index = self.index_of(uri)?;
        let document = self.documents.get(uri)?;
        let path = document.path()?;
        let offset = document
            .lines
            .offset(&document.text, position, self.encoding);
        Some((index, path, offset))
    }
}
