//! `iparams-lint values`: the values rules' fixtures (snapshots), the command end to end, secrets
//! in every output format, and every value example of the format's specification and of the
//! vendor's FDK reference.

mod support;

use std::path::Path;

use iparams_core::{Diagnostic, Linter, SourceText};
use support::{
    Scratch, binary, relative, repo_root, run_in, run_with_input, streams, values_definitions,
};

// ---- The rules' fixtures --------------------------------------------------------------------

/// Runs `iparams-lint values` from the repository's top folder; returns (status, stdout, stderr).
fn values_command(args: &[&str]) -> (Option<i32>, String, String) {
    run_in(&repo_root(), &[&["values"], args].concat())
}

#[test]
fn invalid_fixture_output() {
    insta::glob!("../fixtures/values", "*/invalid*.json", |path| {
        let shown = relative(path);
        let definitions = relative(&values_definitions(path));
        let args = ["--color", "never", "--iparams", &definitions, &shown];
        let (status, human, _) = values_command(&args);
        let has_error = human.lines().any(|line| line.starts_with("error["));
        assert_eq!(status, Some(i32::from(has_error)), "{shown}: {human}");
        let (_, json, _) = values_command(&[&args[..], &["--format", "json"]].concat());
        let json: serde_json::Value = serde_json::from_str(&json).expect("one JSON document");
        let json = serde_json::to_string_pretty(&json).expect("serializable");
        insta::with_settings!({ snapshot_path => "snapshots/values", prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(format!("---- human ----\n{human}---- json ----\n{json}\n"));
        });
    });
}

// ---- The command ----------------------------------------------------------------------------

const DEFINITIONS: &str = r#"{
  "domain": {"display_name": "Domain", "type": "domain", "type_attributes": {"product": "freshteam"}, "required": true},
  "api_key": {"display_name": "API key", "type": "api_key", "type_attributes": {"product": "freshteam"}, "secure": true, "required": true},
  "region": {"display_name": "Region", "type": "dropdown", "options": ["eu", "us"], "default_value": "eu"},
  "notify": {"display_name": "Notify", "type": "checkbox"}
}
"#;

const GOOD_VALUES: &str =
    r#"{"domain": "acme", "api_key": "0f1e2d3c4b5a6978", "region": "us", "notify": true}"#;

/// What makes `app/` an app, beside its config/ folder.
const MANIFEST: &str = r#"{"platform-version": "2.3", "product": {"freshteam": {}}}"#;

/// An app folder with `config/iparams.json` and the given values at `values_at`.
fn app(name: &str, values_at: &str, values: &str) -> Scratch {
    let scratch = Scratch::new(name);
    scratch.write("app/manifest.json", MANIFEST);
    scratch.write("app/config/iparams.json", DEFINITIONS);
    scratch.write(values_at, values);
    scratch
}

/// Runs `iparams-lint values` in `dir`, without colour; returns (status, stdout, stderr).
fn values_in(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    run_in(dir, &[&["values", "--color", "never"], args].concat())
}

#[test]
fn clean_values_exit_0() {
    let scratch = app("clean", "app/deploy/prod.json", GOOD_VALUES);
    let (status, stdout, stderr) = values_in(&scratch.0, &["app/deploy/prod.json"]);
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    assert_eq!(stdout, "1 file checked: 0 errors, 0 warnings\n");
    assert_eq!(stderr, "");
}

