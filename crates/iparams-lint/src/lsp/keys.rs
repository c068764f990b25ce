//! The iparam keys an app declares, with where each is written, for both kinds of app: the keys
//! of config/iparams.json, or, for an app with a custom installation page instead, the keys its
//! `postConfigs` returns, as the check of the app found them (the core's `Declarations`). The app's
//! index holds them for hover, completion, definition, references, rename and related
//! information.

use std::path::{Path, PathBuf};

use iparams_core::app::{Declarations, Declared};

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
    /// No key known: nothing declares the app's iparams, or the app could not be checked.
    pub fn unknown() -> Self {
        AppKeys {
            declarer: Declarer::Unknown,
            keys: Vec::new(),
        }
    }

    /// The keys a check found declared in the app at `root`.
    pub fn of_declarations(declarations: &Declarations, root: &Path) -> Self {
        let Some(file) = declarations.file.as_ref() else {
            return Self::unknown();
        };
        let path = root.join(&file.relative);
        let from_page = declarations.source.is_page();
        let keys = declarations
            .declared
            .iter()
            .map(|declared| {
                // A page's span is the key's name already (its keys may be unquoted);
                // iparams.json's has its quotes.
                let span = if from_page {
                    declared.key_span
                } else {
                    declared.key_span.inner()
                };
                Key {
                    named: Named {
                        key: declared.key.clone(),
                        spot: Spot {
                            path: path.clone(),
                            start: span.start,
                            end: span.end,
                        },
                    },
                    declared: declared.clone(),
                }
            })
            .collect();
        let declarer = match from_page {
            true => Declarer::Page {
                relative: file.relative.clone(),
                complete: declarations.complete,
            },
            false => Declarer::IparamsJson,
        };
        AppKeys { declarer, keys }
    }

    /// The declaration of `key` that counts: the last one, as in `JSON.parse` and in an
    /// object literal.
    pub fn get(&self, key: &str) -> Option<&Key> {
        self.keys.iter().rev().find(|found| found.named.key == key)
    }
}
