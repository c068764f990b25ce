//! `iparams-lint preview` as a process, over HTTP on 127.0.0.1: the Host and Origin checks,
//! traversal attempts, body limits, INSTALL's store (200 and 422, the file's mode, and that
//! `iparams-lint values` accepts it), the refill without secrets, template calls against a
//! running `hr-sandbox`, and findings after an edit on disk. The page itself is driven in a
//! browser by tests/preview_browser/ (tests/preview_browser.rs).

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{binary, repo_root, run_in, spawn_announcing};

/// A running `iparams-lint` server (preview or hr-sandbox), killed when dropped.
struct Running {
    child: Child,
    first_line: String,
}

impl Running {
    fn start(args: &[&str]) -> Self {
        let (child, first_line) = spawn_announcing(args);
        Self { child, first_line }
    }

    fn preview(app: &Path, extra: &[&str]) -> Self {
        let app = app.to_str().expect("a UTF-8 path");
        let mut args = vec!["preview", app, "--port", "0"];
        args.extend_from_slice(extra);
        let running = Self::start(&args);
        assert!(
            running.first_line.starts_with("http://127.0.0.1:")
                && running.first_line.ends_with("/custom_configs"),
            "the first line is the page's URL: {}",
            running.first_line
        );
        running
    }

    /// `127.0.0.1:PORT`
    fn authority(&self) -> String {
        let rest = self.first_line.trim_start_matches("http://");
        rest.split('/').next().expect("host").to_owned()
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.raw("GET", path, &self.authority(), &[], "")
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        let (status, text) = self.raw(
            "POST",
            path,
            &self.authority(),
            &[("Content-Type", "application/json")],
            &body.to_string(),
        );
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    fn state(&self) -> Value {
        let (status, text) = self.get("/custom_configs/state");
        assert_eq!(status, 200);
        serde_json::from_str(&text).expect("the state is JSON")
    }

    /// One request as written: the path is sent as it is (no client normalises `..`).
    fn raw(
        &self,
        method: &str,
        path: &str,
        host: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> (u16, String) {
        let (status, _, body) =
            support::exchange(&self.authority(), method, path, host, headers, body);
        (status, body)
    }

    /// A GET's status, head (lower case) and body.
    fn get_with_head(&self, path: &str) -> (u16, String, String) {
        let authority = self.authority();
        support::exchange(&authority, "GET", path, &authority, &[], "")
    }

    /// Stops it with SIGINT; returns the exit code and its standard error.
    fn stop(mut self) -> (Option<i32>, String) {
        let _ = std::process::Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status();
        let status = self.child.wait().expect("it ends");
        let mut log = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            let _ = stderr.read_to_string(&mut log);
        }
        (status.code(), log)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A copy of a fixture app in a fresh folder (INSTALL writes into the app).
fn app_copy(fixture: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iparams-preview-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&repo_root().join(fixture), &dir);
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from).expect("a fixture folder") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copied");
        }
    }
}

const ALL_TYPES: &str = "fixtures/preview/all-types";

/// Values the all-types app's checks accept.
fn good_values(key: &str) -> Value {
    json!({
        "company": "Acme", "notes": "", "mode": "careful", "contact_email": "ops@acme.test",
        "count": "5", "phone": "123-456-7890", "start_date": "2026-01-02", "website": "",
        "color": "green", "advanced": false, "tags": ["one"], "hr_domain": "acme",
        "hr_api_key": key, "tuning": "standard", "code": "", "sync_message": "",
        "resolve_message": "", "reject_message": "", "throws": "", "employee_id": ""
    })
}

#[test]
fn only_requests_naming_the_server_are_answered() {
    let app = app_copy(ALL_TYPES, "host");
    let preview = Running::preview(&app, &[]);
    let port = preview.authority().split(':').nth(1).unwrap().to_owned();
    for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}")] {
        let (status, body) = preview.raw("GET", "/custom_configs", &host, &[], "");
        assert_eq!(status, 200, "{host}");
        assert!(body.contains("<title>Installation Page</title>"));
    }
    for host in [
        format!("attacker.example:{port}"),
        "127.0.0.1".to_owned(),
        format!("127.0.0.1:{}", port.parse::<u32>().unwrap() + 1),
    ] {
        let (status, _) = preview.raw("GET", "/custom_configs/state", &host, &[], "");
        assert_eq!(status, 403, "Host {host} must be refused");
    }
    // A POST from another origin, or not JSON (a form another site could post), is refused.
    let origin = preview.raw(
        "POST",
        "/custom_configs/store",
        &preview.authority(),
        &[
            ("Content-Type", "application/json"),
            ("Origin", "http://attacker.example"),
        ],
        "{}",
    );
    assert_eq!(origin.0, 403);
    let form = preview.raw(
        "POST",
        "/custom_configs/store",
        &preview.authority(),
        &[("Content-Type", "application/x-www-form-urlencoded")],
        "a=b",
    );
    assert_eq!(form.0, 415);
    let (code, log) = preview.stop();
    assert_eq!(code, Some(0), "Ctrl-C stops it cleanly: {log}");
    assert!(log.contains("stopped on SIGINT"), "{log}");
    let _ = std::fs::remove_dir_all(app);
}

#[test]
fn nothing_outside_config_assets_is_served() {
    let app = app_copy(ALL_TYPES, "traversal");
    std::os::unix::fs::symlink(
        app.join("manifest.json"),
        app.join("config/assets/linked.json"),
    )
    .expect("a symlink");
    let preview = Running::preview(&app, &[]);
    let (status, body) = preview.get("/custom_configs/assets/iparams.js");
    assert_eq!(status, 200);
    assert!(body.contains("function syncMessage"));
    for path in [
        "/custom_configs/assets/../iparams.json",
        "/custom_configs/assets/../../manifest.json",
        "/custom_configs/assets/%2e%2e/iparams.json",
        "/custom_configs/assets/%2E%2E%2F%2E%2E%2Fmanifest.json",
        "/custom_configs/assets/..%2fiparams.json",
        "/custom_configs/assets/.%2e/requests.json",
        "/custom_configs/assets/..%5ciparams.json",
        "/custom_configs/assets//etc/passwd",
        "/custom_configs/assets/linked.json",
    ] {
        let (status, body) = preview.get(path);
        assert!(
            status == 403 || status == 404,
            "{path} answered {status}: {body}"
        );
        assert!(
            !body.contains("platform-version") && !body.contains("display_name"),
            "{path}"
        );
    }
    let _ = std::fs::remove_dir_all(app);
}

#[test]
fn bodies_over_the_limit_are_refused() {
    let app = app_copy(ALL_TYPES, "limit");
    let preview = Running::preview(&app, &[]);
    let big = json!({"company": "x".repeat(300 * 1024)});
    let (status, _) = preview.post("/custom_configs/store", &big);
    assert_eq!(status, 413);
    let (status, _) = preview.post("/custom_configs/invoke", &big);
    assert_eq!(status, 413);
    assert!(!app.join(".iparams-lint/installed.json").exists());
    let _ = std::fs::remove_dir_all(app);
}

