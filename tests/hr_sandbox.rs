//! `iparams-lint hr-sandbox` as a process (first line, logs, signals, `--db`), the example
//! app's request templates against it, and `values --verify` with good and bad keys.

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{Value, json};
use support::{binary, dechunk, repo_root, spawn_announcing};

/// A running `hr-sandbox`, stopped (SIGTERM) when dropped.
struct Running {
    child: Child,
    url: String,
    tokens: Value,
}

impl Running {
    fn start(args: &[&str]) -> Self {
        let mut all = vec!["hr-sandbox", "--port", "0"];
        all.extend_from_slice(args);
        let (child, line) = spawn_announcing(&all);
        let first: Value = serde_json::from_str(&line).expect("the first line is JSON");
        Self {
            child,
            url: first["url"].as_str().expect("url").to_owned(),
            tokens: first["tokens"].clone(),
        }
    }

    fn token(&self, role: &str) -> String {
        self.tokens[role].as_str().expect("a token").to_owned()
    }

    fn signal(&self, name: &str) {
        let status = std::process::Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
    }

    /// Stops it with `signal`; returns the exit code and everything it logged.
    fn stop_with(mut self, signal: &str) -> (Option<i32>, String) {
        self.signal(signal);
        let status = self.child.wait().expect("it ends");
        let mut log = String::new();
        if let Some(mut stderr) = self.child.stderr.take() {
            let _ = stderr.read_to_string(&mut log);
        }
        (status.code(), log)
    }

    /// `(status, body)` of one request.
    fn call(&self, method: &str, path: &str, token: &str, body: Option<&Value>) -> (u16, Value) {
        exchange(&self.url, method, path, token, body).expect("an answer")
    }
}

