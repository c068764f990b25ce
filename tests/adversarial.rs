//! Hostile and pathological input, through the real binary: each run must end on its own (no
//! panic, no abort, no stack overflow: a signal would show as a missing exit status), with the
//! exit status the README promises, and with standard output that is either one complete
//! document or nothing.
//!
//! Each input is the smallest that crosses the limit it is about (the nesting depth, the size
//! from which a file is checked in parallel, the list length from which lists are indexed, the
//! longest text matched against a pattern, the matches left running): what happens past a
//! limit is the same at any size. The huge versions (100,000-deep nesting, 50 MB, keys repeated
//! 100,000 times, 1 MB strings, twenty catastrophic patterns) are run on the release build by
//! crates/iparams-bench/adversarial.sh, which measures them for docs/RELIABILITY.md; no test
//! asserts a duration.

mod support;

use std::fs;
use std::path::Path;

use serde_json::Value;
use support::{Scratch, binary, streams};

/// How a run of the command ended.
#[derive(Debug)]
struct Run {
    status: i32,
    /// Standard output as the one JSON document `--format json` prints; `Null` when empty.
    json: Value,
    stderr: String,
}

impl Run {
    /// Every finding of every file, as (rule, message).
    fn findings(&self) -> Vec<(String, String)> {
        self.findings_where(|_| true)
    }

    /// The findings of the file at `path`, as (rule, message).
    fn findings_of(&self, path: &str) -> Vec<(String, String)> {
        self.findings_where(|file| file["path"] == path)
    }

    fn findings_where(&self, file_is: impl Fn(&Value) -> bool) -> Vec<(String, String)> {
        let files = self.json["files"].as_array().map_or(&[][..], Vec::as_slice);
        files
            .iter()
            .filter(|file| file_is(file))
            .flat_map(|file| file["diagnostics"].as_array().into_iter().flatten())
            .map(|d| {
                let text = |field: &str| d[field].as_str().unwrap_or_default().to_owned();
                (text("rule"), text("message"))
            })
            .collect()
    }

    fn count(&self, rule: &str) -> usize {
        self.findings().iter().filter(|(r, _)| r == rule).count()
    }

    fn has(&self, rule: &str) -> bool {
        self.count(rule) > 0
    }

    /// The path of each file in the output, in order.
    fn paths(&self) -> Vec<&str> {
        let files = self.json["files"].as_array().map_or(&[][..], Vec::as_slice);
        files
            .iter()
            .map(|file| file["path"].as_str().unwrap_or_default())
            .collect()
    }
}

/// Runs the command in `dir` with `--format json` and `args`; checks that it ended by itself,
/// without a panic, and that standard output is one JSON document or empty.
fn run_json(dir: &Path, args: &[&str]) -> Run {
    let output = binary()
        .current_dir(dir)
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("the binary runs");
    let (stdout, stderr) = streams(&output);
    let Some(status) = output.status.code() else {
        panic!("ended by a signal ({}): {stderr}", output.status);
    };
    assert!(!stderr.contains("panicked at"), "{stderr}");
    let json = if stdout.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&stdout).unwrap_or_else(|error| {
            panic!("standard output is not one JSON document ({error}): {stdout:.2000}")
        })
    };
    Run {
        status,
        json,
        stderr,
    }
}

/// Checks `bytes` as an iparams.json outside any app.
fn check(name: &str, bytes: &[u8]) -> Run {
    let scratch = Scratch::new(name);
    scratch.write("iparams.json", bytes);
    run_json(&scratch.0, &["iparams.json"])
}

/// Checks `bytes` as a values file against `definitions`.
fn values(name: &str, definitions: &str, bytes: &[u8]) -> Run {
    let scratch = Scratch::new(name);
    scratch.write("config/iparams.json", definitions);
    scratch.write("values.json", bytes);
    run_json(
        &scratch.0,
        &["values", "--iparams", "config/iparams.json", "values.json"],
    )
}

