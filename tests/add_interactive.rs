//! `iparams-lint add` on a terminal: the real binary in a pseudo-terminal, answering its
//! questions with keys as a person types them. Every wait is bounded (TIMEOUT), so a prompt
//! that never comes fails the test instead of hanging it.
#![cfg(unix)]

mod support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use rexpect::process::WaitStatus;
use rexpect::reader::Options;
use rexpect::session::{PtySession, spawn_with_options};
use support::{Scratch, run_in};

const TIMEOUT_MS: u64 = 10_000;

const MANIFEST: &str =
    "{\n  \"platform-version\": \"2.3\",\n  \"product\": {\"freshdesk\": {}}\n}\n";

const PRETTY: &str =
    "{\n  \"region\": {\n    \"display_name\": \"Region\",\n    \"type\": \"text\"\n  }\n}\n";

const ENTER: &str = "\r";
const DOWN: &str = "\x1b[B";
const ESC: &str = "\x1b";
const BACKSPACE: &str = "\x7f";

/// An app in a scratch folder with `iparams` as its config/iparams.json.
fn app(name: &str, iparams: &str) -> (Scratch, PathBuf) {
    let scratch = Scratch::new(&format!("add-tty-{name}"));
    scratch.write("manifest.json", MANIFEST);
    let file = scratch.write("config/iparams.json", iparams);
    (scratch, file)
}

/// `iparams-lint add ARGS` in `dir`, on a pseudo-terminal of 200 × 50 (so that no message is
/// wrapped), without colours.
fn spawn(dir: &Path, args: &[&str]) -> PtySession {
    let mut command = Command::new("sh");
    command
        .current_dir(dir)
        .arg("-c")
        .arg("stty cols 200 rows 50 && exec \"$0\" add \"$@\"")
        .arg(env!("CARGO_BIN_EXE_iparams-lint"))
        .args(args)
        .env("TERM", "xterm-256color")
        .env("NO_COLOR", "1")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE");
    spawn_with_options(
        command,
        Options::new()
            .timeout_ms(Some(TIMEOUT_MS))
            .strip_ansi_escape_codes(true),
    )
    .expect("the binary starts on a pseudo-terminal")
}

/// How often the terminal is looked at while waiting: rexpect's own waits look every 100 ms,
/// which was most of these tests' time.
const POLL: Duration = Duration::from_millis(2);

/// Waits for `text` on the terminal, then types `keys`.
fn answer(session: &mut PtySession, text: &str, keys: &str) {
    expect(session, text);
    press(session, keys);
}

/// Types `keys` (the session buffers what it sends: flushed at once).
fn press(session: &mut PtySession, keys: &str) {
    session.send(keys).expect("keys reach the terminal");
    session.flush().expect("keys reach the terminal");
}

/// Waits for `text`; returns what was shown since the last wait, before it (as rexpect's
/// `exp_string` does).
fn expect(session: &mut PtySession, text: &str) -> String {
    let start = Instant::now();
    let mut shown = String::new();
    // Set once the program has ended: what it printed is read once more before giving up.
    let mut ended = false;
    loop {
        while let Some(character) = session.try_read() {
            shown.push(character);
            if shown.ends_with(text) {
                shown.truncate(shown.len() - text.len());
                return shown;
            }
        }
        if ended {
            panic!("waiting for {text:?}, the program ended; shown: {shown:?}");
        }
        if start.elapsed() > Duration::from_millis(TIMEOUT_MS) {
            panic!("waiting for {text:?}, timed out; shown: {shown:?}");
        }
        ended = !matches!(session.process().status(), Some(WaitStatus::StillAlive));
        thread::sleep(POLL);
    }
}

/// Waits for the end of the program: its exit status and what it printed last.
fn finish(mut session: PtySession) -> (i32, String) {
    let start = Instant::now();
    let status = loop {
        match session.process().status() {
            Some(WaitStatus::StillAlive) => {}
            Some(status) => break status,
            None => panic!("the program's status is unknown"),
        }
        assert!(
            start.elapsed() <= Duration::from_millis(TIMEOUT_MS),
            "the program does not end"
        );
        thread::sleep(POLL);
    };
    let rest = session.exp_eof().expect("the program's output ends");
    match status {
        WaitStatus::Exited(_, code) => (code, rest),
        other => panic!("ended by {other:?}: {rest}"),
    }
}

/// The app checks without an error or warning.
fn assert_lint_clean(scratch: &Scratch) {
    let (status, stdout, stderr) = run_in(&scratch.0, &["--color", "never", "."]);
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    assert!(stdout.contains(" 0 errors, 0 warnings"), "{stdout}");
}

/// `after` is `before` with one block inserted before its closing brace.
fn assert_one_block_inserted(before: &str, after: &str) {
    let cut = before.rfind("\n}").expect("a closing brace");
    assert!(after.starts_with(&before[..cut]), "{after}");
    assert!(after.ends_with(&before[cut..]), "{after}");
}