#[test]
fn iparams_json_is_found_in_the_app_above_the_values() {
    let scratch = app("discovery", "app/deploy/prod.json", r#"{"domain": "acme"}"#);
    let (status, stdout, _) =
        values_in(&scratch.0, &["--format", "concise", "app/deploy/prod.json"]);
    assert_eq!(status, Some(1));
    assert!(
        stdout.starts_with(
            "app/deploy/prod.json:1:1: error[value-required] The required api_key iparam `api_key` has no value\n"
        ),
        "{stdout}"
    );
    // From inside the app, the path of iparams.json is shown as it is reached from there.
    let (_, json, _) = values_in(
        &scratch.0.join("app/deploy"),
        &["--format", "json", "prod.json"],
    );
    assert!(
        json.contains("`api_key` is defined at ../config/iparams.json:3:3."),
        "{json}"
    );
}

#[test]
fn an_app_folder_means_what_the_preview_stored_else_its_iparam_test_data_json() {
    let scratch = app(
        "test-data",
        "app/config/iparam_test_data.json",
        r#"{"domain": "acme", "api_key": "k", "region": "EU"}"#,
    );
    let (status, stdout, stderr) =
        values_in(&scratch.0, &["--format", "concise", "--quiet", "app"]);
    assert_eq!(status, Some(1));
    assert_eq!(
        stdout,
        "app/config/iparam_test_data.json:1:46: error[value-not-in-options] Value \"EU\" of the dropdown iparam `region` is not one of its options\n"
    );
    assert_eq!(
        stderr,
        "iparams-lint: values: checking app/config/iparam_test_data.json, the app's test data\n"
    );
    // What the preview stored comes first, and the note says which file was read.
    scratch.write(
        "app/.iparams-lint/installed.json",
        r#"{"domain": "acme", "api_key": "k", "region": "US"}"#,
    );
    let (_, stdout, stderr) = values_in(&scratch.0, &["--format", "concise", "--quiet", "app"]);
    assert_eq!(
        stdout,
        "app/.iparams-lint/installed.json:1:46: error[value-not-in-options] Value \"US\" of the dropdown iparam `region` is not one of its options\n"
    );
    assert_eq!(
        stderr,
        "iparams-lint: values: checking app/.iparams-lint/installed.json, the values the preview stored\n"
    );
    let empty = Scratch::new("no-test-data");
    empty.write("app/manifest.json", MANIFEST);
    empty.write("app/config/iparams.json", DEFINITIONS);
    let (status, _, stderr) = values_in(&empty.0, &["app"]);
    assert_eq!(status, Some(2));
    assert!(
        stderr.contains(
            "app: neither .iparams-lint/installed.json (what `iparams-lint preview` stores) nor config/iparam_test_data.json in this folder; name the values file itself"
        ),
        "{stderr}"
    );
}

#[test]
fn trouble_exits_2() {
    let scratch = app("trouble", "values.json", GOOD_VALUES);
    // No app above the values file.
    let (status, stdout, stderr) = values_in(&scratch.0, &["values.json"]);
    assert_eq!(status, Some(2));
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("values.json: not in an app (no folder at or above it holds manifest.json and config/); name its iparams.json with --iparams PATH"),
        "{stderr}"
    );
    let (status, _, stderr) = values_in(
        &scratch.0,
        &["--iparams", "app/config/iparams.json", "missing.json"],
    );
    assert_eq!(status, Some(2));
    assert!(stderr.contains("missing.json: no such file"), "{stderr}");
    let (status, _, stderr) = values_in(&scratch.0, &["--iparams", "nope.json", "values.json"]);
    assert_eq!(status, Some(2));
    assert!(stderr.contains("nope.json: no such file"), "{stderr}");
    let (status, _, stderr) = values_in(
        &scratch.0,
        &[
            "--rule",
            "value-requried=off",
            "--iparams",
            "app/config/iparams.json",
            "values.json",
        ],
    );
    assert_eq!(status, Some(2));
    assert!(
        stderr.contains("did you mean `value-required`?"),
        "{stderr}"
    );
}

#[test]
fn fail_level_rules_and_configuration_apply_as_for_check() {
    let scratch = app(
        "levels",
        "app/values.json",
        r#"{"domain": "acme", "api_key": "k", "colour": "red"}"#,
    );
    let run = |args: &[&str]| values_in(&scratch.0, &[args, &["app/values.json"]].concat()).0;
    assert_eq!(run(&[]), Some(0), "an unknown key is a warning");
    assert_eq!(run(&["--fail-level", "warning"]), Some(1));
    assert_eq!(
        run(&["--fail-level", "warning", "--rule", "unknown-value-key=off"]),
        Some(0)
    );
    scratch.write(
        "app/.iparams-lint.toml",
        "[rules]\nunknown-value-key = \"error\"\n",
    );
    assert_eq!(run(&[]), Some(1));
    scratch.write(
        "app/.iparams-lint.toml",
        "[overrides]\n\"values.json#/colour\" = { unknown-value-key = \"off\" }\n",
    );
    assert_eq!(run(&["--fail-level", "warning"]), Some(0));
}

