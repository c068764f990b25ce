//! The iparam keys an app declares, with where each is written, for both kinds of app: the keys
//! of config/iparams.json (the core's `Outline`), or, for an app with a custom installation
//! page instead, the keys its `postConfigs` returns (the core's `page_iparams`). The app's
//! index holds them for hover, completion, definition, references, rename and related
//! information.

use std::path::{Path, PathBuf};

use iparams_core::SourceText;
use iparams_core::app::{Declared, Outline, page_iparams};

use crate::workspace::{IPARAMS_FILE, LoadedApp};

/// A place in a file of an app: the file, and a byte range of its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spot {
    pub path: PathBuf,
    pub start: usize,
    pub end: usize,
}

/// One iparam key and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub key: String,
    pub spot: Spot,
}

/// What declares an app's iparams.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Declarer {
    /// config/iparams.json.
    IparamsJson,
    /// The `postConfigs` of config/iparams.html, written in the file at `relative` (the page
    /// or a script it loads); `complete` when every key it returns could be told from the code.
    Page { relative: String, complete: bool },
    /// Nothing that can be read: no iparams.json, and no page whose `postConfigs` is found.
    Unknown,
}

/// One declared key: where its name is written, and what its declaration says.
#[derive(Debug, Clone)]
pub struct Key {
    pub named: Named,
    pub declared: Declared,
}

/// The keys an app declares, and what declares them.
#[derive(Debug, Clone)]
pub struct AppKeys {
    pub declarer: Declarer,
    pub keys: Vec<Key>,
}

impl AppKeys {
    /// The keys of an app already loaded.
    pub fn in_app(app: &LoadedApp) -> Self {
        if let Some(iparams) = app.file(IPARAMS_FILE) {
            return Self::of_iparams(&iparams.path, &iparams.bytes);
        }
        let unknown = AppKeys {
            declarer: Declarer::Unknown,
            keys: Vec::new(),
        };
        let Some(found) = app.input().as_ref().and_then(page_iparams) else {
            return unknown;
        };
        // The core names the file as output does; the loaded app knows which one that is.
        let Some(file) = app.files.iter().find(|file| file.shown == found.path) else {
            return unknown;
        };
        let keys = found
            .declared
            .into_iter()
            .map(|declared| Key {
                // The span is the key's name already: a page's keys may be unquoted.
                named: Named {
                    key: declared.key.clone(),
                    spot: Spot {
                        path: file.path.clone(),
                        start: declared.key_span.start,
                        end: declared.key_span.end,
                    },
                },
                declared,
            })
            .collect();
        AppKeys {
            declarer: Declarer::Page {
                relative: file.relative.clone(),
                complete: found.complete,
            },
            keys,
        }
    }

    /// The keys of the iparams.json at `path`, decoded as the linter decodes it.
    fn of_iparams(path: &Path, bytes: &[u8]) -> Self {
        let keys = Outline::of(SourceText::decode(bytes).text())
            .iparams
            .into_iter()
            .map(|declared| {
                // Without its quotes.
                let inner = declared.key_span.inner();
                Key {
                    named: Named {
                        key: declared.key.clone(),
                        spot: Spot {
                            path: path.to_owned(),
                            start: inner.start,
                            end: inner.end,
                        },
                    },
                    declared,
                }
            })
            .collect();
        AppKeys {
            declarer: Declarer::IparamsJson,
            keys,
        }
    }

    /// The declaration of `key` that counts: the last one, as in `JSON.parse` and in an
    /// object literal.
    pub fn get(&self, key: &str) -> Option<&Key> {
        self.keys.iter().rev().find(|found| found.named.key == key)
    }
}
