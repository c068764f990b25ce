//! The language server, driven in-process over `Connection::memory` (message exchanges with
//! snapshots), and once as the real binary over standard input and output.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::JoinHandle;
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};

/// A client speaking to a server running on a thread of the test.
struct Client {
    connection: Connection,
    server: Option<JoinHandle<Result<(), String>>>,
    next_id: i32,
    /// Notifications received while waiting for something else.
    notifications: Vec<Notification>,
}

impl Client {
    /// Starts a server and initializes it, offering `encodings` (none: the client says nothing).
    fn start(encodings: Option<&[&str]>) -> (Self, Value) {
        let (server, client) = Connection::memory();
        let handle = std::thread::spawn(move || iparams_lint::lsp::serve(&server));
        let mut client = Client {
            connection: client,
            server: Some(handle),
            next_id: 0,
            notifications: Vec::new(),
        };
        let mut capabilities = json!({});
        if let Some(encodings) = encodings {
            capabilities["general"] = json!({ "positionEncodings": encodings });
        }
        let result = client
            .request(
                "initialize",
                json!({ "processId": null, "rootUri": null, "capabilities": capabilities }),
            )
            .response_result
            .expect("initialize succeeds");
        client.notify("initialized", json!({}));
        (client, result)
    }

    fn notify(&self, method: &str, params: Value) {
        self.connection
            .sender
            .send(Notification::new(method.to_owned(), params).into())
            .expect("the server is listening");
    }

