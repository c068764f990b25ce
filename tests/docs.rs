//! Rule documentation, the HR sandbox's reference and the editor schema, each generated from
//! or checked against what it documents; and docs that name only what the repository holds.

mod support;

use support::{binary, repo_root, streams};

#[test]
fn docs_rules_md_is_up_to_date() {
    let committed =
        std::fs::read_to_string(repo_root().join("docs/rules.md")).expect("docs/rules.md exists");
    assert!(
        committed == iparams_lint::docs::rules_markdown(),
        "docs/rules.md is out of date: run `cargo run -- rules --markdown > docs/rules.md`"
    );
}

/// Asserts that the part of `file` between the `start` and `end` markers is `expected`,
/// printing what to write there when it is not.
fn assert_generated_section(file: &str, start: &str, end: &str, expected: &str) {
    let text = std::fs::read_to_string(repo_root().join(file)).expect("the file exists");
    let section = text
        .split_once(start)
        .and_then(|(_, rest)| rest.split_once(end))
        .map(|(section, _)| section)
        .unwrap_or_else(|| panic!("{file} has no markers {start:?} … {end:?}"));
    assert!(
        section == expected,
        "{file} is out of date; between the markers write:\n{expected}"
    );
}

#[test]
fn readme_lists_every_rule_by_area() {
    assert_generated_section(
        "README.md",
        "<!-- rules: generated from the registry; tests/docs.rs keeps it in sync -->\n",
        "<!-- end of rules -->",
        &iparams_lint::docs::readme_rules_section(),
    );
}

#[test]
fn hr_sandbox_md_lists_what_the_sandbox_serves() {
    assert_generated_section(
        "docs/hr-sandbox.md",
        "<!-- reference: generated from the service's document as data; tests/docs.rs keeps it \
         in sync -->\n",
        "<!-- end of reference -->",
        &format!("\n{}\n", iparams_lint::docs::hr_service_markdown()),
    );
}

#[test]
fn docs_stand_alone() {
    // The docs a user reads, and the command's help, name only what the repository holds.
    let mut texts = vec![(
        "README.md".to_owned(),
        std::fs::read_to_string(repo_root().join("README.md")).expect("README.md"),
    )];
    for entry in std::fs::read_dir(repo_root().join("docs")).expect("docs/") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            let text = std::fs::read_to_string(&path).expect("readable");
            texts.push((path.display().to_string(), text));
        }
    }
    for command in [
        &["--help"][..],
        &["hr-sandbox", "--help"],
        &["preview", "--help"],
        &["values", "--help"],
    ] {
        let (help, _) = streams(&binary().args(command).output().expect("runs"));
        texts.push((format!("iparams-lint {}", command.join(" ")), help));
    }
    for (name, text) in &texts {
        for outside in [
            "hr-service-api.md",
            "install-page.md",
            "request-templates.md",
            "iparams-format.md",
            "fdk-reference.md",
            "shared/spec",
        ] {
            assert!(
                !text.contains(outside),
                "{name} refers to {outside}, which is not in the repository"
            );
        }
    }
}

#[test]
fn readme_schema_setup_names_a_reachable_schema() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README.md exists");
    let schema = "crates/iparams-lint/schemas/iparams.schema.json";
    assert!(repo_root().join(schema).is_file());
    // The raw file of the repository's schema, which an editor fetches as it is.
    let url = format!(
        "{}/main/{schema}",
        env!("CARGO_PKG_REPOSITORY")
            .replace("https://github.com/", "https://raw.githubusercontent.com/")
    );
    assert!(
        readme.contains(&format!("\"url\": \"{url}\"")),
        "README.md's schema setup should use {url}"
    );
    // Offline: the schema the command prints, written where the settings name it; no other
    // relative path, which would be looked for in the user's workspace, not in this repository.
    assert!(readme.contains("iparams-lint schema > .vscode/iparams.schema.json"));
    let relative: Vec<&str> = readme
        .lines()
        .filter(|line| line.contains("\"url\": \"./"))
        .collect();
    assert_eq!(
        relative,
        [
            "  { \"fileMatch\": [\"**/config/iparams.json\"], \"url\": \"./.vscode/iparams.schema.json\" }"
        ]
    );
}