/// Definitions for the values tests: a text iparam with a catastrophic pattern, a number, a
/// multiselect and a secure key.
const DEFINITIONS: &str = r#"{
  "code": {"display_name": "Code", "type": "text", "regex": {"as": "^(a+)+$", "as-error": "Only a"}},
  "seats": {"display_name": "Seats", "type": "number"},
  "teams": {"display_name": "Teams", "type": "multiselect", "options": ["Sales", "Support"]},
  "api_key": {"display_name": "API key", "type": "text", "secure": true}
}
"#;

/// The deepest nesting read (`MAX_DEPTH`, crates/iparams-core/src/syntax/parser.rs): one level
/// more is a finding that names this number, and nothing deeper is recursed into.
const DEPTH_LIMIT: usize = 128;

/// Files from this size on are parsed on one thread and checked on the others (`PARALLEL_FROM`,
/// crates/iparams-core/src/lint.rs).
const PARALLEL_FROM: usize = 1 << 20;

/// Longer texts are not matched against a pattern (`MAX_MATCH_INPUT`,
/// crates/iparams-core/src/ecma_regex.rs). Past it too: quoted values are cut at 60
/// characters, and words over 64 get no suggestion.
const MAX_MATCH_INPUT: usize = 10_000;

/// Matches left running after a timeout before no new one is started (`MAX_ABANDONED`,
/// crates/iparams-core/src/ecma_regex.rs).
const MAX_ABANDONED: usize = 8;

/// How often the repeated-key inputs repeat: past the longest list searched entry by entry
/// rather than indexed (16, crates/iparams-core/src/positions.rs and `PAIRWISE_LIMIT` in
/// rules/duplicate_key.rs) and the most candidates a suggestion is looked for among (256,
/// `MAX_CANDIDATES` in suggest.rs), on one line of many blocks of the line index (1,024 bytes,
/// span.rs).
const REPEATS: usize = 257;

/// One syntax finding that the nesting is too deep, naming the limit.
fn assert_too_deep(run: &Run) {
    assert_eq!(run.status, 1, "{run:?}");
    let findings = run.findings();
    let limit = format!("deeper than {DEPTH_LIMIT} levels");
    assert!(
        findings
            .iter()
            .any(|(rule, message)| rule == "invalid-json" && message.contains(&limit)),
        "{findings:?}"
    );
}

/// Nesting at the limit is read like any other.
fn assert_not_too_deep(run: &Run) {
    let findings = run.findings();
    assert!(
        !findings
            .iter()
            .any(|(_, message)| message.contains("deeper than")),
        "{findings:?}"
    );
}

#[test]
fn arrays_nested_past_the_limit() {
    let text = "[".repeat(DEPTH_LIMIT + 1);
    assert_too_deep(&check("deep-arrays", text.as_bytes()));
    assert_too_deep(&values("deep-arrays-values", DEFINITIONS, text.as_bytes()));
    let text = format!("{}{}", "[".repeat(DEPTH_LIMIT), "]".repeat(DEPTH_LIMIT));
    assert_not_too_deep(&check("arrays-at-the-limit", text.as_bytes()));
}

#[test]
fn objects_nested_past_the_limit() {
    let text = r#"{"a":"#.repeat(DEPTH_LIMIT + 1);
    assert_too_deep(&check("deep-objects", text.as_bytes()));
    assert_too_deep(&values("deep-objects-values", DEFINITIONS, text.as_bytes()));
    let text = format!(
        r#"{}1{}"#,
        r#"{"a":"#.repeat(DEPTH_LIMIT),
        "}".repeat(DEPTH_LIMIT)
    );
    assert_not_too_deep(&check("objects-at-the-limit", text.as_bytes()));
}