#[test]
fn answers_typed_on_a_terminal_make_a_lint_clean_dropdown() {
    let (scratch, file) = app("dropdown", PRETTY);
    let mut session = spawn(&scratch.0, &[]);
    answer(&mut session, "Key:", &format!("color{ENTER}"));
    // The type by typing part of its name.
    answer(&mut session, "Type:", "drop");
    answer(&mut session, "one choice from a drop-down list", ENTER);
    answer(
        &mut session,
        "Label (display name):",
        &format!("Colour{ENTER}"),
    );
    answer(
        &mut session,
        "Description (empty: none):",
        &format!("Shown on tickets{ENTER}"),
    );
    // An option twice: refused with the linter's message, then corrected.
    answer(
        &mut session,
        "Options, separated by commas:",
        &format!("red, red{ENTER}"),
    );
    answer(
        &mut session,
        "Option \"red\" of iparam `color` is listed twice",
        &format!("{}green{ENTER}", BACKSPACE.repeat(3)),
    );
    answer(&mut session, "Required?", &format!("n{ENTER}"));
    // The default among the options, with the arrow keys.
    answer(&mut session, "Default:", &format!("{DOWN}{ENTER}"));
    answer(
        &mut session,
        "Function to call on change (empty: none):",
        &format!("onColor{ENTER}"),
    );
    let shown = expect(&mut session, "Add it to config/iparams.json?");
    assert!(
        shown.contains("\"options\": [\"red\", \"green\"],"),
        "the block is shown before it is written: {shown}"
    );
    press(&mut session, &format!("y{ENTER}"));
    let (status, rest) = finish(session);
    assert_eq!(status, 0, "{rest}");
    assert!(rest.contains("Added the dropdown iparam `color`"), "{rest}");

    let after = fs::read_to_string(&file).unwrap();
    assert_one_block_inserted(PRETTY, &after);
    assert!(
        after.contains(
            "  \"color\": {\n    \"display_name\": \"Colour\",\n    \"description\": \"Shown on tickets\",\n    \"type\": \"dropdown\",\n    \"options\": [\"red\", \"green\"],\n    \"default_value\": \"green\",\n    \"events\": [{\"change\": \"onColor\"}]\n  }\n}\n"
        ),
        "{after}"
    );
    assert_eq!(
        fs::read_to_string(scratch.0.join("config/assets/iparams.js")).unwrap(),
        "function onColor(value) {\n  return \"\";\n}\n"
    );
    assert_lint_clean(&scratch);
}

#[test]
fn a_secret_named_key_is_offered_secure_and_a_misspelt_type_is_understood() {
    let (scratch, file) = app("secret", PRETTY);
    let mut session = spawn(&scratch.0, &[]);
    answer(&mut session, "Key:", &format!("api_token{ENTER}"));
    // `txt` matches no type: the list shows the one the linter's did-you-mean picks.
    answer(&mut session, "Type:", "txt");
    answer(&mut session, "text         one line of text", ENTER);
    answer(
        &mut session,
        "`api_token` is named like a secret: make it secure?",
        ENTER,
    );
    answer(
        &mut session,
        "Label (display name):",
        &format!("API token{ENTER}"),
    );
    answer(&mut session, "Description (empty: none):", ENTER);
    // A regex that is not valid JavaScript is refused as the linter words it.
    answer(
        &mut session,
        "Regex the value must match",
        &format!("token=[a-{ENTER}"),
    );
    answer(
        &mut session,
        "is not valid JavaScript: unterminated character class",
        &format!("{BACKSPACE}{BACKSPACE}{BACKSPACE}^[a-z0-9]+${ENTER}"),
    );
    answer(
        &mut session,
        "Message shown when `token` does not match:",
        &format!("Letters and digits only{ENTER}"),
    );
    answer(&mut session, "Required?", &format!("y{ENTER}"));
    // Secure: no default is asked for; the callback question comes next.
    answer(
        &mut session,
        "Function to call on change (empty: none):",
        ENTER,
    );
    let shown = expect(&mut session, "Add it to config/iparams.json?");
    assert!(shown.contains("\"secure\": true"), "{shown}");
    press(&mut session, ENTER);
    let (status, rest) = finish(session);
    assert_eq!(status, 0, "{rest}");

    let after = fs::read_to_string(&file).unwrap();
    assert_one_block_inserted(PRETTY, &after);
    let value: serde_json::Value = serde_json::from_str(&after).unwrap();
    let token = &value["api_token"];
    assert_eq!(token["type"], "text");
    assert_eq!(token["secure"], true);
    assert_eq!(token["required"], true);
    assert_eq!(token["regex"]["token"], "^[a-z0-9]+$");
    assert_eq!(token["regex"]["token-error"], "Letters and digits only");
    assert!(token.get("default_value").is_none());
    assert!(!scratch.0.join("config/assets").exists());
    assert_lint_clean(&scratch);
}