#[test]
fn rules_and_explain() {
    let (table, _) = streams(&binary().arg("rules").output().expect("runs"));
    for rule in iparams_core::REGISTRY {
        assert!(
            table
                .lines()
                .any(|line| line.starts_with(&format!("{} ", rule.name))),
            "{} is not listed",
            rule.name
        );
    }
    let output = binary()
        .args(["explain", "unknown-type"])
        .output()
        .expect("runs");
    let (text, _) = streams(&output);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        text.starts_with(
            "unknown-type (error, safe fix)\nAn iparam's `type` is not a known type\n"
        ),
        "{text}"
    );
    assert!(text.contains("Reported as:\n    2:46: error[unknown-type] Iparam `notes` has an unknown type \"textarea\""), "{text}");
    assert!(
        text.contains(
            "The vendor's validator: Rejects: `Invalid type, <type>, found in the '<key>' field.`"
        ),
        "{text}"
    );

    let output = binary()
        .args(["explain", "unknown-typo"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(streams(&output).1.contains("did you mean `unknown-type`?"));
}

#[test]
fn completions_for_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let output = binary()
            .args(["completions", shell])
            .output()
            .expect("runs");
        let (script, _) = streams(&output);
        assert_eq!(output.status.code(), Some(0));
        assert!(
            script.contains("explain") && script.contains("fail-level"),
            "{shell} completions are incomplete"
        );
    }
}

/// Rules whose findings are about the shape of the file, which a JSON Schema can express.
const STRUCTURAL_RULES: [&str; 17] = [
    "root-not-object",
    "iparam-not-object",
    "empty-key",
    "reserved-key",
    "missing-attribute",
    "unknown-type",
    "unknown-attribute",
    "attribute-type",
    "missing-options",
    "options-not-allowed",
    "default-value-type",
    "missing-product",
    "unknown-product",
    "empty-regex",
    "regex-not-supported",
    "unsupported-event",
    "invalid-event-entry",
];

#[test]
fn the_schema_agrees_with_the_rules() {
    let (printed, _) = streams(&binary().arg("schema").output().expect("runs"));
    let committed = std::fs::read_to_string(
        repo_root().join("crates/iparams-lint/schemas/iparams.schema.json"),
    )
    .expect("the schema");
    assert_eq!(printed, committed);
    let schema: serde_json::Value = serde_json::from_str(&committed).expect("JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    let load = |path: &std::path::Path| -> Option<serde_json::Value> {
        serde_json::from_slice(&std::fs::read(path).ok()?).ok()
    };

    let mut accepted = vec![repo_root().join("fixtures/apps/hr-sync/config/iparams.json")];
    let mut rejected = Vec::new();
    for entry in std::fs::read_dir(repo_root().join("fixtures/rules")).expect("fixtures") {
        let dir = entry.expect("entry").path();
        let rule = dir
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        for file in std::fs::read_dir(&dir)
            .expect("fixtures")
            .map(|e| e.expect("entry").path())
        {
            let name = file
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            if name.starts_with("valid") {
                accepted.push(file);
            } else if STRUCTURAL_RULES.contains(&rule.as_str()) {
                rejected.push(file);
            }
        }
    }
    for file in &accepted {
        let value = load(file).expect("valid fixtures are JSON");
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "the schema rejects {}: {errors:?}",
            file.display()
        );
    }
    let mut checked = 0;
    for file in &rejected {
        // Files that are not JSON at all are beyond a schema.
        let Some(value) = load(file) else { continue };
        assert!(
            !validator.is_valid(&value),
            "the schema accepts {}",
            file.display()
        );
        checked += 1;
    }
    assert!(
        checked >= 25,
        "only {checked} structurally invalid fixtures were checked"
    );
}
