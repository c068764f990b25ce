//! Every rule against its fixtures and its documented examples, one test per fixture file, so
//! that the first failure does not hide the others (`cargo test --test rules -- missing-default`
//! runs one rule's).
//!
//! Each rule has fixtures that must pass (no finding at all) and fixtures that must fail (at
//! least one finding of the rule), of the kind the rule checks:
//! - rules of iparams.json: `fixtures/rules/<rule>/{valid,invalid}*.json`;
//! - rules that need the app around it: whole apps, `fixtures/apps/<rule>/{valid,invalid}*/`;
//! - rules of values files (`iparams-lint values`): `fixtures/values/<rule>/`, checked against
//!   the iparams.json beside them (see `support::values_definitions`).
//!
//! Files and apps go through the command, in process, as a user at the repository's top folder
//! would name them. The snapshot of each failing one (tests/snapshots/rules/) holds the human
//! output and, when anything is fixable, what `--diff` shows of the safe fixes, and of the
//! unsafe ones when that differs (values files: tests/values.rs). The JSON contract is pinned
//! once, in tests/cli.rs.
//!
//! Fixes are held to their rule's word: each fix a finding carries is at most as risky as the
//! rule's declared `fix`, and each rule declaring a fix makes one on one of its fixtures.

mod support;

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::hash::Hash;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{LazyLock, Mutex, OnceLock, PoisonError};

use iparams_core::{Applicability, CheckedSource, Linter, REGISTRY, Rule, SourceText};
use libtest_mimic::{Arguments, Failed, Trial};
use support::{relative, repo_root, values_definitions};

/// The example app of the README, which is no rule's fixture.
const EXAMPLE_APP: &str = "hr-sync";

/// Where the snapshots of the failing fixtures are, from this file's folder.
const SNAPSHOTS: &str = "snapshots/rules";

fn main() -> ExitCode {
    // Fixtures are named from the repository's top folder, in the output and in the snapshots;
    // set before any test thread starts.
    std::env::set_current_dir(repo_root()).expect("the repository's top folder");
    let args = Arguments::from_args();
    let mut trials = vec![
        Trial::test("every_rule_has_passing_and_failing_fixtures", || {
            every_rule_has_passing_and_failing_fixtures()
        }),
        Trial::test("every_snapshot_belongs_to_a_failing_fixture", || {
            every_snapshot_belongs_to_a_failing_fixture()
        }),
    ];
    // Trials start in this order: the rules whose matches run out of time after the others.
    let (timing_out, others): (Vec<&Rule>, Vec<&Rule>) = REGISTRY
        .iter()
        .partition(|rule| TIMING_OUT.contains(&rule.name));
    // A rule that reports what a service answers (`verify-credentials`) has neither fixtures
    // nor examples that run offline: tests/hr_sandbox.rs proves its examples against the
    // sandbox. One about an app too large to write out (`file-not-read`) is proven on apps that
    // tests/cli.rs builds on disk.
    for rule in others
        .into_iter()
        .chain(timing_out)
        .filter(|rule| rule.examples_run())
    {
        trials.push(Trial::test(format!("example::{}", rule.name), move || {
            documented_examples_are_true(rule)
        }));
        for fixture in fixtures(rule, "valid") {
            trials.push(Trial::test(trial_name(&fixture), move || {
                valid_fixture(rule, &fixture)
            }));
        }
        for fixture in fixtures(rule, "invalid") {
            trials.push(Trial::test(trial_name(&fixture), move || {
                invalid_fixture(rule, &fixture)
            }));
        }
    }
    // Last, so that they find each fixture's findings and each example's already there.
    trials.push(Trial::test(
        "fixes_are_within_their_rules_declared_fix",
        fixes_are_within_their_rules_declared_fix,
    ));
    trials.push(Trial::test(
        "every_rule_declaring_a_fix_makes_one",
        every_rule_declaring_a_fix_makes_one,
    ));
    libtest_mimic::run(&args, trials).exit_code()
}

