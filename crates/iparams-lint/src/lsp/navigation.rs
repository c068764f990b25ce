//! Go to definition and find references: from a read of an iparam (front end, callbacks,
//! serverless, request templates) to its key in iparams.json (or in the object a custom
//! page's `postConfigs` returns), and from the key to every read. Both answer from the app's
//! index, whose reads are what the core's app analysis finds, so navigation sees exactly the
//! reads the app rules check.

use lsp_types::{DefinitionParams, ReferenceParams};
use serde_json::Value;

use super::locations::location;
use super::state::State;

/// `textDocument/definition`: from a read to the key that declares it (or the key itself).
pub fn definition(state: &mut State, params: DefinitionParams) -> Value {
    let at = params.text_document_position_params;
    let Some((index, path, offset)) = state.indexed_spot(&at.text_document.uri, at.position) else {
        return Value::Null;
    };
    let Some(named) = index.at(&path, offset) else {
        return Value::Null;
    };
    match index.definition(&named.key) {
        Some(definition) => location(state, &definition.spot),
        None => Value::Null,
    }
}

/// `textDocument/references`: every read of the key under the cursor (a read or the key that
/// declares it), with the declaration when asked.
pub fn references(state: &mut State, params: ReferenceParams) -> Value {
    let at = params.text_document_position_params;
    let Some((index, path, offset)) = state.indexed_spot(&at.text_document.uri, at.position) else {
        return Value::Null;
    };
    let Some(named) = index.at(&path, offset) else {
        return Value::Null;
    };
    let key = &named.key;
    let declaration = params
        .context
        .include_declaration
        .then(|| index.definition(key))
        .flatten();
    let locations: Vec<Value> = declaration
        .into_iter()
        .chain(index.reads_of(key))
        .map(|named| location(state, &named.spot))
        .collect();
    Value::Array(locations)
}
