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
    /// Requests from the server.
    requests: Vec<Request>,
}

impl Client {
    /// Starts a server and initializes it, offering `encodings` (none: the client says nothing).
    fn start(encodings: Option<&[&str]>) -> (Self, Value) {
        Self::start_with(encodings, json!({}))
    }

    /// Starts a server with these client capabilities besides the encodings.
    fn start_with(encodings: Option<&[&str]>, mut capabilities: Value) -> (Self, Value) {
        let (server, client) = Connection::memory();
        let handle = std::thread::spawn(move || iparams_lint::lsp::serve(&server));
        let mut client = Client {
            connection: client,
            server: Some(handle),
            next_id: 0,
            notifications: Vec::new(),
            requests: Vec::new(),
        };
        if let Some(encodings) = encodings {
            capabilities["general"] = json!({ "positionEncodings": encodings });
        }
        let result = client.result(
            "initialize",
            json!({ "processId": null, "rootUri": null, "capabilities": capabilities }),
        );
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
                Message::Request(request) => self.requests.push(request),
                other => panic!("unexpected {other:?}"),
            }
        }
    }

    /// The result of a request that must succeed.
    fn result(&mut self, method: &str, params: Value) -> Value {
        match self.request(method, params).response_result {
            Ok(result) => result,
            Err(error) => panic!("{method} failed: {error:?}"),
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
                Message::Request(request) => self.requests.push(request),
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

    /// The newest diagnostics of `uri` once the server has handled everything sent so far.
    fn settled(&mut self, uri: &str) -> Value {
        self.sync();
        self.latest(uri)
            .unwrap_or_else(|| panic!("diagnostics published for {uri}"))
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
    let mut expected = json_output(root);
    let (mut client, _) = Client::start(Some(&["utf-32"]));
    moved_to_the_manifest(root, &mut expected);
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
            .unwrap_or_else(|| panic!("diagnostics for {}", path.display()));
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

/// The command's findings of a file the app lacks (config/iparams.json when config/ has no
/// page source) are shown by the server at the top of manifest.json, after its own.
fn moved_to_the_manifest(root: &Path, expected: &mut Value) {
    let files = expected["files"].as_array_mut().expect("files");
    let mut lacking = Vec::new();
    for file in files.iter() {
        if !Path::new(file["path"].as_str().expect("a path")).exists() {
            for finding in file["diagnostics"].as_array().expect("a list") {
                let mut finding = finding.clone();
                finding["start"] = json!({"line": 1, "column": 1});
                finding["end"] = json!({"line": 1, "column": 1});
                lacking.push(finding);
            }
        }
    }
    let manifest = root.join("manifest.json");
    if let Some(file) = files
        .iter_mut()
        .find(|file| Path::new(file["path"].as_str().expect("a path")) == manifest)
    {
        let list = file["diagnostics"].as_array_mut().expect("a list");
        list.extend(lacking);
    }
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
        .result(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": file },
                "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 4, "character": 0 } },
                "context": { "diagnostics": [] },
            }),
        );
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

/// A `.iparams-lint.toml` that is a FIFO is neither waited on nor edited: the actions are
/// answered, without "Turn off".
#[cfg(unix)]
#[test]
fn a_configuration_that_is_a_fifo_is_never_waited_on() {
    let scratch = Scratch::new("actions-fifo");
    let path = scratch.write("lone/config/iparams.json", "{}\n");
    support::fifo(&scratch.0.join("lone/.iparams-lint.toml"));
    let file = uri(&path);
    let (mut client, _) = Client::start(Some(&["utf-16"]));
    client.open(&file, "json", FIXABLE);
    let published = client.diagnostics(&file);
    assert!(
        !published["diagnostics"]
            .as_array()
            .expect("a list")
            .is_empty()
    );
    let actions = client.result(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": file },
            "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 4, "character": 0 } },
            "context": { "diagnostics": [] },
        }),
    );
    let titles: Vec<&str> = actions
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|action| action["title"].as_str())
        .collect();
    assert!(titles.iter().any(|t| t.starts_with("Fix ")), "{titles:?}");
    assert!(
        !titles.iter().any(|t| t.starts_with("Turn off")),
        "{titles:?}"
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
        let answer = client.result(method, params);
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
    let types = client.result(
        "textDocument/completion",
        at(&iparams_uri, position_of(&iparams, "\"domain\"", 0, 1)),
    );
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
    let keys = client.result(
        "textDocument/completion",
        at(&page_uri, position_of(&typing, "\"sync\"", 0, 5)),
    );
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
    // Definition reads both buffers, unsaved: the read being typed goes to the key just added.
    let definition = client.result(
        "textDocument/definition",
        at(&page_uri, position_of(&typing, "\"sync\"", 0, 2)),
    );
    assert_eq!(definition["uri"], json!(iparams_uri), "{definition:#}");
    assert_eq!(
        definition["range"]["start"],
        json!({ "line": 1, "character": 3 })
    );

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

/// One message framed as the protocol frames it.
fn frame(message: &Value) -> Vec<u8> {
    let body = serde_json::to_vec(message).expect("JSON");
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend(body);
    out
}

/// Every message of `output`, which must be nothing but Content-Length-framed JSON.
fn unframe(output: &[u8]) -> Vec<Value> {
    let mut messages = Vec::new();
    let mut reader = BufReader::new(output);
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).expect("readable") == 0 {
            return messages;
        }
        let length: usize = header
            .strip_prefix("Content-Length: ")
            .and_then(|rest| rest.strip_suffix("\r\n"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("not a frame header: {header:?}"));
        let mut blank = String::new();
        reader.read_line(&mut blank).expect("readable");
        assert_eq!(blank, "\r\n", "a blank line ends the header");
        let mut body = vec![0; length];
        reader.read_exact(&mut body).expect("a whole body");
        messages.push(serde_json::from_slice(&body).expect("a JSON body"));
    }
}

/// Runs the binary's language server on `messages`; returns its exit status, its messages and
/// its standard error.
fn run_binary(messages: &[Value]) -> (Option<i32>, Vec<Value>, String) {
    run_binary_on(messages.iter().flat_map(frame).collect())
}

/// Runs the binary's language server on the bytes `input`, as `run_binary` does.
fn run_binary_on(input: Vec<u8>) -> (Option<i32>, Vec<Value>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_iparams-lint"))
        // Twice, as VS Code's client sends it for a command that already has it.
        .args(["lsp", "--stdio", "--stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("piped");
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    // Written and read from threads: the server reads and writes at once.
    let writer = std::thread::spawn(move || {
        // A server that stops reading at a framing error may close its input first.
        let _ = stdin.write_all(&input);
    });
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stdout.read_to_end(&mut bytes).expect("readable");
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).expect("readable");
        text
    });
    // A server that hangs fails the test rather than hanging it.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waitable") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server did not end within 60 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    writer.join().expect("written");
    (
        status.code(),
        unframe(&out.join().expect("read")),
        err.join().expect("read"),
    )
}

fn request(id: i32, method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
}

fn notification(method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "method": method, "params": params })
}