/// The rules whose failing fixtures and examples hold a match that runs out of time. The thread
/// running such a match is left to finish on its own, which `^(a+)+$` on their 44 `a`s never
/// does: in the command that lasts until it exits, here until the last trial ends, and each
/// such thread takes a share of the two cores from every trial after it. Their trials start
/// last.
const TIMING_OUT: &[&str] = &["regex-timeout", "value-regex-timeout"];

/// What one computation gives, kept for every trial that asks for it: a fixture's findings are
/// needed by its own trial and by the two that look at every fixture's fixes, and a rule's
/// examples by its trial and by the fixes' one.
type Shared<K, V> = LazyLock<Mutex<HashMap<K, &'static OnceLock<V>>>>;

/// The value kept in `cache` under `key`, computed by the first trial that asks for it (any
/// other waits for it, rather than computing it again).
fn shared<K: Eq + Hash, V: Send + Sync>(
    cache: &'static Shared<K, V>,
    key: K,
    compute: impl FnOnce() -> V,
) -> &'static V {
    let cell: &'static OnceLock<V> = cache
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .entry(key)
        .or_insert_with(|| Box::leak(Box::default()));
    cell.get_or_init(compute)
}

/// `fixture::rules/<rule>/<file>`, `fixture::apps/<rule>/<app>`, `fixture::values/<rule>/<file>`.
fn trial_name(fixture: &Path) -> String {
    format!(
        "fixture::{}",
        relative(fixture).trim_start_matches("fixtures/")
    )
}

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

/// The fixtures of `rule` whose names start with `prefix`, sorted; none when it has no folder
/// (which `every_rule_has_passing_and_failing_fixtures` reports).
fn fixtures(rule: &Rule, prefix: &str) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(fixture_root(rule)) else {
        return Vec::new();
    };
    let mut found: Vec<_> = entries
        .map(|entry| entry.expect("readable folder").path())
        .filter(|path| {
            path.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(prefix))
        })
        .collect();
    found.sort();
    found
}

/// One finding, as the command reports it.
struct Finding {
    rule: String,
    message: String,
    /// How risky its fix is, when it has one.
    fix: Option<Applicability>,
}

/// The findings, one a line, to show in a failure.
fn listed(found: &[Finding]) -> String {
    found
        .iter()
        .map(|f| format!("\n  [{}] {}", f.rule, f.message))
        .collect()
}

/// Runs the command in process, without colour; returns (status, stdout).
fn command(args: &[&str]) -> (u8, String) {
    // A subcommand comes first, before the options.
    let (subcommand, args) = match args.split_first() {
        Some((&"values", rest)) => (Some("values"), rest),
        _ => (None, args),
    };
    let mut argv = vec!["iparams-lint"];
    argv.extend(subcommand);
    argv.extend(["--color", "never"]);
    argv.extend_from_slice(args);
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let status = iparams_lint::run(
        argv,
        &iparams_lint::Environment::default(),
        &mut std::io::empty(),
        &mut stdout,
        &mut stderr,
    );
    assert!(
        status < 2,
        "iparams-lint {args:?} exited {status}: {}",
        String::from_utf8_lossy(&stderr)
    );
    (status, String::from_utf8(stdout).expect("UTF-8 output"))
}

/// Every finding for a fixture of `rule`, with the safety of its fix, found once.
fn findings(rule: &Rule, fixture: &Path) -> &'static [Finding] {
    static FOUND: Shared<PathBuf, Vec<Finding>> = LazyLock::new(Default::default);
    shared(&FOUND, fixture.to_owned(), || find(rule, fixture)).as_slice()
}

/// What the command, or for a values file the linter, finds in a fixture of `rule`.
fn find(rule: &Rule, fixture: &Path) -> Vec<Finding> {
    // Values for an app with a custom page (`app/` beside them): through the command, which
    // reads the page's iparams from the app.
    let page = values_definitions(fixture);
    if is_values_rule(rule) && page.extension().is_some_and(|ext| ext == "html") {
        let (_, sarif) = command(&[
            "values",
            "--format",
            "sarif",
            "--iparams",
            &relative(&page),
            &relative(fixture),
        ]);
        return sarif_findings(&sarif);
    }
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
            .map(|d| Finding {
                rule: d.rule.to_owned(),
                message: d.message.clone(),
                fix: d.fix.as_ref().map(|fix| fix.applicability),
            })
            .collect();
    }
    // Files and whole apps alike, through the command: SARIF is the format that tells each
    // fix's safety.
    let (_, sarif) = command(&["--format", "sarif", &relative(fixture)]);
    sarif_findings(&sarif)
}