#[test]
fn a_bad_key_is_refused_with_the_linters_message_then_a_good_one_accepted() {
    let (scratch, file) = app("bad-key", PRETTY);
    let mut session = spawn(&scratch.0, &[]);
    answer(&mut session, "Key:", &format!("display_name{ENTER}"));
    answer(
        &mut session,
        "`display_name` is an attribute name and cannot be an iparam key",
        &format!("{}{ENTER}", BACKSPACE.repeat("display_name".len())),
    );
    answer(
        &mut session,
        "Iparam key is empty",
        &format!("region{ENTER}"),
    );
    answer(
        &mut session,
        "`region` is already an iparam of this file",
        &format!("{}api-key{ENTER}", BACKSPACE.repeat("region".len())),
    );
    answer(
        &mut session,
        "`api-key` cannot be written in a request template",
        &format!("{}age{ENTER}", BACKSPACE.repeat("api-key".len())),
    );
    // Accepted: the type comes next, chosen with the arrow keys (number is the fifth).
    answer(&mut session, "Type:", &format!("{}{ENTER}", DOWN.repeat(4)));
    answer(
        &mut session,
        "Label (display name):",
        &format!("Age{ENTER}"),
    );
    answer(&mut session, "Description (empty: none):", ENTER);
    answer(&mut session, "Required?", ENTER);
    // The default is checked as the linter checks a number's.
    answer(
        &mut session,
        "Default value (empty: none):",
        &format!("4x{ENTER}"),
    );
    answer(
        &mut session,
        "Default \"4x\" of the number iparam `age` is not an integer",
        &format!("{BACKSPACE}2{ENTER}"),
    );
    answer(
        &mut session,
        "Function to call on change (empty: none):",
        ENTER,
    );
    answer(
        &mut session,
        "Add it to config/iparams.json?",
        &format!("y{ENTER}"),
    );
    let (status, rest) = finish(session);
    assert_eq!(status, 0, "{rest}");
    let after = fs::read_to_string(&file).unwrap();
    assert_one_block_inserted(PRETTY, &after);
    let value: serde_json::Value = serde_json::from_str(&after).unwrap();
    assert_eq!(value["age"]["type"], "number");
    assert_eq!(value["age"]["default_value"], "42");
    assert_lint_clean(&scratch);
}

#[test]
fn declining_the_confirmation_leaves_the_file_byte_for_byte() {
    // Tabs and CRLF: nothing of it may change.
    let before = "{\r\n\t\"region\": {\r\n\t\t\"display_name\": \"Region\",\r\n\t\t\"type\": \"text\"\r\n\t}\r\n}\r\n";
    let (scratch, file) = app("decline", before);
    let mut session = spawn(&scratch.0, &["--key", "zone"]);
    // --key given: the first question is the type.
    answer(&mut session, "Type:", ENTER);
    answer(
        &mut session,
        "Label (display name):",
        &format!("Zone{ENTER}"),
    );
    answer(&mut session, "Description (empty: none):", ENTER);
    answer(&mut session, "Regex the value must match", ENTER);
    answer(&mut session, "Required?", ENTER);
    answer(&mut session, "Default value (empty: none):", ENTER);
    answer(
        &mut session,
        "Function to call on change (empty: none):",
        &format!("onZone{ENTER}"),
    );
    let shown = expect(&mut session, "Add it to config/iparams.json?");
    assert!(
        shown.contains("\"zone\": {") && shown.contains("\"display_name\": \"Zone\""),
        "{shown}"
    );
    press(&mut session, &format!("n{ENTER}"));
    let (status, rest) = finish(session);
    assert_eq!(status, 0, "declining is not an error: {rest}");
    assert!(
        rest.contains("Nothing written to config/iparams.json"),
        "{rest}"
    );
    assert_eq!(fs::read(&file).unwrap(), before.as_bytes());
    assert!(!scratch.0.join("config/assets").exists());
}

#[test]
fn escape_stops_with_nothing_written() {
    let (scratch, file) = app("escape", PRETTY);
    // A dropdown without options or default yet: the key is judged on its own.
    let mut session = spawn(&scratch.0, &["--type", "dropdown"]);
    answer(&mut session, "Key:", &format!("zone{ENTER}"));
    answer(&mut session, "Label (display name):", ESC);
    let (status, rest) = finish(session);
    assert_eq!(status, 2, "{rest}");
    assert!(rest.contains("stopped (Esc); nothing written"), "{rest}");
    assert_eq!(fs::read_to_string(&file).unwrap(), PRETTY);
}

#[test]
fn with_no_input_or_every_flag_nothing_is_asked_on_a_terminal() {
    let (scratch, file) = app("no-input", PRETTY);
    let session = spawn(&scratch.0, &["--no-input", "--key", "zone"]);
    let (status, rest) = finish(session);
    assert_eq!(status, 2, "{rest}");
    assert!(
        rest.contains("give --type TYPE, --display-name LABEL"),
        "{rest}"
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), PRETTY);

    // Every needed flag: written at once, no question and no confirmation.
    let session = spawn(
        &scratch.0,
        &["--key", "zone", "--type", "text", "--display-name", "Zone"],
    );
    let (status, rest) = finish(session);
    assert_eq!(status, 0, "{rest}");
    assert!(!rest.contains('?'), "nothing asked: {rest}");
    assert!(fs::read_to_string(&file).unwrap().contains("\"zone\": {"));
    assert_lint_clean(&scratch);
}
