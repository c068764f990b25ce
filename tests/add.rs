//! `iparams-lint add` by flags: every type gives a lint-clean file, refusals leave the file
//! byte for byte, the new block follows the file's layout, callbacks land in iparams.js, and
//! `--dry-run` writes nothing.

mod support;

use std::fs;
use std::path::PathBuf;

use support::{Scratch, run_in};

const MANIFEST: &str =
    "{\n  \"platform-version\": \"2.3\",\n  \"product\": {\"freshdesk\": {}}\n}\n";

const PRETTY: &str =
    "{\n  \"region\": {\n    \"display_name\": \"Region\",\n    \"type\": \"text\"\n  }\n}\n";

/// `add`'s flags for a text iparam `b` whose change callback is `onB`.
const WITH_CALLBACK: [&str; 8] = [
    "--key",
    "b",
    "--type",
    "text",
    "--display-name",
    "B",
    "--event",
    "change=onB",
];

/// An app in a scratch folder, with `iparams` as its config/iparams.json (none when `None`).
fn app(name: &str, iparams: Option<&str>) -> (Scratch, PathBuf) {
    let scratch = Scratch::new(&format!("add-{name}"));
    scratch.write("manifest.json", MANIFEST);
    fs::create_dir_all(scratch.0.join("config")).expect("a config folder");
    if let Some(text) = iparams {
        scratch.write("config/iparams.json", text);
    }
    let file = scratch.0.join("config/iparams.json");
    (scratch, file)
}

fn add(scratch: &Scratch, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["add"];
    all.extend_from_slice(args);
    run_in(&scratch.0, &all)
}

/// The app checks without an error.
fn assert_lint_clean(scratch: &Scratch) {
    let (status, stdout, stderr) = run_in(&scratch.0, &["--color", "never", "."]);
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    assert!(stdout.contains(" 0 errors"), "{stdout}");
}

#[test]
fn every_type_by_flags_is_lint_clean() {
    let cases: [(&str, &[&str]); 13] = [
        ("text", &["--default", "hello", "--required"]),
        ("paragraph", &["--description", "Notes for agents"]),
        ("dropdown", &["--options", "a,b", "--default", "a"]),
        ("email", &["--default", "support@example.com"]),
        ("number", &["--default", "5"]),
        ("phone_number", &[]),
        ("date", &["--hidden"]),
        ("url", &["--default", "https://example.com"]),
        ("radio", &["--options", "a,b", "--default", "b"]),
        ("checkbox", &["--default", "true"]),
        ("multiselect", &["--options", "a,b,c", "--default", "a,c"]),
        ("domain", &["--product", "freshdesk"]),
        ("api_key", &["--product", "freshdesk"]),
    ];
    let (scratch, file) = app("types", Some(PRETTY));
    for (kind, extra) in cases {
        let key = format!("k_{kind}");
        let label = format!("The {kind}");
        let mut args = vec!["--key", &key, "--type", kind, "--display-name", &label];
        args.extend_from_slice(extra);
        let before = fs::read_to_string(&file).unwrap();
        let (status, stdout, stderr) = add(&scratch, &args);
        assert_eq!(status, Some(0), "{kind}: {stdout}{stderr}");
        let after = fs::read_to_string(&file).unwrap();
        // One block inserted before the closing brace; everything else as it was.
        let cut = before.rfind("\n}").unwrap();
        assert!(after.starts_with(&before[..cut]), "{kind}: {after}");
        assert!(after.ends_with(&before[cut..]), "{kind}: {after}");
        assert!(after.contains(&format!("\"type\": \"{kind}\"")), "{after}");
        assert_lint_clean(&scratch);
    }
    let after = fs::read_to_string(&file).unwrap();
    let value: serde_json::Value = serde_json::from_str(&after).unwrap();
    assert_eq!(value["k_api_key"]["secure"], true);
    assert_eq!(
        value["k_api_key"]["type_attributes"]["product"],
        "freshdesk"
    );
    assert_eq!(value["k_multiselect"]["default_value"][1], "c");
    assert_eq!(value["k_checkbox"]["default_value"], true);
    assert_eq!(value["k_date"]["visible"], false);
    assert!(after.contains(
        "  \"k_dropdown\": {\n    \"display_name\": \"The dropdown\",\n    \"type\": \"dropdown\",\n    \"options\": [\"a\", \"b\"],\n    \"default_value\": \"a\"\n  }"
    ));
}

