//! Go to definition and find references: from a read of an iparam (front end, callbacks,
//! serverless, request templates) to its key in iparams.json (or in the object a custom
//! page's `postConfigs` returns), and from the key to every read.
//! The reads are what the core's app analysis finds (`js::analyze_file`, `template_reads`,
//! `Requests`), so navigation sees exactly the reads the app rules check.

use std::path::Path;

use iparams_core::SourceText;
use iparams_core::app::page_functions::Body;
use iparams_core::app::{Requests, Role, Script, js, template_reads};

use super::keys::AppKeys;
pub use super::keys::{Named, Spot};
use crate::workspace::{IPARAMS_FILE, Workspace};

/// The reads of iparams in the file at `relative` of an app (`path` on disk), whose text is
/// `text`: what the app rules see of it.
pub fn reads(relative: &str, path: &Path, text: &str) -> Vec<Named> {
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

/// Everything an app declares and reads, through the workspace (so through the editor's
/// unsaved text).
#[derive(Debug, Default)]
pub struct AppIndex {
    pub declared: Vec<Named>,
    pub reads: Vec<Named>,
}

impl AppIndex {
    pub fn of(workspace: &Workspace, root: &Path) -> Self {
        let app = workspace.load_app(root, &root.display().to_string());
        let mut index = AppIndex {
            declared: AppKeys::of(workspace, root).named(),
            reads: Vec::new(),
        };
        for file in &app.files {
            if file.relative != IPARAMS_FILE {
                let source = SourceText::decode(&file.bytes);
                index
                    .reads
                    .extend(reads(&file.relative, &file.path, source.text()));
            }
        }
        index
    }

    /// What a definition needs: what the app declares, and the reads of the open file at
    /// `relative` whose text is `text` (the one under the cursor). A definition is asked for
    /// far more often than references (some editors ask on every hover with a key held), and
    /// the other files of the app cannot change its answer.
    pub fn around(workspace: &Workspace, root: &Path, relative: &str, text: &str) -> Self {
        let reads = if relative == IPARAMS_FILE {
            Vec::new()
        } else {
            reads(relative, &root.join(relative), text)
        };
        AppIndex {
            declared: AppKeys::of(workspace, root).named(),
            reads,
        }
    }

    /// The declaration or read at byte `offset` of the file at `path`.
    pub fn at(&self, path: &Path, offset: usize) -> Option<&Named> {
        self.declared.iter().chain(&self.reads).find(|named| {
            named.spot.path == path && (named.spot.start..=named.spot.end).contains(&offset)
        })
    }

    pub fn definition(&self, key: &str) -> Option<&Named> {
        // The last one wins, as in `JSON.parse`.
        self.declared.iter().rev().find(|named| named.key == key)
    }

    pub fn reads_of<'i>(&'i self, key: &'i str) -> impl Iterator<Item = &'i Named> + 'i {
        self.reads.iter().filter(move |named| named.key == key)
    }
}

/// `textDocument/definition`: from a read to the key that declares it (or the key itself).
pub fn definition(
    state: &mut super::state::State,
    params: lsp_types::DefinitionParams,
) -> serde_json::Value {
    let at = params.text_document_position_params;
    let Some((root, relative, text, offset)) = app_spot(state, &at.text_document.uri, at.position)
    else {
        return serde_json::Value::Null;
    };
    let index = AppIndex::around(&state.workspace, root, relative, text);
    let Some(named) = index.at(&root.join(relative), offset) else {
        return serde_json::Value::Null;
    };
    match index.definition(&named.key) {
        Some(definition) => super::location(state, &definition.spot),
        None => serde_json::Value::Null,
    }
}

/// `textDocument/references`: every read of the key under the cursor (a read or the key that
/// declares it), with the declaration when asked.
pub fn references(
    state: &mut super::state::State,
    params: lsp_types::ReferenceParams,
) -> serde_json::Value {
    let at = params.text_document_position_params;
    let Some((root, relative, _, offset)) = app_spot(state, &at.text_document.uri, at.position)
    else {
        return serde_json::Value::Null;
    };
    let index = AppIndex::of(&state.workspace, root);
    let Some(named) = index.at(&root.join(relative), offset) else {
        return serde_json::Value::Null;
    };
    let key = named.key.clone();
    let declaration = params
        .context
        .include_declaration
        .then(|| index.definition(&key))
        .flatten();
    let locations: Vec<serde_json::Value> = declaration
        .into_iter()
        .chain(index.reads_of(&key))
        .map(|named| super::location(state, &named.spot))
        .collect();
    serde_json::Value::Array(locations)
}

/// The app, the file's path in it, its text and the byte offset of a position in an open
/// document of an app.
fn app_spot<'s>(
    state: &'s super::state::State,
    uri: &lsp_types::Uri,
    position: lsp_types::Position,
) -> Option<(&'s Path, &'s str, &'s str, usize)> {
    let (document, offset) = super::offset_in(state, uri, position)?;
    match &document.place {
        super::documents::Place::App { root, relative } => {
            Some((root, relative, &document.text, offset))
        }
        _ => None,
    }
}
