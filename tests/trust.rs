//! No secret in any output, a committed credential an error, the vendor's verdict where it
//! decides the app's fate, and no noise on real apps' patterns. Each test fails without the
//! change it is named after.

mod support;

use serde_json::Value;
use support::{Scratch, json_on, repo_root, run_in, run_on};

const FORMATS: [&str; 6] = ["human", "concise", "json", "sarif", "github", "junit"];

/// Every output format of `bytes`, joined.
fn every_format(bytes: &[u8]) -> String {
    FORMATS
        .iter()
        .map(|format| run_on(bytes, "config/iparams.json", &["--format", format]).1)
        .collect::<Vec<_>>()
        .join("\n")
}

/// (rule, severity, message, help) of each finding of `bytes`.
fn findings(bytes: &[u8]) -> Vec<(String, String, String, String)> {
    let json = json_on(bytes, "config/iparams.json");
    json["files"][0]["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
            (
                text(&d["rule"]),
                text(&d["severity"]),
                text(&d["message"]),
                text(&d["help"]),
            )
        })
        .collect()
}

fn of_rule<'f>(
    found: &'f [(String, String, String, String)],
    rule: &str,
) -> Vec<&'f (String, String, String, String)> {
    found.iter().filter(|f| f.0 == rule).collect()
}

const TOKEN: &str = "Zq8vN3kLpR7tW2xYbM5cJ9dF4gH6sA1eQ0uI8oP3nT5rV7wX2yZ4kL6mN8bC0dE9fG1hJ3";

#[test]
fn a_token_pasted_into_data_bind_is_never_shown() {
    let file = format!(
        "{{\n  \"account\": {{\"display_name\": \"Account\", \"type\": \"text\", \"data-bind\": \"{TOKEN}\"}}\n}}\n"
    );
    let output = every_format(file.as_bytes());
    // Not even a piece of it.
    assert!(!output.contains(&TOKEN[..12]), "{output}");
    let found = findings(file.as_bytes());
    assert_eq!(
        of_rule(&found, "hardcoded-credential").len(),
        1,
        "{found:?}"
    );
    assert!(
        of_rule(&found, "unknown-data-bind")[0]
            .2
            .contains("\"********\""),
        "{found:?}"
    );
}

#[test]
fn an_unknown_data_bind_value_is_quoted_only_in_part() {
    let value = "product.the_api_key_of_the_main_account_please";
    let file = format!(
        "{{\n  \"account\": {{\"display_name\": \"Account\", \"type\": \"text\", \"data-bind\": \"{value}\"}}\n}}\n"
    );
    let found = findings(file.as_bytes());
    let message = &of_rule(&found, "unknown-data-bind")[0].2;
    assert!(!message.contains(value), "{message}");
    assert!(
        message.contains("\"product.the_api_…\" (46 characters)"),
        "{message}"
    );
}

#[test]
fn a_secure_default_of_any_json_type_is_masked_and_reported() {
    let file = br#"{
  "pin": {"display_name": "PIN", "type": "number", "secure": true, "default_value": 48291373},
  "flag": {"display_name": "Flag", "type": "checkbox", "secure": true, "default_value": true},
  "codes": {"display_name": "Codes", "type": "multiselect", "options": ["a"], "secure": true, "default_value": [918273645, "zyxwvut"]}
}
"#;
    let output = every_format(file);
    for secret in ["48291373", "918273645", "zyxwvut"] {
        assert!(!output.contains(secret), "{secret} shown in:\n{output}");
    }
    let found = findings(file);
    let reported: Vec<&str> = of_rule(&found, "secure-default-value")
        .iter()
        .map(|f| f.2.as_str())
        .collect();
    assert_eq!(
        reported,
        [
            "Secure iparam `pin` has a default value",
            "Secure iparam `flag` has a default value",
            "Secure iparam `codes` has a default value"
        ]
    );
}