/// Runs `args` and asserts a refusal: exit 2, the file byte for byte as it was, and a message
/// containing `says`.
fn assert_refused(scratch: &Scratch, file: &PathBuf, args: &[&str], says: &str) {
    let before = fs::read(file).expect("the file is there");
    let (status, stdout, stderr) = add(scratch, args);
    assert_eq!(status, Some(2), "{args:?}: {stdout}{stderr}");
    assert!(stderr.contains(says), "{args:?}: {stderr}");
    assert_eq!(fs::read(file).expect("still there"), before, "{args:?}");
    assert!(!scratch.0.join("config/assets/iparams.js").exists());
}

#[test]
fn refusals_leave_the_file_as_it_was() {
    let (scratch, file) = app("refusals", Some(PRETTY));
    let cases: &[(&[&str], &str)] = &[
        (&[], "give --key KEY, --type TYPE, --display-name LABEL"),
        (
            &["--key", "a", "--type", "text"],
            "give --display-name LABEL",
        ),
        (
            &["--key", "a", "--type", "dropdown", "--display-name", "A"],
            "--options A,B,…",
        ),
        (
            &["--key", "a", "--type", "domain", "--display-name", "A"],
            "--product PRODUCT",
        ),
        (
            &["--key", "a", "--type", "txt", "--display-name", "A"],
            "did you mean `text`?",
        ),
        (
            &[
                "--key",
                "a",
                "--type",
                "api_key",
                "--display-name",
                "A",
                "--product",
                "freshdsk",
            ],
            "did you mean `freshdesk`?",
        ),
        (
            &["--key", "region", "--type", "text", "--display-name", "A"],
            "`region` is already an iparam",
        ),
        (
            &["--key", "", "--type", "text", "--display-name", "A"],
            "--key is empty",
        ),
        (
            &[
                "--key",
                "a",
                "--type",
                "email",
                "--display-name",
                "A",
                "--default",
                "nobody",
            ],
            "error[invalid-default-format]",
        ),
        (
            &[
                "--key",
                "a",
                "--type",
                "dropdown",
                "--display-name",
                "A",
                "--options",
                "x,y",
                "--default",
                "z",
            ],
            "not written",
        ),
        (
            &[
                "--key",
                "a",
                "--type",
                "checkbox",
                "--display-name",
                "A",
                "--default",
                "yes",
            ],
            "`true` or `false`",
        ),
        (
            &[
                "--key",
                "a",
                "--type",
                "text",
                "--display-name",
                "A",
                "--regex",
                "digits=^[0-9]+$",
            ],
            "--regex-error digits=MESSAGE",
        ),
        (
            &[
                "--key",
                "a",
                "--type",
                "text",
                "--display-name",
                "A",
                "--event",
                "blur=onA",
            ],
            "the only event is `change`",
        ),
        (
            &[
                "--key",
                "a",
                "--type",
                "text",
                "--display-name",
                "A",
                "--event",
                "change=1x",
            ],
            "not a JavaScript function name",
        ),
    ];
    for (args, says) in cases {
        assert_refused(&scratch, &file, args, says);
    }
}

#[test]
fn a_file_with_a_syntax_error_is_not_edited() {
    let (scratch, file) = app(
        "syntax",
        Some("{\n  \"a\": {\"display_name\": \"A\" \"type\": \"text\"}\n}\n"),
    );
    assert_refused(
        &scratch,
        &file,
        &["--key", "b", "--type", "text", "--display-name", "B"],
        "config/iparams.json:2:",
    );
}