#[test]
fn standard_input_with_its_iparams() {
    let scratch = app("stdin", "unused.json", "{}");
    let mut command = binary();
    command.current_dir(&scratch.0).args([
        "values",
        "--format",
        "concise",
        "--iparams",
        "app/config/iparams.json",
        "--stdin-filename",
        "deploy/values.json",
        "-",
    ]);
    let output = run_with_input(
        command,
        br#"{"domain": "acme", "api_key": "k", "notify": "yes"}"#,
    );
    assert_eq!(output.status.code(), Some(1));
    let (stdout, _) = streams(&output);
    assert!(
        stdout.starts_with("deploy/values.json:1:46: error[value-type] The value of the checkbox iparam `notify` must be a boolean"),
        "{stdout}"
    );
}

#[test]
fn show_get_prints_what_the_front_end_receives() {
    let scratch = app(
        "show-get",
        "app/values.json",
        r#"{"region": "us", "api_key": "0f1e2d3c4b5a6978", "domain": "acme", "extra": 1}"#,
    );
    let (status, stdout, stderr) = values_in(&scratch.0, &["--show-get", "app/values.json"]);
    assert_eq!(
        stdout,
        "{\n  \"domain\": \"acme\",\n  \"region\": \"us\"\n}\n"
    );
    assert!(
        stderr.contains("Left out, being secure: `api_key`. The front end cannot read them"),
        "{stderr}"
    );
    assert!(
        stderr.contains("Left out, having no value: `notify`."),
        "{stderr}"
    );
    assert!(
        stderr.contains("Left out, not being iparams: `extra`."),
        "{stderr}"
    );
    // The findings go to standard error, and still decide the exit status.
    assert!(stderr.contains("warning[unknown-value-key]"), "{stderr}");
    assert_eq!(status, Some(0));
    assert!(!stderr.contains("0f1e2d3c4b5a6978"));

    let broken = app("show-get-broken", "app/values.json", r#"{"region": "us",}"#);
    let (status, stdout, stderr) = values_in(&broken.0, &["--show-get", "app/values.json"]);
    assert_eq!(status, Some(1));
    assert_eq!(stdout, "");
    assert!(
        stderr.contains(
            "what `client.iparams.get()` returns cannot be shown: the values file is not valid JSON"
        ),
        "{stderr}"
    );
}

// ---- Secrets --------------------------------------------------------------------------------

/// Strings that appear nowhere in the rules' documentation (which SARIF output carries).
const SECRETS: [&str; 5] = [
    "Zq8w-s3cr3t",
    "Vb7x-hunt3r",
    "ghp_Zq8wVb7xZq8wVb7xZq8wVb7xZq8wVb7xZq8w",
    "fa09d1c2b3e4f5a6b7c8",
    "417293",
];

/// Values that fail checks of secure iparams, of a key that names a secret, and of a plain
/// iparam holding a credential, in every way a value can be quoted.
const SECRET_DEFINITIONS: &str = r#"{
  "password": {"display_name": "Password", "type": "text", "secure": true, "regex": {"strength": "^.{12,}$", "strength-error": "At least 12 characters"}},
  "admin_email": {"display_name": "Admin", "type": "email", "secure": true},
  "api_token": {"display_name": "API token", "type": "dropdown", "options": ["a", "b"], "default_value": "a"},
  "notes": {"display_name": "Notes", "type": "paragraph"},
  "pin": {"display_name": "PIN", "type": "text", "secure": true},
  "scopes": {"display_name": "Scopes", "type": "multiselect", "options": ["read"], "default_value": ["read"], "secure": true}
}
"#;

