//! What the server knows of each app between edits: the keys it declares and what declares
//! them, every read of an iparam in every file, and the `data-bind` values of its custom page.
//! Built at most once per check of the app ([`AppIndex::build`], from the app as that check
//! loaded it) and kept per app folder ([`Indexes`]), so that hover, completion, definition,
//! references and rename answer without reading the app again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use iparams_core::SourceText;
use iparams_core::app::html::{AttributeValue, HtmlPage};
use iparams_core::app::page_functions::Body;
use iparams_core::app::{Requests, Role, Script, js, template_reads};

use super::keys::{AppKeys, Named, Spot};
use crate::workspace::{IPARAMS_FILE, LoadedApp};

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
    /// The index of `app`, as loaded for its check (the editor's text included). The one place
    /// that reads the app's files for the index.
    pub fn build(app: &LoadedApp) -> Self {
        let mut files = Vec::new();
        let mut page = None;
        for file in &app.files {
            if file.relative == IPARAMS_FILE {
                continue;
            }
            let source = SourceText::decode(&file.bytes);
            let text = source.text();
            if Role::of(&file.relative) == Role::InstallPage {
                page = Some((file.path.clone(), HtmlPage::read(text).data_binds));
            }
            let reads = file_reads(&file.relative, &file.path, text);
            if !reads.is_empty() {
                files.push(FileReads {
                    path: file.path.clone(),
                    reads,
                });
            }
        }
        AppIndex {
            keys: AppKeys::in_app(app),
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

/// The apps' indexes, by folder.
///
/// A check hands over the app it loaded; its index is built when a request (or a finding's
/// related information) first needs it. Building analyses every script of the app again, which
/// for a large script costs as much as the check itself: built at the check, it would slow
/// every edit's diagnostics; built at the first request, typing pays nothing for it.
#[derive(Debug, Default)]
pub struct Indexes {
    apps: HashMap<PathBuf, Slot>,
}

#[derive(Debug)]
enum Slot {
    /// The app as its last check loaded it, not yet indexed.
    Checked(Box<LoadedApp>),
    Built(Rc<AppIndex>),
}

impl Indexes {
    /// The app at `root` was checked as `app`: what was known of it before is stale.
    pub fn checked(&mut self, root: &Path, app: LoadedApp) {
        self.apps
            .insert(root.to_owned(), Slot::Checked(Box::new(app)));
    }

    /// Nothing is known of the app at `root` any more (its text changed without a check).
    pub fn forget(&mut self, root: &Path) {
        self.apps.remove(root);
    }

    /// The index of the app at `root`: from its last check, or from the app `load` gives when
    /// no check has handed one over.
    pub fn get(&mut self, root: &Path, load: impl FnOnce() -> LoadedApp) -> Rc<AppIndex> {
        let index = match self.apps.remove(root) {
            Some(Slot::Built(index)) => index,
            Some(Slot::Checked(app)) => Rc::new(AppIndex::build(&app)),
            None => Rc::new(AppIndex::build(&load())),
        };
        self.apps
            .insert(root.to_owned(), Slot::Built(Rc::clone(&index)));
        index
    }

    /// The index of the app at `root`, when it is built.
    pub fn built(&self, root: &Path) -> Option<&AppIndex> {
        match self.apps.get(root)? {
            Slot::Built(index) => Some(index),
            Slot::Checked(_) => None,
        }
    }
}

/// Whether the file at `relative` of an app, whose text is `text`, reads any iparam.
pub fn reads_iparams(relative: &str, text: &str) -> bool {
    relative != IPARAMS_FILE && !file_reads(relative, Path::new(relative), text).is_empty()
}

/// The reads of iparams in the file at `relative` of an app (`path` on disk), whose text is
/// `text`: what the app rules see of it (`js::analyze_file`, `template_reads`, `Requests`).
fn file_reads(relative: &str, path: &Path, text: &str) -> Vec<Named> {
    // A key written as a string literal is the text inside its quotes.
    let spot = |start: usize, end: usize| {
        let written = text.get(start..end).unwrap_or_default();
        let quoted = written.len() >= 2
            && written.starts_with(['"', '\'', '`'])
            && written.ends_with(&written[..1]);
        let (start, end) = if quoted {
            (start + 1, end - 1)
        } else {
            (start, end)
        };
        Spot {
            path: path.to_owned(),
            start,
            end,
        }
    };
    let script = match Role::of(relative) {
        Role::Frontend => Some(Script::Frontend),
        Role::Serverless => Some(Script::Serverless),
        Role::Callbacks | Role::InstallScript | Role::InstallPage => Some(Script::Callbacks),
        _ => None,
    };
    if let Some(script) = script {
        let facts = js::analyze_file(text, relative, script);
        let mut found: Vec<Named> = facts
            .reads
            .into_iter()
            .map(|read| Named {
                key: read.key,
                spot: spot(read.span.start, read.span.end),
            })
            .collect();
        // The callbacks' `utils.get("k")` and `utils.set("k", …)` name iparams too.
        for call in facts.utils_calls {
            if let Some((key, span)) = call.key {
                let named = Named {
                    key,
                    spot: spot(span.start, span.end),
                };
                if !found.contains(&named) {
                    found.push(named);
                }
            }
        }
        // A custom page's `getConfigs(configs)` reads stored keys: `configs.key`.
        for function in facts.page_functions {
            if let Body::GetConfigs(filled) = function.body {
                found.extend(filled.keys.into_iter().map(|(key, span)| Named {
                    key,
                    spot: spot(span.start, span.end),
                }));
            }
        }
        found.sort_by_key(|named| named.spot.start);
        return found;
    }
    let template_reads = match Role::of(relative) {
        Role::Requests => Requests::read(text).reads(),
        Role::Template => template_reads(text),
        _ => Vec::new(),
    };
    template_reads
        .into_iter()
        .map(|read| Named {
            key: read.key,
            spot: spot(read.span.start, read.span.end),
        })
        .collect()
}
