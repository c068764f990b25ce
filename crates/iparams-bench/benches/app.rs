//! The in-process cost of checking a whole app: `Linter::check_app` on an app's files, read
//! once beforehand, with every rule on. The example app (fixtures/apps/hr-sync) by default, or
//! the app folder named by `IPARAMS_BENCH_APP`.
//!
//! `cargo bench -p iparams-bench --bench app` prints the best and median time per check over
//! rounds of 500 checks (docs/BENCHMARKS.md). Under `cargo test --benches` it checks the app a
//! few times, as a smoke test.
//!
//! For finding where the time goes: `IPARAMS_BENCH_OFF=rule-a,rule-b` turns rules off (the cost
//! of a rule is the difference), and `IPARAMS_BENCH_CHECKS=N` sets how many checks a run
//! without `--bench` makes (two counts under callgrind give the instructions of one check).

use std::path::{Path, PathBuf};
use std::time::Instant;

use iparams_core::app::{AppFile, AppInput};
use iparams_core::{Linter, RuleSettings};

fn main() {
    let bench = std::env::args().any(|arg| arg == "--bench");
    let root = std::env::var_os("IPARAMS_BENCH_APP").map_or_else(
        || iparams_bench::workspace_root().join("fixtures/apps/hr-sync"),
        PathBuf::from,
    );
    let files = app_files(&root);
    let manifest = std::fs::read(root.join("manifest.json")).expect("the app's manifest");
    let mut settings = RuleSettings::default();
    for name in std::env::var("IPARAMS_BENCH_OFF")
        .unwrap_or_default()
        .split(',')
        .filter(|n| !n.is_empty())
    {
        settings
            .set(name, iparams_core::Level::Off)
            .expect("a rule");
    }
    let mut linter = Linter::default();
    let mut check = || {
        let mut input = AppInput::new(
            AppFile {
                relative: "manifest.json",
                path: "manifest.json",
                bytes: &manifest,
            },
            "config",
        );
        for (path, bytes) in &files {
            input.add(AppFile {
                relative: path,
                path,
                bytes,
            });
        }
        linter.check_app(&input, &settings).files.len()
    };
    let (rounds, per_round) = if bench {
        (41, 500)
    } else {
        (
            1,
            std::env::var("IPARAMS_BENCH_CHECKS")
                .ok()
                .and_then(|n| n.parse().ok())
                .unwrap_or(3),
        )
    };
    for _ in 0..per_round {
        check();
    }
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..per_round {
                std::hint::black_box(check());
            }
            start.elapsed().as_secs_f64() * 1e6 / per_round as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    eprintln!(
        "check_app, {} ({} files): best {:.1} µs, median {:.1} µs a check ({rounds} rounds of {per_round})",
        root.display(),
        files.len() + 1,
        times[0],
        times[times.len() / 2],
    );
}

/// The app's files other than its manifest, by path from its folder, as the command gathers
/// them (scripts, pages, config/).
fn app_files(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut found = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&folder)
            .expect("a readable folder")
            .flatten()
            .map(|entry| entry.path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let relative = path
                .strip_prefix(root)
                .expect("below the app")
                .to_string_lossy()
                .replace('\\', "/");
            if relative != "manifest.json" {
                found.push((relative, std::fs::read(&path).expect("a readable file")));
            }
        }
    }
    found
}
