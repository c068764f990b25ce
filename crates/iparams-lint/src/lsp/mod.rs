//! `iparams-lint lsp`: the language server. A front-end over the workspace layer, like the
//! command: documents the editor holds are the workspace's overlays, apps are checked with
//! `Linter::check_app` as `check` does, and findings become diagnostics, quick fixes and hovers.
//!
//! - [`server`]: the message loop (one thread, in order, edits drained, panics caught);
//! - [`documents`]: open documents, incremental edits, where each sits in an app;
//! - [`positions`]: byte offsets ⇄ positions in UTF-8, UTF-16 or UTF-32;
//! - [`diagnostics`]: checking and publishing;
//! - [`actions`]: quick fixes, fix-all, turning a finding off in `.iparams-lint.toml`;
//! - [`keys`]: the iparam keys an app declares (iparams.json, or a custom page's `postConfigs`);
//! - [`index`]: per app, from its last check, its keys and every read of them;
//! - [`hover`], [`completion`], [`navigation`]: what the format and the app's reads tell;
//! - [`rename`]: an iparam key renamed in its declaration and every read.
//!
//! Standard output carries the protocol only: nothing on this path prints; logs go to
//! standard error.

mod actions;
mod completion;
mod context;
mod diagnostics;
mod documents;
mod hover;
mod index;
mod keys;
mod navigation;
pub mod positions;
mod rename;
mod server;
mod state;
mod transport;

use std::path::Path;

use lsp_types::Uri;
use serde_json::{Value, json};

pub use server::serve;

use keys::Spot;
use positions::LineMap;
use state::State;

/// Runs the server over standard input and output; returns the exit status: 0 after `exit` or
/// at the end of input, 1 on a protocol error or input that is not framed as the protocol says.
pub fn run() -> u8 {
    let (connection, io) = transport::stdio();
    let outcome = serve(&connection);
    // Closing the channels lets the writer finish what is queued and stop.
    drop(connection);
    // A session that ended without an error ended because the input did (or after `exit`).
    let input = io.finish(outcome.is_ok());
    match outcome.and(input) {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("iparams-lint lsp: {message}");
            1
        }
    }
}

/// The URI of a file.
fn uri_of(path: &Path) -> Option<Uri> {
    Uri::from_file_path(path).ok()
}

/// The LSP location of `spot`.
fn location(state: &State, spot: &Spot) -> Value {
    json!({ "uri": uri_of(&spot.path), "range": range_of(state, spot) })
}

/// The range of `spot`, in the open document's text when the file is open, else in the
/// file's text through the workspace.
fn range_of(state: &State, spot: &Spot) -> lsp_types::Range {
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
fn offset_in<'s>(
    state: &'s State,
    uri: &Uri,
    position: lsp_types::Position,
) -> Option<(&'s documents::Document, usize)> {
    let document = state.documents.get(uri)?;
    let offset = document
        .lines
        .offset(&document.text, position, state.encoding);
    Some((document, offset))
}

/// Documentation in the form the client shows (Markdown is written to read well as text).
fn markup(markup: state::Markup, value: String) -> Value {
    match markup {
        state::Markup::Markdown => json!({ "kind": "markdown", "value": value }),
        state::Markup::PlainText => json!({ "kind": "plaintext", "value": value }),
        state::Markup::String => Value::String(value),
    }
}
