//! `iparams-lint.preview`: the installation page of the app a file is in, served by the
//! language server on 127.0.0.1 as `iparams-lint preview` serves it, but from the editor's
//! text: every edit of a file of the app shows on the page without saving. One preview per app,
//! reused by every later call; all stop with the server.
//!
//! `workspace/executeCommand` `{command: "iparams-lint.preview", arguments: [URI, OPTIONS?]}`,
//! URI a file or folder of the app, answers `{url, app}`. Unless `OPTIONS` is `{"open": false}`
//! (an editor that shows the page in a view of its own), a client that can show documents is
//! asked to open the URL in the browser (`window/showDocument`, `external`); any other is shown
//! the URL in a message. Without a URI (as
//! Helix's `:lsp-workspace-command` sends it), the app of the document opened or edited last.
//!
//! `iparams-lint.stopPreview` with the same arguments stops the app's preview (an editor's view
//! of it closed); it answers `{stopped}`.
//!
//! Editors that run no command of their own find it as a source action (`PREVIEW_ACTION`) on
//! the files the page is made of.

use std::path::PathBuf;

use lsp_server::ErrorCode;
use lsp_types::{ExecuteCommandParams, Uri};
use serde_json::{Value, json};

use super::documents::{Document, Place, file_path};
use super::state::State;
use crate::preview;
use crate::workspace::app_of;

/// The command's name, as `executeCommandProvider` lists it.
pub const COMMAND: &str = "iparams-lint.preview";
/// Stops the preview of an app (an editor's view of it was closed).
pub const STOP_COMMAND: &str = "iparams-lint.stopPreview";
/// The kind of the code action that runs [`COMMAND`].
pub const PREVIEW_ACTION: &str = "source.preview.iparams-lint";

/// The code action that previews the installation page, on a file of an app the page is made of
/// (iparams.json or iparams.html, the callbacks, the templates).
pub fn action(uri: &Uri, document: &Document) -> Option<Value> {
    let Place::App { relative, .. } = &document.place else {
        return None;
    };
    preview::WATCHED.contains(&relative.as_str()).then(|| {
        let title = "Preview the installation page";
        json!({
            "title": title,
            "kind": PREVIEW_ACTION,
            "command": { "title": title, "command": COMMAND, "arguments": [uri.as_str()] },
        })
    })
}

/// Answers `workspace/executeCommand`: [`COMMAND`] or [`STOP_COMMAND`]. The request to open the
/// page in the browser, when one is to be sent, waits in the state's outbox.
pub fn execute(
    state: &mut State,
    params: ExecuteCommandParams,
) -> Result<Value, (ErrorCode, String)> {
    let command = params.command.as_str();
    if command != COMMAND && command != STOP_COMMAND {
        return Err((
            ErrorCode::InvalidParams,
            format!(
                "iparams-lint has no command `{command}`; it has `{COMMAND}` and `{STOP_COMMAND}`"
            ),
        ));
    }
    let arguments = params.arguments.unwrap_or_default();
    let root = app_named(state, &arguments, command)?;
    if command == STOP_COMMAND {
        let stopped = state.previews.stop(&root);
        return Ok(json!({ "stopped": stopped }));
    }
    let url = state
        .previews
        .open(&root, &state.workspace)
        .map_err(|message| (ErrorCode::RequestFailed, message))?;
    let open = arguments.get(1).and_then(|o| o["open"].as_bool()) != Some(false);
    if open && state.show_document {
        state.request(
            "window/showDocument",
            json!({ "uri": url, "external": true }),
        );
    } else if open {
        // Shown where the client shows messages: the address to open.
        let message = format!(
            "iparams-lint: the installation page of {} is at {url}",
            root.display()
        );
        state.notify(
            "window/showMessage",
            json!({ "type": 3, "message": message }),
        );
    }
    Ok(json!({ "url": url, "app": root.display().to_string() }))
}

/// The folder of the app the `arguments` of `command` name: by the URI of a file or folder of
/// it, or without one, the app of the document opened or edited last.
fn app_named(
    state: &State,
    arguments: &[Value],
    command: &str,
) -> Result<PathBuf, (ErrorCode, String)> {
    let invalid = |message: String| (ErrorCode::InvalidParams, message);
    let path = match arguments.first() {
        Some(Value::String(named)) => named
            .parse::<Uri>()
            .ok()
            .as_ref()
            .and_then(file_path)
            .ok_or_else(|| invalid(format!("`{named}` is not a file: URI")))?,
        None | Some(Value::Null) => state.last_in_app.clone().ok_or_else(|| {
            invalid(format!(
                "`{command}` takes the URI of a file or folder of an app, or stands for the app \
                 of the document opened or edited last: no document of an app is open"
            ))
        })?,
        Some(_) => {
            return Err(invalid(format!(
                "`{command}` takes the URI of a file or folder of an app as its first argument"
            )));
        }
    };
    app_of(&path).map(|app| app.root).ok_or_else(|| {
        invalid(format!(
            "{}: not in an app (an app's folder holds manifest.json and config/)",
            path.display()
        ))
    })
}
