//! What the server knows of each app between edits: the keys it declares and what declares
//! them, every read of an iparam in every file, and the `data-bind` values of its custom page.
//! Made from each check of the app ([`AppIndex::build`], from the app as that check loaded it
//! and what it learned of it, the core's `AppSummary`) and kept per app folder ([`Indexes`]), so
//! that hover, completion, definition, references and rename answer without reading the app
//! again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use iparams_core::app::AppSummary;
use iparams_core::app::html::AttributeValue;
use iparams_core::{SourceText, Span};

use super::keys::{AppKeys, Named, Spot};
use crate::workspace::{LoadedApp, PAGE_FILE};

/// An app's keys and reads, as its last check saw them.
#[derive(Debug)]
pub struct AppIndex {
    pub keys: AppKeys,
    /// Each file that reads iparams, in the app's order, with its reads (a script's by
    /// position).
    files: Vec<FileReads>,
    /// The custom installation page, with its `data-bind` values.
    page: Option<(PathBuf, Vec<AttributeValue>)>,
}

#[derive(Debug)]
struct FileReads {
    path: PathBuf,
    reads: Vec<Named>,
}

impl AppIndex {
    /// The index of `app`, as loaded for its check (the editor's text included), from what that
    /// check learned of it (`summary`): the one place that makes an index.
    pub fn build(app: &LoadedApp, summary: Option<&AppSummary>) -> Self {
        let Some(summary) = summary else {
            return AppIndex {
                keys: AppKeys::unknown(),
                files: Vec::new(),
                page: None,
            };
        };
        // In the app's order of files, as references list them.
        let files = app
            .files
            .iter()
            .filter_map(|file| {
                let (_, reads) = summary.reads.iter().find(|(of, _)| *of == file.relative)?;
                let source = SourceText::decode(&file.bytes);
                let reads = reads
                    .iter()
                    .map(|read| Named {
                        key: read.key.clone(),
                        spot: unquoted(&file.path, source.text(), read.span),
                    })
                    .collect();
                Some(FileReads {
                    path: file.path.clone(),
                    reads,
                })
            })
            .collect();
        let page = app
            .file(PAGE_FILE)
            .map(|page| (page.path.clone(), summary.data_binds.clone()));
        AppIndex {
            keys: AppKeys::of_declarations(&summary.declarations, &app.root),
            files,
            page,
        }
    }

    /// The reads in the file at `path`.
    pub fn reads_in(&self, path: &Path) -> &[Named] {
        self.files
            .iter()
            .find(|file| file.path == path)
            .map_or(&[], |file| &file.reads)
    }

    /// The read at byte `offset` of the file at `path`.
    pub fn read_at(&self, path: &Path, offset: usize) -> Option<&Named> {
        self.reads_in(path)
            .iter()
            .find(|read| read.spot.start <= offset && offset <= read.spot.end)
    }

    /// The declaration or read at byte `offset` of the file at `path`.
    pub fn at(&self, path: &Path, offset: usize) -> Option<&Named> {
        self.keys
            .keys
            .iter()
            .map(|key| &key.named)
            .find(|named| {
                named.spot.path == path && (named.spot.start..=named.spot.end).contains(&offset)
            })
            .or_else(|| self.read_at(path, offset))
    }

    /// The declaration of `key` that counts (the last one, as in `JSON.parse`).
    pub fn definition(&self, key: &str) -> Option<&Named> {
        self.keys.get(key).map(|found| &found.named)
    }

    /// Every declaration of `key`, the ones that do not count included.
    pub fn declarations_of<'i>(&'i self, key: &'i str) -> impl Iterator<Item = &'i Named> + 'i {
        self.keys
            .keys
            .iter()
            .map(|found| &found.named)
            .filter(move |named| named.key == key)
    }

    /// Every read of `key`, file by file in the app's order.
    pub fn reads_of<'i>(&'i self, key: &'i str) -> impl Iterator<Item = &'i Named> + 'i {
        self.files
            .iter()
            .flat_map(|file| &file.reads)
            .filter(move |named| named.key == key)
    }

    /// In the custom installation page at `path`, the `data-bind` value at `offset`.
    pub fn data_bind_at(&self, path: &Path, offset: usize) -> Option<&AttributeValue> {
        let (page, binds) = self.page.as_ref()?;
        if page != path {
            return None;
        }
        binds
            .iter()
            .find(|bind| bind.span.start <= offset && offset <= bind.span.end)
    }
}

/// The apps' indexes, by folder: each made from the app's last check, so that answering a
/// request reads no file and parses nothing.
#[derive(Debug, Default)]
pub struct Indexes {
    apps: HashMap<PathBuf, Rc<AppIndex>>,
}

impl Indexes {
    /// The app at `root` was checked: `index` replaces what was known of it.
    pub fn checked(&mut self, root: &Path, index: AppIndex) {
        self.apps.insert(root.to_owned(), Rc::new(index));
    }

    /// Nothing is known of the app at `root` any more (its text changed without a check).
    pub fn forget(&mut self, root: &Path) {
        self.apps.remove(root);
    }

    /// The index of the app at `root`: from its last check, or made by `check` when no check
    /// has made one (configuration leaves the app unchecked).
    pub fn get(&mut self, root: &Path, check: impl FnOnce() -> AppIndex) -> Rc<AppIndex> {
        let index = self
            .apps
            .entry(root.to_owned())
            .or_insert_with(|| Rc::new(check()));
        Rc::clone(index)
    }

    /// The index of the app at `root`, when it is known.
    pub fn built(&self, root: &Path) -> Option<&AppIndex> {
        self.apps.get(root).map(Rc::as_ref)
    }
}

/// Where the key of a read at `span` of `text` (the file at `path`) is: a key written as a
/// string literal is the text inside its quotes.
fn unquoted(path: &Path, text: &str, span: Span) -> Spot {
    let written = text.get(span.start..span.end).unwrap_or_default();
    let quoted = written.len() >= 2
        && written.starts_with(['"', '\'', '`'])
        && written.ends_with(&written[..1]);
    let (start, end) = if quoted {
        (span.start + 1, span.end - 1)
    } else {
        (span.start, span.end)
    };
    Spot {
        path: path.to_owned(),
        start,
        end,
    }
}
