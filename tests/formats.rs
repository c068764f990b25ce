//! The machine formats: SARIF against the official SARIF 2.1.0 schema, and the line formats.

mod support;

use std::path::PathBuf;
use std::sync::LazyLock;

use support::{binary, repo_root, streams};

/// Every failing fixture of iparams.json, and the clean example app.
fn sample_files() -> Vec<String> {
    let mut files = vec!["fixtures/apps/hr-sync/config/iparams.json".to_owned()];
    for rule in iparams_core::REGISTRY {
        if !rule.examples_run() {
            // Its apps are built on disk by the tests that prove it.
            continue;
        }
        if rule.needs_app() {
            // Whole apps: their findings are spread over several files.
            files.push(format!("fixtures/apps/{}", rule.name));
            continue;
        }
        if rule.example_definitions().is_some() {
            continue;
        }
        let dir = repo_root().join("fixtures/rules").join(rule.name);
        for entry in std::fs::read_dir(dir).expect("fixtures") {
            let name = entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned();
            if name.starts_with("invalid") {
                files.push(format!("fixtures/rules/{}/{name}", rule.name));
            }
        }
    }
    files.sort();
    files
}

/// The official schema, from the source of the serde-sarif crate that Cargo fetched.
fn sarif_schema() -> serde_json::Value {
    let metadata = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1"])
        .current_dir(repo_root())
        .output()
        .expect("cargo metadata runs");
    let metadata: serde_json::Value =
        serde_json::from_slice(&metadata.stdout).expect("cargo metadata prints JSON");
    let manifest = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .find(|package| package["name"] == "serde-sarif")
        .and_then(|package| package["manifest_path"].as_str())
        .expect("serde-sarif is a (never built) dev-dependency, so Cargo has its source");
    let schema = PathBuf::from(manifest).with_file_name("src/schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&schema).expect("the schema")).expect("JSON");
    assert_eq!(
        schema["title"],
        "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    );
    schema
}

/// Removes every `"pattern": pattern` in `schema`; returns how many there were.
fn remove_pattern(schema: &mut serde_json::Value, pattern: &str) -> usize {
    match schema {
        serde_json::Value::Object(map) => {
            let here = usize::from(map.get("pattern").is_some_and(|p| p == pattern));
            if here == 1 {
                map.remove("pattern");
            }
            here + map
                .values_mut()
                .map(|v| remove_pattern(v, pattern))
                .sum::<usize>()
        }
        serde_json::Value::Array(items) => {
            items.iter_mut().map(|v| remove_pattern(v, pattern)).sum()
        }
        _ => 0,
    }
}

/// The official schema compiled, once for the tests that use it (finding it takes a run of
/// `cargo metadata`).
fn sarif_validator() -> &'static jsonschema::Validator {
    static VALIDATOR: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
        // The schema's pattern for `language` (of a run and of a tool component, neither of
        // which this tool writes) is written for JavaScript engines, with a stray `]` that Rust
        // regexes reject; it is the only constraint removed.
        let mut schema = sarif_schema();
        let removed = remove_pattern(&mut schema, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$");
        assert_eq!(
            removed, 2,
            "the SARIF schema changed; review this workaround"
        );
        jsonschema::validator_for(&schema).expect("the SARIF schema compiles")
    });
    &VALIDATOR
}

/// Fails unless `sarif` follows the official SARIF 2.1.0 schema, and its results name their
/// rules by index into its rule table, which lists every rule.
fn assert_valid_sarif(sarif: &serde_json::Value) -> Vec<serde_json::Value> {
    let errors: Vec<String> = sarif_validator()
        .iter_errors(sarif)
        .take(10)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "SARIF output does not follow the schema:\n{}",
        errors.join("\n")
    );
    let run = &sarif["runs"][0];
    let rules = run["tool"]["driver"]["rules"]
        .as_array()
        .expect("a rule table");
    assert_eq!(rules.len(), iparams_core::REGISTRY.len());
    // Each rule links to its section of docs/rules.md, whose headings are the rules' names.
    let docs = std::fs::read_to_string(repo_root().join("docs/rules.md")).expect("docs/rules.md");
    for rule in rules {
        let id = rule["id"].as_str().expect("an id");
        let link = rule["helpUri"].as_str().expect("a link to the rule's docs");
        assert!(
            link.ends_with(&format!("/blob/main/docs/rules.md#{id}")),
            "{link}"
        );
        assert!(
            docs.contains(&format!("\n## `{id}`\n")),
            "no section for {id}"
        );
    }
    let results = run["results"].as_array().expect("results");
    for result in results {
        let index = result["ruleIndex"].as_u64().expect("an index") as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
    }
    results.clone()
}