/// The findings of a SARIF log.
fn sarif_findings(sarif: &str) -> Vec<Finding> {
    let sarif: serde_json::Value = serde_json::from_str(sarif).expect("SARIF output");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    results
        .iter()
        .map(|result| Finding {
            rule: result["ruleId"].as_str().expect("a rule").to_owned(),
            message: result["message"]["text"]
                .as_str()
                .expect("a message")
                .to_owned(),
            fix: result["properties"]["fixSafety"]
                .as_str()
                .map(|safety| match safety {
                    "safe" => Applicability::Safe,
                    "unsafe" => Applicability::Unsafe,
                    other => panic!("unknown fix safety {other:?}"),
                }),
        })
        .collect()
}

fn every_rule_has_passing_and_failing_fixtures() -> Result<(), Failed> {
    let mut missing = Vec::new();
    for rule in REGISTRY.iter().filter(|rule| rule.examples_run()) {
        for prefix in ["valid", "invalid"] {
            if fixtures(rule, prefix).is_empty() {
                missing.push(format!(
                    "{} has no {prefix} fixture in {}",
                    rule.name,
                    relative(&fixture_root(rule))
                ));
            }
        }
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
            let example = folder == "fixtures/apps" && name == EXAMPLE_APP;
            if !(belongs || example) {
                missing.push(format!("{folder}/{name} names no rule of its kind"));
            }
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(missing.join("\n").into())
    }
}

fn valid_fixture(rule: &Rule, fixture: &Path) -> Result<(), Failed> {
    let found = findings(rule, fixture);
    if found.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} should be clean, got:{}",
            relative(fixture),
            listed(found)
        )
        .into())
    }
}

fn invalid_fixture(rule: &Rule, fixture: &Path) -> Result<(), Failed> {
    let found = findings(rule, fixture);
    if !found.iter().any(|f| f.rule == rule.name) {
        return Err(format!(
            "{} should report {}, got:{}",
            relative(fixture),
            rule.name,
            listed(found)
        )
        .into());
    }
    if !is_values_rule(rule) {
        snapshot(rule, fixture);
    }
    Ok(())
}

/// The snapshot of a failing file or app: its human output, then what `--diff` shows of its
/// fixes when it has any (or its rule declares one).
fn snapshot(rule: &Rule, fixture: &Path) {
    let shown = relative(fixture);
    let (_, human) = command(&[&shown]);
    let (_, safe) = command(&["--diff", &shown]);
    let (_, risky) = command(&["--diff", "--unsafe-fixes", &shown]);
    let mut text = format!("---- human ----\n{human}");
    if rule.fix.is_some() || !safe.is_empty() || !risky.is_empty() {
        let nothing = |diff: &str| {
            if diff.is_empty() {
                "(nothing to fix)\n".to_owned()
            } else {
                diff.to_owned()
            }
        };
        text.push_str(&format!("---- --fix (as --diff) ----\n{}", nothing(&safe)));
        if risky != safe {
            text.push_str(&format!(
                "---- --unsafe-fixes (as --diff) ----\n{}",
                nothing(&risky)
            ));
        }
    }
    let name = snapshot_name(rule, fixture);
    insta::with_settings!({ snapshot_path => SNAPSHOTS, prepend_module_to_snapshot => false, omit_expression => true }, {
        insta::assert_snapshot!(name, text);
    });
}

/// `invalid_fixture_output@<rule>__<file>` for a file, `invalid_app_output@<rule>__<app>` for
/// an app.
fn snapshot_name(rule: &Rule, fixture: &Path) -> String {
    let file = fixture
        .file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned();
    let kind = if rule.needs_app() {
        "invalid_app_output"
    } else {
        "invalid_fixture_output"
    };
    format!("{kind}@{}__{file}", rule.name)
}