#[test]
fn masking_never_garbles_the_rules_own_words() {
    let file = br#"{
  "flag": {"display_name": "Flag", "type": "checkbox", "secure": true, "default_value": "true"}
}
"#;
    let found = findings(file);
    let message = &of_rule(&found, "default-value-type")[0].2;
    assert!(message.contains("(`true` or `false`)"), "{message}");
    assert!(!message.contains("********"), "{message}");
}

#[test]
fn the_diff_masks_secrets_in_context_lines_too() {
    let scratch = Scratch::new("trust-diff");
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    let secret = "hunter2hunter2x9Q";
    scratch.write(
        "iparams.json",
        format!(
            "{{\n  \"token\": {{\n    \"display_name\": \"Token\",\n    \"description\": \"Such as {jwt}\",\n    \"type\": \"text\",\n    \"secure\": true,\n    \"default_value\": \"{secret}\",\n    \"required\": \"true\"\n  }}\n}}\n"
        ),
    );
    let (status, stdout, _) = run_in(&scratch.0, &["--diff", "iparams.json"]);
    assert_eq!(status, Some(1), "{stdout}");
    assert!(stdout.contains("+    \"required\": true"), "{stdout}");
    assert!(!stdout.contains(secret), "{stdout}");
    assert!(!stdout.contains(&jwt[..20]), "{stdout}");
}

#[test]
fn a_label_naming_a_secret_asks_for_secure() {
    let file = br#"{
  "slack_hook": {"display_name": "Slack bot token", "type": "text"},
  "expiry": {"display_name": "Token expiry in days", "type": "text"},
  "method": {"display_name": "Authentication", "type": "dropdown", "options": ["API key", "Password"], "default_value": "API key"}
}
"#;
    let found = findings(file);
    let reported = of_rule(&found, "secret-label-not-secure");
    assert_eq!(reported.len(), 1, "{found:?}");
    assert!(reported[0].2.contains("`slack_hook`"), "{reported:?}");
    assert!(reported[0].3.contains("`fdk validate` does not check this"));
}

#[test]
fn severities_follow_the_vendor() {
    let file = br#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": ["Low", "High"]},
  "tags": {"display_name": "Tags", "type": "multiselect", "options": ["a", "b"]},
  "teams": {"display_name": "Teams", "type": "multiselect", "options": ["Sales", "Support"], "default_value": "Sales"},
  "level": {"display_name": "Level", "type": "radio", "options": ["One", "Two"], "default_value": ["Two"]},
  "sender": {"display_name": "Sender", "type": "email", "default_value": "user@localhost"},
  "code": {"display_name": "Code", "type": "text", "required": true, "regex": {"code": "/^[A-Z]{3}$/", "code-error": "Three capitals"}},
  "note": {"display_name": "Note", "type": "text", "regex": {"note": "/^[a-z]+$/", "note-error": "Lower case"}}
}
"#;
    let found = findings(file);
    let severity_of = |rule: &str, key: &str| -> Vec<String> {
        of_rule(&found, rule)
            .iter()
            .filter(|f| f.2.contains(&format!("`{key}`")))
            .map(|f| f.1.clone())
            .collect()
    };
    assert_eq!(severity_of("missing-default", "priority"), ["error"]);
    assert_eq!(severity_of("missing-default", "tags"), ["error"]);
    let tags_help = &of_rule(&found, "missing-default")[1].3;
    assert!(tags_help.contains("optional"), "{tags_help}");
    assert!(tags_help.contains("`[\"a\"]`"), "{tags_help}");
    assert_eq!(severity_of("default-value-type", "teams"), ["warning"]);
    assert_eq!(severity_of("default-value-type", "level"), ["warning"]);
    assert_eq!(
        severity_of("invalid-default-format", "sender"),
        ["error"],
        "{found:?}"
    );
    assert_eq!(severity_of("regex-delimiters", "code"), ["error"]);
    assert_eq!(severity_of("regex-delimiters", "note"), ["warning"]);

    // The one-element fixes are safe: --fix applies them.
    let (_, fixed, _) = run_on(file, "config/iparams.json", &["--fix"]);
    assert!(fixed.contains("\"default_value\": [\"Sales\"]"), "{fixed}");
    assert!(fixed.contains("\"default_value\": \"Two\""), "{fixed}");
}