fn initialize(encoding: &str) -> [Value; 2] {
    [
        request(
            1,
            "initialize",
            json!({ "processId": null, "rootUri": null, "capabilities": {
                "general": { "positionEncodings": [encoding] },
                // As VS Code: hovers in Markdown (the in-process session lists no format).
                "textDocument": { "hover": { "contentFormat": ["markdown", "plaintext"] } },
            } }),
        ),
        notification("initialized", json!({})),
    ]
}

fn response(messages: &[Value], id: i32) -> &Value {
    messages
        .iter()
        .find(|m| m["id"] == id && m.get("method").is_none())
        .unwrap_or_else(|| panic!("a response to {id} in {messages:#?}"))
}

fn publications<'m>(messages: &'m [Value], uri: &str) -> Vec<&'m Value> {
    messages
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
        .map(|m| &m["params"])
        .collect()
}

#[test]
fn the_binary_speaks_the_protocol_on_stdio() {
    let root = fixture("apps/secure-iparam-in-frontend/invalid");
    let script_path = root.join("app/scripts/app.js");
    let iparams_path = root.join("config/iparams.json");
    let (script_uri, iparams_uri) = (uri(&script_path), uri(&iparams_path));
    // Non-ASCII before the finding: its UTF-16 and UTF-8 columns differ.
    let script = "const é = \"😀\"; const key = await client.iparams.get(\"api_key\");\n";
    let before = &script[..script.find("\"api_key\"").expect("the read")];
    let (utf16, utf8) = (before.encode_utf16().count(), before.len());
    assert_ne!(utf16, utf8);
    let open_script = notification(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": script_uri, "languageId": "javascript", "version": 1, "text": script } }),
    );
    let finding = json!({ "line": 0, "character": utf16 + 2 });
    let iparams = read(&iparams_path);
    let not_secure = iparams.replace(", \"secure\": true", "");
    let mut session: Vec<Value> = initialize("utf-16").into();
    session.extend([
        open_script.clone(),
        request(2, "textDocument/codeAction", json!({
            "textDocument": { "uri": script_uri },
            "range": { "start": finding, "end": finding },
            "context": { "diagnostics": [] },
        })),
        request(3, "textDocument/hover", at(&script_uri, finding.clone())),
        request(4, "iparams-lint/panic", Value::Null),
        // Unsaved: the key is no longer secure; the script's finding goes.
        notification("textDocument/didOpen", json!({ "textDocument": { "uri": iparams_uri, "languageId": "json", "version": 1, "text": iparams } })),
        notification("textDocument/didChange", json!({
            "textDocument": { "uri": iparams_uri, "version": 2 },
            "contentChanges": [{ "text": not_secure }],
        })),
        request(5, "shutdown", Value::Null),
        request(6, "shutdown", Value::Null),
        request(7, "textDocument/hover", at(&script_uri, finding.clone())),
        notification("exit", Value::Null),
    ]);
    let (status, messages, stderr) = run_binary(&session);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(
        response(&messages, 1)["result"]["capabilities"]["positionEncoding"],
        "utf-16"
    );
    let published = publications(&messages, &script_uri);
    let first = &published[0]["diagnostics"][0];
    assert_eq!(first["code"], "secure-iparam-in-frontend");
    assert_eq!(
        first["range"]["start"],
        json!({ "line": 0, "character": utf16 })
    );
    let related = &first["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], iparams_uri.as_str());
    assert_eq!(related["message"], "`api_key` is defined here");
    assert_eq!(
        published.last().expect("a refresh")["diagnostics"],
        json!([])
    );
    assert_eq!(published.last().expect("a refresh")["version"], 1);
    let actions = response(&messages, 2)["result"]
        .as_array()
        .expect("actions");
    assert!(
        actions
            .iter()
            .any(|a| a["title"] == "Turn off secure-iparam-in-frontend in this app"),
        "{actions:#?}"
    );
    let hover = response(&messages, 3)["result"]["contents"]["value"]
        .as_str()
        .expect("a hover");
    assert!(
        hover.starts_with("**secure-iparam-in-frontend** (error)"),
        "{hover}"
    );
    // A handler that panics is answered with an error, and the session goes on.
    assert_eq!(response(&messages, 4)["error"]["code"], -32603);
    assert!(stderr.contains("asked to panic"), "{stderr}");
    assert_eq!(response(&messages, 5)["result"], Value::Null);
    assert_eq!(response(&messages, 6)["result"], Value::Null);
    assert_eq!(response(&messages, 7)["error"]["code"], -32600);

    // The same file with UTF-8 positions.
    let mut session: Vec<Value> = initialize("utf-8").into();
    session.extend([
        open_script,
        request(2, "shutdown", Value::Null),
        notification("exit", Value::Null),
    ]);
    let (status, messages, stderr) = run_binary(&session);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(
        response(&messages, 1)["result"]["capabilities"]["positionEncoding"],
        "utf-8"
    );
    let published = publications(&messages, &script_uri);
    assert_eq!(
        published[0]["diagnostics"][0]["range"]["start"],
        json!({ "line": 0, "character": utf8 })
    );
}

#[test]
fn the_end_of_input_ends_the_server_cleanly() {
    let session: Vec<Value> = initialize("utf-16").into();
    let (status, messages, stderr) = run_binary(&session);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(messages.len(), 1);
}

#[test]
fn configuration_changed_on_disk_is_read_again_when_the_editor_says_so() {
    let scratch = Scratch::new("watched");
    let path = scratch.write("lone/config/iparams.json", FIXABLE);
    let file = uri(&path);
    let (mut client, _) = Client::start_with(
        None,
        json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } }),
    );
    client.open(&file, "json", FIXABLE);
    let before = client.diagnostics(&file)["diagnostics"]
        .as_array()
        .expect("a list")
        .len();
    // The server asked to be told about configuration files.
    client.sync();
    let registration = client
        .requests
        .iter()
        .find(|r| r.method == "client/registerCapability")
        .expect("a registration");
    assert_eq!(
        registration.params["registrations"][0]["registerOptions"]["watchers"][0]["globPattern"],
        "**/.iparams-lint.toml"
    );
    let config = scratch.write(
        "lone/.iparams-lint.toml",
        "[rules]\nunknown-type = \"off\"\n",
    );
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(&config), "type": 1 }] }),
    );
    let after = client.diagnostics(&file);
    let codes: Vec<&Value> = after["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|d| &d["code"])
        .collect();
    assert_eq!(codes.len() + 1, before, "{after:#}");
    assert!(!codes.contains(&&json!("unknown-type")));

    // A configuration that cannot be read is said once, and the defaults apply meanwhile.
    std::fs::write(&config, "[rules]\nno-such-rule = \"off\"\n").expect("writable");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(&config), "type": 2 }] }),
    );
    assert_eq!(
        client.diagnostics(&file)["diagnostics"]
            .as_array()
            .expect("a list")
            .len(),
        before
    );
    client.sync();
    let said = client
        .notifications
        .iter()
        .find(|n| n.method == "window/showMessage")
        .expect("a message for the user");
    assert!(
        said.params["message"]
            .as_str()
            .expect("text")
            .contains("no-such-rule")
    );
    client.finish().expect("a clean session");
}