#[test]
fn sarif_output_is_valid_sarif_2_1_0() {
    let files = sample_files();
    let mut args = vec!["--format", "sarif"];
    args.extend(files.iter().map(String::as_str));
    let output = binary().args(&args).output().expect("runs");
    let (stdout, _) = streams(&output);
    let sarif: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
    let results = assert_valid_sarif(&sarif);
    assert!(
        results.len() > 100,
        "every failing fixture reports something"
    );
}

#[test]
fn sarif_output_of_values_is_valid_sarif_2_1_0() {
    let output = binary()
        .args([
            "values",
            "--format",
            "sarif",
            "--iparams",
            "fixtures/values/value-not-in-options/iparams.json",
            "fixtures/values/value-not-in-options/invalid_multiselect.json",
        ])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let sarif: serde_json::Value = serde_json::from_str(&streams(&output).0).expect("JSON");
    let results = assert_valid_sarif(&sarif);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["ruleId"], "value-not-in-options");
    let location = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"],
        "fixtures/values/value-not-in-options/invalid_multiselect.json"
    );
    assert_eq!(location["region"]["startLine"], 2);
    assert_eq!(location["region"]["startColumn"], 30);
}

#[test]
fn sarif_columns_count_utf16_code_units() {
    let scratch = support::Scratch::new("sarif-utf16");
    let file = scratch.write(
        "config/iparams.json",
        "{\"😀\": {\"display_name\": \"x\", \"type\": \"txt\"}}",
    );
    let output = binary()
        .args(["--format", "sarif"])
        .arg(&file)
        .output()
        .expect("runs");
    let sarif: serde_json::Value = serde_json::from_str(&streams(&output).0).expect("JSON");
    let region = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
    // `"txt"` starts after `{"😀": {"display_name": "x", "type": `: 36 characters, 37 code units.
    assert_eq!(region["startColumn"], 38);
    let json = binary()
        .args(["--format", "json"])
        .arg(&file)
        .output()
        .expect("runs");
    let json: serde_json::Value = serde_json::from_str(&streams(&json).0).expect("JSON");
    assert_eq!(json["files"][0]["diagnostics"][0]["start"]["column"], 37);
}

#[test]
fn concise_github_and_junit_lines() {
    let file = "fixtures/rules/default-not-in-options/invalid_case.json";
    let concise = streams(
        &binary()
            .args(["--format", "concise", file])
            .output()
            .expect("runs"),
    )
    .0;
    assert_eq!(
        concise,
        "fixtures/rules/default-not-in-options/invalid_case.json:9:22: error[default-not-in-options] Default \"high\" of \
         the radio iparam `priority` is not one of its options\n1 file checked: 1 error, 0 warnings (1 fixable with --fix)\n"
    );
    let quiet = streams(
        &binary()
            .args(["--format", "concise", "--quiet", file])
            .output()
            .expect("runs"),
    )
    .0;
    assert_eq!(quiet.lines().count(), 1);

    let github = streams(
        &binary()
            .args(["--format", "github", "--quiet", file])
            .output()
            .expect("runs"),
    )
    .0;
    assert_eq!(
        github,
        "::error file=fixtures/rules/default-not-in-options/invalid_case.json,line=9,col=22,endLine=9,endColumn=28,\
         title=iparams-lint (default-not-in-options)::Default \"high\" of the radio iparam `priority` is not one of its \
         options%0A%0ADid you mean \"High\"? The options are \"Low\", \"High\".\n"
    );

    let junit = streams(
        &binary()
            .args([
                "--format",
                "junit",
                file,
                "fixtures/rules/empty-display-name/invalid.json",
            ])
            .output()
            .expect("runs"),
    )
    .0;
    assert!(junit.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"iparams-lint\" tests=\"3\" failures=\"1\""), "{junit}");
    assert_eq!(
        junit.matches("<failure ").count(),
        1,
        "warnings are not failures at the default --fail-level"
    );
    assert!(junit.contains("&quot;high&quot;"));
    let strict = streams(
        &binary()
            .args([
                "--format",
                "junit",
                "--fail-level",
                "warning",
                "fixtures/rules/empty-display-name/invalid.json",
            ])
            .output()
            .expect("runs"),
    )
    .0;
    assert_eq!(strict.matches("<failure ").count(), 2);
}

#[test]
fn fail_level_decides_the_exit_status() {
    let warnings_only = "fixtures/rules/empty-display-name/invalid.json";
    let status = |level: &str| {
        binary()
            .args(["--fail-level", level, warnings_only])
            .output()
            .expect("runs")
            .status
            .code()
    };
    assert_eq!(status("error"), Some(0));
    assert_eq!(status("warning"), Some(1));
    let infos_only = "fixtures/rules/unanchored-regex/invalid.json";
    let status = |level: &str| {
        binary()
            .args(["--fail-level", level, infos_only])
            .output()
            .expect("runs")
            .status
            .code()
    };
    assert_eq!(status("warning"), Some(0));
    assert_eq!(status("info"), Some(1));
}