#[test]
fn a_severity_set_by_the_user_still_wins() {
    let file = br#"{
  "teams": {"display_name": "Teams", "type": "multiselect", "options": ["Sales"], "default_value": "Sales"}
}
"#;
    let (_, stdout, _) = run_on(
        file,
        "config/iparams.json",
        &["--format", "concise", "--rule", "default-value-type=error"],
    );
    assert!(stdout.contains("error[default-value-type]"), "{stdout}");
}

#[test]
fn messages_name_what_they_refer_to() {
    let file = br#"{
  "account": {"display_name": "Account", "type": "text", "data-bind": true},
  "survey": {"display_name": "Survey key", "type": "api_key", "secure": true, "type_attributes": {"product": "surveytool"}}
}
"#;
    let found = findings(file);
    let help = &of_rule(&found, "attribute-type")[0].3;
    assert!(help.contains("\"product.domain\""), "{help}");
    assert!(help.contains("\"product.url\""), "{help}");
    let message = &of_rule(&found, "unknown-api-key-product")[0].2;
    assert!(message.contains("freshdesk, freshservice"), "{message}");
}

/// The vendor's dynamic-options pattern: a placeholder option, and the default it needs, that a
/// change callback replaces with the real choices.
const DYNAMIC: &str = r#"{
  "sentimentField": {
    "display_name": "Custom field to update sentiment",
    "type": "dropdown",
    "options": [""],
    "default_value": "",
    "events": [{"change": "fieldChanged"}]
  }
}
"#;

/// The same pattern on a multiselect, whose default is a list.
const DYNAMIC_MULTISELECT: &str = r#"{
  "sentimentField": {
    "display_name": "Custom fields to update with the sentiment",
    "type": "multiselect",
    "options": [""],
    "default_value": [""],
    "events": [{"change": "fieldChanged"}]
  }
}
"#;

const MANIFEST: &str = r#"{"platform-version": "2.3", "product": {"freshdesk": {}}}"#;

#[test]
fn dynamic_options_are_no_noise() {
    for (name, iparams) in [("dropdown", DYNAMIC), ("multiselect", DYNAMIC_MULTISELECT)] {
        // Outside an app: an info at most.
        let found = findings(iparams.as_bytes());
        let empty = of_rule(&found, "empty-option");
        assert_eq!(empty.len(), 1, "{name}: {found:?}");
        assert_eq!(empty[0].1, "info", "{name}");
        assert!(
            empty[0].3.contains("utils.set(\"sentimentField\""),
            "{name}: {empty:?}"
        );
        assert!(found.iter().all(|f| f.1 == "info"), "{name}: {found:?}");

        // In an app whose callback sets the values: nothing at all.
        let scratch = Scratch::new(&format!("trust-dynamic-{name}"));
        scratch.write("manifest.json", MANIFEST);
        scratch.write("config/iparams.json", iparams);
        scratch.write(
            "config/assets/iparams.js",
            "function fieldChanged(value) {\n  utils.set(\"sentimentField\", {values: [\"a\", \"b\"]});\n}\n",
        );
        let (_, stdout, _) = run_in(&scratch.0, &["--format", "concise", "."]);
        assert!(
            stdout.contains("0 errors, 0 warnings\n"),
            "{name}: {stdout}"
        );

        // In an app whose callbacks never do: a warning.
        scratch.write(
            "config/assets/iparams.js",
            "function fieldChanged(value) {\n  return value;\n}\n",
        );
        let (_, stdout, _) = run_in(&scratch.0, &["--format", "concise", "."]);
        assert!(stdout.contains("warning[empty-option]"), "{name}: {stdout}");
    }
}

#[test]
fn removing_a_blank_option_as_told_leads_to_no_other_finding() {
    let file = br#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": ["", "Low"], "default_value": ""}
}
"#;
    let found = findings(file);
    let help = &of_rule(&found, "empty-option")[0].3;
    assert!(
        help.contains("make `default_value` one of the other options"),
        "{help}"
    );
    let only = br#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": [" "], "default_value": " "}
}
"#;
    let found = findings(only);
    let help = &of_rule(&found, "empty-option")[0].3;
    assert!(!help.starts_with("Remove it"), "{help}");
}