fn every_snapshot_belongs_to_a_failing_fixture() -> Result<(), Failed> {
    let expected: BTreeSet<String> = REGISTRY
        .iter()
        .filter(|rule| !is_values_rule(rule))
        .flat_map(|rule| {
            fixtures(rule, "invalid")
                .into_iter()
                .map(|fixture| format!("{}.snap", snapshot_name(rule, &fixture)))
        })
        .collect();
    let folder = repo_root().join("tests").join(SNAPSHOTS);
    let stale: Vec<String> = fs::read_dir(&folder)
        .expect("the snapshot folder")
        .map(|entry| {
            entry
                .expect("readable")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| !expected.contains(name))
        .collect();
    if stale.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "snapshots in {} of no failing fixture: {stale:?}",
            relative(&folder)
        )
        .into())
    }
}

/// Whether a fix of `applicability` is within `declared`, a rule's `fix`.
fn within(applicability: Applicability, declared: Option<Applicability>) -> bool {
    declared.is_some_and(|declared| applicability <= declared)
}

fn fixes_are_within_their_rules_declared_fix() -> Result<(), Failed> {
    let mut wrong = Vec::new();
    let mut check = |place: &str, rule: &str, fix: Applicability| {
        let declared = iparams_core::rules::find(rule)
            .unwrap_or_else(|| panic!("{place}: a finding of an unknown rule {rule}"))
            .fix;
        if !within(fix, declared) {
            wrong.push(format!(
                "{place}: a {fix:?} fix of {rule}, which declares {declared:?}"
            ));
        }
    };
    for rule in REGISTRY {
        let all = [fixtures(rule, "valid"), fixtures(rule, "invalid")].concat();
        for fixture in all {
            for finding in findings(rule, &fixture) {
                if let Some(fix) = finding.fix {
                    check(&relative(&fixture), &finding.rule, fix);
                }
            }
        }
        for passing in [false, true] {
            for file in example(rule, passing) {
                for d in &file.report.diagnostics {
                    if let Some(fix) = &d.fix {
                        let place = format!("the example of {} ({})", rule.name, file.path);
                        check(&place, d.rule, fix.applicability);
                    }
                }
            }
        }
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(wrong.join("\n").into())
    }
}

fn every_rule_declaring_a_fix_makes_one() -> Result<(), Failed> {
    let unfixed: Vec<String> = REGISTRY
        .iter()
        .filter(|rule| rule.fix.is_some())
        .filter(|rule| {
            !fixtures(rule, "invalid").iter().any(|fixture| {
                findings(rule, fixture)
                    .iter()
                    .any(|f| f.rule == rule.name && f.fix.is_some())
            })
        })
        .map(|rule| {
            format!(
                "{} declares a {:?} fix, but none of its failing fixtures gets one",
                rule.name,
                rule.fix.expect("filtered")
            )
        })
        .collect();
    if unfixed.is_empty() {
        Ok(())
    } else {
        Err(unfixed.join("\n").into())
    }
}

/// What checking the good (`passing`) or bad example of `rule` gives, checked once.
fn example(rule: &'static Rule, passing: bool) -> &'static [CheckedSource<'static>] {
    static CHECKED: Shared<(&str, bool), Vec<CheckedSource<'static>>> =
        LazyLock::new(Default::default);
    shared(&CHECKED, (rule.name, passing), || {
        Linter::default().check_example(rule, passing)
    })
    .as_slice()
}

fn documented_examples_are_true(rule: &'static Rule) -> Result<(), Failed> {
    let bad = example(rule, false);
    let found: Vec<_> = bad
        .iter()
        .flat_map(|file| &file.report.diagnostics)
        .collect();
    if !found.iter().any(|d| d.rule == rule.name) {
        return Err(format!(
            "the bad example of {} does not trigger it: {found:#?}",
            rule.name
        )
        .into());
    }
    let good = example(rule, true);
    let found: Vec<_> = good
        .iter()
        .flat_map(|file| &file.report.diagnostics)
        .collect();
    if !found.is_empty() {
        return Err(format!("the good example of {} is not clean: {found:#?}", rule.name).into());
    }
    Ok(())
}
