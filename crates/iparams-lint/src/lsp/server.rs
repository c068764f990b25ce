//! The message loop: one message at a time, in the order the client sent them, on one thread.
//! Queued edits are drained before checking, so only the newest text of a document is checked;
//! a request handler that panics is answered with an error and the session goes on.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DidSaveTextDocumentParams, InitializeParams, Uri,
};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::documents::{Document, Place, file_path};
use super::positions::Encoding;
use super::state::{Markup, State};
use super::{actions, completion, diagnostics, hover, navigation, preview, rename};
use crate::workspace::config::FILE_NAME;

/// The capabilities agreed with the editors' side (docs/editors.md relies on them).
fn capabilities(encoding: Encoding) -> Value {
    json!({
        "positionEncoding": encoding.kind(),
        "textDocumentSync": { "openClose": true, "change": 2, "save": { "includeText": false } },
        "hoverProvider": true,
        "completionProvider": { "triggerCharacters": ["\"", "."] },
        "definitionProvider": true,
        "referencesProvider": true,
        "renameProvider": { "prepareProvider": true },
        "codeActionProvider": { "codeActionKinds": ["quickfix", actions::FIX_ALL, preview::PREVIEW_ACTION] },
        "executeCommandProvider": { "commands": [preview::COMMAND, preview::STOP_COMMAND] },
    })
}

/// Runs a session over `connection` until `exit` or the end of input; `Err` is a protocol
/// error (a message that is not JSON-RPC, an `exit` before `shutdown`).
pub fn serve(connection: &Connection) -> Result<(), String> {
    let (id, params) = match connection.initialize_start() {
        Ok(start) => start,
        // The client went away before initializing: nothing to do.
        Err(error) if error.channel_is_disconnected() => return Ok(()),
        Err(error) => return Err(error.to_string()),
    };
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let offered = params
        .capabilities
        .general
        .as_ref()
        .and_then(|general| general.position_encodings.as_deref());
    let encoding = Encoding::negotiate(offered);
    let result = json!({
        "capabilities": capabilities(encoding),
        "serverInfo": { "name": "iparams-lint", "version": env!("CARGO_PKG_VERSION") },
    });
    match connection.initialize_finish(id, result) {
        Ok(()) => {}
        Err(error) if error.channel_is_disconnected() => return Ok(()),
        Err(error) => return Err(error.to_string()),
    }
    if params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|workspace| workspace.did_change_watched_files.as_ref())
        .and_then(|watched| watched.dynamic_registration)
        == Some(true)
    {
        // Configuration and manifests edited outside the editor (or saved from it: they are
        // not documents the server is sent) change every finding.
        send(
            connection,
            Request::new(
                "iparams-lint/watch".to_owned().into(),
                "client/registerCapability".into(),
                json!({ "registrations": [{
                    "id": "iparams-lint/watch",
                    "method": "workspace/didChangeWatchedFiles",
                    "registerOptions": { "watchers": [
                        { "globPattern": format!("**/{FILE_NAME}") },
                        { "globPattern": "**/manifest.json" },
                    ] },
                }] }),
            ),
        );
    }
    let mut state = State::new(encoding);
    let capabilities = serde_json::to_value(&params.capabilities).unwrap_or_default();
    let markup = |pointer: &str| match capabilities.pointer(pointer).and_then(Value::as_array) {
        Some(kinds) if kinds.iter().any(|kind| kind == "markdown") => Markup::Markdown,
        Some(_) => Markup::PlainText,
        None => Markup::String,
    };
    state.completion_markup = markup("/textDocument/completion/completionItem/documentationFormat");
    state.hover_markup = markup("/textDocument/hover/contentFormat");
    state.show_document =
        capabilities.pointer("/window/showDocument/support") == Some(&json!(true));
    let mut shutdown = false;
    let mut queued: Option<Message> = None;
    loop {
        let message = match queued.take() {
            Some(message) => message,
            None => match connection.receiver.recv() {
                Ok(message) => message,
                // The end of input: the client is gone.
                Err(_) => return Ok(()),
            },
        };
        match message {
            Message::Request(request) => {
                if request.method == "shutdown" {
                    // Neovim sends it twice: each one is answered.
                    shutdown = true;
                    state.previews.stop_all();
                    send(connection, Response::new_ok(request.id, Value::Null));
                } else if shutdown {
                    send(
                        connection,
                        Response::new_err(
                            request.id,
                            ErrorCode::InvalidRequest as i32,
                            "the server is shutting down".into(),
                        ),
                    );
                } else {
                    let response = answer(&mut state, request);
                    send(connection, response);
                    for message in std::mem::take(&mut state.outbox) {
                        send(connection, message);
                    }
                }
            }
            // The protocol's exit status: 0 after `shutdown`, 1 without it.
            Message::Notification(notification) if notification.method == "exit" => {
                return match shutdown {
                    true => Ok(()),
                    false => Err("`exit` came before `shutdown`".to_owned()),
                };
            }
            Message::Notification(notification) => {
                let mut dirty = BTreeSet::new();
                note(&mut state, notification, &mut dirty);
                // Drain the edits already queued: only the newest text is checked.
                while let Ok(next) = connection.receiver.try_recv() {
                    match next {
                        Message::Notification(n) if n.method == "textDocument/didChange" => {
                            note(&mut state, n, &mut dirty);
                        }
                        other => {
                            queued = Some(other);
                            break;
                        }
                    }
                }
                if !dirty.is_empty() || !state.closed.is_empty() {
                    let published = guarded("checking", || diagnostics::check(&mut state, &dirty));
                    for message in published.unwrap_or_default() {
                        send(connection, message);
                    }
                }
                for text in std::mem::take(&mut state.notes) {
                    if state.first_showing(&text) {
                        send(
                            connection,
                            Notification::new(
                                "window/showMessage".into(),
                                json!({ "type": 2, "message": text }),
                            ),
                        );
                    }
                }
            }
            Message::Response(_) => {}
        }
    }
}