#[test]
fn a_file_large_enough_to_be_checked_in_parallel() {
    let entry = |key: &str, ty: &str| {
        format!(
            "  \"{key}\": {{\"display_name\": \"Field {key}\", \"type\": \"{ty}\", \"description\": \"{}\"}}",
            "padding ".repeat(12)
        )
    };
    // A mistake in the first iparam and in the last, which is also the first's key again: the
    // first and the last batch are checked, and the whole file is seen for repeated keys.
    let mut text = format!("{{\n{}", entry("field_0", "txt"));
    let mut count = 1;
    while text.len() < PARALLEL_FROM {
        text.push_str(",\n");
        text.push_str(&entry(&format!("field_{count}"), "text"));
        count += 1;
    }
    text.push_str(",\n");
    text.push_str(&entry("field_0", "txt"));
    text.push_str("\n}\n");
    assert!(text.len() > PARALLEL_FROM);
    let run = check("parallel", text.as_bytes());
    assert_eq!(run.status, 1, "{:?}", run.findings());
    assert_eq!(run.json["summary"]["files"], 1);
    let rules: Vec<String> = run.findings().into_iter().map(|(rule, _)| rule).collect();
    assert_eq!(rules, ["unknown-type", "duplicate-key", "unknown-type"]);
}

#[test]
fn bytes_that_are_not_utf8() {
    let run = check(
        "invalid-utf8",
        b"{\"caf\xE9\": {\"display_name\": \"Caf\xE9 \xFF\xFE\", \"type\": \"text\"}, \"b\": {\"display_name\": \"B\", \"type\": \"txt\"}}",
    );
    assert_eq!(run.status, 1);
    assert!(run.has("invalid-encoding"), "{:?}", run.findings());
    // The rest of the file is still checked.
    assert!(run.has("unknown-type"), "{:?}", run.findings());
}

#[test]
fn a_byte_order_mark() {
    let run = check(
        "bom",
        b"\xEF\xBB\xBF{\"b\": {\"display_name\": \"B\", \"type\": \"txt\"}}\n",
    );
    assert_eq!(run.status, 1);
    assert!(run.has("invalid-encoding"), "{:?}", run.findings());
    assert!(run.has("unknown-type"), "{:?}", run.findings());
}

#[test]
fn nul_bytes() {
    let inside = check(
        "nul-inside",
        b"{\"a\0\": {\"display_name\": \"A\0B\", \"type\": \"text\", \"default_value\": \"\0\"}}",
    );
    assert_eq!(inside.status, 1);
    assert!(inside.has("invalid-json"), "{:?}", inside.findings());
    let between = check(
        "nul-between",
        b"{\"a\": {\"display_name\": \"A\", \0\"type\": \"text\"}}",
    );
    assert_eq!(between.status, 1);
    assert!(between.has("invalid-json"), "{:?}", between.findings());
    let values = values("nul-values", DEFINITIONS, b"{\"code\": \"a\0\", \0}");
    assert_eq!(values.status, 1);
    assert!(values.has("invalid-json"), "{:?}", values.findings());
}

#[test]
fn lone_surrogate_escapes() {
    let run = check(
        "surrogates",
        br#"{"\ud800": {"display_name": "\udc00", "type": "dropdown", "options": ["\ud800", "x"], "default_value": "\udbff"}, "b": {"display_name": "B\ud800", "type": "tex\udfff"}}"#,
    );
    assert_eq!(run.status, 1);
    assert!(run.has("unknown-type"), "{:?}", run.findings());
    let values = values(
        "surrogates-values",
        DEFINITIONS,
        br#"{"\ud800": "x", "code": "\udc00", "teams": ["\ud800"], "api_key": "\udfff"}"#,
    );
    assert_eq!(values.status, 1);
    assert!(values.has("unknown-value-key"), "{:?}", values.findings());
    assert!(
        values.has("value-not-in-options"),
        "{:?}",
        values.findings()
    );
}

