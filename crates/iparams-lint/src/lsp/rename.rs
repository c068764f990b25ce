//! Renaming an iparam key: from its declaration (in iparams.json, or in the object a custom
//! page's `postConfigs` returns) or any read of it, one workspace edit that renames every
//! declaration and every read the app's index knows (scripts, templates, `getConfigs`,
//! `utils.get/set`). A new name must be a key the app can read everywhere (an identifier, as
//! `key-not-usable-in-templates` asks) and not one the app declares already.

use std::collections::BTreeMap;

use iparams_core::SourceText;
use iparams_core::rules::is_identifier;
use lsp_server::ErrorCode;
use lsp_types::{RenameParams, TextDocumentPositionParams};
use serde_json::{Value, json};

use super::index::AppIndex;
use super::keys::{Named, Spot};
use super::locations::{range_of, uri_of};
use super::state::State;

/// A refusal, with what the user is told.
type Refused = (ErrorCode, String);

/// `textDocument/prepareRename`: the key under the cursor and its range; nothing when the
/// cursor is on no key, a refusal when the key is declared nowhere.
pub fn prepare(state: &mut State, params: TextDocumentPositionParams) -> Result<Value, Refused> {
    let Some((index, path, offset)) =
        state.indexed_spot(&params.text_document.uri, params.position)
    else {
        return Ok(Value::Null);
    };
    let Some(named) = index.at(&path, offset) else {
        return Ok(Value::Null);
    };
    declared(&index, &named.key)?;
    Ok(json!({ "range": range_of(state, &named.spot), "placeholder": named.key }))
}

/// `textDocument/rename`: the edit that renames the key under the cursor to the new name.
pub fn rename(state: &mut State, params: RenameParams) -> Result<Value, Refused> {
    let at = params.text_document_position_params;
    let Some((index, path, offset)) = state.indexed_spot(&at.text_document.uri, at.position) else {
        return Ok(Value::Null);
    };
    let Some(named) = index.at(&path, offset) else {
        return Ok(Value::Null);
    };
    let key = named.key.as_str();
    declared(&index, key)?;
    let new_name = params.new_name;
    if !is_identifier(&new_name) {
        return Err((
            ErrorCode::InvalidParams,
            format!(
                "`{new_name}` is not a valid iparam key: a key is read as `iparam.key` in \
                 templates and `args.iparams.key` in code, so it must be an identifier \
                 (letters, digits, `_` or `$`, not starting with a digit, not a reserved word)"
            ),
        ));
    }
    if new_name == key {
        return Ok(json!({ "changes": {} }));
    }
    if index.definition(&new_name).is_some() {
        return Err((
            ErrorCode::InvalidParams,
            format!("the app already declares an iparam `{new_name}`: choose another name"),
        ));
    }
    // Each spot once, by file, in order.
    let mut by_file: BTreeMap<&std::path::Path, Vec<&Spot>> = BTreeMap::new();
    for named in index.declarations_of(key).chain(index.reads_of(key)) {
        let spots = by_file.entry(&named.spot.path).or_default();
        if !spots.contains(&&named.spot) {
            spots.push(&named.spot);
        }
    }
    let mut changes = serde_json::Map::new();
    for (path, spots) in by_file {
        let Some(uri) = uri_of(path) else {
            continue;
        };
        let text = text_of(state, path);
        let edits: Vec<Value> = spots
            .into_iter()
            .map(|spot| {
                json!({
                    "range": range_of(state, spot),
                    "newText": replacement(&text, spot, key, &new_name),
                })
            })
            .collect();
        changes.insert(uri.to_string(), Value::Array(edits));
    }
    Ok(json!({ "changes": changes }))
}

/// The declaration of `key`, or why it cannot be renamed.
fn declared<'i>(index: &'i AppIndex, key: &str) -> Result<&'i Named, Refused> {
    index.definition(key).ok_or_else(|| {
        (
            ErrorCode::InvalidParams,
            format!(
                "iparam `{key}` is not declared in this app: there is no declaration to rename"
            ),
        )
    })
}

/// The text of the file at `path`: the open document's, else the file's through the workspace.
fn text_of(state: &State, path: &std::path::Path) -> String {
    let open = uri_of(path).and_then(|uri| state.documents.get(&uri));
    match open {
        Some(document) => document.text.clone(),
        None => {
            let bytes = state.workspace.read(path).unwrap_or_default();
            SourceText::decode(&bytes).text().to_owned()
        }
    }
}

/// What replaces the key at `spot`: the new name, or, where the key is a shorthand property
/// of a destructuring (`const { key } = configs`), the new name bound to the old variable, so
/// that the code after it still reads the same variable.
fn replacement(text: &str, spot: &Spot, key: &str, new_name: &str) -> String {
    let before = text.get(..spot.start).unwrap_or_default().trim_end();
    let after = text.get(spot.end..).unwrap_or_default().trim_start();
    let written = text.get(spot.start..spot.end).unwrap_or_default();
    let opens_member = before.ends_with('{') || before.ends_with(',');
    let closes_member = after.starts_with([',', '}'])
        || (after.starts_with('=') && !after.starts_with("==") && !after.starts_with("=>"));
    if written == key && opens_member && closes_member {
        format!("{new_name}: {key}")
    } else {
        new_name.to_owned()
    }
}