const SPARROW: &str = r#"{
  "surveysparrow_api_key": {
    "display_name": "SurveySparrow API Key",
    "data-bind": "product.api_key",
    "required": true,
    "secure": true,
    "type": "api_key",
    "type_attributes": {"product": "surveysparrow"}
  },
  "other_key": {
    "display_name": "Other API Key",
    "required": true,
    "secure": true,
    "type": "api_key",
    "type_attributes": {"product": "surveysparrow"}
  }
}
"#;

#[test]
fn another_sdk_is_said_once() {
    let found = findings(SPARROW.as_bytes());
    assert!(
        of_rule(&found, "unknown-api-key-product").is_empty(),
        "{found:?}"
    );
    assert_eq!(of_rule(&found, "other-platform").len(), 1, "{found:?}");

    let scratch = Scratch::new("trust-sparrow");
    scratch.write(
        "manifest.json",
        r#"{"platform-version": "1.0", "product": {"surveysparrow": {}}}"#,
    );
    scratch.write("config/iparams.json", SPARROW);
    let (_, stdout, _) = run_in(&scratch.0, &["--format", "concise", "."]);
    assert!(!stdout.contains("invalid-manifest"), "{stdout}");
    assert!(!stdout.contains("unknown-api-key-product"), "{stdout}");
    assert_eq!(
        stdout.matches("info[other-platform]").count(),
        1,
        "{stdout}"
    );
}

#[test]
fn two_fields_with_one_label_are_reported() {
    let file = br#"{
  "source_key": {"display_name": "API key", "type": "text", "secure": true},
  "target_key": {"display_name": "API key", "type": "text", "secure": true}
}
"#;
    let found = findings(file);
    assert_eq!(
        of_rule(&found, "duplicate-display-name").len(),
        1,
        "{found:?}"
    );
}

#[test]
fn values_follow_the_vendor_too() {
    let scratch = Scratch::new("trust-values");
    scratch.write(
        "config/iparams.json",
        r#"{
  "teams": {"display_name": "Teams", "type": "multiselect", "options": ["Sales", "Support"], "default_value": ["Sales"]},
  "sender": {"display_name": "Sender", "type": "email"}
}
"#,
    );
    scratch.write(
        "values.json",
        r#"{"teams": "Support", "sender": "user@localhost"}"#,
    );
    let (_, stdout, _) = run_in(
        &scratch.0,
        &[
            "values",
            "--format",
            "concise",
            "--iparams",
            "config/iparams.json",
            "values.json",
        ],
    );
    assert!(stdout.contains("warning[value-type]"), "{stdout}");
    assert!(!stdout.contains("error[value-type]"), "{stdout}");
    assert!(stdout.contains("error[value-format]"), "{stdout}");
    assert!(stdout.contains("localhost"), "{stdout}");
}

/// Every output format of the app (or file) at `path`, run from the repository, joined; and the
/// status of the first.
fn every_format_of(path: &std::path::Path) -> (Option<i32>, String) {
    let mut status = None;
    let outputs: Vec<String> = FORMATS
        .iter()
        .map(|format| {
            let path = path.to_string_lossy();
            let (code, stdout, stderr) = run_in(
                &repo_root(),
                &["--color", "never", "--format", format, &path],
            );
            status = status.or(code);
            stdout + &stderr
        })
        .collect();
    (status, outputs.join("\n"))
}

/// The findings of `rule` on the app at `app`, every file's, as `--format json` gives them.
fn app_findings(app: &std::path::Path, rule: &str) -> Vec<Value> {
    let (_, json, _) = run_in(&repo_root(), &["--format", "json", &app.to_string_lossy()]);
    let json: Value = serde_json::from_str(&json).expect("JSON");
    json["files"]
        .as_array()
        .expect("files")
        .iter()
        .flat_map(|file| file["diagnostics"].as_array().cloned().unwrap_or_default())
        .filter(|d| d["rule"] == rule)
        .collect()
}