#[test]
fn install_stores_checked_values_owner_only_and_refills_without_secrets() {
    let app = app_copy(ALL_TYPES, "store");
    let preview = Running::preview(&app, &[]);
    let secret = "sk_live_do_not_print_1234";

    // 422: the values check's findings, at their iparams, without the secret.
    let mut bad = good_values(secret);
    bad["contact_email"] = json!("not an address");
    bad["mode"] = json!("reckless");
    let (status, body) = preview.post("/custom_configs/store", &bad);
    assert_eq!(status, 422, "{body}");
    let pointers: Vec<&str> = body["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter_map(|d| d["pointer"].as_str())
        .collect();
    assert!(pointers.contains(&"/contact_email"), "{pointers:?}");
    assert!(pointers.contains(&"/mode"), "{pointers:?}");
    assert!(!body.to_string().contains(secret));
    let stored_at = app.join(".iparams-lint/installed.json");
    assert!(!stored_at.exists(), "nothing is stored on 422");

    // 200: stored, owner-only, and accepted by `iparams-lint values` as it is.
    let (status, body) = preview.post("/custom_configs/store", &good_values(secret));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["stored"], json!(stored_at.display().to_string()));
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&stored_at)
        .expect("stored")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    let stored: Value =
        serde_json::from_slice(&std::fs::read(&stored_at).expect("readable")).expect("JSON");
    assert_eq!(stored["tags"], json!(["one"]));
    assert_eq!(stored["advanced"], json!(false));
    assert_eq!(stored["hr_domain"], json!("acme"));
    let output = binary()
        .args(["values", "--format", "json"])
        .arg(&stored_at)
        .output()
        .expect("values runs");
    let (out, err) = support::streams(&output);
    assert_eq!(output.status.code(), Some(0), "{out}{err}");
    assert!(!out.contains(secret) && !err.contains(secret));

    // The refill: stored values back, the secure one only named.
    let state = preview.state();
    assert_eq!(state["stored"]["company"], json!("Acme"));
    assert!(state["stored"].get("hr_api_key").is_none());
    assert_eq!(state["secure_set"], json!(["hr_api_key"]));
    let (_, fetched) = preview.get("/custom_configs/fetch");
    for text in [state.to_string(), fetched] {
        assert!(!text.contains(secret), "a secure value went to the page");
    }

    // Storing again without the secure value keeps it.
    let mut again = good_values("");
    again.as_object_mut().unwrap().remove("hr_api_key");
    again["company"] = json!("Acme 2");
    let (status, _) = preview.post("/custom_configs/store", &again);
    assert_eq!(status, 200);
    let stored: Value = serde_json::from_slice(&std::fs::read(&stored_at).unwrap()).unwrap();
    assert_eq!(stored["hr_api_key"], json!(secret));
    assert_eq!(stored["company"], json!("Acme 2"));

    let (_, log) = preview.stop();
    assert!(!log.contains(secret), "the log holds a secure value: {log}");
    let _ = std::fs::remove_dir_all(app);
}

/// Concurrent installs, bounded (6 clients, 15 stores each): while they store value sets whose
/// `company` and `notes` both name their (client, round), a reader reads the stored file again
/// and again. Every store is answered 200; every read is one whole JSON object whose two fields
/// agree (no torn or mixed file); the file at the end is one of the sets, and no temporary file
/// is left beside it.
#[test]
fn concurrent_installs_leave_one_whole_file() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let app = app_copy(ALL_TYPES, "concurrent");
    let preview = Running::preview(&app, &[]);
    let stored_at = app.join(".iparams-lint/installed.json");
    let done = AtomicBool::new(false);
    let reads = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let reader = scope.spawn(|| {
            while !done.load(Ordering::SeqCst) {
                let Ok(bytes) = std::fs::read(&stored_at) else {
                    std::thread::yield_now();
                    continue;
                };
                let stored: Value = serde_json::from_slice(&bytes).unwrap_or_else(|error| {
                    panic!("a torn file ({error}): {}", String::from_utf8_lossy(&bytes))
                });
                assert_eq!(stored["company"], stored["notes"], "a mixed file: {stored}");
                reads.fetch_add(1, Ordering::SeqCst);
            }
        });
        let writers: Vec<_> = (0..6)
            .map(|client| {
                let preview = &preview;
                scope.spawn(move || {
                    for round in 0..15 {
                        let mark = format!("client {client} round {round}");
                        let mut values = good_values("sk_live_concurrent_0001");
                        values["company"] = json!(mark);
                        values["notes"] = json!(mark);
                        let (status, body) = preview.post("/custom_configs/store", &values);
                        assert_eq!(status, 200, "{mark}: {body}");
                    }
                })
            })
            .collect();
        // Every writer is joined and the reader stopped before any failure is raised, so that a
        // failing store fails the test instead of leaving the reader spinning.
        let written: Vec<_> = writers.into_iter().map(|writer| writer.join()).collect();
        done.store(true, Ordering::SeqCst);
        reader.join().expect("the reader");
        for outcome in written {
            outcome.expect("a writer");
        }
    });
    assert!(reads.load(Ordering::SeqCst) > 0, "the reader read nothing");
    let stored: Value =
        serde_json::from_slice(&std::fs::read(&stored_at).expect("stored")).expect("JSON");
    let last = stored["company"].as_str().expect("a company");
    assert!(
        last.starts_with("client ") && stored["notes"] == json!(last),
        "{stored}"
    );
    let mut left: Vec<String> = std::fs::read_dir(app.join(".iparams-lint"))
        .expect("the folder")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    left.sort();
    // No temporary file is left beside the values and the folder's .gitignore.
    assert_eq!(left, [".gitignore", "installed.json"]);
    drop(preview);
    let _ = std::fs::remove_dir_all(app);
}