const SECRET_VALUES: &str = r#"{
  "password": "Zq8w-s3cr3t",
  "admin_email": "Vb7x-hunt3r",
  "api_token": "fa09d1c2b3e4f5a6b7c8",
  "notes": ["ghp_Zq8wVb7xZq8wVb7xZq8wVb7xZq8wVb7xZq8w"],
  "pin": 417293,
  "scopes": ["Zq8w-s3cr3t", "Zq8w-s3cr3t"],
  "github_token": "Vb7x-hunt3r"
}
"#;

#[test]
fn secrets_never_reach_any_output() {
    let scratch = Scratch::new("values-secrets");
    scratch.write("app/manifest.json", MANIFEST);
    scratch.write("app/config/iparams.json", SECRET_DEFINITIONS);
    scratch.write("app/values.json", SECRET_VALUES);
    for format in ["human", "concise", "json", "sarif", "github", "junit"] {
        for extra in [&[][..], &["--show-get"][..]] {
            let args = [&["--format", format][..], extra, &["app/values.json"][..]].concat();
            let (status, stdout, stderr) = values_in(&scratch.0, &args);
            assert_eq!(status, Some(1), "{format}: {stdout}{stderr}");
            let text = stdout + &stderr;
            for secret in SECRETS {
                assert!(
                    !text.contains(secret),
                    "{format} {extra:?} output shows {secret}:\n{text}"
                );
            }
            // Each problem is still reported, its value masked.
            for rule in [
                "value-fails-regex",
                "value-format",
                "value-not-in-options",
                "value-type",
                "value-duplicate-option",
                "unknown-value-key",
            ] {
                assert!(
                    text.contains(rule),
                    "{format} does not report {rule}:\n{text}"
                );
            }
        }
    }
    // The frames keep their shape: masked byte for byte.
    let (_, human, _) = values_in(&scratch.0, &["app/values.json"]);
    assert!(human.contains("\"password\": \"***********\""), "{human}");
    assert!(human.contains("\"pin\": ******"), "{human}");
}

/// A secure value written without quotes is a syntax error of the values file: the message and
/// help that quote it are masked too, in every format.
#[test]
fn an_unquoted_secure_value_is_never_shown() {
    let scratch = Scratch::new("values-secrets-unquoted");
    scratch.write("app/manifest.json", MANIFEST);
    scratch.write("app/config/iparams.json", SECRET_DEFINITIONS);
    scratch.write("app/values.json", "{\"password\": Zq8wVb7xs3cr3thunt3r}\n");
    for format in ["human", "concise", "json", "sarif", "github", "junit"] {
        let (status, stdout, stderr) =
            values_in(&scratch.0, &["--format", format, "app/values.json"]);
        assert_eq!(status, Some(1), "{format}: {stdout}{stderr}");
        let text = stdout + &stderr;
        assert!(text.contains("invalid-json"), "{format}: {text}");
        assert!(
            !text.contains("Zq8wVb7xs3cr3thunt3r"),
            "{format} shows it:\n{text}"
        );
    }
}

#[test]
fn broken_definitions_show_nothing_of_the_values() {
    let scratch = Scratch::new("values-secrets-broken");
    // A trailing comma after the last definition.
    let broken = SECRET_DEFINITIONS.replace("true}\n}", "true},\n}");
    assert_ne!(broken, SECRET_DEFINITIONS);
    scratch.write("app/manifest.json", MANIFEST);
    scratch.write("app/config/iparams.json", broken);
    scratch.write("app/values.json", SECRET_VALUES);
    let (status, stdout, _) = values_in(&scratch.0, &["app/values.json"]);
    assert_eq!(status, Some(1));
    assert!(
        stdout.contains("error[value-definitions-invalid]"),
        "{stdout}"
    );
    for secret in SECRETS {
        assert!(!stdout.contains(secret), "{stdout}");
    }
}

// ---- The value examples of the specification and the FDK reference --------------------------

/// The findings for `value` given to one iparam defined as `definition`, and its key `field`.
fn verdict(definition: &str, value: &str) -> Vec<Diagnostic> {
    let definitions = format!("{{\"field\": {definition}}}");
    let values = format!("{{\"field\": {value}}}");
    Linter::default()
        .check_values(
            &SourceText::decode(definitions.as_bytes()),
            &SourceText::decode(values.as_bytes()),
            "config/iparams.json",
        )
        .diagnostics
}