fn send(connection: &Connection, message: impl Into<Message>) {
    // A closed channel means the client is gone; the loop ends at the next receive.
    let _ = connection.sender.send(message.into());
}

/// Runs `work`, catching a panic (logged on standard error, never standard output).
fn guarded<T>(what: &str, work: impl FnOnce() -> T) -> Option<T> {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(value) => Some(value),
        Err(panic) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_owned());
            eprintln!("iparams-lint lsp: {what} failed: {why}");
            None
        }
    }
}

/// A request's answer; a handler that panics is answered with an internal error.
fn answer(state: &mut State, request: Request) -> Response {
    let id = request.id.clone();
    let method = request.method.clone();
    let result = guarded(&method, || handle(state, request));
    match result {
        Some(Ok(value)) => Response::new_ok(id, value),
        Some(Err((code, message))) => Response::new_err(id, code as i32, message),
        None => Response::new_err(
            id,
            ErrorCode::InternalError as i32,
            format!("iparams-lint failed on {method}; the session goes on (see its log)"),
        ),
    }
}

type Answer = Result<Value, (ErrorCode, String)>;

fn params<P: DeserializeOwned>(value: Value) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(value).map_err(|error| (ErrorCode::InvalidParams, error.to_string()))
}

fn handle(state: &mut State, request: Request) -> Answer {
    let value = match request.method.as_str() {
        "textDocument/codeAction" => actions::code_actions(state, params(request.params)?),
        "textDocument/hover" => hover::hover(state, params(request.params)?),
        "textDocument/completion" => completion::complete(state, params(request.params)?),
        "textDocument/definition" => navigation_answer(state, request.params, false)?,
        "textDocument/references" => navigation_answer(state, request.params, true)?,
        "textDocument/prepareRename" => rename::prepare(state, params(request.params)?)?,
        "textDocument/rename" => rename::rename(state, params(request.params)?)?,
        "workspace/executeCommand" => preview::execute(state, params(request.params)?)?,
        // A request the tests use to prove a panic does not end the session.
        "iparams-lint/panic" => panic!("asked to panic"),
        other => {
            return Err((
                ErrorCode::MethodNotFound,
                format!("iparams-lint does not handle {other}"),
            ));
        }
    };
    Ok(value)
}