fn assert_none_shown(output: &str, secrets: &[&str]) {
    for secret in secrets {
        assert!(!output.contains(secret), "{secret} is shown:\n{output}");
    }
}

#[test]
fn credentials_committed_in_templates_are_errors_and_never_shown() {
    let app = repo_root().join("fixtures/apps/credential-in-template/invalid");
    let (status, output) = every_format_of(&app);
    assert_eq!(status, Some(1), "{output}");
    // Each secret, and the part of each that a message could quote (a host's user info, an
    // encoded pair, a key after `?apikey=`).
    assert_none_shown(
        &output,
        &[
            "8f3Kq2LmN5vX1tK9wZr7",
            "YWRtaW46SHVudGVyMlBhc3N3MHJk",
            "q8Zr2LmN5vX1tK9w",
            "plainsecretvalue12",
            "k3yV4lu3Secr3t99",
            "Hunter2Passw0rd",
            "FGqddMF8t08v8N7Oq4i57vs1",
        ],
    );
    let errors: Vec<String> = app_findings(&app, "credential-in-template")
        .iter()
        .map(|d| format!("{} {}", d["severity"], d["pointer"]))
        .collect();
    // The bearer and basic headers, two named headers, a query parameter, a key in the path,
    // user info, an encoded pair, a token of a known shape.
    assert_eq!(errors.len(), 9, "{errors:?}");
    assert!(
        errors.iter().all(|e| e.starts_with("\"error\"")),
        "{errors:?}"
    );
    // A host with user info is said to hold one, not a port.
    assert!(
        output.contains("holds a user name and password"),
        "{output}"
    );
    assert!(!output.contains("holds a port"), "{output}");
}

#[test]
fn an_iparam_sent_as_a_credential_must_be_secure() {
    let app = repo_root().join("fixtures/apps/credential-iparam-not-secure/invalid");
    let messages: Vec<String> = app_findings(&app, "credential-iparam-not-secure")
        .iter()
        .map(|d| format!("{} {}", d["severity"], d["message"]))
        .collect();
    // Once per iparam, however many templates send it; never for `account`, a plain value.
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].contains("`service_login`") && messages[0].contains("1 more place"));
    assert!(messages[1].contains("`partner_code`"));
    assert!(messages.iter().all(|m| m.starts_with("\"warning\"")));
    let valid = repo_root().join("fixtures/apps/credential-iparam-not-secure/valid");
    let (status, output, _) = run_in(
        &repo_root(),
        &["--format", "concise", &valid.to_string_lossy()],
    );
    assert_eq!(status, Some(0), "{output}");
}

#[test]
fn a_short_data_bind_value_that_is_no_name_is_never_shown() {
    let value = "Tr0ub4dor&3horse-stapl";
    for secure in ["true", "false"] {
        let file = format!(
            "{{\n  \"api_key\": {{\"display_name\": \"API key\", \"type\": \"text\", \"secure\": {secure}, \"data-bind\": \"{value}\"}}\n}}\n"
        );
        let output = every_format(file.as_bytes());
        assert_none_shown(&output, &[&value[..6], &value[10..]]);
        assert!(output.contains("22 characters, not shown"), "{output}");
    }
    // A name is still quoted, to be corrected.
    let file = "{\"domain\": {\"display_name\": \"Domain\", \"type\": \"text\", \"data-bind\": \"product.subdomain\"}}";
    assert!(every_format(file.as_bytes()).contains("\"product.subdomain\""));
}

#[test]
fn a_label_shaped_like_a_credential_is_masked_when_repeated() {
    let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let file = format!(
        "{{\"a\": {{\"display_name\": \"{token}\", \"type\": \"text\"}},\n \"b\": {{\"display_name\": \"{token}\", \"type\": \"text\"}}}}"
    );
    let output = every_format(file.as_bytes());
    assert_none_shown(&output, &[&token[4..20]]);
    assert_eq!(
        of_rule(&findings(file.as_bytes()), "duplicate-display-name").len(),
        1
    );
}

