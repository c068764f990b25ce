//! Every rule against its fixtures and its documented examples.
//!
//! In-file rules: `fixtures/rules/<rule>/valid*.json` must produce no finding at all, and
//! `fixtures/rules/<rule>/invalid*.json` at least one finding of `<rule>`. Rules that need the
//! app around iparams.json have whole apps instead: `fixtures/apps/<rule>/valid*/` and
//! `invalid*/`. The human and JSON output of every failing fixture is snapshot-tested.

mod support;

use std::fs;
use std::path::{Path, PathBuf};

use iparams_core::app::is_app_rule;
use iparams_core::{REGISTRY, Rule};
use support::{binary, json_on, relative, repo_root, run_on, streams};

/// The example app of the README, which is no rule's fixture.
const EXAMPLE_APP: &str = "hr-sync";

fn fixture_root(rule: &Rule) -> PathBuf {
    repo_root()
        .join(if is_app_rule(rule) {
            "fixtures/apps"
        } else {
            "fixtures/rules"
        })
        .join(rule.name)
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

/// (rule, severity, message, path) of every finding for a fixture file or app.
fn findings(fixture: &Path) -> Vec<(String, String, String, String)> {
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
            found.push((
                text("rule"),
                text("severity"),
                text("message"),
                file["path"].as_str().unwrap_or_default().to_owned(),
            ));
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
    // And no fixture folder belongs to a rule that does not exist.
    for folder in ["fixtures/rules", "fixtures/apps"] {
        for entry in fs::read_dir(repo_root().join(folder)).expect("fixture folders exist") {
            let name = entry
                .expect("readable")
                .file_name()
                .to_string_lossy()
                .into_owned();
            assert!(
                name == EXAMPLE_APP || iparams_core::rules::find(&name).is_some(),
                "{folder}/{name} names no rule"
            );
        }
    }
}

#[test]
fn valid_fixtures_produce_no_findings() {
    for rule in REGISTRY {
        for fixture in fixtures(rule, "valid") {
            let found = findings(&fixture);
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
            let found = findings(&fixture);
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
    let mut linter = iparams_core::Linter::default();
    for rule in REGISTRY {
        let bad = linter.check_example(rule.bad);
        let found: Vec<_> = bad
            .iter()
            .flat_map(|file| &file.report.diagnostics)
            .collect();
        assert!(
            found.iter().any(|d| d.rule == rule.name),
            "the bad example of {} does not trigger it: {found:#?}",
            rule.name
        );
        let good = linter.check_example(rule.good);
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
    for rule in REGISTRY.iter().filter(|rule| is_app_rule(rule)) {
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
