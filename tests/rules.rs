//! Every rule against its fixtures and its documented examples.
//!
//! `fixtures/rules/<rule>/valid*.json` must produce no finding at all;
//! `fixtures/rules/<rule>/invalid*.json` must produce at least one finding of `<rule>`, and
//! their human and JSON output is snapshot-tested.

mod support;

use std::fs;

use iparams_core::{REGISTRY, lint};
use support::{json_on, relative, repo_root, run_on};

fn fixtures(rule: &str, prefix: &str) -> Vec<std::path::PathBuf> {
    let dir = repo_root().join("fixtures/rules").join(rule);
    let mut files: Vec<_> = fs::read_dir(&dir)
        .unwrap_or_else(|_| panic!("{rule} has no fixtures folder {}", dir.display()))
        .map(|entry| entry.expect("readable folder").path())
        .filter(|path| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .collect();
    files.sort();
    files
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
            !fixtures(rule.name, "valid").is_empty(),
            "{} has no valid*.json fixture",
            rule.name
        );
        assert!(
            !fixtures(rule.name, "invalid").is_empty(),
            "{} has no invalid*.json fixture",
            rule.name
        );
    }
    // And no fixture folder belongs to a rule that does not exist.
    for entry in fs::read_dir(repo_root().join("fixtures/rules")).expect("fixtures/rules exists") {
        let name = entry
            .expect("readable")
            .file_name()
            .to_string_lossy()
            .into_owned();
        assert!(
            iparams_core::rules::find(&name).is_some(),
            "fixtures/rules/{name} names no rule"
        );
    }
}

#[test]
fn valid_fixtures_produce_no_findings() {
    for rule in REGISTRY {
        for path in fixtures(rule.name, "valid") {
            let report = lint(&fs::read(&path).expect("readable fixture"));
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
        for path in fixtures(rule.name, "invalid") {
            let report = lint(&fs::read(&path).expect("readable fixture"));
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
        let bad = lint(rule.bad.as_bytes());
        assert!(
            bad.diagnostics.iter().any(|d| d.rule == rule.name),
            "the bad example of {} does not trigger it:\n{}",
            rule.name,
            describe(&bad)
        );
        let good = lint(rule.good.as_bytes());
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