#[test]
fn the_edit_follows_the_file_layout() {
    let args = ["--key", "b", "--type", "text", "--display-name", "B"];
    let cases = [
        (
            "{\r\n\t\"a\": {\r\n\t\t\"display_name\": \"A\",\r\n\t\t\"type\": \"text\"\r\n\t}\r\n}\r\n",
            "{\r\n\t\"a\": {\r\n\t\t\"display_name\": \"A\",\r\n\t\t\"type\": \"text\"\r\n\t},\r\n\t\"b\": {\r\n\t\t\"display_name\": \"B\",\r\n\t\t\"type\": \"text\"\r\n\t}\r\n}\r\n",
        ),
        (
            "{\"a\":{\"display_name\":\"A\",\"type\":\"text\"}}",
            "{\"a\":{\"display_name\":\"A\",\"type\":\"text\"},\"b\":{\"display_name\":\"B\",\"type\":\"text\"}}",
        ),
        (
            "{\"a\": {\"display_name\": \"A\", \"type\": \"text\"}}\n",
            "{\"a\": {\"display_name\": \"A\", \"type\": \"text\"}, \"b\": {\"display_name\": \"B\", \"type\": \"text\"}}\n",
        ),
        (
            "{\n    \"a\": {\"display_name\": \"A\", \"type\": \"text\"}\n}",
            "{\n    \"a\": {\"display_name\": \"A\", \"type\": \"text\"},\n    \"b\": {\n        \"display_name\": \"B\",\n        \"type\": \"text\"\n    }\n}",
        ),
        (
            "{}",
            "{\n  \"b\": {\n    \"display_name\": \"B\",\n    \"type\": \"text\"\n  }\n}",
        ),
        (
            "{}\n",
            "{\n  \"b\": {\n    \"display_name\": \"B\",\n    \"type\": \"text\"\n  }\n}\n",
        ),
    ];
    for (index, (before, after)) in cases.into_iter().enumerate() {
        let (scratch, file) = app(&format!("layout-{index}"), Some(before));
        let (status, stdout, stderr) = add(&scratch, &args);
        assert_eq!(status, Some(0), "{before:?}: {stdout}{stderr}");
        assert_eq!(fs::read_to_string(&file).unwrap(), after, "{before:?}");
    }
}

#[test]
fn an_app_without_iparams_gets_one() {
    let (scratch, file) = app("new", None);
    let (status, stdout, stderr) = add(
        &scratch,
        &["--key", "b", "--type", "text", "--display-name", "B"],
    );
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    assert_eq!(
        fs::read_to_string(&file).unwrap(),
        "{\n  \"b\": {\n    \"display_name\": \"B\",\n    \"type\": \"text\"\n  }\n}\n"
    );
    assert_lint_clean(&scratch);
}

/// An app that writes its own installation page gets no iparams.json beside it (two pages), by
/// the folder or by the page named: `add` says where its iparams come from, and writes nothing.
#[test]
fn an_app_with_a_custom_page_is_left_as_it_is() {
    let (scratch, file) = app("custom-page", None);
    let page = "<script>function postConfigs() { return { a: 1 }; }</script>\n";
    scratch.write("config/iparams.html", page);
    let flags = ["--key", "b", "--type", "text", "--display-name", "B"];
    for named in [&[][..], &["config/iparams.html"][..]] {
        let (status, stdout, stderr) = add(&scratch, &[named, &flags[..]].concat());
        assert_eq!(status, Some(2), "{stdout}{stderr}");
        assert!(
            stderr.contains("writes its own installation page"),
            "{stderr}"
        );
        assert!(!file.exists());
        assert_eq!(
            fs::read_to_string(scratch.0.join("config/iparams.html")).unwrap(),
            page
        );
    }
}

#[test]
fn events_declare_their_callbacks() {
    let args = WITH_CALLBACK;
    // Created when missing.
    let (scratch, _) = app("event-new", Some(PRETTY));
    let (status, stdout, stderr) = add(&scratch, &args);
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    let js = scratch.0.join("config/assets/iparams.js");
    assert_eq!(
        fs::read_to_string(&js).unwrap(),
        "function onB(value) {\n  return \"\";\n}\n"
    );
    assert_lint_clean(&scratch);

    // Extended, in its style, when it lacks the function.
    let (scratch, _) = app("event-extend", Some(PRETTY));
    let js = scratch.write(
        "config/assets/iparams.js",
        "function onA(value) {\r\n\treturn \"\";\r\n}",
    );
    let (status, stdout, stderr) = add(&scratch, &args);
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    assert_eq!(
        fs::read_to_string(&js).unwrap(),
        "function onA(value) {\r\n\treturn \"\";\r\n}\r\n\r\nfunction onB(value) {\r\n\treturn \"\";\r\n}\r\n"
    );

    // Left alone when it declares it.
    let (scratch, _) = app("event-declared", Some(PRETTY));
    let declared = "function onB(value) { return value ? \"\" : \"needed\"; }\n";
    let js = scratch.write("config/assets/iparams.js", declared);
    let (status, stdout, stderr) = add(&scratch, &args);
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    assert_eq!(fs::read_to_string(&js).unwrap(), declared);
    assert_lint_clean(&scratch);
}