    fn request(&mut self, method: &str, params: Value) -> Response {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.connection
            .sender
            .send(Request::new(id.clone(), method.to_owned(), params).into())
            .expect("the server is listening");
        loop {
            match self.receive() {
                Message::Response(response) if response.id == id => return response,
                Message::Notification(notification) => self.notifications.push(notification),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    fn receive(&self) -> Message {
        self.connection
            .receiver
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers within 30 s")
    }

    /// The next diagnostics published for `uri` (earlier ones for other documents are kept).
    fn diagnostics(&mut self, uri: &str) -> Value {
        if let Some(at) = self
            .notifications
            .iter()
            .position(|n| n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri)
        {
            return self.notifications.remove(at).params;
        }
        loop {
            match self.receive() {
                Message::Notification(n)
                    if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri =>
                {
                    return n.params;
                }
                Message::Notification(n) => self.notifications.push(n),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    fn open(&self, uri: &str, language: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": language, "version": 1, "text": text } }),
        );
    }

    fn change(&self, uri: &str, version: i32, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": changes }),
        );
    }

    /// Shuts down and exits; returns what the server's loop returned.
    fn finish(mut self) -> Result<(), String> {
        let response = self.request("shutdown", Value::Null);
        assert_eq!(
            response.response_result.expect("shutdown succeeds"),
            Value::Null
        );
        self.notify("exit", Value::Null);
        self.server
            .take()
            .expect("started")
            .join()
            .expect("the server thread ends")
    }
}

fn fixture(relative: &str) -> PathBuf {
    support::repo_root().join("fixtures").join(relative)
}

fn uri(path: &Path) -> String {
    url::Url::from_file_path(path)
        .expect("an absolute path")
        .to_string()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).expect("a fixture")
}

/// The diagnostics with the machine's paths replaced by `[repo]`, for snapshots.
fn stable(value: &Value) -> Value {
    let root = uri(&support::repo_root());
    let text = serde_json::to_string(value)
        .expect("JSON")
        .replace(&root, "[repo]")
        .replace(&support::repo_root().display().to_string(), "[repo]");
    serde_json::from_str(&text).expect("JSON")
}

#[test]
fn initialize_states_the_agreed_capabilities() {
    let (client, result) = Client::start(Some(&["utf-8", "utf-16"]));
    insta::assert_json_snapshot!("initialize", result["capabilities"]);
    client.finish().expect("a clean session");
}

#[test]
fn utf16_is_chosen_when_nothing_is_offered_and_utf32_when_preferred() {
    let (client, result) = Client::start(None);
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-16");
    client.finish().expect("a clean session");
    let (client, result) = Client::start(Some(&["utf-32", "utf-8"]));
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-32");
    client.finish().expect("a clean session");
}

impl Client {
    /// Waits until the server has handled everything sent so far (a request is answered in
    /// order), keeping the notifications that came before.
    fn sync(&mut self) {
        let _ = self.request("iparams-lint/unknown", Value::Null);
    }

    /// The last diagnostics published for `uri` among those received.
    fn latest(&self, uri: &str) -> Option<Value> {
        self.notifications
            .iter()
            .rev()
            .find(|n| n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri)
            .map(|n| n.params.clone())
    }
}

/// `iparams-lint --format json PATH`, run in-process.
fn json_output(path: &Path) -> Value {
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    iparams_lint::run(
        [
            "iparams-lint",
            "--format",
            "json",
            &path.display().to_string(),
        ],
        &iparams_lint::Environment::default(),
        &mut &b""[..],
        &mut stdout,
        &mut stderr,
    );
    serde_json::from_slice(&stdout).expect("JSON output")
}

fn language_of(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("json") => "json",
        Some("html") => "html",
        _ => "javascript",
    }
}

/// Opens every file of the app in `root` (as an editor with all of them open) and checks that
/// each one's diagnostics are the command's JSON findings for it: rule, severity, message,
/// help and both ends (UTF-32 positions count characters, as the JSON columns do).
fn assert_same_as_the_command(root: &Path) -> usize {
    let expected = json_output(root);
    let (mut client, _) = Client::start(Some(&["utf-32"]));
    let files: Vec<&Value> = expected["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter(|file| Path::new(file["path"].as_str().expect("a path")).is_file())
        .collect();
    for file in &files {
        let path = Path::new(file["path"].as_str().expect("a path"));
        client.open(&uri(path), language_of(path), &read(path));
    }
    client.sync();
    let mut compared = 0;
    for file in files {
        let path = Path::new(file["path"].as_str().expect("a path"));
        let published = client
            .latest(&uri(path))
            .expect("diagnostics for each open file");
        let got = published["diagnostics"].as_array().expect("a list");
        let want = file["diagnostics"].as_array().expect("a list");
        assert_eq!(got.len(), want.len(), "{}: {published:#}", path.display());
        for (got, want) in got.iter().zip(want) {
            let severity = match want["severity"].as_str() {
                Some("error") => 1,
                Some("warning") => 2,
                _ => 3,
            };
            let mut message = want["message"].as_str().expect("a message").to_owned();
            if let Some(help) = want["help"].as_str() {
                message = format!("{message}\n{help}");
            }
            assert_eq!(got["code"], want["rule"], "{}", path.display());
            assert_eq!(got["severity"], severity, "{}", path.display());
            assert_eq!(got["message"], message.as_str(), "{}", path.display());
            assert_eq!(got["source"], "iparams-lint");
            for end in ["start", "end"] {
                let line = want[end]["line"].as_u64().expect("a line") - 1;
                let column = want[end]["column"].as_u64().expect("a column") - 1;
                assert_eq!(
                    (
                        got["range"][end]["line"].as_u64(),
                        got["range"][end]["character"].as_u64()
                    ),
                    (Some(line), Some(column)),
                    "{} {end} of {got:#}",
                    path.display()
                );
            }
            compared += 1;
        }
    }
    client.finish().expect("a clean session");
    compared
}

#[test]
fn diagnostics_are_the_commands_findings_on_the_example_app() {
    assert_eq!(assert_same_as_the_command(&fixture("apps/hr-sync")), 0);
}

#[test]
fn diagnostics_are_the_commands_findings_on_every_fixture_app() {
    let mut compared = 0;
    let mut apps = 0;
    for rule in std::fs::read_dir(fixture("apps")).expect("fixture apps") {
        let rule = rule.expect("an entry").path();
        for case in std::fs::read_dir(&rule).expect("cases") {
            let case = case.expect("an entry").path();
            if case.join("manifest.json").is_file() && case.join("config").is_dir() {
                compared += assert_same_as_the_command(&case);
                apps += 1;
            }
        }
    }
    // Every invalid fixture app has findings: the comparison compared something.
    assert!(
        apps > 20 && compared > apps / 2,
        "{apps} apps, {compared} findings"
    );
}

/// A scratch folder of its own, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("iparams-lsp-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        Scratch(dir.canonicalize().expect("a real path"))
    }

    fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.0.join(relative);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
        std::fs::write(&path, text).expect("writable");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The byte offset of an LSP position counted in UTF-16 units, worked out independently of
/// the server (the texts here break lines with `\n` only).
fn utf16_offset(text: &str, position: &Value) -> usize {
    let line = position["line"].as_u64().expect("a line") as usize;
    let character = position["character"].as_u64().expect("a character") as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    let mut units = 0;
    for (at, c) in text[start..].char_indices() {
        if units >= character || c == '\n' {
            return start + at;
        }
        units += c.len_utf16();
    }
    text.len()
}

/// `text` with the edits of a text document edit applied (UTF-16 positions).
fn apply(text: &str, edits: &Value) -> String {
    let mut edits: Vec<(usize, usize, &str)> = edits
        .as_array()
        .expect("edits")
        .iter()
        .map(|edit| {
            (
                utf16_offset(text, &edit["range"]["start"]),
                utf16_offset(text, &edit["range"]["end"]),
                edit["newText"].as_str().expect("text"),
            )
        })
        .collect();
    edits.sort();
    let mut out = String::new();
    let mut at = 0;
    for (start, end, new) in edits {
        out.push_str(&text[at..start]);
        out.push_str(new);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// A file with two safe fixes and an unsafe one, after non-ASCII text so that UTF-16 and
/// UTF-8 columns differ.
const FIXABLE: &str = "{\n  \"région\": {\"display_name\": \"Région 😀\", \"type\": \"Text\", \"required\": \"true\"},\n  \"k\": {\"display_name\": \"Clé 😀\", \"type\": \"api_key\", \"type_attributes\": {\"product\": \"freshdesk\"}}\n}\n";

#[test]
fn quick_fixes_fix_all_and_turning_a_finding_off() {
    let scratch = Scratch::new("actions");
    let path = scratch.write("lone/config/iparams.json", "{}\n");
    let file = uri(&path);
    let (mut client, _) = Client::start(Some(&["utf-16"]));
    client.open(&file, "json", FIXABLE);
    let published = client.diagnostics(&file);
    assert_eq!(published["version"], 1);
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": file },
                "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 4, "character": 0 } },
                "context": { "diagnostics": [] },
            }),
        )
        .response_result
        .expect("actions");
    let scratch_uri = uri(&scratch.0);
    let shown = serde_json::to_string(&actions)
        .expect("JSON")
        .replace(&scratch_uri, "[scratch]");
    let shown: Value = serde_json::from_str(&shown).expect("JSON");
    insta::assert_json_snapshot!("code_actions", shown);

    // Fix-all gives what `--fix` gives.
    let fix_all = actions
        .as_array()
        .expect("a list")
        .iter()
        .find(|action| action["kind"] == "source.fixAll.iparams-lint")
        .expect("a fix-all action");
    let fixed = apply(FIXABLE, &fix_all["edit"]["documentChanges"][0]["edits"]);
    let (_, by_the_command, _) =
        support::run_on(FIXABLE.as_bytes(), &path.display().to_string(), &["--fix"]);
    assert_eq!(fixed, by_the_command);

    // Turning the unsafe finding off creates the configuration; the next check obeys it.
    let turn_off = actions
        .as_array()
        .expect("a list")
        .iter()
        .find(|action| {
            action["title"]
                .as_str()
                .is_some_and(|t| t.starts_with("Turn off") && t.contains("/k"))
        })
        .expect("a turn-off action");
    let changes = &turn_off["edit"]["documentChanges"];
    assert_eq!(changes[0]["kind"], "create");
    let config = apply("", &changes[1]["edits"]);
    std::fs::write(scratch.0.join("lone/.iparams-lint.toml"), &config).expect("writable");
    client.change(&file, 2, json!([{ "text": FIXABLE }]));
    let after = client.diagnostics(&file);
    let before_codes: Vec<&Value> = published["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|d| &d["code"])
        .collect();
    let after_codes: Vec<&Value> = after["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|d| &d["code"])
        .collect();
    assert_eq!(after["version"], 2);
    assert_eq!(
        after_codes.len() + 1,
        before_codes.len(),
        "{config}\n{after:#}"
    );
    client.finish().expect("a clean session");
}

/// The position (UTF-16, lines split at `\n`) of the `nth` occurrence of `needle` in `text`,
/// plus `shift` characters.
fn position_of(text: &str, needle: &str, nth: usize, shift: usize) -> Value {
    let at = text
        .match_indices(needle)
        .nth(nth)
        .expect("the needle is in the text")
        .0;
    let line = text[..at].matches('\n').count();
    let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let character: usize = text[line_start..at].chars().map(char::len_utf16).sum();
    json!({ "line": line, "character": character + shift })
}

fn at(file: &str, position: Value) -> Value {
    json!({ "textDocument": { "uri": file }, "position": position })
}

#[test]
fn an_editor_session_on_the_example_app() {
    let root = fixture("apps/hr-sync");
    let (iparams_path, page_path) = (
        root.join("config/iparams.json"),
        root.join("app/index.html"),
    );
    let (iparams, page) = (read(&iparams_path), read(&page_path));
    let (iparams_uri, page_uri) = (uri(&iparams_path), uri(&page_path));
    let (mut client, _) = Client::start(None);
    client.open(&iparams_uri, "json", &iparams);
    assert_eq!(client.diagnostics(&iparams_uri)["diagnostics"], json!([]));
    client.open(&page_uri, "html", &page);
    assert_eq!(client.diagnostics(&page_uri)["diagnostics"], json!([]));

    let mut answers = serde_json::Map::new();
    let mut ask = |client: &mut Client, name: &str, method: &str, params: Value| {
        let answer = client
            .request(method, params)
            .response_result
            .expect("an answer");
        answers.insert(name.to_owned(), stable(&answer));
    };
    ask(
        &mut client,
        "hover on an attribute",
        "textDocument/hover",
        at(
            &iparams_uri,
            position_of(&iparams, "\"type_attributes\"", 0, 3),
        ),
    );
    ask(
        &mut client,
        "hover on a type",
        "textDocument/hover",
        at(&iparams_uri, position_of(&iparams, "\"domain\"", 0, 2)),
    );
    ask(
        &mut client,
        "hover on a product",
        "textDocument/hover",
        at(&iparams_uri, position_of(&iparams, "\"freshteam\"", 0, 2)),
    );
    ask(
        &mut client,
        "hover on a read",
        "textDocument/hover",
        at(&page_uri, position_of(&page, "notify_email", 0, 2)),
    );
    ask(
        &mut client,
        "definition of a read",
        "textDocument/definition",
        at(&page_uri, position_of(&page, "notify_email", 0, 2)),
    );
    let mut references = at(
        &iparams_uri,
        position_of(&iparams, "\"sync_interval_minutes\"", 0, 3),
    );
    references["context"] = json!({ "includeDeclaration": true });
    ask(
        &mut client,
        "references of a key",
        "textDocument/references",
        references,
    );
    let types = client
        .request(
            "textDocument/completion",
            at(&iparams_uri, position_of(&iparams, "\"domain\"", 0, 1)),
        )
        .response_result
        .expect("completion");
    let labels: Vec<&str> = types["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["label"].as_str().expect("a label"))
        .collect();
    assert_eq!(labels.len(), 13, "{labels:?}");
    assert!(labels.contains(&"phone_number"));
    answers.insert(
        "first completion of a type".into(),
        types["items"][0].clone(),
    );

    // Unsaved: the page reads a key being typed; completion offers the app's keys.
    let typing = page.replace(
        "client.iparams.get(\"notify_email\")",
        "client.iparams.get(\"sync\")",
    );
    client.change(&page_uri, 2, json!([{ "text": typing }]));
    let published = client.diagnostics(&page_uri);
    assert_eq!(published["version"], 2);
    assert_eq!(
        published["diagnostics"][0]["code"], "unknown-iparam-read",
        "{published:#}"
    );
    let keys = client
        .request(
            "textDocument/completion",
            at(&page_uri, position_of(&typing, "\"sync\"", 0, 5)),
        )
        .response_result
        .expect("completion");
    answers.insert("completion of a key in code".into(), stable(&keys));

    // Cross-file, unsaved: the key is added to the iparams.json buffer, and the page's
    // finding goes at once (with the page's own version).
    let declared = iparams.replacen(
        "{\n",
        "{\n  \"sync\": {\"display_name\": \"Sync\", \"type\": \"text\"},\n",
        1,
    );
    client.change(&iparams_uri, 2, json!([{ "text": declared }]));
    let page_now = client.diagnostics(&page_uri);
    assert_eq!(page_now["version"], 2);
    assert_eq!(page_now["diagnostics"], json!([]), "{page_now:#}");

    // Closing empties the closed document's findings.
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": page_uri } }),
    );
    let closed = client.diagnostics(&page_uri);
    assert_eq!(closed["diagnostics"], json!([]));
    assert_eq!(closed.get("version"), None);

    insta::assert_json_snapshot!("editor_session", Value::Object(answers));
    client.finish().expect("a clean session");
}
