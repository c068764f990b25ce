//! Files, places in them and cursors as the protocol names them: URIs, ranges in the
//! negotiated encoding (of the open document's text, else of the file's), locations.

use std::path::Path;

use lsp_types::Uri;
use serde_json::{Value, json};

use super::documents::Document;
use super::keys::Spot;
use super::positions::LineMap;
use super::state::State;

/// The URI of a file.
pub fn uri_of(path: &Path) -> Option<Uri> {
    Uri::from_file_path(path).ok()
}

/// The LSP location of `spot`.
pub fn location(state: &State, spot: &Spot) -> Value {
    json!({ "uri": uri_of(&spot.path), "range": range_of(state, spot) })
}

/// The range of `spot`, in the open document's text when the file is open, else in the
/// file's text through the workspace.
pub fn range_of(state: &State, spot: &Spot) -> lsp_types::Range {
    let open = uri_of(&spot.path).and_then(|uri| state.documents.get(&uri));
    match open {
        Some(document) => {
            document
                .lines
                .range(&document.text, spot.start, spot.end, state.encoding)
        }
        None => {
            // Decoded as the linter decodes it, so that the spot's offsets mean the same.
            let bytes = state.workspace.read(&spot.path).unwrap_or_default();
            let source = iparams_core::SourceText::decode(&bytes);
            let text = source.text();
            LineMap::new(text).range(text, spot.start, spot.end, state.encoding)
        }
    }
}

/// The document at `uri` and the byte offset of `position` in it.
pub fn offset_in<'s>(
    state: &'s State,
    uri: &Uri,
    position: lsp_types::Position,
) -> Option<(&'s Document, usize)> {
    let document = state.documents.get(uri)?;
    let offset = document
        .lines
        .offset(&document.text, position, state.encoding);
    Some((document, offset))
}
