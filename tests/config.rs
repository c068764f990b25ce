//! `.iparams-lint.toml` and `--rule`: found above each file, validated with suggestions, and
//! able to silence one finding by its JSON pointer.

mod support;

use support::Scratch;

const TWO_PROBLEMS: &str = r#"{
  "priority": {"display_name": "Priority", "type": "dropdown", "options": ["Low", "High"]},
  "monkey": {"display_name": "Monkey", "type": "text"}
}
"#;

fn check(scratch: &Scratch, args: &[&str]) -> (Option<i32>, String, String) {
    support::run_in(&scratch.0, args)
}

#[test]
fn the_nearest_configuration_above_the_file_applies() {
    let scratch = Scratch::new("config-nearest");
    scratch.write("apps/a/config/iparams.json", TWO_PROBLEMS);
    scratch.write("apps/b/config/iparams.json", TWO_PROBLEMS);
    scratch.write(
        ".iparams-lint.toml",
        "[rules]\nmissing-default = \"error\"\n",
    );
    scratch.write(
        "apps/b/.iparams-lint.toml",
        "[rules]\nmissing-default = \"off\"\nvendor-secure-false-positive = \"off\"\n",
    );
    let (status, stdout, _) = check(&scratch, &["--format", "concise", "apps"]);
    assert_eq!(status, Some(1));
    assert!(
        stdout.contains("apps/a/config/iparams.json:2:3: error[missing-default]"),
        "{stdout}"
    );
    assert!(
        stdout.contains("apps/a/config/iparams.json:3:3: info[vendor-secure-false-positive]"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("apps/b/"),
        "apps/b has its own configuration: {stdout}"
    );
}

#[test]
fn command_line_rules_win_over_the_configuration() {
    let scratch = Scratch::new("config-command-line");
    scratch.write("config/iparams.json", TWO_PROBLEMS);
    scratch.write(
        ".iparams-lint.toml",
        "[rules]\nmissing-default = \"error\"\n",
    );
    let (status, stdout, _) = check(
        &scratch,
        &[
            "--format",
            "concise",
            "--rule",
            "missing-default=off",
            "--rule",
            "vendor-secure-false-positive=warning",
            ".",
        ],
    );
    assert_eq!(status, Some(0));
    assert_eq!(
        stdout.lines().next(),
        Some(
            "config/iparams.json:3:3: warning[vendor-secure-false-positive] `fdk validate` will warn that the text iparam `monkey` appears to be a secure param"
        )
    );
}

#[test]
fn overrides_silence_one_value_or_some_files() {
    let scratch = Scratch::new("config-overrides");
    scratch.write("apps/a/config/iparams.json", TWO_PROBLEMS);
    scratch.write("apps/old/config/iparams.json", TWO_PROBLEMS);
    scratch.write(
        "team.toml",
        "ignore = []\n[overrides]\n\"apps/*/config/iparams.json#/monkey\" = { vendor-secure-false-positive = \"off\" }\n\"apps/old/**\" = { \"*\" = \"off\" }\n",
    );
    let (status, stdout, stderr) = check(
        &scratch,
        &["--format", "concise", "--config", "team.toml", "apps"],
    );
    assert_eq!(status, Some(1), "{stderr}");
    assert_eq!(
        stdout,
        "apps/a/config/iparams.json:2:3: error[missing-default] The dropdown iparam `priority` has no `default_value`\n2 files checked: 1 error, 0 warnings (1 fixable with --fix --unsafe-fixes)\n"
    );
}

#[test]
fn ignored_files_are_not_checked() {
    let scratch = Scratch::new("config-ignore");
    scratch.write("legacy/config/iparams.json", "{ broken");
    scratch.write("app/config/iparams.json", "{}");
    scratch.write(".iparams-lint.toml", "ignore = [\"legacy/**\"]\n");
    let (status, stdout, _) = check(
        &scratch,
        &["legacy/config/iparams.json", "app/config/iparams.json"],
    );
    assert_eq!(status, Some(0));
    assert_eq!(stdout, "1 file checked: 0 errors, 0 warnings\n");
}

#[test]
fn configuration_mistakes_exit_2_with_a_suggestion() {
    let scratch = Scratch::new("config-mistakes");
    scratch.write("config/iparams.json", "{}");
    scratch.write(".iparams-lint.toml", "[rule]\nunknown-type = \"off\"\n");
    let (status, stdout, stderr) = check(&scratch, &["."]);
    assert_eq!(status, Some(2));
    assert_eq!(stdout, "");
    assert!(
        stderr.contains(
            ".iparams-lint.toml: unknown key `rule` at the top level; did you mean `rules`?"
        ),
        "{stderr}"
    );

    scratch.write(".iparams-lint.toml", "[rules]\nunknown-typo = \"off\"\n");
    let (status, _, stderr) = check(&scratch, &["."]);
    assert_eq!(status, Some(2));
    assert!(
        stderr.contains("there is no rule `unknown-typo`; did you mean `unknown-type`?"),
        "{stderr}"
    );

    let (status, _, stderr) = check(&scratch, &["--config", "missing.toml", "."]);
    assert_eq!(status, Some(2));
    assert!(stderr.contains("missing.toml: cannot read it"), "{stderr}");

    let (status, _, stderr) = check(
        &scratch,
        &["--rule", "unknown-type=loud", "--config", "/dev/null", "."],
    );
    assert_eq!(status, Some(2));
    assert!(stderr.contains("\"loud\" is not a severity"), "{stderr}");
}

#[test]
fn folders_are_walked_respecting_gitignore() {
    let scratch = Scratch::new("gitignore");
    scratch.write(".gitignore", "build/\n");
    scratch.write("build/app/config/iparams.json", "{ broken");
    scratch.write("node_modules/pkg/config/iparams.json", "{ broken");
    scratch.write("src/app/config/iparams.json", "{}");
    scratch.write("src/app/config/other.json", "{ not an iparams file");
    let (status, stdout, _) = check(&scratch, &["--format", "concise", "."]);
    assert_eq!(
        (status, stdout.as_str()),
        (Some(0), "1 file checked: 0 errors, 0 warnings\n")
    );
}