#[test]
fn buffers_without_a_file_get_the_rules_of_iparams_json_itself() {
    let (mut client, _) = Client::start(Some(&["utf-8"]));
    client.open("untitled:Untitled-1", "json", FIXABLE);
    let published = client.diagnostics("untitled:Untitled-1");
    insta::assert_json_snapshot!("untitled", published);
    client.open("untitled:notes", "plaintext", "type: Text");
    assert_eq!(
        client.diagnostics("untitled:notes")["diagnostics"],
        json!([])
    );
    client.finish().expect("a clean session");
}

#[test]
fn queued_edits_are_checked_once_at_their_newest_version() {
    // A large first text keeps the server busy while the edits queue up behind it.
    let members: Vec<String> = (0..5_000)
        .map(|i| format!("\"k{i}\": {{\"display_name\": \"K {i}\", \"type\": \"Text\"}}"))
        .collect();
    let large = format!("{{\n{}\n}}\n", members.join(",\n"));
    let (mut client, _) = Client::start(None);
    client.open("untitled:queued", "json", &large);
    for version in 2..=40 {
        let text = if version == 40 { FIXABLE } else { "{}" };
        client.change("untitled:queued", version, json!([{ "text": text }]));
    }
    client.sync();
    let versions: Vec<&Value> = client
        .notifications
        .iter()
        .filter(|n| n.method == "textDocument/publishDiagnostics")
        .map(|n| &n.params["version"])
        .collect();
    // Edits already queued when a check starts are drained together and only the newest is
    // checked. Which version the server takes first depends on scheduling (version 1 if it reads
    // before the edits arrive; a later one if it was descheduled while they queued), so the test
    // asserts what holds either way: versions only move forward, the last edit is checked, and
    // most edits were never checked on their own (a server that checked each would publish 40).
    let numbers: Vec<u64> = versions.iter().filter_map(|v| v.as_u64()).collect();
    assert_eq!(numbers.len(), versions.len(), "{versions:?}");
    assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{versions:?}");
    assert_eq!(numbers.last(), Some(&40), "{versions:?}");
    assert!(numbers.len() <= 10, "{versions:?}");
    client.finish().expect("a clean session");
}

