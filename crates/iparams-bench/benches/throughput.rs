//! In-process throughput on the large corpus file: iparams-lint's parse+lint against
//! `serde_json::from_slice::<serde_json::Value>` of the same bytes, with the stages of
//! iparams-lint in between so that the gap can be placed.
//!
//! `cargo bench -p iparams-bench` (the corpus is generated into `target/bench-corpus/` if
//! missing; `IPARAMS_BENCH_LARGE=/absolute/path` benchmarks another file). Under `cargo test
//! --benches` (no `--bench` flag) each benchmark runs once, on the repository's example app.

use std::sync::OnceLock;

use divan::counter::BytesCount;
use divan::{Bencher, Divan, black_box};
use iparams_core::model::Iparam;
use iparams_core::syntax::parse_document;
use iparams_core::{FileReport, LintOptions, Linter, SourceText};

static INPUT: OnceLock<Vec<u8>> = OnceLock::new();

/// A small real file, for the `--test` smoke run.
const EXAMPLE_APP: &str = "fixtures/apps/hr-sync/config/iparams.json";

fn main() {
    // Like divan, treat a run without `--bench` (which only `cargo bench` passes) as a test.
    let args: Vec<String> = std::env::args().collect();
    let smoke = args.iter().any(|arg| arg == "--test") || !args.iter().any(|arg| arg == "--bench");
    let path = if smoke {
        Ok(iparams_bench::workspace_root().join(EXAMPLE_APP))
    } else {
        iparams_bench::large_json()
    };
    let path = match path {
        Ok(path) => path,
        Err(why) => {
            eprintln!("iparams-bench: skipped: {why}");
            return;
        }
    };
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!(
                "iparams-bench: skipped: cannot read {}: {error}",
                path.display()
            );
            return;
        }
    };
    eprintln!("iparams-bench: {} ({} bytes)", path.display(), bytes.len());
    INPUT.get_or_init(|| bytes);
    // 30 samples of a ~10 MB parse are enough for a stable median; `--sample-count` overrides.
    Divan::default().sample_count(30).config_with_args().main();
}

fn input() -> &'static [u8] {
    INPUT
        .get()
        .expect("main reads the input before running benchmarks")
}

/// The floor: serde_json builds a `Value` tree. Divan drops returned values after the
/// sample, so this is parse time only.
#[divan::bench]
fn serde_json_value(bencher: Bencher) {
    let bytes = input();
    bencher
        .counter(BytesCount::of_slice(bytes))
        .bench(|| serde_json::from_slice::<serde_json::Value>(black_box(bytes)));
}

/// The same, with the tree freed inside the timing (iparams-lint frees as it goes).
#[divan::bench]
fn serde_json_value_and_drop(bencher: Bencher) {
    let bytes = input();
    bencher.counter(BytesCount::of_slice(bytes)).bench(|| {
        let value = serde_json::from_slice::<serde_json::Value>(black_box(bytes));
        drop(black_box(value));
    });
}

/// iparams-lint's recovering parser alone: UTF-8 check and span-keeping syntax tree of each
/// top-level member, with no rule run.
#[divan::bench]
fn iparams_parse(bencher: Bencher) {
    let bytes = input();
    bencher.counter(BytesCount::of_slice(bytes)).bench(|| {
        let source = SourceText::decode(black_box(bytes));
        let mut members = 0_usize;
        let document = parse_document(source.text(), |member| {
            black_box(&member);
            members += 1;
        });
        (members, document.errors.len())
    });
}

/// Parser plus lowering of each member into the typed model the rules read.
#[divan::bench]
fn iparams_parse_lower(bencher: Bencher) {
    let bytes = input();
    bencher.counter(BytesCount::of_slice(bytes)).bench(|| {
        let source = SourceText::decode(black_box(bytes));
        let mut iparams = 0_usize;
        let document = parse_document(source.text(), |member| {
            black_box(Iparam::lower(&member));
            iparams += 1;
        });
        (iparams, document.errors.len())
    });
}

/// The whole library call the command makes for one file: parse, lower, every rule. A file
/// this large is checked on every core (see `LintOptions::parallel_from`).
#[divan::bench]
fn iparams_lint(bencher: Bencher) {
    let bytes = input();
    bencher
        .counter(BytesCount::of_slice(bytes))
        .bench(|| -> FileReport { Linter::default().lint_bytes(black_box(bytes)) });
}

/// The same on one thread: the work itself, without the help of the other cores.
#[divan::bench]
fn iparams_lint_one_thread(bencher: Bencher) {
    let bytes = input();
    let options = || LintOptions {
        parallel_from: usize::MAX,
        ..LintOptions::default()
    };
    bencher
        .counter(BytesCount::of_slice(bytes))
        .bench(|| -> FileReport { Linter::new(options()).lint_bytes(black_box(bytes)) });
}