fn rules_for(definition: &str, value: &str) -> Vec<&'static str> {
    verdict(definition, value).iter().map(|d| d.rule).collect()
}

/// Whether the value passes without a single finding.
fn accepted(definition: &str, value: &str) -> bool {
    verdict(definition, value).is_empty()
}

const PHONE: &str = r#"{"display_name": "Phone", "type": "phone_number"}"#;
const NUMBER: &str = r#"{"display_name": "Number", "type": "number"}"#;
const URL: &str = r#"{"display_name": "URL", "type": "url"}"#;
const DATE: &str = r#"{"display_name": "Date", "type": "date"}"#;
const EMAIL: &str = r#"{"display_name": "Email", "type": "email"}"#;

#[test]
fn phone_numbers_are_ten_digits_bare_or_3_3_4() {
    assert!(accepted(PHONE, r#""9876545677""#));
    assert!(accepted(PHONE, r#""987-654-5677""#));
    assert_eq!(rules_for(PHONE, r#""987-832654-5677""#), ["value-format"]);
    assert_eq!(rules_for(PHONE, r#""+1 987 654 5677""#), ["value-format"]);
}

#[test]
fn numbers_are_integers_of_at_most_ten_digits() {
    assert!(accepted(NUMBER, r#""9876545677""#));
    assert!(accepted(NUMBER, r#""9999999999""#));
    assert!(
        accepted(NUMBER, "30"),
        "a JSON number is accepted for a number iparam"
    );
    assert_eq!(rules_for(NUMBER, r#""12345678901""#), ["value-format"]);
    assert_eq!(rules_for(NUMBER, r#""987238abc""#), ["value-format"]);
    let decimal = verdict(NUMBER, r#""-987.5677""#);
    assert_eq!(
        decimal[0].message,
        "Value \"-987.5677\" of the number iparam `field` is not an integer; older FDK releases accepted \
         decimals, but the format allows integers of at most 10 digits"
    );
    assert_eq!(rules_for(NUMBER, "-987.5677"), ["value-format"]);
}

#[test]
fn urls_are_whole_https_urls() {
    assert!(accepted(URL, r#""https://www.google.com""#));
    assert!(accepted(URL, r#""https://dev-staging.freshdesk.com""#));
    // A wildcard host parses as a URL, and older FDK releases accepted it.
    assert!(accepted(URL, r#""https://*.google.com""#));
    let unanchored = verdict(URL, r#""see https://www.example.com""#);
    assert_eq!(
        unanchored[0].message,
        "Value \"see https://www.example.com\" of the url iparam `field` contains spaces; older FDK releases \
         accepted it, as their URL pattern is not anchored"
    );
    let http = verdict(URL, r#""http://www.hello.com""#);
    assert_eq!(
        http[0].message,
        "Value \"http://www.hello.com\" of the url iparam `field` uses http; the installation page accepts only https URLs"
    );
    assert_eq!(
        rules_for(URL, r#""www.dev-staging.freshdesk.com""#),
        ["value-format"]
    );
    assert_eq!(rules_for(URL, r#""HTTPS://example.com""#), ["value-format"]);
}

#[test]
fn dates_are_real_days_written_yyyy_mm_dd() {
    assert!(accepted(DATE, r#""2014-02-13""#));
    assert!(accepted(DATE, r#""2024-02-29""#));
    let impossible = verdict(DATE, r#""2014-02-31""#);
    assert_eq!(
        impossible[0].message,
        "Value \"2014-02-31\" of the date iparam `field` is not a real date: February 2014 has 28 days; older \
         FDK releases accepted it, as they had no calendar check"
    );
    for written in [r#""2014/02/13""#, r#""13-02-2014""#, r#""13/02/2014""#] {
        assert_eq!(rules_for(DATE, written), ["value-format"], "{written}");
    }
}

#[test]
fn emails_as_a_browser_accepts_them() {
    assert!(accepted(EMAIL, r#""abc@gmail.com""#));
    assert_eq!(rules_for(EMAIL, r#""abc@def@gmail.com""#), ["value-format"]);
}

#[test]
fn required_values_and_falsy_ones() {
    let text =
        r#"{"display_name": "Name", "type": "text", "required": true, "default_value": "Sumit"}"#;
    let checkbox = r#"{"display_name": "Terms", "type": "checkbox", "required": true}"#;
    let number = r#"{"display_name": "Retries", "type": "number", "required": true}"#;
    let multiselect = r#"{"display_name": "Teams", "type": "multiselect", "options": ["a"], "default_value": ["a"], "required": true}"#;
    // Missing, even with a default, as older FDK releases reported it.
    let definitions = format!("{{\"name\": {text}}}");
    let missing = Linter::default().check_values(
        &SourceText::decode(definitions.as_bytes()),
        &SourceText::decode(b"{}"),
        "config/iparams.json",
    );
    assert_eq!(missing.diagnostics[0].rule, "value-required");
    assert!(
        missing.diagnostics[0]
            .help
            .as_deref()
            .is_some_and(|h| h.contains("The page would preselect its default, \"Sumit\"")),
        "{:?}",
        missing.diagnostics[0]
    );
    for empty in [r#""""#, "null"] {
        assert_eq!(rules_for(text, empty), ["value-required"], "{empty}");
    }
    assert_eq!(rules_for(checkbox, "false"), ["value-required"]);
    assert!(accepted(checkbox, "true"));
    assert_eq!(rules_for(multiselect, "[]"), ["value-required"]);
    assert!(accepted(number, "0"), "0 is a value an installer can type");
    assert!(accepted(
        r#"{"display_name": "Terms", "type": "checkbox"}"#,
        "false"
    ));
}

#[test]
fn optional_empty_values_skip_the_checks() {
    for (definition, empty) in [
        (EMAIL, r#""""#),
        (URL, "null"),
        (DATE, r#""""#),
        (NUMBER, r#""""#),
    ] {
        assert!(accepted(definition, empty), "{definition} {empty}");
    }
    let dropdown =
        r#"{"display_name": "D", "type": "dropdown", "options": ["a"], "default_value": "a"}"#;
    assert!(accepted(dropdown, r#""""#));
}

#[test]
fn a_custom_regex_replaces_the_builtin_check() {
    let number = r#"{"display_name": "Number", "type": "number", "regex": {"name": "^[0-9]*$", "name-error": "number should be numeric"}}"#;
    assert!(accepted(number, r#""123""#));
    assert!(
        accepted(number, r#""012345678901""#),
        "the regex, not the 10-digit check, decides"
    );
    let failing = verdict(number, r#""234abc""#);
    assert_eq!(
        failing.iter().map(|d| d.rule).collect::<Vec<_>>(),
        ["value-fails-regex"]
    );
    assert!(
        failing[0]
            .message
            .ends_with(": \"number should be numeric\"")
    );
    let url = r#"{"display_name": "URL", "type": "url", "regex": {"name": "^(https://www.)?[a-z0-9]+[.]{1}[a-z0-9]+", "name-error": "enter a valid url"}}"#;
    assert!(accepted(url, r#""https://www.test.com""#));
    assert_eq!(rules_for(url, r#""test""#), ["value-fails-regex"]);
    let email = r#"{"display_name": "Email", "type": "email", "regex": {"name": "^(.*?)@(.*?).(.{2,3})$", "name-error": "enter a valid email address"}}"#;
    assert!(accepted(email, r#""test@email.com""#));
    assert_eq!(rules_for(email, r#""test@""#), ["value-fails-regex"]);
}

#[test]
fn every_pattern_applies_and_the_failing_one_speaks() {
    let name = r#"{"display_name": "Name", "type": "text", "regex": {
        "name": "^[a-zA-Z0-9]*$", "name-error": "Name should be alphanumeric",
        "length": "^[a-zA-Z0-9]{1,8}$", "length-error": "Length within only 1 and 8 only"}}"#;
    assert!(accepted(name, r#""Sumit""#));
    let long = verdict(name, r#""testdata1234""#);
    assert_eq!(long.len(), 1);
    assert_eq!(
        long[0].message,
        "Value \"testdata1234\" of the text iparam `field` fails its regex `length`: \"Length within only 1 and 8 only\""
    );
    let both = verdict(name, r#""test data 1234""#);
    assert_eq!(both.len(), 2, "each failing pattern is reported: {both:?}");
}

#[test]
fn patterns_match_anywhere_unless_anchored_as_in_javascript() {
    // The FDK reference's regex sample.
    let age = r#"{"display_name": "Age", "type": "text", "regex": {"age-limit": "[1-9][0-9]", "age-limit-error": "The age must be between 10-99"}}"#;
    assert!(accepted(age, r#""42""#));
    assert!(accepted(age, r#""age 1234""#));
    let young = verdict(age, r#""5""#);
    assert!(
        young[0]
            .message
            .ends_with("fails its regex `age-limit`: \"The age must be between 10-99\"")
    );
}

#[test]
fn choices_come_from_the_options() {
    let dropdown = r#"{"display_name": "D", "type": "dropdown", "options": ["option1", "option2", "option3"], "default_value": "option3"}"#;
    let radio = dropdown.replace("dropdown", "radio");
    let multiselect = r#"{"display_name": "M", "type": "multiselect", "options": ["option1", "option2", "option3"], "default_value": ["option1"]}"#;
    assert!(accepted(dropdown, r#""option2""#));
    assert_eq!(
        rules_for(dropdown, r#""option4""#),
        ["value-not-in-options"]
    );
    assert!(accepted(&radio, r#""option2""#));
    assert_eq!(rules_for(&radio, r#""option4""#), ["value-not-in-options"]);
    assert!(accepted(multiselect, r#"["option2", "option3"]"#));
    assert_eq!(
        rules_for(multiselect, r#"["option1", "option4"]"#),
        ["value-not-in-options"]
    );
    // Older FDK releases took a bare string as one selection; the installation page saves an array.
    assert_eq!(rules_for(multiselect, r#""option2""#), ["value-type"]);
    assert_eq!(
        rules_for(multiselect, r#""option4""#),
        ["value-not-in-options", "value-type"]
    );
    assert_eq!(
        rules_for(multiselect, r#"["option1", "option1"]"#),
        ["value-duplicate-option"]
    );
}

#[test]
fn checkbox_values_are_booleans_and_multiselect_values_arrays() {
    let checkbox = r#"{"display_name": "C", "type": "checkbox"}"#;
    assert_eq!(rules_for(checkbox, r#""true""#), ["value-type"]);
    let text = r#"{"display_name": "T", "type": "text"}"#;
    assert_eq!(rules_for(text, "75001"), ["value-type"]);
    assert!(accepted(text, r#""75001""#));
}

#[test]
fn a_hidden_required_iparam_without_a_value_blocks_the_installation() {
    let hidden =
        r#"{"display_name": "Tenant", "type": "text", "required": true, "visible": false}"#;
    assert_eq!(rules_for(hidden, r#""""#), ["hidden-required-value"]);
    assert!(accepted(hidden, r#""main""#));
}

#[test]
fn get_leaves_out_secure_iparams() {
    let definitions = r#"{"a": {"display_name": "A", "type": "text"}, "k": {"display_name": "K", "type": "text", "secure": true}}"#;
    let source = SourceText::decode(definitions.as_bytes());
    let definitions = iparams_core::values::Definitions::Json {
        source: &source,
        path: "config/iparams.json",
    };
    let preview = iparams_core::values::preview_get(
        definitions,
        &SourceText::decode(br#"{"k": "secret value", "a": "x"}"#),
    )
    .expect("a preview");
    assert_eq!(preview.json, "{\n  \"a\": \"x\"\n}\n");
    assert_eq!(preview.secure, ["k"]);
}

/// An app with a custom installation page and no iparams.json: its values are checked against
/// what the page's `postConfigs` returns, found from the values file's folder as iparams.json
/// is; secure values are never shown; `--verify`, which needs iparams.json's types, says so.
#[test]
fn values_of_an_app_with_a_custom_page() {
    let scratch = Scratch::new("values-custom-page");
    let app = scratch.0.join("app");
    let fixture = repo_root().join("fixtures/values/missing-value-key/app");
    for file in ["manifest.json", "config/iparams.html"] {
        let to = app.join(file);
        std::fs::create_dir_all(to.parent().expect("a folder")).expect("folders");
        std::fs::copy(fixture.join(file), &to).expect("copied");
    }
    std::fs::write(
        app.join("values.json"),
        r#"{"region": "eu", "token": "tk-Secret-9f8e7d", "teem": "x"}"#,
    )
    .expect("written");
    let (status, out, err) = values_in(&app, &["values.json", "--format", "concise"]);
    assert_eq!(status, Some(0), "{out}{err}");
    let rules: Vec<&str> = out
        .lines()
        .filter_map(|line| line.split('[').nth(1)?.split(']').next())
        .collect();
    assert_eq!(rules, ["missing-value-key", "unknown-value-key"], "{out}");
    assert!(out.contains("config/iparams.html"), "{out}");
    let (_, human, _) = values_in(&app, &["values.json"]);
    assert!(human.contains("Did you mean `team`?"), "{human}");
    assert!(!human.contains("tk-Secret-9f8e7d"), "{human}");
    let (status, _, err) = values_in(&app, &["values.json", "--verify"]);
    assert_eq!(status, Some(2));
    assert!(
        err.contains("a custom page's iparams have no types"),
        "{err}"
    );
    // With iparams.json beside the page, naming the page says which one the installation uses.
    std::fs::write(app.join("config/iparams.json"), DEFINITIONS).expect("written");
    let (status, _, err) = values_in(&app, &["values.json", "--iparams", "config/iparams.html"]);
    assert_eq!(status, Some(2));
    assert!(
        err.contains("the app has config/iparams.json too, and its installation uses that file"),
        "{err}"
    );
}

/// `values APP` reads only what is in the app: a values file that a symbolic link takes out of
/// the app is refused (exit 2) and nothing of it is printed; a FIFO is refused at once.
#[cfg(unix)]
#[test]
fn values_files_never_leave_the_app_and_fifos_are_refused() {
    let scratch = app(
        "values-links",
        "outside/planted.json",
        r#"{"region": "PLANTED-LINE"}"#,
    );
    let planted = scratch.0.join("outside/planted.json");
    for (at, named) in [
        (".iparams-lint/installed.json", "app"),
        ("config/iparam_test_data.json", "app"),
        (
            "config/iparam_test_data.json",
            "app/config/iparam_test_data.json",
        ),
    ] {
        let _ = std::fs::remove_dir_all(scratch.0.join("app/.iparams-lint"));
        let _ = std::fs::remove_file(scratch.0.join("app/config/iparam_test_data.json"));
        let link = scratch.0.join("app").join(at);
        std::fs::create_dir_all(link.parent().expect("a folder")).expect("a folder");
        std::os::unix::fs::symlink(&planted, &link).expect("a link");
        let (status, stdout, stderr) = support::run_in_time(&scratch.0, &["values", named]);
        assert_eq!(status, Some(2), "{at}: {stdout}{stderr}");
        assert!(
            stderr.contains(&format!(
                "app/{at}: a symbolic link takes it outside the app's folder app; it is not read"
            )),
            "{at}: {stderr}"
        );
        assert!(!stdout.contains("PLANTED") && !stderr.contains("PLANTED"));
    }
    // A FIFO where the preview stores its values.
    let _ = std::fs::remove_file(scratch.0.join("app/config/iparam_test_data.json"));
    let _ = std::fs::remove_dir_all(scratch.0.join("app/.iparams-lint"));
    std::fs::create_dir_all(scratch.0.join("app/.iparams-lint")).expect("a folder");
    support::fifo(&scratch.0.join("app/.iparams-lint/installed.json"));
    let (status, _, stderr) = support::run_in_time(&scratch.0, &["values", "app"]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr
            .contains("app/.iparams-lint/installed.json: cannot read: a FIFO, not a regular file"),
        "{stderr}"
    );
}
