//! The language server on an app with a custom installation page: hover and completion on reads
//! of its iparams, and edit-to-diagnostics, in-process over `Connection::memory`.
//!
//! The app is generated into a temporary folder: config/iparams.html (no iparams.json) whose
//! `postConfigs` returns 200 keys, and a config/assets/iparams.js of about 1 MB of generated
//! code that reads some of them; the three files of the app are open.
//!
//! `cargo bench -p iparams-bench --bench lsp_page` prints p50 and p90 of each
//! (docs/BENCHMARKS.md). Under `cargo test --benches` (no `--bench` flag) each runs a few
//! times, as a smoke test.

mod lsp_session;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use lsp_session::{Session, position, uri};
use serde_json::{Value, json};

/// The keys `postConfigs` returns.
const KEYS: usize = 200;
/// The size iparams.js is generated up to.
const SCRIPT_BYTES: usize = 1 << 20;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bench = args.iter().any(|arg| arg == "--bench");
    let (requests, edits) = if bench { (300, 40) } else { (4, 2) };
    let app = GeneratedApp::write();
    let mut session = Session::start();
    for (path, text) in app.files() {
        session.open(&path, text);
    }
    // Each open re-checks the app and publishes its open files.
    session.wait_for_diagnostics(1 + 2 + 3);
    let script_uri = uri(&app.script_path());
    // Reads spread over the whole file, each asked about in turn.
    let reads = app.read_offsets();
    let step = (reads.len() / requests).max(1);
    let chosen: Vec<usize> = reads.iter().step_by(step).take(requests).copied().collect();
    let hover = time_requests(&mut session, &chosen, |offset| {
        (
            "textDocument/hover",
            json!({ "textDocument": { "uri": script_uri }, "position": position(&app.script, offset) }),
        )
    });
    report("hover on a read", &hover);
    // After `utils.get("key_`: the keys that complete it.
    let completion = time_requests(&mut session, &chosen, |offset| {
        (
            "textDocument/completion",
            json!({ "textDocument": { "uri": script_uri }, "position": position(&app.script, offset + 4) }),
        )
    });
    report("completion in a read", &completion);
    // Inside the first message string: a character typed, then deleted.
    let at = app.script.find("is too long").expect("a message");
    let times = session.time_edits(&script_uri, &app.script, at, edits, 3);
    report("edit to diagnostics", &times);
    session.finish();
}

/// Asks the request `ask` gives for each offset; each one's latency. Every answer must say
/// something, so that a request that finds nothing is not timed as a fast one.
fn time_requests(
    session: &mut Session,
    offsets: &[usize],
    ask: impl Fn(usize) -> (&'static str, Value),
) -> Vec<Duration> {
    offsets
        .iter()
        .map(|&offset| {
            let (method, params) = ask(offset);
            let started = Instant::now();
            let answer = session.request(method, params);
            let elapsed = started.elapsed();
            assert!(!answer.is_null(), "{method} at byte {offset} found nothing");
            elapsed
        })
        .collect()
}

fn report(what: &str, times: &[Duration]) {
    let mut sorted = times.to_vec();
    sorted.sort();
    let ms = |duration: Duration| duration.as_secs_f64() * 1000.0;
    eprintln!(
        "lsp custom page, {what}: p50 {:.2} ms, p90 {:.2} ms, max {:.2} ms, {} runs",
        ms(sorted[sorted.len() / 2]),
        ms(sorted[sorted.len() * 9 / 10]),
        ms(sorted[sorted.len() - 1]),
        sorted.len(),
    );
}

/// The generated app, written to a temporary folder removed when it is dropped.
struct GeneratedApp {
    root: PathBuf,
    manifest: String,
    page: String,
    script: String,
}

impl GeneratedApp {
    fn write() -> Self {
        let root =
            std::env::temp_dir().join(format!("iparams-bench-lsp-page-{}", std::process::id()));
        let app = Self {
            root,
            manifest: r#"{
  "platform-version": "2.3",
  "product": { "freshdesk": {} },
  "engines": { "node": "18.20.4", "fdk": "9.3.1" }
}
"#
            .to_owned(),
            page: page(),
            script: script(),
        };
        for (path, text) in app.files() {
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("a temporary folder");
            std::fs::write(&path, text).expect("a temporary file");
        }
        app
    }

    /// Each file's path and text, in the order they are opened.
    fn files(&self) -> [(PathBuf, &str); 3] {
        [
            (self.root.join("manifest.json"), &self.manifest),
            (self.root.join("config/iparams.html"), &self.page),
            (self.script_path(), &self.script),
        ]
    }

    fn script_path(&self) -> PathBuf {
        self.root.join("config/assets/iparams.js")
    }

    /// The byte offset of each key read in iparams.js (the start of the key's name).
    fn read_offsets(&self) -> Vec<usize> {
        const READ: &str = "utils.get(\"";
        self.script
            .match_indices(READ)
            .map(|(at, _)| at + READ.len())
            .collect()
    }
}

impl Drop for GeneratedApp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// config/iparams.html: a field per key, and a `postConfigs` that returns every one.
fn page() -> String {
    let mut out = String::from(
        "<!DOCTYPE html>\n<html>\n<head>\n  <meta charset=\"utf-8\">\n  <script src=\"{{{appclient}}}\"></script>\n</head>\n<body>\n",
    );
    for key in 0..KEYS {
        let bind = if key % 20 == 0 {
            " data-bind=\"product.api_key\""
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  <label>Field {key} <input id=\"key_{key}\" name=\"key_{key}\"{bind}></label>"
        );
    }
    out.push_str("<script src=\"./assets/iparams.js\"></script>\n<script>\nfunction postConfigs() {\n  return {\n    __meta: { secure: [\"key_0\", \"key_20\"] },\n");
    for key in 0..KEYS {
        let _ = writeln!(
            out,
            "    key_{key}: document.getElementById(\"key_{key}\").value,"
        );
    }
    out.push_str("  };\n}\n</script>\n</body>\n</html>\n");
    out
}

/// config/assets/iparams.js: `getConfigs` filling every field, then generated handlers up to
/// [`SCRIPT_BYTES`], one in four reading a key with `utils.get`.
fn script() -> String {
    let mut out = String::from("function getConfigs(configs) {\n");
    for key in 0..KEYS {
        let _ = writeln!(
            out,
            "  document.getElementById(\"key_{key}\").value = configs.key_{key} || \"\";"
        );
    }
    out.push_str("}\n\nasync function validate() {\n  return true;\n}\n");
    let mut handler = 0;
    while out.len() < SCRIPT_BYTES {
        let key = handler * 7 % KEYS;
        let stored = if handler % 4 == 0 {
            format!("utils.get(\"key_{key}\")")
        } else {
            format!("window.localStorage.getItem(\"draft_{key}\")")
        };
        let _ = write!(
            out,
            "\nfunction field_{handler}_changed(event) {{\n  const value = event.target.value;\n  const stored = {stored};\n  if (value && value.length > {limit}) {{\n    document.getElementById(\"key_{key}\").title = \"Field {handler} is too long: \" + value.length;\n    return false;\n  }}\n  return stored !== value;\n}}\n",
            limit = handler % 100 + 1,
        );
        handler += 1;
    }
    out
}