#[test]
fn a_dropped_or_unquoted_secure_default_is_never_shown() {
    let file = "{\n  \"api_key\": {\"display_name\": \"API key\", \"type\": \"text\", \"secure\": true,\n    \"default_value\": \"firstSecretValue1\", \"default_value\": \"secondSecretValue2\"},\n  \"pin\": {\"display_name\": \"PIN\", \"type\": \"text\", \"secure\": true, \"default_value\": unquotedSecret99}\n}\n";
    let output = every_format(file.as_bytes());
    assert_none_shown(&output, &["firstSecret", "secondSecret", "unquotedSecret"]);
    let found = findings(file.as_bytes());
    assert_eq!(of_rule(&found, "duplicate-key").len(), 1, "{found:?}");
    assert_eq!(of_rule(&found, "invalid-json").len(), 1, "{found:?}");
}

#[test]
fn a_values_file_that_is_no_object_shows_none_of_its_values() {
    let scratch = Scratch::new("values-array");
    let definitions = scratch.write(
        "iparams.json",
        r#"{"api_key": {"display_name": "API key", "type": "text", "secure": true}}"#,
    );
    let values = scratch.write(
        "values.json",
        r#"[{"api_key": "myValueSecret123", "pin": 4455667788}]"#,
    );
    let (status, stdout, stderr) = run_in(
        &scratch.0,
        &[
            "values",
            "--iparams",
            &definitions.to_string_lossy(),
            &values.to_string_lossy(),
        ],
    );
    assert_eq!(status, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("root-not-object"), "{stdout}");
    assert_none_shown(&(stdout + &stderr), &["myValueSecret", "4455667788"]);
}

#[test]
fn literal_tokens_in_scripts_are_masked_in_code_frames() {
    let scratch = Scratch::new("script-tokens");
    scratch.write(
        "manifest.json",
        r#"{"platform-version": "2.3", "product": {"freshdesk": {"location": {"ticket_sidebar": {"url": "index.html"}}}}}"#,
    );
    scratch.write("config/iparams.json", "{}");
    scratch.write(
        "app/scripts/app.js",
        concat!(
            "const API_KEY = \"q8Zr2LmN5vX1tK9w\";\n",
            "const headers = { Authorization: \"Bearer 8f3Kq2LmN5vX1tK9wZr7\", apiSecret: \"plainsecretvalue12\" };\n",
            "client.iparams.get(\"nope\"); const basic = `Basic dXNlcjpwYXNzd29yZA==`;\n",
        ),
    );
    let (status, output) = every_format_of(&scratch.0);
    assert_eq!(status, Some(1), "{output}");
    assert!(output.contains("unknown-iparam-read"), "{output}");
    assert_none_shown(
        &output,
        &[
            "q8Zr2LmN5vX1tK9w",
            "8f3Kq2LmN5vX1tK9wZr7",
            "plainsecretvalue12",
            "dXNlcjpwYXNzd29yZA",
        ],
    );
}