#[test]
fn templates_are_invoked_against_the_hr_sandbox_and_offline_otherwise() {
    let sandbox = Running::start(&["hr-sandbox", "--port", "0"]);
    let announced: Value = serde_json::from_str(&sandbox.first_line).expect("JSON");
    let url = announced["url"].as_str().expect("url").to_owned();
    let token = announced["tokens"]["hr_partner"]
        .as_str()
        .expect("a key")
        .to_owned();
    let app = app_copy(ALL_TYPES, "invoke");
    let preview = Running::preview(&app, &["--hr-url", &url]);
    let values = good_values(&token);

    let call = |id: &str, values: &Value| {
        let (status, body) = preview.post(
            "/custom_configs/invoke",
            &json!({"name": "getEmployee", "options": {"context": {"id": id}}, "values": values}),
        );
        assert_eq!(status, 200);
        body
    };
    let found = call("1", &values);
    assert_eq!(found["status"], 200, "{found}");
    assert_eq!(found["ok"], true);
    let employee: Value = serde_json::from_str(found["response"].as_str().unwrap()).unwrap();
    assert_eq!(employee["id"], 1);
    assert_eq!(call("999999", &values)["status"], 404);

    // The key comes from the stored values when the page does not hold it.
    let (status, _) = preview.post("/custom_configs/store", &values);
    assert_eq!(status, 200);
    let mut without_key = values.clone();
    without_key.as_object_mut().unwrap().remove("hr_api_key");
    assert_eq!(call("1", &without_key)["status"], 200);

    let mut wrong = values.clone();
    wrong["hr_api_key"] = json!("wrong-key-0000");
    let refused = call("1", &wrong);
    assert_eq!(refused["status"], 401);
    assert!(!refused.to_string().contains("wrong-key-0000"));

    // A missing context name, an unknown template.
    let (_, body) = preview.post(
        "/custom_configs/invoke",
        &json!({"name": "getEmployee", "options": {}, "values": values}),
    );
    assert!(
        body["message"].as_str().unwrap().contains("context.id"),
        "{body}"
    );
    let (_, body) = preview.post(
        "/custom_configs/invoke",
        &json!({"name": "nope", "options": {}, "values": values}),
    );
    assert_eq!(body["message"], "Request template not found");

    // The credential check of INSTALL, with the right and a wrong key.
    let (_, checks) = preview.post("/custom_configs/credentials", &values);
    assert_eq!(checks[0]["outcome"], "passed", "{checks}");
    let (_, checks) = preview.post("/custom_configs/credentials", &wrong);
    assert_eq!(checks[0]["outcome"], "failed");
    assert_eq!(checks[0]["message"], "Domain or API key is not matching");
    // The request API of older apps: refused on platform 2.3 as the platform refuses it.
    let legacy = json!({
        "method": "get",
        "url": "https://<%= iparam.hr_domain %>.freshteam.com/api/employees/1",
        "options": {"headers": {"Authorization": "Bearer <%= iparam.hr_api_key %>", "Accept": "application/json"}},
        "values": values,
    });
    let (_, body) = preview.post("/custom_configs/request", &legacy);
    assert_eq!(body["message"], "get is no longer supported in Request API");
    let (_, log) = preview.stop();
    assert!(!log.contains(&token));

    // On platform 2.2, carried out for a whitelisted host.
    let manifest = app.join("manifest.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let older = text.replace("\"2.3\"", "\"2.2\"").replacen(
        "{",
        "{\n  \"whitelisted-domains\": [\"https://*.freshteam.com\"],",
        1,
    );
    std::fs::write(&manifest, older).unwrap();
    let preview = Running::preview(&app, &["--hr-url", &url]);
    let (_, body) = preview.post("/custom_configs/request", &legacy);
    assert_eq!(body["status"], 200, "{body}");
    let mut elsewhere = legacy.clone();
    elsewhere["url"] = json!("https://api.example.com/x");
    let (_, body) = preview.post("/custom_configs/request", &elsewhere);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("whitelisted-domains"),
        "{body}"
    );
    drop(preview);
    std::fs::write(&manifest, text).unwrap();

    // Without --hr-url: a clear offline error, and the credential check skipped.
    let offline = Running::preview(&app, &[]);
    let (_, body) = offline.post(
        "/custom_configs/invoke",
        &json!({"name": "getEmployee", "options": {"context": {"id": "1"}}, "values": values}),
    );
    assert_eq!(body["ok"], false);
    assert!(
        body["message"].as_str().unwrap().starts_with("Offline"),
        "{body}"
    );
    let (_, checks) = offline.post("/custom_configs/credentials", &values);
    assert_eq!(checks[0]["outcome"], "skipped");
    let _ = std::fs::remove_dir_all(app);
}

#[test]
fn an_edit_on_disk_updates_the_findings() {
    let app = app_copy(ALL_TYPES, "edit");
    let preview = Running::preview(&app, &[]);
    let before = preview.state();
    let version = before["version"].as_u64().expect("a version");
    let rules = |state: &Value| -> Vec<String> {
        state["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["rule"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(
        !rules(&before).contains(&"unknown-type".to_owned()),
        "{:?}",
        rules(&before)
    );

    let path = app.join("config/iparams.json");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replacen("\"type\": \"paragraph\"", "\"type\": \"paragraf\"", 1),
    )
    .unwrap();
    let started = Instant::now();
    let (status, body) = preview.get(&format!("/custom_configs/changes?since={version}"));
    assert_eq!(status, 200);
    let changed: Value = serde_json::from_str(&body).unwrap();
    assert!(changed["version"].as_u64().unwrap() > version, "{changed}");
    assert!(started.elapsed() < Duration::from_secs(5));
    let after = preview.state();
    let finding = after["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["key"] == "notes" && f["rule"] == "unknown-type")
        .unwrap_or_else(|| panic!("the new finding at `notes`: {after}"));
    assert_eq!(
        finding["path"].as_str().unwrap(),
        app.join("config/iparams.json").display().to_string()
    );

    // A syntax error: its finding, and no form built from a guess.
    std::fs::write(&path, "{\"company\": {\"type\": \"text\",}").unwrap();
    let version = after["version"].as_u64().unwrap();
    let _ = preview.get(&format!("/custom_configs/changes?since={version}"));
    let broken = preview.state();
    assert_eq!(broken["broken"], true);
    assert!(broken["iparams"].is_null());
    assert!(!broken["findings"].as_array().unwrap().is_empty());
    let _ = std::fs::remove_dir_all(app);
}

/// An app without manifest.json is served as every front-end checks it: its iparams.json with
/// the rules of iparams.json itself, and a note that says why the rest is not checked.
#[test]
fn an_app_without_its_manifest_is_checked_as_its_iparams_json_alone() {
    let app = app_copy(ALL_TYPES, "no-manifest");
    std::fs::remove_file(app.join("manifest.json")).expect("the fixture has a manifest");
    let preview = Running::preview(&app, &[]);
    let state = preview.state();
    let manifest = app.join("manifest.json").display().to_string();
    assert_eq!(
        state["notes"],
        json!([format!(
            "{manifest}: no such file; only the rules of iparams.json itself were checked"
        )])
    );
    assert_eq!(state["broken"], false);
    let iparams = app.join("config/iparams.json").display().to_string();
    for finding in state["findings"].as_array().expect("findings") {
        assert_eq!(
            finding["path"].as_str(),
            Some(iparams.as_str()),
            "{finding}"
        );
    }
    let _ = std::fs::remove_dir_all(app);
}

/// The status of a GET of `path`, or `None` when no answer came within `PATIENCE`.
fn status_within(authority: &str, path: &str) -> Option<u16> {
    let mut stream = TcpStream::connect(authority).ok()?;
    stream.set_read_timeout(Some(PATIENCE)).ok()?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).ok()?;
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer)
        .split(' ')
        .nth(1)?
        .parse()
        .ok()
}

/// Longer than any request here takes, far shorter than a stalled client would hold one up.
const PATIENCE: Duration = Duration::from_secs(5);