#[test]
fn completion_knows_the_format_and_the_apps_keys() {
    let root = fixture("apps/hr-sync");
    let (iparams_path, server_path, requests_path) = (
        root.join("config/iparams.json"),
        root.join("server/server.js"),
        root.join("config/requests.json"),
    );
    let (mut client, _) = Client::start(None);
    let labels = |client: &mut Client, file: &str, position: Value| -> Vec<String> {
        let answer = client.result("textDocument/completion", at(file, position));
        answer["items"]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .map(|item| item["label"].as_str().expect("a label").to_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    // iparams.json being typed: a new iparam with a product, a data-bind and a default.
    let typed = "{\n  \"a\": {\"type\": \"domain\", \"type_attributes\": {\"product\": \"\"}, \"data-bind\": \"\", \"options\": [\"One\", \"Two\"], \"default_value\": \"\", \"\"}\n}\n";
    let iparams_uri = uri(&iparams_path);
    client.open(&iparams_uri, "json", typed);
    let products = labels(
        &mut client,
        &iparams_uri,
        position_of(typed, "\"product\": \"\"", 0, 12),
    );
    assert!(
        products.contains(&"freshteam".to_owned()) && products.contains(&"current".to_owned()),
        "{products:?}"
    );
    let binds = labels(
        &mut client,
        &iparams_uri,
        position_of(typed, "\"data-bind\": \"\"", 0, 14),
    );
    assert_eq!(binds, ["product.domain", "product.api_key", "product.url"]);
    let attributes = labels(
        &mut client,
        &iparams_uri,
        position_of(typed, ", \"\"}", 0, 3),
    );
    assert!(
        attributes.contains(&"display_name".to_owned())
            && attributes.contains(&"data-bind".to_owned()),
        "{attributes:?}"
    );
    // The options are read from the file's tree: once the half-written key is gone.
    let whole = typed.replace(", \"\"}", "}");
    client.change(&iparams_uri, 2, json!([{ "text": whole }]));
    let defaults = labels(
        &mut client,
        &iparams_uri,
        position_of(&whole, "\"default_value\": \"\"", 0, 18),
    );
    assert_eq!(defaults, ["One", "Two"]);

    // Code and templates: the keys of the iparams.json the editor holds.
    let server = "exports = { onEvent: function (args) { return args.iparams.; } };\n";
    let server_uri = uri(&server_path);
    client.open(&server_uri, "javascript", server);
    let keys = labels(
        &mut client,
        &server_uri,
        position_of(server, "args.iparams.", 0, 13),
    );
    assert_eq!(keys, ["a"]);
    let requests = "{\"t\": {\"schema\": {\"host\": \"<%= iparam. %>\"}}}\n";
    let requests_uri = uri(&requests_path);
    client.open(&requests_uri, "json", requests);
    let keys = labels(
        &mut client,
        &requests_uri,
        position_of(requests, "<%= iparam.", 0, 11),
    );
    assert_eq!(keys, ["a"]);
    // Elsewhere in code, nothing is offered.
    assert!(
        labels(
            &mut client,
            &server_uri,
            position_of(server, "function", 0, 3)
        )
        .is_empty()
    );
    client.finish().expect("a clean session");
}

/// A definition in an iparams.json that is not open and holds a byte that is not UTF-8 (a
/// Latin-1 `é`) before the key on its line: the range is that of the key as the linter reads the
/// file, the byte one character.
#[test]
fn definitions_land_on_the_key_after_a_byte_that_is_not_utf8() {
    let app = Scratch::new("latin-1");
    app.write(
        "manifest.json",
        r#"{"platform-version": "2.3", "product": {"freshdesk": {"location": {"ticket_sidebar": {"url": "index.html", "icon": "icon.svg"}}}}}"#,
    );
    let iparams = app.0.join("config/iparams.json");
    std::fs::create_dir_all(iparams.parent().expect("a parent")).expect("folders");
    let mut bytes = b"{\n  \"cafe\": {\"display_name\": \"Caf".to_vec();
    bytes.push(0xE9);
    bytes.extend_from_slice(
        b"\", \"type\": \"text\"}, \"notify_email\": {\"display_name\": \"Notify\", \"type\": \"email\"}\n}\n",
    );
    std::fs::write(&iparams, &bytes).expect("writable");
    let page = "<script>client.iparams.get(\"notify_email\");</script>\n";
    let page_path = app.write("app/index.html", page);
    let page_uri = uri(&page_path);
    let (mut client, _) = Client::start(None);
    client.open(&page_uri, "html", page);
    let definition = client.result(
        "textDocument/definition",
        at(&page_uri, position_of(page, "notify_email", 0, 2)),
    );
    assert_eq!(definition["uri"], json!(uri(&iparams)), "{definition:#}");
    // `  "cafe": {"display_name": "Caf?", "type": "text"}, "` comes before the key.
    let before = r#"  "cafe": {"display_name": "Caf?", "type": "text"}, ""#;
    assert_eq!(
        definition["range"]["start"],
        json!({ "line": 1, "character": before.len() }),
        "{definition:#}"
    );
    let hover = client.result(
        "textDocument/hover",
        at(&page_uri, position_of(page, "notify_email", 0, 2)),
    );
    assert_eq!(
        hover["contents"], "iparam **`notify_email`**: Notify (`email`)",
        "{hover:#}"
    );
    client.finish().expect("a clean session");
}

#[test]
fn exit_without_shutdown_ends_the_session_with_status_1() {
    let exit = json!({ "jsonrpc": "2.0", "method": "exit" });
    let mut input: Vec<u8> = initialize("utf-16").iter().flat_map(frame).collect();
    input.extend(frame(&exit));
    let (status, _, stderr) = run_binary_on(input);
    assert_eq!(status, Some(1), "{stderr}");
    assert!(stderr.contains("`exit` came before `shutdown`"), "{stderr}");
}

#[test]
fn input_that_is_not_framed_as_the_protocol_says_ends_the_session_with_a_message() {
    let initialized: Vec<u8> = initialize("utf-16").iter().flat_map(frame).collect();
    let cases: [(&[u8], &str); 6] = [
        (
            b"Content-Length: 1000000000000\r\n\r\n{}",
            "Content-Length 1000000000000 is over the limit of 67108864 bytes (64 MiB)",
        ),
        (
            b"Content-Type: text/plain\r\n\r\n{}",
            "the headers have no Content-Length",
        ),
        (
            b"Content-Length: many\r\n\r\n{}",
            "Content-Length \"many\" is not a number",
        ),
        (
            b"Content-Length: 50\r\n\r\n{\"jsonrpc\"",
            "the input ended 10 bytes into a body of 50",
        ),
        (
            b"Content-Length: 7\r\n\r\nnot json",
            "the body is not a JSON-RPC message",
        ),
        (
            b"Content-Length: 2\r\n",
            "the input ended inside the headers",
        ),
    ];
    for (bad, expected) in cases {
        let mut input = initialized.clone();
        input.extend_from_slice(bad);
        let (status, messages, stderr) = run_binary_on(input);
        assert_eq!(status, Some(1), "{expected}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "iparams-lint lsp: message 3 (byte {} ",
                initialized.len()
            )),
            "{stderr}"
        );
        assert!(stderr.contains(expected), "{expected}: {stderr}");
        // The session until then was served.
        assert_eq!(
            response(&messages, 1)["result"]["serverInfo"]["name"],
            "iparams-lint"
        );
    }
}

/// The text and URI of the file at `relative` in the app at `root`.
fn file_in(root: &Path, relative: &str) -> (String, String) {
    let path = root.join(relative);
    (read(&path), uri(&path))
}

/// The labels of a completion's items.
fn labels(completion: &Value) -> Vec<String> {
    completion["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["label"].as_str().expect("a label").to_owned())
        .collect()
}

/// The range of the first `length` characters of the `nth` `needle` in `text` (UTF-16, lines
/// split at `\n`).
fn range_of(text: &str, needle: &str, nth: usize, length: usize) -> Value {
    let start = position_of(text, needle, nth, 0);
    let end = position_of(text, needle, nth, length);
    json!({ "start": start, "end": end })
}

/// An app with config/iparams.html and no iparams.json: its iparams are the keys the object
/// `postConfigs` returns (in config/assets/iparams.js), read through the editor's buffers.
#[test]
fn a_custom_page_apps_iparams_are_the_keys_post_configs_returns() {
    let root = fixture("lsp/custom-page");
    let (script, script_uri) = file_in(&root, "config/assets/iparams.js");
    let (app_js, app_uri) = file_in(&root, "app/scripts/app.js");
    let (server, server_uri) = file_in(&root, "server/server.js");
    let (requests, requests_uri) = file_in(&root, "config/requests.json");
    let (page, page_uri) = file_in(&root, "config/iparams.html");
    let (mut client, _) = Client::start(None);
    client.open(&app_uri, "javascript", &app_js);
    client.open(&server_uri, "javascript", &server);
    client.open(&requests_uri, "json", &requests);
    client.open(&page_uri, "html", &page);
    client.sync();

    // Hover on reads in the front end, serverless code and a request template.
    let hover = |client: &mut Client, uri: &str, text: &str, needle: &str| {
        let answer = client.result(
            "textDocument/hover",
            at(uri, position_of(text, needle, 0, 1)),
        );
        answer["contents"].as_str().unwrap_or_default().to_owned()
    };
    let channel_line = script
        .lines()
        .position(|line| line.contains("channel:"))
        .expect("the key")
        + 1;
    assert_eq!(
        hover(&mut client, &app_uri, &app_js, "channel\")"),
        format!(
            "iparam **`channel`**: stored by `postConfigs` (config/assets/iparams.js, line {channel_line}), not secure"
        )
    );
    assert_eq!(
        hover(&mut client, &server_uri, &server, "channel +"),
        format!(
            "iparam **`channel`**: stored by `postConfigs` (config/assets/iparams.js, line {channel_line}), not secure"
        )
    );
    let secure = hover(&mut client, &requests_uri, &requests, "api_key");
    assert!(
        secure.starts_with("iparam **`api_key`**: stored by `postConfigs`")
            && secure.ends_with(", secure (listed in `__meta.secure`)"),
        "{secure}"
    );

    // Definition: from a read to the key's name in the returned object.
    let definition = client.result(
        "textDocument/definition",
        at(&server_uri, position_of(&server, "channel +", 0, 2)),
    );
    assert_eq!(definition["uri"], json!(script_uri), "{definition:#}");
    assert_eq!(
        definition["range"],
        range_of(&script, "channel:", 0, 7),
        "{definition:#}"
    );
    let definition = client.result(
        "textDocument/definition",
        at(&requests_uri, position_of(&requests, "iparam.domain", 0, 8)),
    );
    assert_eq!(
        definition["range"],
        range_of(&script, "domain:", 0, 6),
        "{definition:#}"
    );

    // References: from the key in `postConfigs` to every read.
    client.open(&script_uri, "javascript", &script);
    // Definition from what `getConfigs` reads back (`configs.channel`) to the key too.
    let definition = client.result(
        "textDocument/definition",
        at(&script_uri, position_of(&script, "configs.channel", 0, 10)),
    );
    assert_eq!(definition["uri"], json!(script_uri), "{definition:#}");
    assert_eq!(
        definition["range"],
        range_of(&script, "channel:", 0, 7),
        "{definition:#}"
    );

    let mut references = at(&script_uri, position_of(&script, "channel:", 0, 3));
    references["context"] = json!({ "includeDeclaration": true });
    let found = client.result("textDocument/references", references);
    let places: Vec<(String, Value)> = found
        .as_array()
        .expect("locations")
        .iter()
        .map(|location| {
            let uri = location["uri"].as_str().expect("a uri").to_owned();
            (uri, location["range"]["start"].clone())
        })
        .collect();
    assert_eq!(
        places,
        [
            (script_uri.clone(), position_of(&script, "channel:", 0, 0)),
            (app_uri.clone(), position_of(&app_js, "channel\")", 0, 0)),
            (
                script_uri.clone(),
                position_of(&script, "configs.channel", 0, 8)
            ),
            (server_uri.clone(), position_of(&server, "channel +", 0, 0)),
        ],
        "{found:#}"
    );

    // Completion of keys in code, from the page's keys.
    let typing = app_js.replace(
        "client.iparams.get(\"channel\")",
        "client.iparams.get(\"ch\")",
    );
    client.change(&app_uri, 2, json!([{ "text": typing }]));
    let completion = client.result(
        "textDocument/completion",
        at(&app_uri, position_of(&typing, "\"ch\"", 0, 3)),
    );
    assert_eq!(labels(&completion), ["domain", "api_key", "channel"]);
    // The read of a key the page does not store is a finding, and its hover says so.
    let published = client.settled(&app_uri);
    assert_eq!(published["version"], 2);
    assert_eq!(
        published["diagnostics"][0]["code"], "unknown-iparam-read",
        "{published:#}"
    );
    // After the finding's documentation.
    let unknown = hover(&mut client, &app_uri, &typing, "ch\")");
    assert!(
        unknown.ends_with(
            "iparam `ch`: the custom installation page stores no such iparam (`postConfigs` \
             in config/assets/iparams.js does not return it)"
        ),
        "{unknown}"
    );

    // The page's `data-bind` values: hover and completion.
    let bind = client.result(
        "textDocument/hover",
        at(&page_uri, position_of(&page, "product.domain", 0, 3)),
    );
    let text = bind["contents"].as_str().expect("a hover");
    assert!(text.starts_with("**`product.domain`**: "), "{text}");
    assert_eq!(bind["range"], range_of(&page, "product.domain", 0, 14));
    let binding = page.replace("data-bind=\"product.domain\"", "data-bind=\"product.d\"");
    client.change(&page_uri, 2, json!([{ "text": binding }]));
    let completion = client.result(
        "textDocument/completion",
        at(&page_uri, position_of(&binding, "product.d\"", 0, 9)),
    );
    let offered = labels(&completion);
    assert!(
        offered.contains(&"product.domain".to_owned()),
        "{offered:?}"
    );
    assert_eq!(
        completion["items"][0]["textEdit"]["range"],
        range_of(&binding, "product.d\"", 0, 9),
        "{completion:#}"
    );

    // Unsaved: the key renamed in `postConfigs` is the app's key at once.
    let renamed = script.replace("channel: field", "room: field");
    client.change(&script_uri, 2, json!([{ "text": renamed }]));
    let definition = client.result(
        "textDocument/definition",
        at(&server_uri, position_of(&server, "channel +", 0, 2)),
    );
    assert_eq!(definition, Value::Null);
    let server_now = client.settled(&server_uri);
    assert_eq!(
        server_now["diagnostics"][0]["code"], "unknown-iparam-read",
        "{server_now:#}"
    );
    client.finish().expect("a clean session");
}

/// config/iparams.html gets its findings, and they follow the scripts it loads: a change to
/// config/assets/iparams.js publishes the page's again.
#[test]
fn a_custom_pages_findings_are_published_and_follow_its_scripts() {
    let root = fixture("lsp/custom-page");
    let (page, page_uri) = file_in(&root, "config/iparams.html");
    let (script, script_uri) = file_in(&root, "config/assets/iparams.js");
    let (mut client, _) = Client::start(None);
    client.open(&page_uri, "html", &page);
    assert_eq!(client.diagnostics(&page_uri)["diagnostics"], json!([]));
    // The page's own finding.
    let without_client = page.replace("  <script src=\"{{{appclient}}}\"></script>\n", "");
    client.change(&page_uri, 2, json!([{ "text": without_client }]));
    let published = client.diagnostics(&page_uri);
    assert_eq!(published["version"], 2);
    let codes: Vec<&Value> = published["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|d| &d["code"])
        .collect();
    assert_eq!(codes, [&json!("missing-app-client")], "{published:#}");
    client.change(&page_uri, 3, json!([{ "text": page }]));
    assert_eq!(client.diagnostics(&page_uri)["diagnostics"], json!([]));
    // The script loses `postConfigs`: the page has none, and says so.
    client.open(&script_uri, "javascript", &script);
    client.sync();
    let renamed = script.replace("function postConfigs()", "function storedConfigs()");
    client.change(&script_uri, 2, json!([{ "text": renamed }]));
    let published = client.settled(&page_uri);
    assert_eq!(published["version"], 3);
    assert_eq!(
        published["diagnostics"][0]["code"], "page-function-missing",
        "{published:#}"
    );
    client.finish().expect("a clean session");
}

/// The real apps with a custom page (`../shared/corpus/apps`, read in place): each file's
/// diagnostics are the command's findings, and navigation in one of them leads from its
/// request templates to the keys of `postConfigs`.
#[test]
fn real_custom_page_apps() {
    let corpus = std::env::var_os("IPARAMS_LINT_CORPUS_APPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| support::repo_root().join("../shared/corpus/apps"));
    // Canonical, as an editor names files: URIs of paths through `..` are not normalized.
    let Ok(corpus) = corpus.canonicalize() else {
        support::unavailable(&format!("the corpus of real apps ({})", corpus.display()));
        return;
    };
    let entries = std::fs::read_dir(&corpus).expect("a readable corpus");
    let mut apps: Vec<PathBuf> = entries
        .map(|entry| entry.expect("readable corpus").path())
        .filter(|app| {
            app.join("config/iparams.html").is_file() && !app.join("config/iparams.json").exists()
        })
        .collect();
    apps.sort();
    assert!(apps.len() >= 10, "{} apps with a custom page", apps.len());
    for app in &apps {
        assert_same_as_the_command(app);
    }

    let root = corpus.join("freshworks-developers__request-method-samples__sample-app");
    let (requests, requests_uri) = file_in(&root, "config/requests.json");
    let (script, script_uri) = file_in(&root, "config/assets/iparams.js");
    let (mut client, _) = Client::start(None);
    client.open(&requests_uri, "json", &requests);
    client.sync();
    let definition = client.result(
        "textDocument/definition",
        at(
            &requests_uri,
            position_of(&requests, "iparam.subdomain", 0, 9),
        ),
    );
    assert_eq!(definition["uri"], json!(script_uri), "{definition:#}");
    assert_eq!(definition["range"], range_of(&script, "subdomain:", 0, 9));
    // `__meta.secure` names `apiKey`, which is not a key: `api_key` is stored as any value.
    let hover = client.result(
        "textDocument/hover",
        at(
            &requests_uri,
            position_of(&requests, "iparam.api_key", 0, 9),
        ),
    );
    let text = hover["contents"].as_str().expect("a hover");
    assert!(text.ends_with(", not secure"), "{text}");
    client.open(&script_uri, "javascript", &script);
    let mut references = at(&script_uri, position_of(&script, "subdomain:", 0, 2));
    references["context"] = json!({ "includeDeclaration": false });
    let found = client.result("textDocument/references", references);
    let reads = found.as_array().expect("locations");
    // Every template's read, and `getConfigs`'s `let { api_key, subdomain } = configs;`.
    let (in_script, in_templates): (Vec<_>, Vec<_>) = reads
        .iter()
        .partition(|read| read["uri"] == json!(script_uri));
    assert_eq!(
        in_templates.len(),
        requests.matches("iparam.subdomain").count(),
        "{found:#}"
    );
    assert!(
        in_templates
            .iter()
            .all(|read| read["uri"] == json!(requests_uri))
    );
    assert_eq!(in_script.len(), 1, "{found:#}");
    assert_eq!(
        in_script[0]["range"]["start"],
        position_of(&script, "subdomain }", 0, 0)
    );
    client.finish().expect("a clean session");
}

/// The texts of `files` (each `(text, uri)`) with a rename's workspace edit applied; every
/// file the edit changes must be one of them.
fn renamed(edit: &Value, files: &[(&str, &str)]) -> Vec<String> {
    let changes = edit["changes"].as_object().expect("changes by file");
    for uri in changes.keys() {
        assert!(
            files.iter().any(|(_, known)| known == uri),
            "an edit to {uri}: {edit:#}"
        );
    }
    files
        .iter()
        .map(|(text, uri)| match changes.get(*uri) {
            Some(edits) => apply(text, edits),
            None => (*text).to_owned(),
        })
        .collect()
}

/// The number of text edits of a workspace edit.
fn edit_count(edit: &Value) -> usize {
    edit["changes"]
        .as_object()
        .expect("changes by file")
        .values()
        .map(|edits| edits.as_array().expect("edits").len())
        .sum()
}

/// The message of a request that must fail.
fn refusal(client: &mut Client, method: &str, params: Value) -> String {
    match client.request(method, params).response_result {
        Ok(result) => panic!("{method} succeeded: {result:#}"),
        Err(error) => error.message,
    }
}

fn rename_at(file: &str, position: Value, new_name: &str) -> Value {
    let mut params = at(file, position);
    params["newName"] = json!(new_name);
    params
}

/// Rename in an app with config/iparams.json: from the key or from any read, the key and every
/// read change (a destructured read keeps its variable); a name that is not a key, or one the
/// app declares, is refused.
#[test]
fn rename_an_iparam_of_iparams_json_everywhere_it_is_read() {
    let root = fixture("apps/hr-sync");
    let (iparams, iparams_uri) = file_in(&root, "config/iparams.json");
    let (server, server_uri) = file_in(&root, "server/server.js");
    let (requests, requests_uri) = file_in(&root, "config/requests.json");
    let (page, page_uri) = file_in(&root, "app/index.html");
    let (mut client, _) = Client::start(None);
    client.open(&iparams_uri, "json", &iparams);
    client.open(&server_uri, "javascript", &server);
    client.open(&requests_uri, "json", &requests);
    client.open(&page_uri, "html", &page);
    client.sync();
    let files = [
        (iparams.as_str(), iparams_uri.as_str()),
        (server.as_str(), server_uri.as_str()),
        (requests.as_str(), requests_uri.as_str()),
        (page.as_str(), page_uri.as_str()),
    ];

    // From a destructured read: the range is the key's, the placeholder its name.
    let prepared = client.result(
        "textDocument/prepareRename",
        at(&server_uri, position_of(&server, "department,", 0, 3)),
    );
    assert_eq!(
        prepared,
        json!({ "range": range_of(&server, "department,", 0, 10), "placeholder": "department" })
    );
    // Nowhere near a key: nothing to rename.
    let nothing = client.result(
        "textDocument/prepareRename",
        at(&server_uri, position_of(&server, "exports", 0, 1)),
    );
    assert_eq!(nothing, Value::Null);

    // From the key in iparams.json.
    let edit = client.result(
        "textDocument/rename",
        rename_at(
            &iparams_uri,
            position_of(&iparams, "\"department\"", 0, 2),
            "team",
        ),
    );
    let after = renamed(&edit, &files);
    assert!(after[0].contains("\"team\": {"), "{}", after[0]);
    assert!(!after[0].contains("\"department\""), "{}", after[0]);
    // The variable of the destructuring is kept: the code below it still reads it.
    assert!(
        after[1].contains("const { team: department, employee_statuses"),
        "{}",
        after[1]
    );
    assert_eq!(
        after[1].matches("department").count(),
        server.matches("department").count()
    );
    assert_eq!(after[2], requests);

    // From a read in a request template: the declaration and every template's read.
    let edit = client.result(
        "textDocument/rename",
        rename_at(
            &requests_uri,
            position_of(&requests, "iparam.hr_domain", 1, 9),
            "hr_host",
        ),
    );
    let after = renamed(&edit, &files);
    assert!(after[0].contains("\"hr_host\": {"), "{}", after[0]);
    assert_eq!(
        after[2].matches("<%= iparam.hr_host %>").count(),
        requests.matches("<%= iparam.hr_domain %>").count()
    );
    assert!(!after[2].contains("hr_domain"), "{}", after[2]);
    // As many edits as references, the declaration included.
    let mut references = at(
        &requests_uri,
        position_of(&requests, "iparam.hr_domain", 0, 9),
    );
    references["context"] = json!({ "includeDeclaration": true });
    let found = client.result("textDocument/references", references);
    assert_eq!(
        edit_count(&edit),
        found.as_array().expect("locations").len(),
        "{edit:#}"
    );

    // From a read in a page's script.
    let edit = client.result(
        "textDocument/rename",
        rename_at(
            &page_uri,
            position_of(&page, "\"notify_email\"", 0, 3),
            "notify_address",
        ),
    );
    let after = renamed(&edit, &files);
    assert!(
        after[3].contains("client.iparams.get(\"notify_address\")"),
        "{}",
        after[3]
    );
    assert!(after[0].contains("\"notify_address\": {"), "{}", after[0]);

    // Refusals.
    let invalid = refusal(
        &mut client,
        "textDocument/rename",
        rename_at(
            &server_uri,
            position_of(&server, "department,", 0, 3),
            "hr-team",
        ),
    );
    assert!(
        invalid.contains("`hr-team` is not a valid iparam key"),
        "{invalid}"
    );
    let taken = refusal(
        &mut client,
        "textDocument/rename",
        rename_at(
            &server_uri,
            position_of(&server, "department,", 0, 3),
            "hr_domain",
        ),
    );
    assert!(
        taken.contains("already declares an iparam `hr_domain`"),
        "{taken}"
    );
    client.finish().expect("a clean session");
}

/// Rename in an app with a custom page: the key of the object `postConfigs` returns, what
/// `getConfigs` reads back, and the app's reads, from the editor's unsaved text.
#[test]
fn rename_an_iparam_of_a_custom_page() {
    let root = fixture("lsp/custom-page");
    let (script, script_uri) = file_in(&root, "config/assets/iparams.js");
    let (app_js, app_uri) = file_in(&root, "app/scripts/app.js");
    let (server, server_uri) = file_in(&root, "server/server.js");
    let (requests, requests_uri) = file_in(&root, "config/requests.json");
    let (mut client, _) = Client::start(None);
    client.open(&script_uri, "javascript", &script);
    client.open(&app_uri, "javascript", &app_js);
    client.sync();
    let files = [
        (script.as_str(), script_uri.as_str()),
        (app_js.as_str(), app_uri.as_str()),
        (server.as_str(), server_uri.as_str()),
        (requests.as_str(), requests_uri.as_str()),
    ];
    let edit = client.result(
        "textDocument/rename",
        rename_at(&app_uri, position_of(&app_js, "\"channel\"", 0, 2), "room"),
    );
    let after = renamed(&edit, &files);
    assert!(
        after[0].contains("    room: field(\"channel\").value"),
        "{}",
        after[0]
    );
    assert!(after[0].contains("= configs.room;"), "{}", after[0]);
    assert!(
        after[1].contains("client.iparams.get(\"room\")"),
        "{}",
        after[1]
    );
    // server.js is not open: its text is the disk's.
    assert!(after[2].contains("args.iparams.room"), "{}", after[2]);

    // The key just typed into `postConfigs` (unsaved) is declared: renaming onto it is refused.
    let typed = script.replace(
        "    domain: field",
        "    region: field(\"region\").value,\n    domain: field",
    );
    client.change(&script_uri, 2, json!([{ "text": typed }]));
    let taken = refusal(
        &mut client,
        "textDocument/rename",
        rename_at(
            &app_uri,
            position_of(&app_js, "\"channel\"", 0, 2),
            "region",
        ),
    );
    assert!(
        taken.contains("already declares an iparam `region`"),
        "{taken}"
    );
    // A read of a key the page does not store has no declaration to rename.
    let unknown = app_js.replace("get(\"channel\")", "get(\"chanel\")");
    client.change(&app_uri, 2, json!([{ "text": unknown }]));
    let undeclared = refusal(
        &mut client,
        "textDocument/prepareRename",
        at(&app_uri, position_of(&unknown, "\"chanel\"", 0, 2)),
    );
    assert!(
        undeclared.contains("iparam `chanel` is not declared"),
        "{undeclared}"
    );
    client.finish().expect("a clean session");
}

/// Copies the folder `from` into `to`, file by file.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from).expect("readable") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a type").is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copied");
        }
    }
}

#[test]
fn an_override_for_a_script_reaches_its_diagnostics() {
    let scratch = Scratch::new("script-override");
    copy_folder(&fixture("apps/hr-body/invalid"), &scratch.0);
    scratch.write(
        ".iparams-lint.toml",
        "exclude = [\"manifest.json\"]\n[overrides]\n\"app/scripts/app.js\" = { hr-body = \"info\" }\n",
    );
    let script = scratch.0.join("app/scripts/app.js");
    let (mut client, _) = Client::start(Some(&["utf-32"]));
    client.open(&uri(&script), "javascript", &read(&script));
    let published = client.settled(&uri(&script));
    let severities: Vec<&Value> = published["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|d| &d["severity"])
        .collect();
    // As the command has them: the script's findings at its own level.
    assert_eq!(severities, [&json!(3); 5], "{published:#}");
    client.finish().expect("a clean session");
}

/// The authority (`127.0.0.1:PORT`) of a preview's URL.
fn authority_of(url: &str) -> String {
    let rest = url.strip_prefix("http://").expect("an http URL");
    rest.split('/').next().expect("an authority").to_owned()
}

/// `GET path` from the preview at `authority`: the status, head (lower case) and body.
fn preview_get(authority: &str, path: &str) -> (u16, String, String) {
    support::exchange(authority, "GET", path, authority, &[], "")
}

/// Polls `GET path` (every 20 ms, 20 s at most) until its body holds `wanted`.
fn until_served(authority: &str, path: &str, wanted: &str) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let (status, _, body) = preview_get(authority, path);
        if status == 200 && body.contains(wanted) {
            return body;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{path} never held {wanted:?}; last: {status} {body}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn execute_preview(client: &mut Client, arguments: Value) -> Response {
    client.request(
        "workspace/executeCommand",
        json!({ "command": "iparams-lint.preview", "arguments": arguments }),
    )
}

#[test]
fn the_preview_command_serves_the_editors_unsaved_text() {
    let scratch = Scratch::new("preview-live");
    copy_folder(&fixture("apps/hr-sync"), &scratch.0);
    let iparams = scratch.0.join("config/iparams.json");
    let on_disk = read(&iparams);
    let capabilities = json!({ "window": { "showDocument": { "support": true } } });
    let (mut client, result) = Client::start_with(Some(&["utf-8"]), capabilities);
    assert_eq!(
        result["capabilities"]["executeCommandProvider"]["commands"],
        json!(["iparams-lint.preview", "iparams-lint.stopPreview"])
    );
    client.open(&uri(&iparams), "json", &on_disk);
    let started = execute_preview(&mut client, json!([uri(&iparams)]));
    let started = started.response_result.expect("the preview starts");
    let url = started["url"].as_str().expect("a URL").to_owned();
    assert!(url.starts_with("http://127.0.0.1:") && url.ends_with("/custom_configs"));
    assert_eq!(started["app"], json!(scratch.0.display().to_string()));
    // The client is asked to open it in the browser (after the answer).
    client.sync();
    let shown: Vec<&Request> = client
        .requests
        .iter()
        .filter(|r| r.method == "window/showDocument")
        .collect();
    assert_eq!(shown.len(), 1);
    assert_eq!(shown[0].params, json!({ "uri": url, "external": true }));

    let authority = authority_of(&url);
    let (status, head, _) = preview_get(&authority, "/custom_configs");
    assert_eq!(status, 200);
    // An editor's view (a VS Code webview, code-server's page on loopback) may frame it.
    assert!(
        head.contains(
            "frame-ancestors 'self' vscode-webview: http://127.0.0.1:* http://localhost:*"
        ),
        "{head}"
    );
    // Another page's Host is still refused.
    let (status, _, _) = support::exchange(
        &authority,
        "GET",
        "/custom_configs",
        "evil.example",
        &[],
        "",
    );
    assert_eq!(status, 403);
    until_served(&authority, "/custom_configs/state", "HR account domain");

    // Typed, not saved: the page shows it, with the finding of the new text at its field.
    let edited = on_disk
        .replacen("HR account domain", "Your HR domain", 1)
        .replacen("\"type\": \"domain\"", "\"type\": \"Domain\"", 1);
    client.change(&uri(&iparams), 2, json!([{ "text": edited }]));
    let state = until_served(&authority, "/custom_configs/state", "Your HR domain");
    let state: Value = serde_json::from_str(&state).expect("JSON");
    let at_the_field: Vec<&Value> = state["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["key"] == "hr_domain")
        .collect();
    assert!(
        at_the_field.iter().any(|f| f["rule"] == "unknown-type"),
        "{:#}",
        state["findings"]
    );
    assert_eq!(
        read(&iparams),
        on_disk,
        "nothing is written to the user's files"
    );

    // The script the page runs, unsaved, is the one served.
    let script = scratch.0.join("config/assets/iparams.js");
    client.open(
        &uri(&script),
        "javascript",
        "function onHrDomainChange() { /* typed */ }\n",
    );
    until_served(
        &authority,
        "/custom_configs/assets/iparams.js",
        "/* typed */",
    );
    // So are the templates the page invokes, with the findings of their unsaved text.
    let requests = scratch.0.join("config/requests.json");
    let typed = read(&requests)
        .replacen("listDepartments", "listTeams", 1)
        .replacen("\"GET\"", "\"FETCH\"", 1);
    client.open(&uri(&requests), "json", &typed);
    let state = until_served(&authority, "/custom_configs/state", "listTeams");
    let state: Value = serde_json::from_str(&state).expect("JSON");
    assert!(
        state["findings"]
            .as_array()
            .expect("findings")
            .iter()
            .any(|f| {
                f["rule"] == "request-method"
                    && f["path"]
                        .as_str()
                        .is_some_and(|p| p.ends_with("requests.json"))
            }),
        "{:#}",
        state["findings"]
    );
    assert_ne!(
        read(&requests),
        typed,
        "nothing is written to the user's files"
    );

    // One preview per app: a second call from another file of it reuses it, and an editor with
    // its own view asks not to open a browser.
    let again = execute_preview(
        &mut client,
        json!([uri(&scratch.0.join("manifest.json")), { "open": false }]),
    );
    assert_eq!(again.response_result.expect("reused")["url"], json!(url));
    client.sync();
    let shown = client
        .requests
        .iter()
        .filter(|r| r.method == "window/showDocument")
        .count();
    assert_eq!(shown, 1, "no second browser");

    // Without a URI (Helix's `:lsp-workspace-command`): the app of the document edited last.
    let bare = execute_preview(&mut client, json!([]));
    assert_eq!(
        bare.response_result.expect("the same app")["url"],
        json!(url)
    );
    // Editors that run commands only from code actions find it among the source actions of
    // the files the page is made of, and not among the quick fixes.
    let whole =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 1, "character": 0 } });
    let actions = |client: &mut Client, file: &Path, only: Value| -> Vec<Value> {
        let mut context = json!({ "diagnostics": [] });
        if !only.is_null() {
            context["only"] = only;
        }
        let listed = client.result(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": uri(file) }, "range": whole, "context": context }),
        );
        listed.as_array().expect("actions").clone()
    };
    let kinds = |listed: &[Value]| -> Vec<String> {
        listed
            .iter()
            .map(|a| a["kind"].as_str().unwrap_or("").to_owned())
            .collect()
    };
    const PREVIEW: &str = "source.preview.iparams-lint";
    let listed = actions(&mut client, &iparams, Value::Null);
    let preview_action = listed
        .iter()
        .find(|a| a["kind"] == PREVIEW)
        .unwrap_or_else(|| panic!("no preview action in {listed:#?}"));
    assert_eq!(
        preview_action["command"],
        json!({ "title": "Preview the installation page", "command": "iparams-lint.preview", "arguments": [uri(&iparams)] })
    );
    let quick = kinds(&actions(&mut client, &iparams, json!(["quickfix"])));
    assert!(quick.iter().all(|k| k == "quickfix"), "{quick:?}");
    let source = kinds(&actions(&mut client, &iparams, json!(["source"])));
    assert!(source.iter().any(|k| k == PREVIEW), "{source:?}");
    let server_js = scratch.0.join("server/server.js");
    client.open(&uri(&server_js), "javascript", &read(&server_js));
    let on_a_script = kinds(&actions(&mut client, &server_js, Value::Null));
    assert!(
        on_a_script.iter().all(|k| k != PREVIEW),
        "not on a file the page is not made of: {on_a_script:?}"
    );

    // Closed unsaved: the disk's text counts again.
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri(&iparams) } }),
    );
    until_served(&authority, "/custom_configs/state", "HR account domain");

    // An editor's view closed: its preview stops, and the next call starts another.
    let stop = |client: &mut Client| {
        client.result(
            "workspace/executeCommand",
            json!({ "command": "iparams-lint.stopPreview", "arguments": [uri(&iparams)] }),
        )
    };
    assert_eq!(stop(&mut client), json!({ "stopped": true }));
    assert!(std::net::TcpStream::connect(&authority).is_err(), "stopped");
    assert_eq!(stop(&mut client), json!({ "stopped": false }));
    let restarted = execute_preview(&mut client, json!([uri(&iparams), { "open": false }]));
    let restarted = restarted.response_result.expect("started again")["url"]
        .as_str()
        .expect("a URL")
        .to_owned();
    let authority = authority_of(&restarted);
    until_served(&authority, "/custom_configs/state", "HR account domain");

    client.finish().expect("a clean session");
    assert!(
        std::net::TcpStream::connect(&authority).is_err(),
        "the preview stops with the server"
    );
    assert!(!scratch.0.join(".iparams-lint").exists() || read(&iparams) == on_disk);
}