/// `(status, body)` of one request to the sandbox at `url`, or `None` when no answer came (it
/// was stopped).
fn exchange(
    url: &str,
    method: &str,
    path: &str,
    token: &str,
    body: Option<&Value>,
) -> Option<(u16, Value)> {
    let host = url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(host).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n\
         Accept: application/json\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let status = answer.split(' ').nth(1)?.parse().ok()?;
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_owned()
    };
    Some((status, serde_json::from_str(&body).unwrap_or(Value::Null)))
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("iparams-hr-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

#[test]
fn announces_serves_and_stops_cleanly_on_sigterm_and_sigint() {
    for signal in ["TERM", "INT"] {
        let sandbox = Running::start(&[]);
        assert!(sandbox.url.starts_with("http://127.0.0.1:"));
        let keys: Vec<String> = [
            "account_admin",
            "hr_partner",
            "reporting_manager",
            "employee",
        ]
        .iter()
        .map(|role| sandbox.token(role))
        .collect();
        let (status, branches) = sandbox.call("GET", "/api/branches", &keys[1], None);
        assert_eq!(status, 200);
        assert!(branches.as_array().is_some_and(|b| b.len() >= 3));
        let (code, log) = sandbox.stop_with(signal);
        assert_eq!(code, Some(0), "{log}");
        assert!(log.contains("GET /api/branches 200"), "{log}");
        assert!(log.contains("stopped"), "{log}");
        for key in &keys {
            assert!(!log.contains(key.as_str()), "a key in the log: {log}");
        }
    }
}

#[test]
fn the_database_is_kept_across_restarts() {
    let dir = scratch("db");
    let db = dir.join("hr.sqlite");
    let db_arg = db.to_str().expect("utf-8 path");
    let first = Running::start(&["--db", db_arg, "--employees", "12"]);
    let hr = first.token("hr_partner");
    let (status, created) = first.call(
        "POST",
        "/api/employees",
        &hr,
        Some(&json!({"first_name": "Ada", "last_name": "Kept", "official_email": "ada@kept.test", "role_ids": [5]})),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_i64().expect("id");
    assert_eq!(id, 13);
    assert_eq!(first.stop_with("TERM").0, Some(0));
    let second = Running::start(&["--db", db_arg]);
    assert_eq!(
        second.token("hr_partner"),
        hr,
        "keys are kept with the database"
    );
    let (status, read) = second.call("GET", &format!("/api/employees/{id}"), &hr, None);
    assert_eq!((status, read["last_name"].as_str()), (200, Some("Kept")));
    drop(second);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Killed (SIGKILL, no chance to clean up) while clients create employees and time-offs, the
/// sandbox restarts on the same database: every record whose creation was acknowledged reads
/// back whole, and nothing else was half-written (at most the writes in flight at the kill are
/// there without an acknowledgement, and whole too).
#[test]
fn killed_in_the_middle_of_writes_it_restarts_with_every_acknowledged_record() {
    const WRITERS: usize = 4;
    const KILL_AFTER: usize = 40;
    let dir = scratch("kill");
    let db = dir.join("hr.sqlite");
    let db_arg = db.to_str().expect("a UTF-8 path");
    let mut first = Running::start(&["--db", db_arg]);
    let hr = first.token("hr_partner");
    let employee = first.token("employee");
    let (_, types) = first.call("GET", "/api/time_off_types", &hr, None);
    let leave_type = types[0]["id"].as_i64().expect("a time-off type");

    // (path of the record, what it must hold) of each acknowledged creation.
    let acknowledged = Mutex::new(Vec::<(String, String)>::new());
    let unexpected = Mutex::new(Vec::<String>::new());
    std::thread::scope(|scope| {
        for writer in 0..WRITERS {
            let (url, hr, employee) = (&first.url, &hr, &employee);
            let (acknowledged, unexpected) = (&acknowledged, &unexpected);
            scope.spawn(move || {
                // Bounded: at most 60 writes each, whatever happens.
                for step in 0..60 {
                    let (path, token, body, mark) = if writer % 2 == 0 {
                        let email = format!("w{writer}.{step}@kill.test");
                        let body = json!({"first_name": "Kill", "last_name": format!("W{writer}"),
                            "official_email": email, "role_ids": [5]});
                        ("employees", hr, body, email)
                    } else {
                        // A day of its own for each write, so that none overlaps another.
                        let date = format!("2031-{:02}-{:02}", writer, step % 28 + 1);
                        let date = if step >= 28 {
                            date.replace("2031", "2032")
                        } else {
                            date
                        };
                        let comment = format!("kill test {writer}.{step}");
                        let body = json!({"start_date": date, "end_date": date,
                            "leave_type_id": leave_type, "comments": comment});
                        ("time_offs", employee, body, comment)
                    };
                    match exchange(url, "POST", &format!("/api/{path}"), token, Some(&body)) {
                        Some((201, created)) => {
                            let id = created["id"].as_i64().expect("an id");
                            acknowledged
                                .lock()
                                .unwrap()
                                .push((format!("/api/{path}/{id}"), mark));
                        }
                        Some((status, answer)) => {
                            unexpected
                                .lock()
                                .unwrap()
                                .push(format!("{status} {answer}"));
                        }
                        // Killed: nothing answers any more.
                        None => break,
                    }
                }
            });
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while acknowledged.lock().unwrap().len() < KILL_AFTER
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(2));
        }
        first.child.kill().expect("SIGKILL");
        first.child.wait().expect("it ends");
    });
    let acknowledged = acknowledged.into_inner().unwrap();
    let unexpected = unexpected.into_inner().unwrap();
    assert!(unexpected.is_empty(), "{unexpected:?}");
    assert!(acknowledged.len() >= KILL_AFTER, "{}", acknowledged.len());

    let second = Running::start(&["--db", db_arg]);
    assert_eq!(second.token("hr_partner"), hr, "the same database");
    for (path, mark) in &acknowledged {
        let (status, record) = second.call("GET", path, &hr, None);
        assert_eq!(status, 200, "{path}: {record}");
        let held = if path.contains("employees") {
            &record["official_email"]
        } else {
            &record["comments"]
        };
        assert_eq!(held.as_str(), Some(mark.as_str()), "{path}: {record}");
    }
    // Every employee on the list reads back whole, the unacknowledged ones too.
    let mut written = 0;
    for page in 1.. {
        let (status, list) = second.call("GET", &format!("/api/employees?page={page}"), &hr, None);
        assert_eq!(status, 200, "{list}");
        let list = list.as_array().expect("a list");
        for listed in list {
            let email = listed["official_email"].as_str().unwrap_or_default();
            if email.ends_with("@kill.test") {
                written += 1;
                assert_eq!(listed["first_name"], "Kill", "{listed}");
            }
        }
        if list.len() < 50 {
            break;
        }
    }
    let employees = acknowledged
        .iter()
        .filter(|(p, _)| p.contains("employees"))
        .count();
    assert!(
        (employees..=employees + WRITERS).contains(&written),
        "{written} written, {employees} acknowledged"
    );
    drop(second);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each request template of the example app, placeholders filled as its code fills them, gets
/// what the app expects.
#[test]
fn the_example_apps_templates_work_against_it() {
    let sandbox = Running::start(&[]);
    let key = sandbox.token("hr_partner");
    let text =
        std::fs::read_to_string(repo_root().join("fixtures/apps/hr-sync/config/requests.json"))
            .expect("the templates");
    let templates: Value = serde_json::from_str(&text).expect("JSON");
    let templates = templates.as_object().expect("an object");
    let (_, pending) = sandbox.call("GET", "/api/time_offs?status=pending", &key, None);
    let pending_id = pending[0]["id"]
        .as_i64()
        .expect("a pending time-off")
        .to_string();
    let context = |name: &str| match name {
        "status" => "active".to_owned(),
        "updated_since" => "2020-01-01T00:00:00Z".to_owned(),
        "page" => "1".to_owned(),
        "from" => "2000-01-01".to_owned(),
        "to" => "2100-12-31".to_owned(),
        "id" => pending_id.clone(),
        other => panic!("no value for context.{other}"),
    };
    let fill = |text: &str, template: &str| {
        let mut text = text.to_owned();
        while let Some(start) = text.find("<%= context.") {
            let end = start + text[start..].find(" %>").expect("closed") + 3;
            let name = &text[start + "<%= context.".len()..end - 3];
            // The app reads the employee who asked for a time-off.
            let value = match (template, name) {
                ("getEmployee", "id") => pending[0]["user_id"].to_string(),
                _ => context(name),
            };
            text.replace_range(start..end, &value);
        }
        text
    };
    assert!(templates.len() >= 5, "{templates:?}");
    let mut seen = Vec::new();
    for (name, template) in templates {
        let schema = &template["schema"];
        assert!(
            schema["headers"]["Authorization"]
                .as_str()
                .is_some_and(|a| a == "Bearer <%= iparam.hr_api_key %>"),
            "{name}"
        );
        let mut path = fill(schema["path"].as_str().expect("path"), name);
        if let Some(query) = schema["query"].as_object() {
            let pairs: Vec<String> = query
                .iter()
                .map(|(k, v)| format!("{k}={}", fill(v.as_str().unwrap_or(""), name)))
                .collect();
            path = format!("{path}?{}", pairs.join("&"));
        }
        let method = schema["method"].as_str().expect("method");
        // The app sends `JSON.stringify({})` to approve.
        let body = (method == "PUT").then(|| json!({}));
        let (status, answer) = sandbox.call(method, &path, &key, body.as_ref());
        assert_eq!(status, 200, "{name} {path}: {answer}");
        match name.as_str() {
            "listEmployees" => {
                let items = answer
                    .as_array()
                    .unwrap_or_else(|| panic!("{path}: {answer}"));
                assert!(!items.is_empty() && items.iter().all(|e| e["status"] == "active"));
            }
            "listPendingTimeOffs" => {
                let items = answer.as_array().expect("a list");
                assert!(!items.is_empty() && items.iter().all(|t| t["status"] == "pending"));
            }
            "getEmployee" => {
                assert!(answer["first_name"].is_string(), "{answer}");
                assert!(answer["time_off"].is_array(), "include=time_off: {answer}");
            }
            "approveTimeOff" => assert_eq!(answer["status"], "approved", "{answer}"),
            _ => assert!(answer.is_array(), "{name}: {answer}"),
        }
        seen.push(name.as_str());
    }
    for expected in [
        "listEmployees",
        "getEmployee",
        "listPendingTimeOffs",
        "approveTimeOff",
    ] {
        assert!(seen.contains(&expected), "{expected} in {seen:?}");
    }
}

/// An app folder with the example app's manifest.json and iparams.json, and a values file.
fn app_with_values(name: &str, values: &Value) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("config")).expect("config");
    for file in ["manifest.json", "config/iparams.json"] {
        std::fs::copy(
            repo_root().join("fixtures/apps/hr-sync").join(file),
            dir.join(file),
        )
        .expect("copy");
    }
    let path = dir.join("values.json");
    std::fs::write(&path, serde_json::to_string_pretty(values).expect("json")).expect("write");
    (dir, path)
}

fn verify(values: &Path, url: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let output = binary()
        .args(["values", "--verify", "--hr-url", url, "--color", "never"])
        .args(extra)
        .arg(values)
        .output()
        .expect("runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn values_with_key(key: &str) -> Value {
    json!({"hr_domain": "acme", "hr_api_key": key, "sync_interval_minutes": "60",
           "department": "Sales", "include_drafts": false, "employee_statuses": ["active"]})
}

#[test]
fn verify_passes_a_good_key_and_rejects_bad_ones_without_printing_them() {
    let sandbox = Running::start(&[]);
    let good = sandbox.token("hr_partner");
    let (dir, path) = app_with_values("verify-good", &values_with_key(&good));
    let (code, stdout, stderr) = verify(&path, &sandbox.url, &[]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stderr.contains("verified"), "{stderr}");
    assert!(!stdout.contains(&good) && !stderr.contains(&good));

    let wrong = "sbx_0000000000000000wrongwrongwrong";
    std::fs::write(&path, values_with_key(wrong).to_string()).expect("write");
    let (code, stdout, stderr) = verify(&path, &sandbox.url, &[]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("Domain or API key is not matching"),
        "{stdout}"
    );
    assert!(stdout.contains("verify-credentials"), "{stdout}");
    assert!(
        !stdout.contains(wrong) && !stderr.contains(wrong),
        "{stdout}"
    );
    // Every format carries it.
    for format in ["json", "sarif", "concise", "github", "junit"] {
        let (code, stdout, _) = verify(&path, &sandbox.url, &["--format", format]);
        assert_eq!(code, Some(1), "{format}");
        assert!(stdout.contains("verify-credentials"), "{format}: {stdout}");
        assert!(!stdout.contains(wrong), "{format}");
        if format == "json" || format == "sarif" {
            serde_json::from_str::<Value>(&stdout).expect("one JSON document");
        }
    }
    let (code, json_out, _) = verify(&path, &sandbox.url, &["--format", "json"]);
    assert_eq!(code, Some(1));
    let doc: Value = serde_json::from_str(&json_out).expect("json");
    let finding = &doc["files"][0]["diagnostics"][0];
    assert_eq!(finding["pointer"], "/hr_api_key");
    assert_eq!(finding["severity"], "error");

    // A key that works but whose role may not read branches.
    let employee = sandbox.token("employee");
    std::fs::write(&path, values_with_key(&employee).to_string()).expect("write");
    let (code, stdout, _) = verify(&path, &sandbox.url, &[]);
    assert_eq!(code, Some(1));
    assert!(
        stdout.contains("its role may not read branches"),
        "{stdout}"
    );
    assert!(!stdout.contains(&employee));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_says_when_it_could_not_check() {
    // Rate-limited: the free plan has no calls.
    let sandbox = Running::start(&["--plan", "free"]);
    let key = sandbox.token("hr_partner");
    let (dir, path) = app_with_values("verify-429", &values_with_key(&key));
    let (code, stdout, _) = verify(&path, &sandbox.url, &[]);
    assert_eq!(code, Some(0), "a warning: {stdout}");
    assert!(stdout.contains("Could not check"), "{stdout}");
    let (_, json_out, _) = verify(&path, &sandbox.url, &["--format", "json"]);
    assert!(json_out.contains("x-ratelimit-total: 0"), "{json_out}");
    drop(sandbox);
    // Nobody listening.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
        listener.local_addr().expect("addr").port()
    };
    let (code, stdout, _) = verify(&path, &format!("http://127.0.0.1:{closed}"), &[]);
    assert_eq!(code, Some(1));
    assert!(stdout.contains("No answer from the HR service"), "{stdout}");
    assert!(!stdout.contains(&key));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn other_products_are_not_verified_and_no_call_is_made_without_verify() {
    let dir = scratch("verify-other");
    std::fs::create_dir_all(dir.join("config")).expect("config");
    std::fs::copy(
        repo_root().join("fixtures/apps/hr-sync/manifest.json"),
        dir.join("manifest.json"),
    )
    .expect("copy");
    std::fs::write(
        dir.join("config/iparams.json"),
        r#"{"desk_domain": {"display_name": "Desk", "type": "domain", "type_attributes": {"product": "freshdesk"}, "required": true},
            "desk_key": {"display_name": "Key", "type": "api_key", "secure": true, "type_attributes": {"product": "freshdesk"}, "required": true}}"#,
    )
    .expect("write");
    let path = dir.join("values.json");
    std::fs::write(
        &path,
        r#"{"desk_domain": "acme", "desk_key": "abcdefgh12345678"}"#,
    )
    .expect("write");
    let (code, stdout, _) = verify(&path, "http://127.0.0.1:1", &[]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("not verified"), "{stdout}");
    // --hr-url needs --verify.
    let output = binary()
        .args(["values", "--hr-url", "http://127.0.0.1:1"])
        .arg(&path)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `verify-credentials` is registered, but reports what the HR service answers: its documented
/// examples are proven here, against the sandbox, rather than offline with the other rules'.
#[test]
fn verify_credentials_documented_examples_are_true_and_its_level_is_configurable() {
    let rule = iparams_core::rules::VERIFY_CREDENTIALS;
    let (definitions, _) = rule.example_definitions().expect("values examples");
    let sandbox = Running::start(&[]);
    let dir = scratch("verify-examples");
    std::fs::write(dir.join("iparams.json"), definitions).expect("write");
    let run = |values: &str, extra: &[&str]| {
        std::fs::write(dir.join("values.json"), values).expect("write");
        let output = binary()
            .args(["values", "--verify", "--hr-url", &sandbox.url])
            .arg("--iparams")
            .arg(dir.join("iparams.json"))
            .args(extra)
            .arg(dir.join("values.json"))
            .output()
            .expect("runs");
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let concise = ["--format", "concise"];
    let (code, stdout, stderr) = run(rule.bad, &concise);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("error[verify-credentials]"), "{stdout}");
    // The good example names the key it needs: an HR Partner's, which the sandbox gives.
    let good = rule.good.replace(
        "<the API key of an HR Partner of acme>",
        &sandbox.token("hr_partner"),
    );
    let (code, stdout, stderr) = run(&good, &concise);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(
        stdout.contains("0 errors, 0 warnings") && stderr.contains("verified"),
        "{stderr}"
    );
    // Its level is set as any rule's; off, nothing is asked.
    let (code, stdout, _) = run(
        rule.bad,
        &["--format=concise", "--rule", "verify-credentials=warning"],
    );
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("warning[verify-credentials]"), "{stdout}");
    let (code, stdout, stderr) = run(
        rule.bad,
        &["--format=concise", "--rule", "verify-credentials=off"],
    );
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stderr.contains("verify-credentials is off; nothing verified"),
        "{stderr}"
    );
    // SARIF finds it in its rule table.
    let (_, sarif, _) = run(rule.bad, &["--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&sarif).expect("SARIF");
    let result = &sarif["runs"][0]["results"][0];
    let index = result["ruleIndex"].as_u64().expect("a rule index") as usize;
    assert_eq!(
        sarif["runs"][0]["tool"]["driver"]["rules"][index]["id"],
        "verify-credentials"
    );
}

#[test]
fn clients_that_stall_without_credentials_never_delay_another_request() {
    let sandbox = Running::start(&[]);
    let host = sandbox.url.trim_start_matches("http://").to_owned();
    let mut stalled = Vec::new();
    for _ in 0..6 {
        let mut stream = TcpStream::connect(&host).expect("connects");
        let head = format!(
            "POST /api/employees HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
             Content-Length: 100\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).expect("sent");
        stalled.push(stream);
    }
    // `exchange` waits five seconds at most; the stalls would last until their read timeout.
    let hr = sandbox.token("hr_partner");
    let answer = exchange(&sandbox.url, "GET", "/api/branches", &hr, None);
    assert_eq!(answer.map(|(status, _)| status), Some(200));
    // In the document's error shape.
    let answer = support::assert_timed_out(stalled.swap_remove(0));
    assert!(
        answer.contains(r#"{"errors":[{"code":"request_timeout","#),
        "{answer}"
    );
    drop(stalled);
}

/// The database holds every API key: it is created owner-only, and one left readable by others
/// is narrowed, with its journal.
#[test]
#[cfg(unix)]
fn the_database_file_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path| std::fs::metadata(path).expect("there").permissions().mode() & 0o777;
    let dir = scratch("mode");
    let db = dir.join("hr.sqlite");
    let db_arg = db.to_str().expect("utf-8 path");
    let sandbox = Running::start(&["--db", db_arg, "--employees", "5"]);
    assert_eq!(mode(&db), 0o600);
    drop(sandbox);
    let journal = dir.join("hr.sqlite-journal");
    std::fs::write(&journal, "").expect("written");
    for file in [&db, &journal] {
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644)).expect("set");
    }
    let sandbox = Running::start(&["--db", db_arg]);
    assert_eq!(mode(&db), 0o600);
    if journal.exists() {
        assert_eq!(mode(&journal), 0o600);
    }
    drop(sandbox);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The key never crosses the network in clear without being asked to, and a URL's user name and
/// password are never shown. No call here leaves this machine: the refusals come before any.
#[test]
fn verify_refuses_plain_http_off_this_machine_and_masks_user_names() {
    let (dir, path) = app_with_values("verify-http", &values_with_key("sbx_0123456789abcdef0123"));
    for url in [
        "http://192.0.2.1:9",
        "http://hr.example.invalid",
        "http://user:s3cret-pass@192.0.2.1:9/",
        "http://127.0.0.1.example.invalid/",
    ] {
        let (code, stdout, stderr) = verify(&path, url, &[]);
        assert_eq!(code, Some(2), "{url}: {stdout}{stderr}");
        assert!(
            stderr.contains("plain HTTP would send the API key unencrypted")
                && stderr.contains("--allow-http"),
            "{url}: {stderr}"
        );
        assert!(!stderr.contains("s3cret-pass"), "{stderr}");
        assert_eq!(stdout, "");
    }
    // To this machine plain HTTP is asked, and the user name and password are masked.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
        listener.local_addr().expect("addr").port()
    };
    for format in ["human", "json"] {
        let url = format!("http://user:s3cret-pass@127.0.0.1:{closed}");
        let (code, stdout, stderr) = verify(&path, &url, &["--format", format]);
        assert_eq!(code, Some(1), "{stdout}{stderr}");
        assert!(stdout.contains("No answer from the HR service"), "{stdout}");
        assert!(
            stdout.contains(&format!("http://***@127.0.0.1:{closed}")),
            "{stdout}"
        );
        assert!(
            !stdout.contains("s3cret") && !stderr.contains("s3cret"),
            "{stdout}{stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
