//! `iparams-lint preview` in-process, over HTTP on 127.0.0.1: the time to serve the page (`GET
//! /custom_configs` and `GET /custom_configs/state`, what a browser asks for before it can draw
//! the form) for the example app (fixtures/apps/hr-sync), and the time from an edit of
//! iparams.json on disk to the updated state (the watcher's poll, the app checked again, the
//! long-poll answered, the state fetched); then the same edit typed in an editor, unsaved, to
//! the page of the language server's preview (`iparams-lint.preview`). Targets: under 50 ms,
//! 200 ms and 500 ms.
//!
//! `cargo bench -p iparams-bench --bench preview` prints the best, median and worst of each
//! (docs/BENCHMARKS.md). Under `cargo test --benches` it runs each a few times, as a smoke test.

use std::path::Path;
use std::time::{Duration, Instant};

// The session the `lsp` benches drive; this one uses part of it.
#[allow(dead_code)]
mod lsp_session;

use iparams_lint::cli::RuleArgs;
use iparams_lint::preview::{Launch, start};
use lsp_session::{Session, uri};
use serde_json::json;

fn main() {
    let bench = std::env::args().any(|arg| arg == "--bench");
    let source = iparams_bench::workspace_root().join("fixtures/apps/hr-sync");
    let app = std::env::temp_dir().join(format!("iparams-bench-preview-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&app);
    copy_dir(&source, &app);
    let values = app.join(".iparams-lint/installed.json");
    let launch = Launch {
        values_path: values,
        ..Launch::default()
    };
    let running = start(&app, &RuleArgs::default(), launch).expect("the preview starts");
    let base = format!("http://{}", running.server.address());
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let get = |path: &str| fetch(&agent, &base, path);

    let (rounds, edits) = if bench { (200, 40) } else { (3, 2) };
    let mut served: Vec<f64> = (0..rounds)
        .map(|_| {
            let started = Instant::now();
            let page = get("/custom_configs");
            let state = get("/custom_configs/state");
            assert!(page.contains("Installation Page") && state.contains("hr_domain"));
            started.elapsed().as_secs_f64() * 1e3
        })
        .collect();

    let iparams = app.join("config/iparams.json");
    let original = std::fs::read_to_string(&iparams).expect("iparams.json");
    let mut updated = time_updates(&get, &original, edits, |edited| {
        std::fs::write(&iparams, edited).expect("writable");
    });
    running.stop();

    // The language server's preview of the same app: the editor's text typed, never saved.
    let mut session = Session::start();
    session.open(&iparams, &original);
    let started = session.request(
        "workspace/executeCommand",
        json!({ "command": "iparams-lint.preview", "arguments": [uri(&iparams), { "open": false }] }),
    );
    let base = started["url"]
        .as_str()
        .expect("a URL")
        .trim_end_matches("/custom_configs")
        .to_owned();
    let get_typed = |path: &str| fetch(&agent, &base, path);
    let version = std::cell::Cell::new(1);
    let mut typed = time_updates(&get_typed, &original, edits, |edited| {
        version.set(version.get() + 1);
        session.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri(&iparams), "version": version.get() }, "contentChanges": [{ "text": edited }] }),
        );
    });
    session.finish();
    let _ = std::fs::remove_dir_all(&app);

    for (name, times, target) in [
        (
            "page served (GET /custom_configs + /state)",
            &mut served,
            50.0,
        ),
        ("edit on disk to updated state", &mut updated, 200.0),
        (
            "editor's unsaved edit to updated state (lsp)",
            &mut typed,
            500.0,
        ),
    ] {
        times.sort_by(f64::total_cmp);
        eprintln!(
            "preview, {name}: best {:.2} ms, median {:.2} ms, worst {:.2} ms over {} (target < {target} ms)",
            times[0],
            times[times.len() / 2],
            times[times.len() - 1],
            times.len(),
        );
    }
}

/// `GET base + path`'s body.
fn fetch(agent: &ureq::Agent, base: &str, path: &str) -> String {
    agent
        .get(&format!("{base}{path}"))
        .call()
        .expect("an answer")
        .body_mut()
        .read_to_string()
        .expect("a text")
}

/// Times `edits` edits of iparams.json's first display name, each made by `edit` (given the
/// new text) off the watcher's beat, as a person's are: from the edit to the page's state that
/// shows it (the long-poll answered, the state fetched), in milliseconds.
fn time_updates(
    get: &dyn Fn(&str) -> String,
    original: &str,
    edits: usize,
    mut edit: impl FnMut(String),
) -> Vec<f64> {
    (0..edits)
        .map(|round| {
            let state: serde_json::Value =
                serde_json::from_str(&get("/custom_configs/state")).expect("JSON");
            let version = state["version"].as_u64().expect("a version");
            let label = format!("HR account domain {round}");
            let edited = original.replacen("HR account domain", &label, 1);
            std::thread::sleep(Duration::from_millis(17 + (round as u64 * 7) % 50));
            let started = Instant::now();
            edit(edited);
            let _ = get(&format!("/custom_configs/changes?since={version}"));
            let state = get("/custom_configs/state");
            let elapsed = started.elapsed().as_secs_f64() * 1e3;
            assert!(state.contains(&label), "the state shows the edit");
            elapsed
        })
        .collect()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from).expect("a fixture folder").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copied");
        }
    }
}