#[test]
fn dry_run_prints_the_diff_and_writes_nothing() {
    let (scratch, file) = app("dry-run", Some(PRETTY));
    let (status, stdout, stderr) = add(
        &scratch,
        &[
            "--key",
            "token",
            "--type",
            "text",
            "--display-name",
            "Token",
            "--secure",
            "--default",
            "s3cr3t-value",
            "--event",
            "change=onToken",
            "--dry-run",
        ],
    );
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    assert_eq!(fs::read_to_string(&file).unwrap(), PRETTY);
    assert!(!scratch.0.join("config/assets/iparams.js").exists());
    assert!(stdout.contains("+++ b/config/iparams.json"), "{stdout}");
    assert!(stdout.contains("+  \"token\": {"), "{stdout}");
    assert!(stdout.contains("+function onToken(value) {"), "{stdout}");
    assert!(
        !stdout.contains("s3cr3t"),
        "the secure default is masked: {stdout}"
    );
}

#[test]
fn a_lone_file_is_checked_on_its_own() {
    let scratch = Scratch::new("add-lone");
    let file = scratch.write("iparams.json", PRETTY);
    let (status, stdout, stderr) = run_in(
        &scratch.0,
        &[
            "add",
            "iparams.json",
            "--key",
            "b",
            "--type",
            "number",
            "--display-name",
            "B",
        ],
    );
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    assert!(fs::read_to_string(&file).unwrap().contains("\"b\": {"));
    let (status, _, stderr) = run_in(&scratch.0, &["add", "--key", "c"]);
    assert_eq!(status, Some(2));
    assert!(stderr.contains("not an app folder"), "{stderr}");
}

#[test]
fn a_new_iparam_is_a_next_step_not_a_finding_and_its_stub_follows_the_code() {
    let (scratch, _) = app("next-step", Some(PRETTY));
    // Code that reads the other iparam: the new one is the one read nowhere.
    scratch.write("app/scripts/app.js", "client.iparams.get(\"region\");\n");
    // The file's code is indented by four spaces; its JSDoc lines by one.
    let js = scratch.write(
        "config/assets/iparams.js",
        "/**\n * Checks A.\n */\nfunction onA(value) {\n    return \"\";\n}\n",
    );
    let (status, stdout, stderr) = add(&scratch, &WITH_CALLBACK);
    assert_eq!(status, Some(0), "{stdout}{stderr}");
    assert!(!stderr.contains("unused-iparam"), "{stderr}");
    assert_eq!(
        stdout
            .matches("Next: read it where the app needs it")
            .count(),
        1,
        "{stdout}"
    );
    assert!(stdout.contains("client.iparams.get(\"b\")"), "{stdout}");
    assert!(
        fs::read_to_string(&js)
            .unwrap()
            .ends_with("function onB(value) {\n    return \"\";\n}\n")
    );
}

/// `add` never writes through a link out of the app: a linked config/iparams.json (or
/// config/assets/iparams.js, for a callback) is refused, exit 2, and the file it leads to is
/// left byte for byte.
#[cfg(unix)]
#[test]
fn a_link_out_of_the_app_is_never_written_through() {
    let (scratch, file) = app("link-out", None);
    let elsewhere = Scratch::new("add-link-out-elsewhere");
    let outside = elsewhere.write("iparams.json", PRETTY);
    std::os::unix::fs::symlink(&outside, &file).expect("a link");
    let flags = [
        "--key",
        "b",
        "--type",
        "text",
        "--display-name",
        "B",
        "--no-input",
    ];
    let (status, stdout, stderr) = add(&scratch, &flags);
    assert_eq!(status, Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains(
            "config/iparams.json: a symbolic link takes it outside the app's folder .; nothing written"
        ),
        "{stderr}"
    );
    assert_eq!(fs::read_to_string(&outside).expect("there"), PRETTY);

    // The callbacks' file.
    fs::remove_file(&file).expect("removed");
    scratch.write("config/iparams.json", PRETTY);
    let callbacks = elsewhere.write("iparams.js", "// outside\n");
    fs::create_dir_all(scratch.0.join("config/assets")).expect("a folder");
    std::os::unix::fs::symlink(&callbacks, scratch.0.join("config/assets/iparams.js"))
        .expect("a link");
    let (status, stdout, stderr) = add(&scratch, &[&WITH_CALLBACK[..], &["--no-input"]].concat());
    assert_eq!(status, Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains("config/assets/iparams.js: a symbolic link takes it outside"),
        "{stderr}"
    );
    assert_eq!(
        fs::read_to_string(&callbacks).expect("there"),
        "// outside\n"
    );
    assert_eq!(fs::read_to_string(&file).expect("there"), PRETTY);
}
