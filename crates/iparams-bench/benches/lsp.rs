//! Edit-to-diagnostics latency of the language server: the time from sending a
//! `textDocument/didChange` (one character typed into config/iparams.json) to receiving the
//! `publishDiagnostics` of every open file of the app, in-process over `Connection::memory`
//! (so the figure is the server's work, without a pipe's).
//!
//! Two cases: the example app (fixtures/apps/hr-sync, every file open), and the same app with
//! a generated iparams.json of 5,000 iparams (about 1 MB) in the editor's buffer.
//!
//! `cargo bench -p iparams-bench --bench lsp` prints the medians (docs/BENCHMARKS.md). Under
//! `cargo test --benches` (no `--bench` flag) each case runs a few times, as a smoke test.

mod lsp_session;

use std::path::{Path, PathBuf};
use std::time::Duration;

use lsp_session::{Session, uri};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bench = args.iter().any(|arg| arg == "--bench");
    let root = iparams_bench::workspace_root().join("fixtures/apps/hr-sync");
    let example = std::fs::read_to_string(root.join("config/iparams.json")).expect("the example");
    let large = generated(5_000);
    let (small_runs, large_runs) = if bench { (300, 60) } else { (3, 2) };
    for (name, text, runs) in [
        ("example app", example, small_runs),
        ("1 MB iparams.json", large, large_runs),
    ] {
        let times = measure(&root, &text, runs);
        let mut sorted = times.clone();
        sorted.sort();
        let median = sorted[sorted.len() / 2];
        let p90 = sorted[sorted.len() * 9 / 10];
        eprintln!(
            "lsp edit-to-diagnostics, {name} ({} bytes): median {:.2} ms, p90 {:.2} ms, min {:.2} ms, max {:.2} ms, {runs} edits",
            text.len(),
            ms(median),
            ms(p90),
            ms(sorted[0]),
            ms(sorted[sorted.len() - 1]),
        );
    }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// Opens every file of the app in `root` with `iparams` as the text of its iparams.json, then
/// types one character `runs` times; returns each edit's latency.
fn measure(root: &Path, iparams: &str, runs: usize) -> Vec<Duration> {
    let session = Session::start();
    let files: Vec<PathBuf> = [
        "config/iparams.json",
        "config/requests.json",
        "config/assets/iparams.js",
        "app/index.html",
        "server/server.js",
        "manifest.json",
    ]
    .iter()
    .map(|relative| root.join(relative))
    .collect();
    for file in &files {
        let text = if file.ends_with("config/iparams.json") {
            iparams.to_owned()
        } else {
            std::fs::read_to_string(file).expect("a file of the example")
        };
        session.open(file, &text);
    }
    // Each open re-checks the app and publishes its open files: wait for all of them.
    session.wait_for_diagnostics((1..=files.len()).sum());
    let iparams_uri = uri(&files[0]);
    // Inside the first `"display_name": "` value: a character typed, then deleted.
    let at = iparams
        .find("\"display_name\": \"")
        .expect("a display name")
        + 17;
    let times = session.time_edits(&iparams_uri, iparams, at, runs, files.len());
    session.finish();
    times
}

/// An iparams.json of `count` iparams of every type, with a finding every 50 (a type written
/// with a capital, a required flag written as a string), laid out as people write them.
fn generated(count: usize) -> String {
    let types = [
        "text",
        "paragraph",
        "dropdown",
        "email",
        "number",
        "phone_number",
        "date",
        "url",
        "radio",
        "checkbox",
        "multiselect",
    ];
    let mut out = String::from("{\n");
    for i in 0..count {
        let ty = types[i % types.len()];
        let written_type = if i % 50 == 7 { "Text" } else { ty };
        let required = if i % 50 == 13 { "\"true\"" } else { "true" };
        out.push_str(&format!(
            "  \"field_{i}\": {{\n    \"display_name\": \"Field number {i}\",\n    \"description\": \"What field {i} of the generated file is for, in a sentence or two\",\n    \"type\": \"{written_type}\",\n    \"required\": {required}"
        ));
        match ty {
            "dropdown" | "radio" => out.push_str(
                ",\n    \"options\": [\"First choice\", \"Second choice\", \"Third choice\"],\n    \"default_value\": \"First choice\"",
            ),
            "multiselect" => out.push_str(
                ",\n    \"options\": [\"First choice\", \"Second choice\", \"Third choice\"],\n    \"default_value\": [\"First choice\"]",
            ),
            "checkbox" => out.push_str(",\n    \"default_value\": false"),
            _ => {}
        }
        out.push_str("\n  }");
        out.push_str(if i + 1 < count { ",\n" } else { "\n" });
    }
    out.push_str("}\n");
    out
}