#[test]
fn secrets_committed_in_code_and_padded_credentials_are_never_shown() {
    let apps = [
        "credential-in-code/invalid",
        "secret-like-string-in-code/invalid",
        "credential-in-template/invalid_padded",
        "credential-in-template/invalid_product",
    ];
    for app in apps {
        let (_, output) = every_format_of(&repo_root().join("fixtures/apps").join(app));
        // Each is reported, in every format.
        let rule = app.split('/').next().expect("a rule's folder");
        assert!(
            output.matches(&format!("[{rule}]")).count() >= 2,
            "{app}: {output}"
        );
        assert_none_shown(
            &output,
            &[
                "sk_live_abcdefghijklmnop0123",
                "ZHczOnMzY3IzdA",
                "c2VjcmV0a2V5MTI",
                "ghp_abcdefghijklmnopqrstuvwxyz",
                "8f3Kq2LmN5vX1tK9wZr7",
                "FGqddMF8t08v8N7Oq4i57vs1",
                "eyJzdWIiOiIxMjM0In0",
                "q8Zr2LmN5vX1tK9wAb3d",
                "45a7b766-fdb4-4aac-974a-10b3d5720030",
                "3c7e1a9b5d2f4086e8a1c3b5d7f90e2a",
            ],
        );
    }
    // And in the fix's diff, whose context lines show the file around what it changes.
    let scratch = Scratch::new("trust-padded-diff");
    scratch.write(
        "iparams.json",
        concat!(
            "{\n  \"sent_header\": {\n    \"display_name\": \"Header\",\n    \"type\": \"text\",\n",
            "    \"default_value\": \"Basic ZHczOnMzY3IzdA==\",\n    \"required\": \"true\"\n  },\n",
            "  \"hook\": {\n    \"display_name\": \"Hook\",\n    \"type\": \"url\",\n",
            "    \"default_value\": \"https://hooks.example.com/in?token=Zq8vN3kLpR7tW2xYbM5cJ9dF4gH6sA1eQ0uI8o==\",\n",
            "    \"required\": \"true\"\n  }\n}\n",
        ),
    );
    let (status, stdout, _) = run_in(&scratch.0, &["--diff", "iparams.json"]);
    assert_eq!(status, Some(1), "{stdout}");
    assert!(stdout.contains("+    \"required\": true"), "{stdout}");
    assert_none_shown(
        &stdout,
        &["ZHczOnMzY3IzdA", "Zq8vN3kLpR7tW2xYbM5cJ9dF4gH6sA1eQ0uI8o"],
    );
}

/// An app of the freshdesk product in a scratch folder, with `text` at `relative`.
fn scratch_app(name: &str, relative: &str, text: &str) -> Scratch {
    let scratch = Scratch::new(name);
    scratch.write(
        "manifest.json",
        r#"{"platform-version": "2.3", "product": {"freshdesk": {}}}"#,
    );
    scratch.write(relative, text);
    scratch
}

#[test]
fn add_dry_run_masks_the_secrets_already_in_the_file() {
    let scratch = scratch_app(
        "add-dry-run-secret",
        "config/iparams.json",
        "{\n  \"api_key\": {\"display_name\": \"API key\", \"type\": \"text\", \"secure\": true, \"default_value\": \"ExistingSecretDefault42\"}\n}\n",
    );
    let (status, stdout, stderr) = run_in(
        &scratch.0,
        &[
            "add",
            "--key",
            "region",
            "--type",
            "text",
            "--display-name",
            "Region",
            "--dry-run",
            ".",
        ],
    );
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    // The line holding the secret is in the diff (a comma is added to it), masked.
    assert!(stdout.contains("-  \"api_key\""), "{stdout}");
    assert_none_shown(&(stdout + &stderr), &["ExistingSecret"]);
}

/// A custom installation page's secrets (a key in an inline script, a password field's value, a
/// token pasted as a `data-bind`) are never shown, in any format, though findings point at the
/// lines around them.
#[test]
fn secrets_written_in_a_custom_page_are_never_shown() {
    let scratch = scratch_app(
        "trust-custom-page",
        "config/iparams.html",
        concat!(
            "<script src=\"https://static.freshdev.io/fdk/2.0/assets/fresh_client.js\"></script>\n",
            "<input id=\"key\" type=\"password\" value=\"hunter2-Pa55word\">\n",
            "<input id=\"pasted\" data-bind=\"Tr0ub4dor&amp;3xYz9qLw\">\n",
            "<script>\n",
            "const API_TOKEN = \"sk_live_51Hx9ZqLw8PzT2mNcV4bR7yK\";\n",
            "function postConfigs() { return { key: key.value, token: API_TOKEN }; }\n",
            "</script>\n",
        ),
    );
    let (status, output) = every_format_of(&scratch.0);
    assert_eq!(status, Some(1), "{output}");
    for rule in [
        "missing-app-client",
        "unknown-data-bind",
        "page-function-missing",
    ] {
        assert!(output.contains(rule), "{rule} not reported:\n{output}");
    }
    assert_none_shown(
        &output,
        &[
            "hunter2-Pa55word",
            "Tr0ub4dor",
            "sk_live_51Hx9ZqLw8PzT2mNcV4bR7yK",
        ],
    );
}
