//! `--fix`, `--unsafe-fixes` and `--diff`: minimal edits, written atomically, never to a
//! file with a syntax error, and a second run changes nothing.

mod support;

use std::fs;

use support::{Scratch, binary, streams};

/// Tabs, CRLF line ends, a trailing space and odd key order: all must survive the fixes.
const BEFORE: &str = "{\r\n\t\"region\": {\"type\": \"Text\", \"display_name\": \"Region\" ,  \"required\": \"true\"},\r\n\t\"key\": {\r\n\t\t\"display_name\": \"API key\",\r\n\t\t\"type\": \"api_key\",\r\n\t\t\"type_attributes\": {\"product\": \"Fresh Desk\"}\r\n\t}\r\n}\r\n";

const SAFE: &str = "{\r\n\t\"region\": {\"type\": \"text\", \"display_name\": \"Region\" ,  \"required\": true},\r\n\t\"key\": {\r\n\t\t\"display_name\": \"API key\",\r\n\t\t\"type\": \"api_key\",\r\n\t\t\"type_attributes\": {\"product\": \"freshdesk\"}\r\n\t}\r\n}\r\n";

fn fix(scratch: &Scratch, args: &[&str]) -> (Option<i32>, String, String) {
    support::run_in(&scratch.0, args)
}

#[test]
fn safe_fixes_are_minimal_and_idempotent() {
    let scratch = Scratch::new("fix-safe");
    let file = scratch.write("config/iparams.json", BEFORE);
    let (status, stdout, stderr) = fix(&scratch, &["--fix", "config/iparams.json"]);
    assert_eq!(fs::read_to_string(&file).unwrap(), SAFE);
    assert!(
        stdout.contains("Fixed 3 problems in 1 file."),
        "{stdout}{stderr}"
    );
    // The api_key is still not secure: that fix is unsafe, so it remains, as a warning.
    assert!(stdout.contains("warning[api-key-not-secure]"), "{stdout}");
    assert!(
        stdout.ends_with(
            "1 file checked: 0 errors, 1 warning (1 fixable with --fix --unsafe-fixes)\n"
        ),
        "{stdout}"
    );
    assert_eq!(status, Some(0));

    let (_, stdout, _) = fix(&scratch, &["--fix", "config/iparams.json"]);
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        SAFE,
        "a second --fix changes nothing"
    );
    assert!(!stdout.contains("Fixed"), "{stdout}");
}

#[test]
fn unsafe_fixes_only_when_asked() {
    let scratch = Scratch::new("fix-unsafe");
    let file = scratch.write("config/iparams.json", SAFE);
    fix(
        &scratch,
        &["--fix", "--unsafe-fixes", "config/iparams.json"],
    );
    let after = fs::read_to_string(&file).unwrap();
    assert!(
        after.contains(
            "\t\t\"type_attributes\": {\"product\": \"freshdesk\"},\r\n\t\t\"secure\": true\r\n\t}"
        ),
        "{after:?}"
    );
    let (status, stdout, _) = fix(&scratch, &["config/iparams.json"]);
    assert_eq!(
        (status, stdout.as_str()),
        (Some(0), "1 file checked: 0 errors, 0 warnings\n")
    );
}

#[test]
fn diff_shows_the_fixes_and_writes_nothing() {
    let scratch = Scratch::new("fix-diff");
    let file = scratch.write("config/iparams.json", BEFORE);
    let (status, stdout, stderr) = fix(&scratch, &["--diff", "config/iparams.json"]);
    assert_eq!(fs::read_to_string(&file).unwrap(), BEFORE);
    assert_eq!(status, Some(1));
    assert!(
        stdout.starts_with("--- a/config/iparams.json\n+++ b/config/iparams.json\n@@"),
        "{stdout}"
    );
    assert!(
        stdout.contains("-\t\"region\": {\"type\": \"Text\""),
        "{stdout}"
    );
    assert!(
        stdout.contains("+\t\"region\": {\"type\": \"text\""),
        "{stdout}"
    );
    assert!(
        stderr.ends_with("3 problems would be fixed in 1 file.\n"),
        "{stderr}"
    );
    let (status, stdout, _) = fix(
        &scratch,
        &[
            "--diff",
            "--rule",
            "unknown-type=off",
            "--rule",
            "attribute-type=off",
            "--rule",
            "unknown-product=off",
            "config/iparams.json",
        ],
    );
    assert_eq!((status, stdout.as_str()), (Some(0), ""));
}

/// Trailing commas are removed, and then the file's other fixes apply in the same run (fix until
/// stable); a second run changes nothing.
#[test]
fn trailing_commas_are_removed_and_unblock_the_other_fixes() {
    let scratch = Scratch::new("fix-commas");
    let file = scratch.write(
        "config/iparams.json",
        "{\"region\": {\"display_name\": \"Region\", \"type\": \"Text\",},}\n",
    );
    let (status, _, stderr) = fix(&scratch, &["--fix", "config/iparams.json"]);
    assert_eq!(status, Some(0), "{stderr}");
    let fixed = fs::read_to_string(&file).unwrap();
    assert_eq!(
        fixed,
        "{\"region\": {\"display_name\": \"Region\", \"type\": \"text\"}}\n"
    );
    fix(&scratch, &["--fix", "config/iparams.json"]);
    assert_eq!(fs::read_to_string(&file).unwrap(), fixed);
}

#[test]
fn files_with_syntax_errors_are_never_rewritten() {
    let scratch = Scratch::new("fix-syntax");
    let broken = "{\"region\": {\"display_name\": \"Region\", \"type\": \"Text\",} \"b\" 1}\n";
    let file = scratch.write("config/iparams.json", broken);
    let (status, stdout, _) = fix(
        &scratch,
        &["--fix", "--unsafe-fixes", "config/iparams.json"],
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), broken);
    assert_eq!(status, Some(1));
    assert!(
        stdout.contains("error[invalid-json]") && stdout.contains("error[unknown-type]"),
        "{stdout}"
    );
}

#[test]
fn fixed_standard_input_goes_to_standard_output() {
    let mut command = binary();
    command.args(["--fix", "--stdin-filename", "config/iparams.json", "-"]);
    let output = support::run_with_input(command, BEFORE.as_bytes());
    let (stdout, stderr) = streams(&output);
    assert_eq!(stdout, SAFE);
    assert!(
        stderr.contains("warning[api-key-not-secure]")
            && stderr.contains("Fixed 3 problems in 1 file."),
        "{stderr}"
    );
}

#[test]
fn permissions_survive_a_fix() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = Scratch::new("fix-mode");
    let file = scratch.write("config/iparams.json", BEFORE);
    fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
    fix(&scratch, &["--fix", "config/iparams.json"]);
    assert_eq!(
        fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert_eq!(
        fs::read_dir(scratch.0.join("config")).unwrap().count(),
        1,
        "no temporary file is left behind"
    );
}
