//! The iparam keys an app declares, with where each is written, for both kinds of app: the keys
//! of config/iparams.json (the core's `Outline`), or, for an app with a custom installation
//! page instead, the keys its `postConfigs` returns (the declarations of the app's check). Hover,
//! completion, definition, references and related information all read them here.

use std::path::{Path, PathBuf};

use iparams_core::app::{Declarations, Declared, Outline};
use iparams_core::{Linter, RuleSettings, SourceText};

use crate::workspace::{IPARAMS_FILE, Target, Workspace};

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
    /// The keys of the app at `root`, read through the workspace (an editor's unsaved text
    /// wins). iparams.json is read alone when the app has one; only an app without it is
    /// checked whole, for its page and the scripts the page loads.
    pub fn of(workspace: &Workspace, root: &Path) -> Self {
        let iparams = root.join(IPARAMS_FILE);
        if let Ok(bytes) = workspace.read(&iparams) {
            return Self::of_iparams(&iparams, &bytes);
        }
        let target = Target::App(root.to_owned());
        let shown = root.display().to_string();
        let checked = workspace.check(
            &mut Linter::default(),
            &target,
            &shown,
            &RuleSettings::default(),
        );
        match &checked.summary {
            Some(summary) => Self::of_declarations(&summary.declarations, root),
            None => AppKeys {
                declarer: Declarer::Unknown,
                keys: Vec::new(),
            },
        }
    }

    /// The keys a check found declared in the app at `root`.
    fn of_declarations(declarations: &Declarations, root: &Path) -> Self {
        let Some(file) = declarations.file.as_ref() else {
            return AppKeys {
                declarer: Declarer::Unknown,
                keys: Vec::new(),
            };
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

    /// Each key and where it is written.
    pub fn named(self) -> Vec<Named> {
        self.keys.into_iter().map(|key| key.named).collect()
    }
}