fn navigation_answer(state: &mut State, value: Value, references: bool) -> Answer {
    Ok(if references {
        navigation::references(state, params(value)?)
    } else {
        navigation::definition(state, params(value)?)
    })
}

/// Takes in a notification; `dirty` collects the documents to check again.
fn note(state: &mut State, notification: Notification, dirty: &mut BTreeSet<Uri>) {
    let method = notification.method.clone();
    let done = guarded(&method, || note_unguarded(state, notification, dirty));
    if done.is_none() {
        state
            .notes
            .push(format!("iparams-lint failed on {method}; see its log"));
    }
}

fn note_unguarded(state: &mut State, notification: Notification, dirty: &mut BTreeSet<Uri>) {
    match notification.method.as_str() {
        "textDocument/didOpen" => {
            let Ok(params) =
                serde_json::from_value::<DidOpenTextDocumentParams>(notification.params)
            else {
                return;
            };
            let item = params.text_document;
            let language = String::from(item.language_id);
            let document = Document::new(&item.uri, item.version, language, item.text);
            state.documents.insert(item.uri.clone(), document);
            state.took_text(&item.uri);
            dirty.insert(item.uri);
        }
        "textDocument/didChange" => {
            let Ok(params) =
                serde_json::from_value::<DidChangeTextDocumentParams>(notification.params)
            else {
                return;
            };
            let uri = params.text_document.text_document_identifier.uri;
            let encoding = state.encoding;
            let Some(document) = state.documents.get_mut(&uri) else {
                return;
            };
            document.change(
                params.text_document.version,
                params.content_changes,
                encoding,
            );
            state.took_text(&uri);
            dirty.insert(uri);
        }
        "textDocument/didSave" => {
            let Ok(params) =
                serde_json::from_value::<DidSaveTextDocumentParams>(notification.params)
            else {
                return;
            };
            let uri = params.text_document.uri;
            if is_config(&uri) {
                // A configuration saved from the editor: every document may change.
                state.forget_configuration();
                dirty.extend(state.documents.keys().cloned());
            } else if state.documents.contains_key(&uri) {
                dirty.insert(uri);
            }
        }
        "textDocument/didClose" => {
            let Ok(params) =
                serde_json::from_value::<DidCloseTextDocumentParams>(notification.params)
            else {
                return;
            };
            let uri = params.text_document.uri;
            if let Some(document) = state.documents.remove(&uri) {
                if let Some(path) = document.path() {
                    state.workspace.remove_overlay(&path);
                    state.previews.edited(&path, None);
                }
                // The other files of its app now see the disk's text.
                if let Place::App { root, .. } = &document.place {
                    // Checked again with them, or indexed again at the next request.
                    state.indexes.forget(root);
                    dirty.extend(
                        state
                            .documents
                            .iter()
                            .filter(|(_, other)| matches!(&other.place, Place::App { root: r, .. } if r == root))
                            .map(|(uri, _)| uri.clone()),
                    );
                }
                state.closed.push(uri);
            }
        }
        "workspace/didChangeWatchedFiles" => {
            // Configuration or app files changed on disk: read configuration again, and check
            // every open document against the new state of the disk.
            state.forget_configuration();
            dirty.extend(state.documents.keys().cloned());
        }
        _ => {}
    }
}

/// Whether `uri` names a configuration file.
fn is_config(uri: &Uri) -> bool {
    file_path(uri).is_some_and(|path| path.file_name().is_some_and(|name| name == FILE_NAME))
}
