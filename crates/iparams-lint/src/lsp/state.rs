//! What the language server holds between messages, which the message loop and every handler
//! share.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::time::SystemTime;

use iparams_core::Linter;
use lsp_types::Uri;

use super::documents::Documents;
use super::positions::Encoding;
use crate::workspace::Workspace;

/// How documentation is sent: Markdown to clients that list it, plain text to those that list
/// only that, and a bare string to those that list nothing (older clients, which take no
/// markup object).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Markup {
    Markdown,
    PlainText,
    String,
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
            workspace: Workspace::new(None, &[]).expect("no configuration is given"),
            linter: Linter::default(),
            configs: HashMap::new(),
            notes: Vec::new(),
            shown_notes: BTreeSet::new(),
            closed: Vec::new(),
            completion_markup: Markup::Markdown,
            hover_markup: Markup::Markdown,
        }
    }

    /// Whether `note` is shown for the first time (each is shown once).
    pub fn first_showing(&mut self, note: &str) -> bool {
        self.shown_notes.insert(note.to_owned())
    }
}
