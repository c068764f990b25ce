//! Every real iparams.json of `../shared/corpus/real` (public apps, some broken on purpose):
//! none may crash the linter, each gets a report, and all findings are one reviewed snapshot.
//! The real app trees of `../shared/corpus/apps` with a custom installation page
//! (config/iparams.html) are checked whole by the command, and their findings are a second
//! reviewed snapshot.
//!
//! The corpus lives beside the repository, not in it. On a fresh clone without it the test
//! passes with a note; under CI (`CI` set, as `.ci/run` sets it) a missing corpus fails the
//! run, so that a CI that lost it cannot pass without checking it. `IPARAMS_LINT_CORPUS`
//! names another folder (to check a copy, or to see what a missing corpus does).

mod support;

use std::collections::HashMap;
use std::ffi::OsStr;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use iparams_core::LineIndex;

/// The variable that names the folder of real iparams.json files.
const REAL_VARIABLE: &str = "IPARAMS_LINT_CORPUS";
/// The variable that names the folder of real app trees.
const APPS_VARIABLE: &str = "IPARAMS_LINT_CORPUS_APPS";

/// A corpus folder: the one its variable names, else `../shared/corpus/<name>` beside the
/// repository; with the variable, for the note when it is missing.
fn corpus_at(variable: &'static str, name: &str) -> (PathBuf, &'static str) {
    let dir = std::env::var_os(variable)
        .map(PathBuf::from)
        .unwrap_or_else(|| support::repo_root().join("../shared/corpus").join(name));
    (dir, variable)
}

/// The real iparams.json files.
fn corpus_dir() -> (PathBuf, &'static str) {
    corpus_at(REAL_VARIABLE, "real")
}

/// The real app trees.
fn apps_dir() -> (PathBuf, &'static str) {
    corpus_at(APPS_VARIABLE, "apps")
}

/// The entries of a corpus folder, or `None` (with a note, or a panic under CI) when it is
/// not there.
fn read_corpus((corpus, variable): &(PathBuf, &str)) -> Option<fs::ReadDir> {
    match fs::read_dir(corpus) {
        Ok(entries) => Some(entries),
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            match missing_corpus(corpus, variable, std::env::var_os("CI").as_deref()) {
                Err(why) => panic!("{why}"),
                Ok(note) => {
                    // Past the test harness's capture, so the note shows in a passing run.
                    let _ = writeln!(io::stderr(), "{note}");
                    None
                }
            }
        }
        Err(error) => panic!("the corpus {} cannot be read: {error}", corpus.display()),
    }
}

/// What a missing corpus means: on CI a failure (`Err`, with why), elsewhere a note to show
/// (`Ok`).
fn missing_corpus(corpus: &Path, variable: &str, ci: Option<&OsStr>) -> Result<String, String> {
    if support::under_ci(ci) {
        Err(format!(
            "the corpus is missing: {} is not here, and CI must check it (it is beside the \
             repository on CI; {variable} names another folder)",
            corpus.display()
        ))
    } else {
        Ok(format!(
            "note: corpus test skipped: {} is not here (CI has it beside the repository; \
             {variable} names another folder)",
            corpus.display()
        ))
    }
}

#[test]
fn a_missing_corpus_fails_under_ci_only() {
    let missing = Path::new("/nowhere/corpus/real");
    for ci in ["true", "1", "yes"] {
        let verdict = missing_corpus(missing, APPS_VARIABLE, Some(OsStr::new(ci)));
        assert!(
            verdict
                .as_ref()
                .is_err_and(|why| why.contains("/nowhere/corpus/real")),
            "CI={ci}: {verdict:?}"
        );
    }
    for ci in [None, Some(""), Some("0"), Some("false"), Some("FALSE")] {
        let verdict = missing_corpus(missing, APPS_VARIABLE, ci.map(OsStr::new));
        assert!(
            verdict.as_ref().is_ok_and(|note| note.contains("skipped")
                && note.contains("IPARAMS_LINT_CORPUS_APPS names another folder")),
            "CI={ci:?}: {verdict:?}"
        );
    }
}

