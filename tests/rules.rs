//! Every rule against its fixtures and its documented examples.
//!
//! `fixtures/rules/<rule>/valid*.json` must produce no finding at all;
//! `fixtures/rules/<rule>/invalid*.json` must produce at least one finding of `<rule>`, and
//! their human and JSON output is snapshot-tested.
//!
//! The rules of values files (`iparams-lint values`) have theirs in `fixtures/values/<rule>/`,
//! checked against the `iparams.json` beside them (see `support::values_definitions`); their
//! output is snapshot-tested in tests/values.rs.

mod support;

use std::fs;
use std::path::{Path, PathBuf};

use iparams_core::{FileReport, Linter, REGISTRY, Rule, SourceText, lint};
use support::{json_on, relative, repo_root, run_on, values_definitions};

/// Whether `rule` checks values files rather than iparams.json.
fn is_values_rule(rule: &Rule) -> bool {
    rule.example_definitions().is_some()
}

fn fixture_folder(rule: &Rule) -> PathBuf {
    let kind = if is_values_rule(rule) {
        "fixtures/values"
    } else {
        "fixtures/rules"
    };
    repo_root().join(kind).join(rule.name)
}

fn fixtures(rule: &Rule, prefix: &str) -> Vec<PathBuf> {
    let dir = fixture_folder(rule);
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap_or_else(|_| panic!("{} has no fixtures folder {}", rule.name, dir.display()))
        .map(|entry| entry.expect("readable folder").path())
        .filter(|path| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .collect();
    files.sort();
    files
}

/// The findings for a fixture of `rule`: linted, or checked as values.
fn check(rule: &Rule, path: &Path) -> FileReport {
    let bytes = fs::read(path).expect("readable fixture");
    if !is_values_rule(rule) {
        return lint(&bytes);
    }
    let definitions = fs::read(values_definitions(path)).expect("readable definitions");
    Linter::default().check_values(
        &SourceText::decode(&definitions),
        &SourceText::decode(&bytes),
        "iparams.json",
    )
}

/// The findings for an example (a rule's `bad` or `good`): linted, or checked as values against
/// `definitions`.
fn check_example(example: &str, definitions: Option<&str>) -> FileReport {
    match definitions {
        None => lint(example.as_bytes()),
        Some(definitions) => Linter::default().check_values(
            &SourceText::decode(definitions.as_bytes()),
            &SourceText::decode(example.as_bytes()),
            "config/iparams.json",
        ),
    }
}

fn describe(report: &iparams_core::FileReport) -> String {
    report
        .diagnostics
        .iter()
        .map(|d| format!("  {}[{}] {}\n", d.severity, d.rule, d.message))
        .collect()
}

#[test]
fn every_rule_has_passing_and_failing_fixtures() {
    for rule in REGISTRY {
        assert!(
            !fixtures(rule, "valid").is_empty(),
            "{} has no valid*.json fixture",
            rule.name
        );
        assert!(
            !fixtures(rule, "invalid").is_empty(),
            "{} has no invalid*.json fixture",
            rule.name
        );
    }
    // And no fixture folder belongs to a rule that does not exist, or to a rule of the other
    // kind of file.
    for (folder, values) in [("fixtures/rules", false), ("fixtures/values", true)] {
        for entry in fs::read_dir(repo_root().join(folder)).expect("the fixtures folder exists") {
            let name = entry
                .expect("readable")
                .file_name()
                .to_string_lossy()
                .into_owned();
            assert!(
                iparams_core::rules::find(&name).is_some_and(|rule| is_values_rule(rule) == values),
                "{folder}/{name} names no rule of its kind"
            );
        }
    }
}

#[test]
fn valid_fixtures_produce_no_findings() {
    for rule in REGISTRY {
        for path in fixtures(rule, "valid") {
            let report = check(rule, &path);
            assert!(
                report.diagnostics.is_empty(),
                "{} should be clean, got:\n{}",
                relative(&path),
                describe(&report)
            );
        }
    }
}

#[test]
fn invalid_fixtures_trigger_their_rule() {
    for rule in REGISTRY {
        for path in fixtures(rule, "invalid") {
            let report = check(rule, &path);
            assert!(
                report.diagnostics.iter().any(|d| d.rule == rule.name),
                "{} should report {}, got:\n{}",
                relative(&path),
                rule.name,
                describe(&report)
            );
        }
    }
}

#[test]
fn documented_examples_are_true() {
    for rule in REGISTRY {
        let definitions = rule.example_definitions();
        let bad = check_example(rule.bad, definitions.map(|(bad, _)| bad));
        assert!(
            bad.diagnostics.iter().any(|d| d.rule == rule.name),
            "the bad example of {} does not trigger it:\n{}",
            rule.name,
            describe(&bad)
        );
        let good = check_example(rule.good, definitions.map(|(_, good)| good));
        assert!(
            good.diagnostics.is_empty(),
            "the good example of {} is not clean:\n{}",
            rule.name,
            describe(&good)
        );
    }
}

#[test]
fn invalid_fixture_output() {
    insta::glob!("../fixtures/rules", "*/invalid*.json", |path| {
        let bytes = fs::read(path).expect("readable fixture");
        let shown = relative(path);
        let (_, human, _) = run_on(&bytes, &shown, &[]);
        let json = serde_json::to_string_pretty(&json_on(&bytes, &shown)).expect("serializable");
        insta::with_settings!({ snapshot_path => "snapshots/rules", prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(format!("---- human ----\n{human}---- json ----\n{json}\n"));
        });
    });
}