#[test]
fn stalled_clients_and_abandoned_long_polls_never_delay_another_request() {
    let app = app_copy(ALL_TYPES, "stalls");
    let preview = Running::preview(&app, &[]);
    let authority = preview.authority();
    let head = |request: &str| {
        let mut stream = TcpStream::connect(&authority).expect("connects");
        stream
            .write_all(format!("{request}Host: {authority}\r\n").as_bytes())
            .expect("sent");
        stream
    };
    // Bodies declared and never sent, heads never finished.
    let mut stalled = Vec::new();
    for _ in 0..10 {
        let mut stream = head("POST /custom_configs/store HTTP/1.1\r\n");
        stream
            .write_all(b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n")
            .expect("sent");
        stalled.push(stream);
        stalled.push(head("GET /custom_configs/state HTTP/1.1\r\n"));
    }
    // Long-polls for a change that will not come, whose clients then went away.
    for _ in 0..10 {
        let mut stream = head("GET /custom_configs/changes?since=999999 HTTP/1.1\r\n");
        stream.write_all(b"\r\n").expect("sent");
        drop(stream);
    }
    assert_eq!(
        status_within(&authority, "/custom_configs/state"),
        Some(200),
        "another request was held up"
    );
    // A stalled body is answered 408 once the read timeout passes, and the connection closed.
    let answer = support::assert_timed_out(stalled.swap_remove(0));
    assert!(answer.contains(r#"{"error":"#), "{answer}");
    drop(stalled);
    let (code, log) = preview.stop();
    assert_eq!(code, Some(0), "{log}");
    let _ = std::fs::remove_dir_all(app);
}

/// Long-polls wait aside of the cap of ordinary requests: one process renewing more of them than
/// that cap (64) keeps neither the page's requests out nor the newest long-poll (the page's)
/// from waiting, and SIGTERM stops the preview at once with them and stalled requests open.
#[test]
fn long_polls_never_keep_requests_out_nor_the_preview_from_stopping() {
    let app = app_copy(ALL_TYPES, "long-polls");
    let mut preview = Running::preview(&app, &[]);
    let authority = preview.authority();
    let open = |request: &str| {
        let mut stream = TcpStream::connect(&authority).expect("connects");
        stream
            .write_all(format!("{request}Host: {authority}\r\n").as_bytes())
            .expect("sent");
        stream
    };
    let mut polls = Vec::new();
    for _ in 0..5 {
        for _ in 0..20 {
            let mut stream = open("GET /custom_configs/changes?since=999999 HTTP/1.1\r\n");
            stream.write_all(b"\r\n").expect("sent");
            polls.push(stream);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let stalled: Vec<TcpStream> = (0..10)
        .map(|_| open("GET /custom_configs/state HTTP/1.1\r\n"))
        .collect();
    assert_eq!(
        status_within(&authority, "/custom_configs/state"),
        Some(200),
        "long-polls kept a request out"
    );
    // The oldest long-poll was answered to make room for the newer ones.
    polls[0]
        .set_read_timeout(Some(PATIENCE))
        .expect("a read timeout");
    let mut answer = String::new();
    let _ = polls[0].read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    let started = Instant::now();
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &preview.child.id().to_string()])
        .status();
    let code = loop {
        if let Ok(Some(status)) = preview.child.try_wait() {
            break status.code();
        }
        assert!(
            started.elapsed() < PATIENCE,
            "SIGTERM did not stop the preview within {PATIENCE:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(code, Some(0));
    drop((polls, stalled));
    let _ = std::fs::remove_dir_all(app);
}

/// A symbolic link in the app (config/assets, `.iparams-lint/`, or the values file itself) that
/// leads outside it lets the page neither read nor write there.
#[test]
fn symbolic_links_out_of_the_app_are_neither_served_read_nor_written() {
    use std::os::unix::fs::symlink;
    let outside =
        std::env::temp_dir().join(format!("iparams-preview-outside-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&outside);
    std::fs::create_dir_all(outside.join("assets")).expect("a folder");
    std::fs::write(outside.join("assets/stolen.js"), "outside the app").expect("written");
    let planted = r#"{"company": "read from outside", "hr_api_key": "x"}"#;
    std::fs::write(outside.join("installed.json"), planted).expect("written");
    let write_probe = |preview: &Running, what: &str| {
        let (status, body) = preview.post("/custom_configs/store", &good_values("k3y-value-123"));
        assert_eq!(status, 403, "{what}: {body}");
        assert!(
            body["error"]
                .as_str()
                .is_some_and(|e| e.contains("symbolic link")),
            "{what}: {body}"
        );
        let (_, fetched) = preview.get("/custom_configs/fetch");
        assert!(!fetched.contains("read from outside"), "{what}: {fetched}");
        assert_eq!(
            std::fs::read_to_string(outside.join("installed.json")).expect("there"),
            planted,
            "{what}: written outside"
        );
    };

    // config/assets itself a link out of the app.
    let app = app_copy(ALL_TYPES, "link-assets");
    std::fs::remove_dir_all(app.join("config/assets")).expect("removed");
    symlink(outside.join("assets"), app.join("config/assets")).expect("a symlink");
    let preview = Running::preview(&app, &[]);
    let (status, body) = preview.get("/custom_configs/assets/stolen.js");
    assert!(status == 403 || status == 404, "{status}: {body}");
    assert!(!body.contains("outside the app"));
    drop(preview);
    let _ = std::fs::remove_dir_all(&app);

    // `.iparams-lint/` a link out of the app.
    let app = app_copy(ALL_TYPES, "link-folder");
    symlink(&outside, app.join(".iparams-lint")).expect("a symlink");
    let preview = Running::preview(&app, &[]);
    write_probe(&preview, ".iparams-lint/");
    drop(preview);
    let _ = std::fs::remove_dir_all(&app);

    // The values file a link out of the app.
    let app = app_copy(ALL_TYPES, "link-file");
    std::fs::create_dir_all(app.join(".iparams-lint")).expect("a folder");
    symlink(
        outside.join("installed.json"),
        app.join(".iparams-lint/installed.json"),
    )
    .expect("a symlink");
    let preview = Running::preview(&app, &[]);
    write_probe(&preview, ".iparams-lint/installed.json");
    drop(preview);
    let _ = std::fs::remove_dir_all(&app);
    let _ = std::fs::remove_dir_all(&outside);
}

/// config/assets a link to a folder inside the app (`ln -s .. config/assets`): what is under it
/// is served, but nothing under a hidden name of the app (the stored values, git's, the FDK's
/// store, `.env`).
#[test]
fn a_link_inside_the_app_serves_no_hidden_file() {
    let app = app_copy(ALL_TYPES, "link-inside");
    let planted = [
        (".iparams-lint/installed.json", "STORED-VALUE"),
        (".git/config", "GIT-CONFIG"),
        (".fdk/localstore", "FDK-STORE"),
        (".env", "ENV-SECRET"),
        ("config/.hidden.js", "HIDDEN-FILE"),
    ];
    for (relative, text) in planted {
        let path = app.join(relative);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder");
        std::fs::write(path, text).expect("written");
    }
    std::fs::remove_dir_all(app.join("config/assets")).expect("removed");
    std::os::unix::fs::symlink("..", app.join("config/assets")).expect("a link");
    let preview = Running::preview(&app, &[]);
    for (relative, text) in planted {
        for path in [
            format!("/custom_configs/assets/{relative}"),
            format!("/custom_configs/assets/{}", relative.replace('.', "%2e")),
        ] {
            let (status, body) = preview.get(&path);
            assert_eq!(status, 403, "{path}: {body}");
            assert!(!body.contains(text), "{path}: {body}");
        }
    }
    // What is under the real config/assets (here the app's folder) and not hidden is served.
    let (status, body) = preview.get("/custom_configs/assets/manifest.json");
    assert_eq!(status, 200, "{body}");
    drop(preview);
    let _ = std::fs::remove_dir_all(app);
}

/// A FIFO among the assets or where the values are stored is never waited on: the asset is
/// refused and the page's data answered, at once.
#[test]
fn fifos_in_the_app_are_never_waited_on() {
    let app = app_copy(ALL_TYPES, "fifos");
    support::fifo(&app.join("config/assets/stuck.js"));
    std::fs::create_dir_all(app.join(".iparams-lint")).expect("a folder");
    support::fifo(&app.join(".iparams-lint/installed.json"));
    let preview = Running::preview(&app, &[]);
    let authority = preview.authority();
    assert_eq!(
        status_within(&authority, "/custom_configs/assets/stuck.js"),
        Some(403)
    );
    assert_eq!(
        status_within(&authority, "/custom_configs/state"),
        Some(200)
    );
    assert_eq!(
        status_within(&authority, "/custom_configs/fetch"),
        Some(200)
    );
    let (_, body) = preview.get("/custom_configs/assets/stuck.js");
    assert!(body.contains("a FIFO, not a regular file"), "{body}");
    drop(preview);
    let _ = std::fs::remove_dir_all(app);
}

/// INSTALL never writes through a link: a dangling `.iparams-lint/.gitignore` is left as it is,
/// and nothing is created where it points.
#[test]
fn install_never_writes_through_a_dangling_link() {
    let app = app_copy(ALL_TYPES, "dangling");
    let target = app.with_extension("planted");
    let _ = std::fs::remove_file(&target);
    std::fs::create_dir_all(app.join(".iparams-lint")).expect("a folder");
    std::os::unix::fs::symlink(&target, app.join(".iparams-lint/.gitignore")).expect("a link");
    let preview = Running::preview(&app, &[]);
    let (status, body) = preview.post("/custom_configs/store", &good_values("k3y-value-123"));
    assert_eq!(status, 200, "{body}");
    assert!(!target.exists(), "written through the link");
    let stored = std::fs::symlink_metadata(app.join(".iparams-lint/installed.json"));
    assert!(stored.is_ok_and(|entry| entry.is_file()));
    assert!(
        std::fs::symlink_metadata(app.join(".iparams-lint/.gitignore"))
            .is_ok_and(|entry| entry.file_type().is_symlink())
    );
    drop(preview);
    let _ = std::fs::remove_file(&target);
    let _ = std::fs::remove_dir_all(app);
}

/// What INSTALL stores (secure values among them) stays out of git: the preview's folder ignores
/// itself.
#[test]
fn the_stored_values_stay_out_of_git() {
    let app = app_copy(ALL_TYPES, "git");
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t.test"])
            .args(args)
            .current_dir(&app)
            .output()
    };
    if git(&["init", "-q"]).is_err() {
        support::unavailable("git");
        let _ = std::fs::remove_dir_all(app);
        return;
    }
    let preview = Running::preview(&app, &[]);
    let (status, body) = preview.post("/custom_configs/store", &good_values("k3y-value-123"));
    assert_eq!(status, 200, "{body}");
    assert!(app.join(".iparams-lint/installed.json").is_file());
    let added = git(&["add", "-A"]).expect("git runs");
    assert!(added.status.success(), "{added:?}");
    let status = git(&["status", "--porcelain", "--untracked-files=all"]).expect("git runs");
    let listed = String::from_utf8_lossy(&status.stdout);
    assert!(
        listed.contains("manifest.json"),
        "the app is staged: {listed}"
    );
    assert!(!listed.contains(".iparams-lint"), "{listed}");
    drop(preview);
    let _ = std::fs::remove_dir_all(app);
}

/// A loopback server that answers every request with its head as the body and its `X-Pin` and
/// `Authorization` headers echoed back as headers; stops after `count` requests or 30 s.
fn echo_server(count: usize) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    listener.set_nonblocking(true).expect("non-blocking");
    std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut served = 0;
        while served < count && Instant::now() < deadline {
            let Ok((mut stream, _)) = listener.accept() else {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            };
            served += 1;
            let _ = stream.set_nonblocking(false);
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let mut head = Vec::new();
            let mut byte = [0; 1];
            while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).is_ok_and(|n| n == 1) {
                head.push(byte[0]);
            }
            let head = String::from_utf8_lossy(&head).into_owned();
            let echoed = |name: &str| {
                head.lines()
                    .find_map(|line| {
                        let (n, v) = line.split_once(':')?;
                        n.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
                    })
                    .unwrap_or_default()
            };
            let answer = format!(
                "HTTP/1.1 200 OK\r\nX-Seen-Pin: {}\r\nX-Seen-Auth: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{head}",
                echoed("x-pin"),
                echoed("authorization"),
                head.len()
            );
            let _ = stream.write_all(answer.as_bytes());
        }
    });
    url
}

/// Secure values never come back to the page or into the log, in any form a call gives them:
/// a number, base64 of `user:secret`, URL-encoded, in an error message or an offline one.
#[test]
fn calls_never_show_a_secure_value_in_any_form() {
    let dir = std::env::temp_dir().join(format!("iparams-preview-masks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("config")).expect("a folder");
    std::fs::write(
        dir.join("manifest.json"),
        r#"{"platform-version": "2.2", "product": {"freshteam": {}}}"#,
    )
    .expect("written");
    std::fs::write(
        dir.join("config/iparams.json"),
        r#"{
  "pin": {"display_name": "PIN", "type": "number", "secure": true},
  "secret": {"display_name": "Secret", "type": "text", "secure": true},
  "tenant": {"display_name": "Tenant", "type": "text", "secure": true}
}"#,
    )
    .expect("written");
    std::fs::write(
        dir.join("config/requests.json"),
        r#"{
  "echo": {"schema": {"method": "GET", "host": "acme.freshteam.com", "path": "/echo",
    "headers": {"X-Pin": "<%= iparam.pin %>", "Authorization": "Basic <%= encode('user:' + iparam.secret) %>"},
    "query": {"k": "<%= iparam.secret %>"}}},
  "secretHost": {"schema": {"method": "GET", "host": "<%= iparam.secret %>", "path": "/"}},
  "tenantHost": {"schema": {"method": "GET", "host": "<%= iparam.tenant %>.example.com", "path": "/"}},
  "ipHost": {"schema": {"method": "GET", "host": "0x7f.1", "path": "/"}}
}"#,
    )
    .expect("written");
    let echo = echo_server(1);
    let preview = Running::preview(&dir, &["--hr-url", &echo]);
    let secret = "s3cr3t&pass word";
    let values = json!({"pin": 4821, "secret": secret, "tenant": "tenant-7f3k9q"});
    let invoke = |name: &str| {
        let (status, body) = preview.post(
            "/custom_configs/invoke",
            &json!({"name": name, "options": {}, "values": values}),
        );
        assert_eq!(status, 200, "{body}");
        body
    };
    let base64 = |text: &str| {
        let output = std::process::Command::new("base64")
            .arg("-w0")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                child
                    .stdin
                    .take()
                    .expect("piped")
                    .write_all(text.as_bytes())?;
                child.wait_with_output()
            })
            .expect("base64 runs");
        String::from_utf8(output.stdout).expect("text")
    };
    let forms = [
        secret.to_owned(),
        "4821".to_owned(),
        "s3cr3t%26pass%20word".to_owned(),
        base64(&format!("user:{secret}")),
        base64(secret),
        "tenant-7f3k9q".to_owned(),
    ];
    let echoed = invoke("echo");
    assert_eq!(echoed["status"], 200, "{echoed}");
    let mut answers = vec![echoed];
    for (template, says) in [
        ("secretHost", "not a host name"),
        ("tenantHost", "Offline: the preview does not call"),
        (
            "ipHost",
            "is an IP address: the vendor's platform takes a fully qualified",
        ),
    ] {
        let refused = invoke(template);
        let message = refused["message"].as_str().unwrap_or("");
        assert!(message.contains(says), "{template}: {refused}");
        answers.push(refused);
    }
    let (_, legacy) = preview.post(
        "/custom_configs/request",
        &json!({"method": "get", "url": "<%= iparam.secret %>", "options": {}, "values": values}),
    );
    assert!(
        legacy["message"]
            .as_str()
            .is_some_and(|m| m.contains("is not an absolute URL")),
        "{legacy}"
    );
    answers.push(legacy);
    let (_, log) = preview.stop();
    for answer in &answers {
        let shown = answer.to_string();
        for form in &forms {
            assert!(!shown.contains(form.as_str()), "{form} in {shown}");
        }
    }
    for form in &forms {
        assert!(!log.contains(form.as_str()), "{form} in the log: {log}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

const CUSTOM_PAGE: &str = "fixtures/preview/custom-page";

#[test]
fn a_custom_page_is_served_with_the_preview_client_and_its_assets_from_config() {
    let app = app_copy(CUSTOM_PAGE, "custom-routes");
    let preview = Running::preview(&app, &[]);
    let state = preview.state();
    assert_eq!(state["custom_page"], "config/iparams.html");
    assert_eq!(state["products"], json!(["freshdesk"]));
    assert_eq!(state["domain_name"], "acme.freshdesk.com");
    // The page's `domain` inputs offer the core's domains of each product that has some.
    let mut offered: Vec<&String> = state["product_domains"]
        .as_object()
        .expect("product_domains")
        .keys()
        .collect();
    offered.sort();
    assert_eq!(
        offered,
        [
            "freshcaller",
            "freshchat",
            "freshdesk",
            "freshsales",
            "freshservice",
            "freshteam",
            "freshworks_crm"
        ]
    );
    assert_eq!(
        state["product_domains"]["freshworks_crm"],
        json!(["myfreshworks.com", "freshworks.com"])
    );
    let rules: Vec<&str> = state["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["rule"].as_str())
        .collect();
    assert!(rules.contains(&"query-string-in-path"), "{rules:?}");

    // The page as written, but for where it loads the client.
    let (status, form) = preview.get("/custom_configs/form");
    assert_eq!(status, 200);
    let written = std::fs::read_to_string(app.join("config/iparams.html")).unwrap();
    assert_eq!(
        form,
        written.replace("{{{appclient}}}", "/custom_configs/client.js")
    );
    let (status, client) = preview.get("/custom_configs/client.js");
    assert_eq!(status, 200);
    assert!(client.contains("app = { initialized"), "the client script");
    // Its relative assets come from config/assets, and nothing out of it.
    let (status, css) = preview.get("/custom_configs/assets/iparams.css");
    assert_eq!(status, 200);
    assert!(css.contains("rgb(200, 30, 30)"));
    // An asset the app does not have: a plain 404 that names it.
    let (status, head, body) = preview.get_with_head("/custom_configs/assets/theme.css");
    assert_eq!(status, 404);
    assert!(head.contains("content-type: text/plain"), "{head}");
    assert_eq!(body, "config/assets/theme.css is not in the app\n");
    for out in [
        "/custom_configs/assets/../iparams.html",
        "/custom_configs/assets/%2e%2e/requests.json",
        "/custom_configs/assets/..%2f..%2fmanifest.json",
        "/custom_configs/assets/%2e%2e%2f%2e%2e%2fmanifest.json",
    ] {
        assert_eq!(preview.get(out).0, 403, "{out}");
    }
    drop(preview);

    // An older page loads the vendor's client from its CDN: the preview's is loaded instead.
    let cdn = "https://static.freshdev.io/fdk/2.0/assets/fresh_client.js";
    let older = written.replace("{{{appclient}}}", cdn);
    std::fs::write(app.join("config/iparams.html"), &older).unwrap();
    let preview = Running::preview(&app, &[]);
    let (_, form) = preview.get("/custom_configs/form");
    assert_eq!(form, older.replace(cdn, "/custom_configs/client.js"));
    drop(preview);

    // A generated page has no custom page to serve.
    let generated = app_copy(ALL_TYPES, "custom-none");
    let preview = Running::preview(&generated, &[]);
    assert_eq!(preview.get("/custom_configs/form").0, 404);
    assert_eq!(preview.state()["custom_page"], Value::Null);
    drop(preview);
    let _ = std::fs::remove_dir_all(app);
    let _ = std::fs::remove_dir_all(generated);
}

#[test]
fn a_custom_page_s_secure_values_are_stored_and_never_in_any_response() {
    let app = app_copy(CUSTOM_PAGE, "custom-secure");
    let preview = Running::preview(&app, &[]);
    let secret = "hr-key-Zq81v0x7Wm";
    let posted = json!({
        "__meta": {"secure": ["hr_api_key"]},
        "company": "Acme",
        "hr_domain": "acme",
        "hr_api_key": secret,
    });
    let (status, answer) = preview.post("/custom_configs/store", &posted);
    assert_eq!(status, 200, "{answer}");
    // The app's findings come back with the outcome, and what `values` finds in what was
    // stored: nothing, for what the page's code returns.
    assert!(answer["findings"].as_array().is_some_and(|f| !f.is_empty()));
    assert_eq!(answer["diagnostics"], json!([]), "{answer}");
    let values_file = app.join(".iparams-lint/installed.json");
    let stored: Value =
        serde_json::from_str(&std::fs::read_to_string(&values_file).unwrap()).unwrap();
    // The secure keys are stored with the values, as the vendor's saved object keeps them,
    // owner-only.
    assert_eq!(
        stored,
        json!({"company": "Acme", "hr_domain": "acme", "hr_api_key": secret, "__meta": {"secure": ["hr_api_key"]}})
    );
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&values_file)
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    // Never sent back: not in the state, the refill, a template call's answer or a store's.
    let mut answers = vec![answer.to_string()];
    let state = preview.state();
    assert_eq!(
        state["stored"],
        json!({"company": "Acme", "hr_domain": "acme"})
    );
    assert_eq!(state["secure_set"], json!(["hr_api_key"]));
    answers.push(state.to_string());
    let (_, fetched) = preview.get("/custom_configs/fetch");
    answers.push(fetched);
    // The template is filled from the stored values (the key among them), and called offline.
    let (_, called) = preview.post(
        "/custom_configs/invoke",
        &json!({"name": "getEmployee", "options": {"context": {"id": 1}}, "values": {}}),
    );
    assert!(
        called["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("Offline")),
        "{called}"
    );
    answers.push(called.to_string());
    // A secure key left out keeps its value; one posted again replaces it.
    let (status, again) = preview.post(
        "/custom_configs/store",
        &json!({"__meta": {"secure": []}, "company": "Acme Corp", "hr_domain": "acme"}),
    );
    assert_eq!(status, 200);
    answers.push(again.to_string());
    let stored: Value =
        serde_json::from_str(&std::fs::read_to_string(&values_file).unwrap()).unwrap();
    assert_eq!(stored["hr_api_key"], secret);
    assert_eq!(stored["company"], "Acme Corp");
    assert_eq!(preview.state()["secure_set"], json!(["hr_api_key"]));
    // What is not an object of values, or a `__meta.secure` that is not a list of keys.
    for (body, says) in [
        (json!(["x"]), "must return an object"),
        (
            json!({"__meta": {"secure": "hr_api_key"}}),
            "not a list of keys",
        ),
    ] {
        let (status, refused) = preview.post("/custom_configs/store", &body);
        assert_eq!(status, 400);
        assert!(
            refused["error"].as_str().unwrap().contains(says),
            "{refused}"
        );
    }
    let (_, log) = preview.stop();
    answers.push(log);
    for text in &answers {
        assert!(!text.contains(secret), "a secure value in {text}");
    }
    let _ = std::fs::remove_dir_all(app);
}

/// A custom page that loads a component library from a CDN: offline by default (the page's
/// policy allows no other host, and the state names the hosts blocked), loaded over https://
/// with `--allow-remote-scripts`, its requests still only to the preview.
#[test]
fn remote_scripts_of_a_custom_page_are_blocked_unless_allowed() {
    let app = app_copy(CUSTOM_PAGE, "custom-remote");
    let page = app.join("config/iparams.html");
    let written = std::fs::read_to_string(&page).unwrap();
    let remote = written.replace(
        "<link rel=\"stylesheet\" href=\"./assets/iparams.css\" />",
        "<script type=\"module\" src=\"https://cdn.jsdelivr.net/npm/@freshworks/crayons/dist/crayons/crayons.esm.js\"></script>\n  \
         <link rel=\"stylesheet\" href=\"https://static.freshdev.io/fdk/2.0/assets/freshdesk.css\" />",
    );
    assert_ne!(remote, written);
    std::fs::write(&page, remote).unwrap();
    let policy = |preview: &Running| {
        let (status, head, _) = preview.get_with_head("/custom_configs/form");
        assert_eq!(status, 200);
        head.lines()
            .find(|line| line.starts_with("content-security-policy:"))
            .expect("a policy")
            .to_owned()
    };
    let preview = Running::preview(&app, &[]);
    let state = preview.state();
    assert_eq!(
        state["remote_hosts"],
        json!(["cdn.jsdelivr.net", "static.freshdev.io"])
    );
    assert_eq!(state["network"]["remote_scripts"], json!(false));
    let offline = policy(&preview);
    assert!(!offline.contains("https:"), "{offline}");
    drop(preview);

    let preview = Running::preview(&app, &["--allow-remote-scripts"]);
    assert_eq!(preview.state()["network"]["remote_scripts"], json!(true));
    let allowed = policy(&preview);
    for part in [
        "script-src 'self' 'unsafe-inline' https:",
        "style-src 'self' 'unsafe-inline' https:",
        "font-src 'self' data: https:",
        "default-src 'self'",
    ] {
        assert!(allowed.contains(part), "{part} in {allowed}");
    }
    assert!(!allowed.contains("connect-src"), "{allowed}");
    // The preview's own page stays closed to other hosts.
    let (_, head, _) = preview.get_with_head("/custom_configs");
    assert!(!head.contains("https:"), "{head}");
    let _ = std::fs::remove_dir_all(app);
}

/// A value stored as secure stays on the server whatever the definitions say later: iparams.json
/// made it not secure, or a custom page replaced iparams.json (a branch switched while the
/// preview runs). The secure keys are stored with the values, not read from the definitions.
#[test]
fn a_value_stored_as_secure_never_goes_back_when_the_page_changes() {
    let app = app_copy(ALL_TYPES, "secure-flag");
    let preview = Running::preview(&app, &[]);
    let secret = "sk_live_kept_on_the_server_9876";
    let (status, body) = preview.post("/custom_configs/store", &good_values(secret));
    assert_eq!(status, 200, "{body}");
    let stored_at = app.join(".iparams-lint/installed.json");
    let stored: Value = serde_json::from_slice(&std::fs::read(&stored_at).unwrap()).unwrap();
    assert_eq!(stored["__meta"], json!({"secure": ["hr_api_key"]}));
    // `values` reads `__meta` as what it is, not as a value.
    let output = binary().arg("values").arg(&stored_at).output().unwrap();
    let (out, err) = support::streams(&output);
    assert_eq!(output.status.code(), Some(0), "{out}{err}");
    assert!(!out.contains("__meta") && !out.contains(secret), "{out}");

    let answers = |preview: &Running| {
        let (_, fetched) = preview.get("/custom_configs/fetch");
        let state = preview.state();
        assert_eq!(state["secure_set"], json!(["hr_api_key"]), "{state}");
        [state.to_string(), fetched]
    };
    let wait_for = |preview: &Running, done: &dyn Fn(&Value) -> bool| {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !done(&preview.state()) {
            assert!(Instant::now() < deadline, "the preview did not reload");
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    let mut seen = answers(&preview).to_vec();

    // iparams.json no longer says the key is secure.
    let iparams = app.join("config/iparams.json");
    let text = std::fs::read_to_string(&iparams).unwrap();
    let edited = text.replacen("\"secure\": true", "\"secure\": false", 1);
    assert_ne!(edited, text, "the fixture has a secure iparam");
    std::fs::write(&iparams, &edited).unwrap();
    wait_for(&preview, &|state| {
        state["iparams"]
            .as_array()
            .is_some_and(|list| list.iter().all(|def| def["secure"] != json!(true)))
    });
    seen.extend(answers(&preview));
    // Storing again without it keeps it, and keeps it secure.
    let mut again = good_values("");
    again.as_object_mut().unwrap().remove("hr_api_key");
    let (status, body) = preview.post("/custom_configs/store", &again);
    assert_eq!(status, 200, "{body}");
    seen.push(body.to_string());
    let stored: Value = serde_json::from_slice(&std::fs::read(&stored_at).unwrap()).unwrap();
    assert_eq!(stored["hr_api_key"], json!(secret));
    assert_eq!(stored["__meta"], json!({"secure": ["hr_api_key"]}));

    // A custom page in place of iparams.json.
    std::fs::remove_file(&iparams).unwrap();
    std::fs::write(
        app.join("config/iparams.html"),
        "<html><body><script>function postConfigs() { return {}; }\n\
         function getConfigs(c) {}</script></body></html>\n",
    )
    .unwrap();
    wait_for(&preview, &|state| state["custom_page"].is_string());
    seen.extend(answers(&preview));
    let (_, log) = preview.stop();
    seen.push(log);
    for text in &seen {
        assert!(!text.contains(secret), "a secure value in {text}");
    }
    let _ = std::fs::remove_dir_all(app);
}

/// The page's list of iparams is output like any other: what `check` would never print of
/// iparams.json (a credential as a secure iparam's `data-bind`, a token in a display name, a
/// secure default) is masked in it.
#[test]
fn the_state_masks_what_check_masks_in_iparams_json() {
    let app = app_copy(ALL_TYPES, "state-masks");
    let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let bound = "sk_live_0123456789abcdefABCDEF";
    let default = "Zq81v0x7Wm-secure-default";
    let iparams = app.join("config/iparams.json");
    let text = std::fs::read_to_string(&iparams).unwrap();
    let mut root: Value = serde_json::from_str(&text).unwrap();
    root["company"]["display_name"] = json!(format!("Company {token}"));
    root["hr_api_key"]["data-bind"] = json!(bound);
    root["hr_api_key"]["default_value"] = json!(default);
    std::fs::write(&iparams, serde_json::to_string_pretty(&root).unwrap()).unwrap();
    let preview = Running::preview(&app, &[]);
    let state = preview.state();
    let list = state["iparams"].as_array().expect("the iparams");
    let company = list.iter().find(|d| d["key"] == "company").unwrap();
    // A known credential format is masked whole, as `check` quotes it.
    assert_eq!(company["display_name"], json!("********"));
    let text = state.to_string();
    for secret in [token, bound, default] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    let _ = std::fs::remove_dir_all(app);
}

#[test]
fn preview_says_which_installation_page_is_missing_or_doubled() {
    let root = std::env::temp_dir().join(format!("iparams-preview-pages-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let app = root.join("app");
    std::fs::create_dir_all(app.join("config/assets")).unwrap();
    std::fs::write(app.join("manifest.json"), r#"{"platform-version": "2.3"}"#).unwrap();
    let preview = |path: &str| {
        let (code, stdout, stderr) = run_in(&root, &["preview", path, "--port", "0"]);
        assert_eq!(code, Some(2), "{stdout}{stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        stderr
    };
    // An app with neither page.
    let neither = preview("app");
    assert!(
        neither.contains("app: config/ holds neither iparams.json nor iparams.html")
            && neither.contains("write config/iparams.json")
            && neither.contains("config/iparams.html"),
        "{neither}"
    );
    // A folder inside the app is the app, as for `check`.
    let inside = preview("app/config/assets");
    assert!(
        inside.contains("app: config/ holds neither iparams.json nor iparams.html"),
        "{inside}"
    );
    // No app at all.
    let nothing = preview(".");
    assert!(nothing.contains("not an app"), "{nothing}");
    // Both pages: the platform shows one.
    std::fs::write(app.join("config/iparams.json"), "{}").unwrap();
    std::fs::write(app.join("config/iparams.html"), "<html></html>").unwrap();
    let both = preview("app");
    assert!(
        both.contains("app: config/ holds both iparams.json and iparams.html")
            && both.contains("delete the other"),
        "{both}"
    );
    // From a folder inside the app, with no path: the app is served.
    std::fs::remove_file(app.join("config/iparams.html")).unwrap();
    let mut child = support::binary()
        .current_dir(app.join("config/assets"))
        .args(["preview", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut url = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().expect("stdout")),
        &mut url,
    )
    .expect("a first line");
    // The line after the URL, on standard error, names the app served.
    let mut log = String::new();
    let _ = std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stderr.take().expect("stderr")),
        &mut log,
    );
    let _ = child.kill();
    let _ = child.wait();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}{log}");
    assert!(log.starts_with("preview: serving ../.. at"), "{log}");
    let _ = std::fs::remove_dir_all(root);
}

/// Values a custom page posts that its code does not return (a key added at run time, one its
/// `postConfigs` always returns left out) are stored, and `values`'s findings on them come back.
#[test]
fn a_custom_page_s_stored_values_are_checked_against_what_its_code_returns() {
    let app = app_copy(CUSTOM_PAGE, "custom-values");
    let preview = Running::preview(&app, &[]);
    let (status, answer) = preview.post(
        "/custom_configs/store",
        &json!({"__meta": {"secure": ["hr_api_key"]}, "company": "Acme", "debug": true, "hr_api_key": "hr-key-Zq81v0x7Wm"}),
    );
    assert_eq!(status, 200, "{answer}");
    let rules: Vec<&str> = answer["diagnostics"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|d| d["rule"].as_str())
        .collect();
    assert_eq!(
        rules,
        ["missing-value-key", "unknown-value-key"],
        "{answer}"
    );
    assert!(
        !answer.to_string().contains("hr-key-Zq81v0x7Wm"),
        "{answer}"
    );
}

/// The HR key goes to --hr-url: a plain http:// URL off this machine is refused at start, as
/// `values --verify` refuses it, unless --allow-http says to send it anyway. (The refused
/// address is never contacted: the preview stops before it serves or calls anything.)
#[test]
fn plain_http_off_this_machine_is_refused_for_the_hr_key() {
    let app = app_copy(ALL_TYPES, "plain-http");
    let app_path = app.to_str().expect("a UTF-8 path");
    let (status, _, stderr) = support::run_in_time(
        &repo_root(),
        &[
            "preview",
            app_path,
            "--port",
            "0",
            "--hr-url",
            "http://hr.example.test",
        ],
    );
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("plain HTTP would send the API key unencrypted to hr.example.test"),
        "{stderr}"
    );
    assert!(stderr.contains("--allow-http"), "{stderr}");
}

/// A custom page whose script nests 12,000 blocks is loaded, reloaded after an edit and
/// answered, where it used to overflow a connection's stack and abort the preview.
#[test]
fn a_deeply_nested_page_script_never_aborts_the_preview() {
    let app = app_copy(CUSTOM_PAGE, "deep-script");
    let page = app.join("config/iparams.html");
    let written = std::fs::read_to_string(&page).expect("the page");
    let nested = |levels: usize| {
        let blocks = format!("{}{}", "{".repeat(levels), "}".repeat(levels));
        written.replacen("<script>", &format!("<script>\n{blocks}\n"), 1)
    };
    std::fs::write(&page, nested(12_000)).expect("written");
    let preview = Running::preview(&app, &[]);
    let state = preview.state();
    let version = state["version"].as_u64().expect("a version");
    std::fs::write(&page, nested(60_000)).expect("written");
    let (status, body) = preview.get(&format!("/custom_configs/changes?since={version}"));
    assert_eq!(status, 200, "{body}");
    let state = preview.state();
    assert!(state["version"].as_u64() > Some(version), "{state}");
    assert!(
        state.to_string().contains("levels deep"),
        "the page past the limit is not read, and says so: {state}"
    );
    let (code, log) = preview.stop();
    assert_eq!(code, Some(0), "{log}");
    let _ = std::fs::remove_dir_all(app);
}