#[test]
fn real_apps() {
    let located = corpus_dir();
    let Some(entries) = read_corpus(&located) else {
        return;
    };
    let corpus = located.0;
    let mut files: Vec<_> = entries
        .map(|e| e.expect("readable corpus").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 140,
        "expected the whole corpus, found {} files",
        files.len()
    );

    // MANIFEST.tsv says which files are valid JSON.
    let manifest =
        fs::read_to_string(corpus.join("MANIFEST.tsv")).expect("the corpus has a manifest");
    let mut rows = manifest
        .lines()
        .map(|line| line.split('\t').collect::<Vec<_>>());
    let header = rows.next().expect("a header row");
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .expect("manifest column")
    };
    let (file_column, valid_column) = (column("file"), column("valid_json"));
    let valid_json: HashMap<String, bool> = rows
        .map(|row| (row[file_column].to_owned(), row[valid_column] == "yes"))
        .collect();

    let mut linter = iparams_core::Linter::default();
    let mut findings = String::new();
    for path in &files {
        let name = path
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        let bytes = fs::read(path).expect("readable corpus file");
        let report =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| linter.lint_bytes(&bytes)))
                .unwrap_or_else(|_| panic!("the linter panicked on {name}"));
        let broken = report
            .diagnostics
            .iter()
            .any(|d| d.rule == "invalid-json" || d.rule == "invalid-encoding");
        if let Some(&valid) = valid_json.get(&name) {
            assert_eq!(
                !broken, valid,
                "{name}: the manifest says valid_json={valid}"
            );
        }
        let source = iparams_core::SourceText::decode(&bytes);
        let lines = LineIndex::new(source.text());
        for d in &report.diagnostics {
            let at = lines.position(source.text(), d.span.start);
            findings.push_str(&format!(
                "{name}:{}:{}: {}[{}] {}\n",
                at.line, at.column, d.severity, d.rule, d.message
            ));
        }
    }
    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_snapshot!("corpus_findings", findings);
    });
}

/// Every real app with a custom installation page, checked whole: the command never fails on
/// one (exit 0 or 1, findings on standard output, nothing on standard error), and what it finds
/// in them is a reviewed snapshot (paths from the corpus folder).
#[test]
fn real_custom_pages() {
    let located = apps_dir();
    let Some(entries) = read_corpus(&located) else {
        return;
    };
    let corpus = located.0;
    let mut apps: Vec<_> = entries
        .map(|e| e.expect("readable corpus").path())
        .filter(|app| app.join("config/iparams.html").is_file())
        .collect();
    apps.sort();
    assert!(
        apps.len() >= 10,
        "expected the corpus's apps with a custom page, found {}",
        apps.len()
    );
    let mut findings = String::new();
    for app in &apps {
        let name = app
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let (status, stdout, stderr) = support::run_in(&corpus, &["--format", "concise", &name]);
        assert!(
            matches!(status, Some(0 | 1)) && stderr.is_empty(),
            "{name}: exit {status:?}, standard error: {stderr}"
        );
        findings.push_str(&stdout);
    }
    insta::with_settings!({ snapshot_path => "snapshots", prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_snapshot!("corpus_custom_pages", findings);
    });
}

/// Everything the command prints over the whole corpus (every real iparams.json, checked alone,
/// and every real app tree, checked whole), in each output format: a reviewed snapshot per
/// format, so that a change inside the linter that users should not see (a new shape of the
/// app model, a crate in place of hand-written code) is proved to change no byte of any output.
#[test]
fn every_format_over_the_corpus() {
    let (real, apps) = (corpus_dir(), apps_dir());
    let (Some(files), Some(trees)) = (read_corpus(&real), read_corpus(&apps)) else {
        return;
    };
    // Named from the folder that holds both, as a user in it would name them.
    let base = real.0.parent().expect("the corpus's folder");
    assert_eq!(apps.0.parent(), Some(base), "the two corpora side by side");
    let named = |entries: fs::ReadDir, keep: &dyn Fn(&Path) -> bool| {
        let mut paths: Vec<String> = entries
            .map(|entry| entry.expect("readable corpus").path())
            .filter(|path| keep(path))
            .map(|path| {
                let relative = path.strip_prefix(base).expect("inside the corpus");
                relative.to_string_lossy().into_owned()
            })
            .collect();
        paths.sort();
        paths
    };
    let mut targets = named(files, &|path| {
        path.extension()
            .is_some_and(|extension| extension == "json")
    });
    targets.extend(named(trees, &|path| path.is_dir()));
    for format in ["human", "concise", "json", "sarif", "github", "junit"] {
        let mut args = vec!["--format", format, "--color", "never", "--"];
        args.extend(targets.iter().map(String::as_str));
        let (status, stdout, stderr) = support::run_in(base, &args);
        let output = format!(
            "exit status: {status:?}\n--- standard error\n{stderr}--- standard output\n{stdout}"
        );
        insta::with_settings!({ snapshot_path => "snapshots/corpus_outputs", prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(format, output);
        });
    }
}