#[test]
fn the_preview_of_a_custom_page_serves_its_unsaved_page() {
    let scratch = Scratch::new("preview-custom");
    copy_folder(
        &fixture("apps/page-keys-unknown/valid-built-up"),
        &scratch.0,
    );
    let page = scratch.0.join("config/iparams.html");
    let on_disk = read(&page);
    let (mut client, _) = Client::start(Some(&["utf-16"]));
    client.open(&uri(&page), "html", &on_disk);
    let started = execute_preview(&mut client, json!([uri(&scratch.0)]));
    let url = started.response_result.expect("started")["url"]
        .as_str()
        .expect("a URL")
        .to_owned();
    client.sync();
    assert!(
        client.requests.is_empty(),
        "a client that cannot show documents is not asked to"
    );
    let told: Vec<&Notification> = client
        .notifications
        .iter()
        .filter(|n| n.method == "window/showMessage")
        .collect();
    assert_eq!(told.len(), 1, "it is told the address instead");
    assert!(
        told[0].params["message"]
            .as_str()
            .expect("a message")
            .ends_with(&url)
    );
    let authority = authority_of(&url);
    let form = until_served(&authority, "/custom_configs/form", "Region");
    assert!(
        form.contains("/custom_configs/client.js"),
        "the preview's client: {form}"
    );
    client.change(
        &uri(&page),
        2,
        json!([{ "text": on_disk.replace("Region", "Data centre") }]),
    );
    until_served(&authority, "/custom_configs/form", "Data centre");
    assert_eq!(read(&page), on_disk);
    client.finish().expect("a clean session");
}

