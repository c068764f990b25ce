//! The documents the editor holds: their text (which wins over the disk, through the
//! workspace's overlays), version, and where each sits in an app.

use std::collections::BTreeMap;
use std::path::PathBuf;

use iparams_core::FileReport;
use iparams_core::app::Role;
use lsp_types::{TextDocumentContentChangeEvent, Uri};

use super::positions::{Encoding, LineMap};
use crate::workspace::{app_of, is_read};

/// Where a document sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A file of an app that the app rules read: the app's folder and the path inside it.
    App { root: PathBuf, relative: String },
    /// A file on disk outside any app (or one the app rules do not read).
    Alone(PathBuf),
    /// Not a `file:` URI (an unsaved, untitled buffer).
    Virtual,
}

/// One open document.
#[derive(Debug)]
pub struct Document {
    pub version: i32,
    pub language: String,
    pub text: String,
    pub lines: LineMap,
    pub place: Place,
    /// What the last check found, for the text of `checked_version`.
    pub report: FileReport,
    pub checked_version: Option<i32>,
}

impl Document {
    pub fn new(uri: &Uri, version: i32, language: String, text: String) -> Self {
        Self {
            version,
            language,
            lines: LineMap::new(&text),
            text,
            place: place_of(uri),
            report: FileReport::default(),
            checked_version: None,
        }
    }

    /// Applies the editor's changes, in order; ranges are in `encoding`.
    pub fn change(
        &mut self,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
        encoding: Encoding,
    ) {
        for change in changes {
            match change {
                TextDocumentContentChangeEvent::TextDocumentContentChangeWholeDocument(whole) => {
                    self.text = whole.text;
                }
                TextDocumentContentChangeEvent::TextDocumentContentChangePartial(partial) => {
                    let (start, end) = self.lines.span(&self.text, partial.range, encoding);
                    self.text.replace_range(start..end, &partial.text);
                }
            }
            self.lines = LineMap::new(&self.text);
        }
        self.version = version;
    }

    /// The path on disk, for a `file:` document.
    pub fn path(&self) -> Option<PathBuf> {
        match &self.place {
            Place::App { root, relative } => Some(root.join(relative)),
            Place::Alone(path) => Some(path.clone()),
            Place::Virtual => None,
        }
    }

    /// Whether the document is an iparams.json (by name, or by language for a buffer that has
    /// no file yet): what a file outside any app is checked as.
    pub fn is_iparams(&self) -> bool {
        match &self.place {
            Place::App { relative, .. } => Role::of(relative) == Role::Iparams,
            Place::Alone(path) => path.file_name().is_some_and(|name| name == "iparams.json"),
            Place::Virtual => matches!(self.language.as_str(), "json" | "jsonc"),
        }
    }
}

/// The file a `file:` URI names.
pub fn file_path(uri: &Uri) -> Option<PathBuf> {
    (uri.scheme() == "file")
        .then(|| uri.to_file_path().ok())
        .flatten()
}

/// Where the document at `uri` sits: in its app ([`app_of`]) when the app's rules read it,
/// alone, or nowhere on disk.
pub fn place_of(uri: &Uri) -> Place {
    let Some(path) = file_path(uri) else {
        return Place::Virtual;
    };
    match app_of(&path) {
        Some(app) if is_read(&app.relative) => Place::App {
            root: app.root,
            relative: app.relative,
        },
        _ => Place::Alone(path),
    }
}

/// The open documents, by URI.
pub type Documents = BTreeMap<Uri, Document>;
