//! The language server run in-process over `Connection::memory`, as the `lsp` benches drive it:
//! initialized with no capabilities, documents opened, requests answered in turn.

use std::path::Path;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};

/// A session with the server on a thread of its own.
pub struct Session {
    client: Connection,
    server: JoinHandle<Result<(), String>>,
    next_id: i32,
}

impl Session {
    /// Starts the server and initializes it.
    pub fn start() -> Self {
        let (server, client) = Connection::memory();
        let server = std::thread::spawn(move || iparams_lint::lsp::serve(&server));
        let mut session = Self {
            client,
            server,
            next_id: 1,
        };
        session.request(
            "initialize",
            json!({ "processId": null, "rootUri": null, "capabilities": {} }),
        );
        session.notify("initialized", json!({}));
        session
    }

    pub fn notify(&self, method: &str, params: Value) {
        self.send(Notification::new(method.into(), params).into());
    }

    /// Opens the file at `path` with `text`; answers nothing (the check it starts publishes).
    pub fn open(&self, path: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri(path), "languageId": "plaintext", "version": 1, "text": text } }),
        );
    }

    /// Sends a request and returns its result, skipping the notifications before it.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = RequestId::from(self.next_id);
        self.next_id += 1;
        self.send(Request::new(id.clone(), method.into(), params).into());
        loop {
            match self.client.receiver.recv().expect("the server answers") {
                Message::Response(response) if response.id == id => {
                    return match response.response_result {
                        Ok(result) => result,
                        Err(error) => panic!("{method}: {}", error.message),
                    };
                }
                _ => {}
            }
        }
    }

    /// Waits for `count` `publishDiagnostics` notifications.
    pub fn wait_for_diagnostics(&self, count: usize) {
        let mut seen = 0;
        while seen < count {
            if let Message::Notification(n) = self.client.receiver.recv().expect("an answer")
                && n.method == "textDocument/publishDiagnostics"
            {
                seen += 1;
            }
        }
    }

    /// Types a character at byte `at` of the open document `uri` (whose text is `text`), then
    /// deletes it, `runs` edits in all, each timed from the change to the `published`
    /// diagnostics it brings.
    pub fn time_edits(
        &self,
        uri: &str,
        text: &str,
        at: usize,
        runs: usize,
        published: usize,
    ) -> Vec<Duration> {
        let mut times = Vec::with_capacity(runs);
        for run in 0..runs {
            let start = position(text, at);
            let mut end = start.clone();
            let typed = if run % 2 == 0 {
                "x"
            } else {
                end["character"] = json!(end["character"].as_u64().expect("a number") + 1);
                ""
            };
            let started = Instant::now();
            self.notify(
                "textDocument/didChange",
                json!({
                    "textDocument": { "uri": uri, "version": run + 2 },
                    "contentChanges": [{ "range": { "start": start, "end": end }, "text": typed }],
                }),
            );
            self.wait_for_diagnostics(published);
            times.push(started.elapsed());
        }
        times
    }

    /// Shuts the server down and waits for its end.
    pub fn finish(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        self.server
            .join()
            .expect("the server ends")
            .expect("a clean session");
    }

    fn send(&self, message: Message) {
        self.client
            .sender
            .send(message)
            .expect("the server listens");
    }
}

/// The `file:` URI of `path`.
pub fn uri(path: &Path) -> String {
    url::Url::from_file_path(path)
        .expect("an absolute path")
        .to_string()
}

/// The LSP position (line, UTF-16 character) of byte `offset` of an ASCII `text`.
pub fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let character = before.len() - before.rfind('\n').map_or(0, |n| n + 1);
    json!({ "line": line, "character": character })
}