#[test]
fn huge_numbers() {
    let digits = "9".repeat(400);
    let text = format!(
        r#"{{"n": {{"display_name": "N", "type": "number", "default_value": 1e400}},
 "m": {{"display_name": {digits}, "type": "text", "required": 1e400, "visible": -{digits}}},
 "k": {{"display_name": "K", "type": "number", "default_value": "{digits}"}}}}"#
    );
    let run = check("huge-numbers", text.as_bytes());
    assert_eq!(run.status, 1);
    // Neither number is an integer a number input can hold; neither attribute a boolean.
    assert_eq!(
        run.count("invalid-default-format"),
        2,
        "{:?}",
        run.findings()
    );
    assert_eq!(run.count("numeric-default"), 1, "{:?}", run.findings());
    assert_eq!(run.count("attribute-type"), 3, "{:?}", run.findings());
    let values = values(
        "huge-numbers-values",
        DEFINITIONS,
        format!(r#"{{"seats": 1e400, "code": {digits}, "teams": [1e400]}}"#).as_bytes(),
    );
    assert_eq!(values.status, 1);
    assert!(values.has("value-format"), "{:?}", values.findings());
    assert_eq!(values.count("value-type"), 2, "{:?}", values.findings());
}

#[test]
fn strings_longer_than_any_limit() {
    let long = "x".repeat(MAX_MATCH_INPUT + 1);
    let text = format!(
        r#"{{"{long}": {{"display_name": "{long}", "type": "text", "default_value": "{long}", "regex": {{"r": "^[a-z]+{long}$"}}}},
 "pick": {{"display_name": "Pick", "type": "dropdown", "options": ["{long}a"], "default_value": "{long}b"}}}}"#
    );
    let run = check("long-strings", text.as_bytes());
    assert_eq!(run.status, 1);
    // Quoted values are cut short.
    assert_short(&run, "default-not-in-options");
    // A default too long to match is said to be unchecked, never taken as matching.
    assert_not_run(&run, "regex-timeout");
    assert!(!run.has("default-fails-regex"), "{:?}", run.findings());
    let values = values(
        "long-strings-values",
        DEFINITIONS,
        format!(r#"{{"code": "{long}", "{long}": 1, "teams": ["{long}"]}}"#).as_bytes(),
    );
    assert_eq!(values.status, 1);
    assert_short(&values, "value-not-in-options");
    assert_not_run(&values, "value-regex-timeout");
    assert!(!values.has("value-fails-regex"), "{:?}", values.findings());
}

/// One finding of `rule`, whose message quotes a long value cut short.
fn assert_short(run: &Run, rule: &str) {
    let messages: Vec<String> = run
        .findings()
        .into_iter()
        .filter(|(r, _)| r == rule)
        .map(|(_, message)| message)
        .collect();
    assert!(
        messages.len() == 1 && messages[0].len() < 200 && messages[0].contains('…'),
        "{rule}: {messages:?}"
    );
}

/// One finding of `rule` saying a pattern was not run.
fn assert_not_run(run: &Run, rule: &str) {
    let findings = run.findings();
    let not_run = findings
        .iter()
        .filter(|(r, message)| r == rule && message.contains("was not run on"));
    assert_eq!(not_run.count(), 1, "{rule}: {findings:?}");
}

/// `entry` repeated `count` times, comma-separated, on one line.
fn repeated(entry: &str, count: usize) -> String {
    vec![entry; count].join(",")
}