#[test]
fn the_preview_command_says_what_it_cannot_serve() {
    let scratch = Scratch::new("preview-refused");
    let alone = scratch.write("notes/iparams.json", "{}");
    copy_folder(&fixture("apps/hr-sync"), &scratch.0.join("both"));
    scratch.write("both/config/iparams.html", "<p>a page</p>");
    let (mut client, _) = Client::start(None);
    for (arguments, wanted) in [
        (json!([]), "no document of an app is open"),
        (json!([42]), "takes the URI of a file or folder of an app"),
        (json!(["not a uri"]), "is not a file: URI"),
        (json!([uri(&alone)]), "not in an app"),
        (
            json!([uri(&scratch.0.join("both/manifest.json"))]),
            "holds both iparams.json and iparams.html",
        ),
    ] {
        let refused = execute_preview(&mut client, arguments.clone());
        let error = refused.response_result.expect_err("refused");
        assert!(
            error.message.contains(wanted),
            "{arguments}: {}",
            error.message
        );
    }
    let other = client.request(
        "workspace/executeCommand",
        json!({ "command": "iparams-lint.other", "arguments": [] }),
    );
    assert!(
        other
            .response_result
            .expect_err("refused")
            .message
            .contains("iparams-lint.preview")
    );
    client.finish().expect("a clean session");
}
