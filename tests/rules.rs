//! Every rule against its fixtures and its documented examples.
//!
//! Each rule has fixtures that must pass (no finding at all) and fixtures that must fail (at
//! least one finding of the rule), of the kind the rule checks:
//! - rules of iparams.json: `fixtures/rules/<rule>/{valid,invalid}*.json`;
//! - rules that need the app around it: whole apps, `fixtures/apps/<rule>/{valid,invalid}*/`;
//! - rules of values files (`iparams-lint values`): `fixtures/values/<rule>/`, checked against
//!   the iparams.json beside them (see `support::values_definitions`).
//!
//! The human and JSON output of every failing fixture is snapshot-tested (values files in
//! tests/values.rs).

mod support;

use std::fs;
use std::path::{Path, PathBuf};

use iparams_core::{Linter, REGISTRY, Rule, SourceText};
use support::{binary, json_on, relative, repo_root, run_on, streams, values_definitions};

/// The example app of the README, which is no rule's fixture.
const EXAMPLE_APP: &str = "hr-sync";

/// Whether `rule` checks values files rather than iparams.json.
fn is_values_rule(rule: &Rule) -> bool {
    rule.example_definitions().is_some()
}

fn fixture_root(rule: &Rule) -> PathBuf {
    let kind = if is_values_rule(rule) {
        "fixtures/values"
    } else if rule.needs_app() {
        "fixtures/apps"
    } else {
        "fixtures/rules"
    };
    repo_root().join(kind).join(rule.name)
}

fn fixtures(rule: &Rule, prefix: &str) -> Vec<PathBuf> {
    let dir = fixture_root(rule);
    let mut found: Vec<_> = fs::read_dir(&dir)
        .unwrap_or_else(|_| panic!("{} has no fixtures folder {}", rule.name, dir.display()))
        .map(|entry| entry.expect("readable folder").path())
        .filter(|path| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .collect();
    found.sort();
    found
}

/// (rule, severity, message) of every finding for a fixture of `rule`.
fn findings(rule: &Rule, fixture: &Path) -> Vec<(String, String, String)> {
    if is_values_rule(rule) {
        let values = fs::read(fixture).expect("readable fixture");
        let definitions = fs::read(values_definitions(fixture)).expect("readable definitions");
        let report = Linter::default().check_values(
            &SourceText::decode(&definitions),
            &SourceText::decode(&values),
            "iparams.json",
        );
        return report
            .diagnostics
            .iter()
            .map(|d| (d.rule.to_owned(), d.severity.to_string(), d.message.clone()))
            .collect();
    }
    // Files and whole apps alike, through the command.
    let output = binary()
        .args(["--format", "json"])
        .arg(relative(fixture))
        .output()
        .expect("runs");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON output");
    let mut found = Vec::new();
    for file in json["files"].as_array().expect("files") {
        for d in file["diagnostics"].as_array().expect("diagnostics") {
            let text = |key: &str| d[key].as_str().unwrap_or_default().to_owned();
            found.push((text("rule"), text("severity"), text("message")));
        }
    }
    found
}

#[test]
fn every_rule_has_passing_and_failing_fixtures() {
    for rule in REGISTRY {
        assert!(
            !fixtures(rule, "valid").is_empty(),
            "{} has no valid fixture",
            rule.name
        );
        assert!(
            !fixtures(rule, "invalid").is_empty(),
            "{} has no invalid fixture",
            rule.name
        );
    }
    // And no fixture folder belongs to a rule that does not exist, or to a rule of another kind.
    for folder in ["fixtures/rules", "fixtures/apps", "fixtures/values"] {
        for entry in fs::read_dir(repo_root().join(folder)).expect("the fixture folders exist") {
            let name = entry
                .expect("readable")
                .file_name()
                .to_string_lossy()
                .into_owned();
            let belongs = iparams_core::rules::find(&name)
                .is_some_and(|rule| fixture_root(rule).ends_with(format!("{folder}/{name}")));
            assert!(
                belongs || (folder == "fixtures/apps" && name == EXAMPLE_APP),
                "{folder}/{name} names no rule of its kind"
            );
        }
    }
}

#[test]
fn valid_fixtures_produce_no_findings() {
    for rule in REGISTRY {
        for fixture in fixtures(rule, "valid") {
            let found = findings(rule, &fixture);
            assert!(
                found.is_empty(),
                "{} should be clean, got: {found:#?}",
                relative(&fixture)
            );
        }
    }
}

#[test]
fn invalid_fixtures_trigger_their_rule() {
    for rule in REGISTRY {
        for fixture in fixtures(rule, "invalid") {
            let found = findings(rule, &fixture);
            assert!(
                found.iter().any(|f| f.0 == rule.name),
                "{} should report {}, got: {found:#?}",
                relative(&fixture),
                rule.name
            );
        }
    }
}

#[test]
fn documented_examples_are_true() {
    let mut linter = Linter::default();
    for rule in REGISTRY {
        let bad = linter.check_example(rule, false);
        let found: Vec<_> = bad
            .iter()
            .flat_map(|file| &file.report.diagnostics)
            .collect();
        assert!(
            found.iter().any(|d| d.rule == rule.name),
            "the bad example of {} does not trigger it: {found:#?}",
            rule.name
        );
        let good = linter.check_example(rule, true);
        let found: Vec<_> = good
            .iter()
            .flat_map(|file| &file.report.diagnostics)
            .collect();
        assert!(
            found.is_empty(),
            "the good example of {} is not clean: {found:#?}",
            rule.name
        );
    }
}

fn snapshot(name: &str, human: &str, json: &str) {
    insta::with_settings!({ snapshot_path => "snapshots/rules", prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_snapshot!(name, format!("---- human ----\n{human}---- json ----\n{json}\n"));
    });
}

#[test]
fn invalid_fixture_output() {
    insta::glob!("../fixtures/rules", "*/invalid*.json", |path| {
        let bytes = fs::read(path).expect("readable fixture");
        let shown = relative(path);
        let (_, human, _) = run_on(&bytes, &shown, &[]);
        let json = serde_json::to_string_pretty(&json_on(&bytes, &shown)).expect("serializable");
        snapshot("invalid_fixture_output", &human, &json);
    });
}

#[test]
fn invalid_app_output() {
    for rule in REGISTRY.iter().filter(|rule| rule.needs_app()) {
        for app in fixtures(rule, "invalid") {
            let shown = relative(&app);
            let human = streams(
                &binary()
                    .args(["--color", "never"])
                    .arg(&shown)
                    .output()
                    .expect("runs"),
            )
            .0;
            let json = streams(
                &binary()
                    .args(["--format", "json"])
                    .arg(&shown)
                    .output()
                    .expect("runs"),
            )
            .0;
            let json: serde_json::Value = serde_json::from_str(&json).expect("JSON");
            let json = serde_json::to_string_pretty(&json).expect("serializable");
            snapshot(
                &format!(
                    "invalid_app_output@{}",
                    shown
                        .trim_start_matches("fixtures/apps/")
                        .replace('/', "__")
                ),
                &human,
                &json,
            );
        }
    }
}