#[test]
fn a_key_repeated_past_the_list_limits() {
    const COUNT: usize = REPEATS;
    // On one line, as a minified file is: each finding's column is far into it.
    let top = format!(
        "{{{}}}",
        repeated(r#""a": {"display_name": "A", "type": "text"}"#, COUNT)
    );
    let run = check("duplicate-iparams", top.as_bytes());
    assert_eq!(run.status, 1);
    assert_eq!(run.count("duplicate-key"), COUNT - 1);

    let attributes = format!(
        r#"{{"a": {{"type": "text", {}}}}}"#,
        repeated(r#""display_name": "A""#, COUNT)
    );
    let run = check("duplicate-attributes", attributes.as_bytes());
    assert_eq!(run.count("duplicate-key"), COUNT - 1);

    let regexes = format!(
        r#"{{"a": {{"display_name": "A", "type": "text", "regex": {{{}}}}}}}"#,
        repeated(r#""r": "^a$""#, COUNT)
    );
    let run = check("duplicate-regexes", regexes.as_bytes());
    assert_eq!(run.count("duplicate-key"), COUNT - 1);

    let options = format!(
        r#"{{"a": {{"display_name": "A", "type": "multiselect", "options": [{}], "default_value": [{}]}}}}"#,
        repeated(r#""x""#, COUNT),
        repeated(r#""y""#, COUNT)
    );
    let run = check("duplicate-options", options.as_bytes());
    assert_eq!(run.count("duplicate-option"), COUNT - 1);
    assert_eq!(run.count("default-not-in-options"), COUNT);

    let given = format!("{{{}}}", repeated(r#""seats": "12""#, COUNT));
    let run = values("duplicate-values", DEFINITIONS, given.as_bytes());
    assert_eq!(run.count("duplicate-key"), COUNT - 1);
}

/// The default format on a minified file whose findings lie past column 65,535, the widest
/// padding Rust's formatting takes: miette, drawing such a line whole, panicked. Each finding
/// is drawn from the bytes around it, at the file's position.
#[test]
fn findings_past_column_65535_in_the_default_format() {
    const COUNT: usize = 2_000;
    // `blur` is not a supported event: one finding an iparam, each on the one line.
    let entry = |n: usize| {
        format!(
            r#""f{n}":{{"display_name":"Field {n}","type":"text","events":[{{"blur":"check"}}]}}"#
        )
    };
    let entries: Vec<String> = (0..COUNT).map(entry).collect();
    let text = format!("{{{}}}", entries.join(","));
    assert!(text.len() > 2 * 65_536);
    let scratch = Scratch::new("minified-default-format");
    scratch.write("iparams.json", &text);
    let last = text.rfind(r#""blur""#).unwrap() + 1;
    // Without colour the frames draw them; with colour, miette.
    for color in ["never", "always"] {
        let output = binary()
            .current_dir(&scratch.0)
            .args(["iparams.json", "--color", color])
            .output()
            .expect("the binary runs");
        let (stdout, stderr) = streams(&output);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert!(!stderr.contains("panicked at"), "{stderr}");
        assert_eq!(stdout.matches("unsupported-event").count(), COUNT);
        assert!(
            stdout.contains(&format!("iparams.json:1:{last}")),
            "the last finding's header gives its column"
        );
        let longest = stdout.lines().map(|line| line.chars().count()).max();
        assert!(longest < Some(300), "{longest:?}");
    }
}

/// Enough `a`s for `^(a+)+$` to backtrack for far longer than the 100 ms a match may take
/// (2^64 paths), and short enough to be matched at all.
const CATASTROPHIC: usize = 64;

#[test]
fn catastrophic_regexes_past_the_matches_left_running() {
    // One iparam more than the matches left running, each with a pattern that backtracks for
    // ever on its default; each default a different length, so that no outcome is answered from
    // the cache.
    let iparams: Vec<String> = (0..=MAX_ABANDONED)
        .map(|i| {
            format!(
                r#""code_{i}": {{"display_name": "Code", "type": "text", "regex": {{"as": "^(a+)+$", "as-error": "Only a"}}, "default_value": "{}!"}}"#,
                "a".repeat(CATASTROPHIC + i)
            )
        })
        .collect();
    let run = check(
        "catastrophic-default",
        format!("{{{}}}", iparams.join(",\n")).as_bytes(),
    );
    // A warning each: the first ones ran out of time, the last was not run, and none is
    // silently taken as matching.
    let timeouts: Vec<String> = run
        .findings()
        .into_iter()
        .filter(|(rule, _)| rule == "regex-timeout")
        .map(|(_, message)| message)
        .collect();
    assert_eq!(timeouts.len(), MAX_ABANDONED + 1, "{timeouts:?}");
    let ran_out = timeouts.iter().filter(|m| m.contains("ran for over"));
    assert_eq!(ran_out.count(), MAX_ABANDONED, "{timeouts:?}");
    assert!(
        timeouts[MAX_ABANDONED].contains("was not run on"),
        "{timeouts:?}"
    );
    // Warnings: nothing is known of whether the defaults match.
    assert_eq!(run.status, 0, "{:?}", run.findings());
    assert!(!run.has("default-fails-regex"), "{:?}", run.findings());
}

#[test]
fn catastrophic_regex_against_a_long_value() {
    let given = format!(r#"{{"code": "{}!"}}"#, "a".repeat(CATASTROPHIC));
    let run = values("catastrophic-value", DEFINITIONS, given.as_bytes());
    assert!(run.has("value-regex-timeout"), "{:?}", run.findings());
    assert!(!run.has("value-fails-regex"), "{:?}", run.findings());
}

#[test]
fn symbolic_link_loops_during_discovery() {
    use std::os::unix::fs::symlink;
    let scratch = Scratch::new("symlink-loops");
    scratch.write(
        "app/config/iparams.json",
        r#"{"a": {"display_name": "A", "type": "txt"}}"#,
    );
    symlink(".", scratch.0.join("app/config/itself")).expect("symlink");
    symlink("..", scratch.0.join("app/config/up")).expect("symlink");
    symlink("loop-b", scratch.0.join("loop-a")).expect("symlink");
    symlink("loop-a", scratch.0.join("loop-b")).expect("symlink");
    let run = run_json(&scratch.0, &["."]);
    assert_eq!(run.status, 1, "{run:?}");
    let files = run.json["files"].as_array().expect("files");
    assert_eq!(files.len(), 1, "each file once: {files:?}");
    assert_eq!(files[0]["path"], "app/config/iparams.json");

    // A loop named on the command line is a path that cannot be read.
    let run = run_json(&scratch.0, &["loop-a"]);
    assert_eq!(run.status, 2, "{run:?}");
    assert!(run.stderr.contains("loop-a"), "{}", run.stderr);
    assert_eq!(run.json["summary"]["files"], 0);
}

#[test]
fn an_unreadable_file_among_readable_ones() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = Scratch::new("unreadable");
    let locked = scratch.write(
        "a/config/iparams.json",
        r#"{"a": {"display_name": "A", "type": "text"}}"#,
    );
    scratch.write(
        "b/config/iparams.json",
        r#"{"b": {"display_name": "B", "type": "txt"}}"#,
    );
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).expect("chmod");
    if fs::read(&locked).is_ok() {
        // Root reads whatever the mode says: nothing can be denied here.
        eprintln!("running with privileges that ignore file modes: the denial is not checked");
        let run = run_json(&scratch.0, &["."]);
        assert_eq!(run.status, 1, "{run:?}");
        assert_eq!(run.json["summary"]["files"], 2, "{run:?}");
        return;
    }
    let run = run_json(&scratch.0, &["."]);
    assert_eq!(run.status, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("a/config/iparams.json: permission denied"),
        "{}",
        run.stderr
    );
    // The other file is still checked, and reported in full.
    assert!(run.has("unknown-type"), "{:?}", run.findings());
    assert_eq!(run.paths(), ["b/config/iparams.json"]);
}

/// An app whose manifest.json cannot be read is still checked: its iparams.json with the rules of
/// iparams.json itself, and one error says why the rest was not.
#[test]
fn an_app_whose_manifest_cannot_be_read() {
    use std::os::unix::fs::PermissionsExt;
    let scratch = Scratch::new("unreadable-manifest");
    let manifest = scratch.write(
        "app/manifest.json",
        r#"{"platform-version": "2.3", "product": {"freshdesk": {}}}"#,
    );
    scratch.write(
        "app/config/iparams.json",
        r#"{"b": {"display_name": "B", "type": "txt"}}"#,
    );
    fs::set_permissions(&manifest, fs::Permissions::from_mode(0o000)).expect("chmod");
    if fs::read(&manifest).is_ok() {
        eprintln!("running with privileges that ignore file modes: the denial is not checked");
        return;
    }
    let run = run_json(&scratch.0, &["app"]);
    assert_eq!(run.status, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "iparams-lint: app/manifest.json: permission denied; only the rules of iparams.json itself were checked\n"
    );
    assert!(run.has("unknown-type"), "{:?}", run.findings());
    assert_eq!(run.paths(), ["app/config/iparams.json"]);
}

/// An app (a manifest, and an iparams.json with an unknown type, so that its own checks show)
/// with `scripts`, each a path and its text.
fn app_with_scripts(name: &str, scripts: &[(&str, &str)]) -> Scratch {
    let scratch = Scratch::new(name);
    scratch.write(
        "manifest.json",
        r#"{"platform-version": "2.3", "product": {"freshdesk": {}}}"#,
    );
    scratch.write(
        "config/iparams.json",
        r#"{"region": {"display_name": "Region", "type": "txt"}}"#,
    );
    for (path, text) in scripts {
        scratch.write(path, text);
    }
    scratch
}

/// TypeScript whose `<` and `(` nest so that oxc's parser would take exponential time (each
/// level doubles it: 40 levels would be days) is not parsed: it is reported where it is deepest,
/// and the rest of the app is checked. The same text in JavaScript is read as usual. A nest the
/// `js` target hid behind a quote on each line of JSX text is refused too.
#[test]
fn typescript_nested_past_the_parsers_reach() {
    let nest = format!("export const x = {};\n", "a<(c = ".repeat(40));
    let found = include_bytes!(
        "../fixtures/reliability/fuzz-findings/js/typescript-nest-behind-quotes-in-jsx-text"
    );
    let quoted = String::from_utf8_lossy(&found[1..]).into_owned();
    let scratch = app_with_scripts(
        "typescript-nest",
        &[
            ("app/App.tsx", &nest),
            ("app/legacy.js", &nest),
            ("app/Quoted.tsx", &quoted),
        ],
    );
    let run = run_json(&scratch.0, &["."]);
    assert_eq!(run.status, 1, "{run:?}");
    let not_read = |path: &str| {
        let findings = run.findings_of(path);
        let refused = findings.iter().any(|(rule, message)| {
            rule == "javascript-syntax-error"
                && message.starts_with("Not read: `<` and `(` nest ")
                && message.contains("too deep for TypeScript's parser")
        });
        assert_eq!(
            refused,
            findings
                .iter()
                .any(|(_, message)| message.contains("Not read")),
            "{path}: {findings:?}"
        );
        refused
    };
    assert!(not_read("app/App.tsx"));
    assert!(!not_read("app/legacy.js"));
    assert!(not_read("app/Quoted.tsx"));
    // The app's own checks ran: the unknown type is found.
    assert!(run.has("unknown-type"), "{:?}", run.findings());
}

/// oxc 0.146 panics on a string export name whose value ends in `\u`: the file is reported as
/// not read, the rest of the app is checked, and no panic is printed.
#[test]
fn a_script_the_javascript_parser_fails_on() {
    let scratch = app_with_scripts(
        "parser-panic",
        &[("app/scripts/app.js", r#"export { "\\u" };"#)],
    );
    let run = run_json(&scratch.0, &["."]);
    assert_eq!(run.status, 1, "{run:?}");
    assert!(
        run.findings()
            .iter()
            .any(|(rule, message)| rule == "javascript-syntax-error"
                && message == "Not read: the JavaScript parser (oxc) failed on this file"),
        "{:?}",
        run.findings()
    );
    assert!(run.has("unknown-type"), "{:?}", run.findings());
}
