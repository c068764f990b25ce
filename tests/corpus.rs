//! Every real iparams.json of `../shared/corpus/real` (public apps, some broken on purpose):
//! none may crash the linter, each gets a report, and all findings are one reviewed snapshot.

mod support;

use std::collections::HashMap;
use std::fs;

use iparams_core::LineIndex;

#[test]
fn real_apps() {
    let corpus = support::repo_root().join("../shared/corpus/real");
    let Ok(entries) = fs::read_dir(&corpus) else {
        eprintln!(
            "corpus test skipped: {} is not here (it is beside the project on CI)",
            corpus.display()
        );
        return;
    };
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
