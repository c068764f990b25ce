//! The `iparams-lint` binary end to end: arguments, exit statuses, streams and formats.

mod support;

use std::path::Path;
use std::process::{Command, Output};

use support::repo_root;

const EXAMPLE: &str = "fixtures/apps/hr-sync/config/iparams.json";

fn iparams_lint(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_iparams-lint"));
    command
        .args(args)
        .current_dir(repo_root())
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE");
    command
}

fn run(args: &[&str]) -> Output {
    iparams_lint(args).output().expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 stderr")
}

fn run_with_stdin(args: &[&str], input: &[u8]) -> Output {
    support::run_with_input(iparams_lint(args), input)
}

#[test]
fn the_example_app_is_clean() {
    let output = run(&[EXAMPLE]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert_eq!(stdout(&output), "6 files checked: 0 errors, 0 warnings\n");
    assert_eq!(
        stderr(&output),
        "",
        "the example is an app, so no note about lone files"
    );
}

#[test]
fn check_subcommand_and_plain_paths_agree() {
    let file = "fixtures/rules/unknown-type/invalid_misspelt.json";
    let plain = run(&[file]);
    let check = run(&["check", file]);
    assert_eq!(plain.status.code(), Some(1));
    assert_eq!(check.status.code(), Some(1));
    assert_eq!(stdout(&plain), stdout(&check));
    assert!(stdout(&plain).contains("error[unknown-type]"));
}

#[test]
fn several_paths_are_all_checked_and_summed() {
    let output = run(&[
        EXAMPLE,
        "fixtures/rules/unknown-type/invalid_misspelt.json",
        "fixtures/rules/missing-default/invalid.json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).ends_with(
            "8 files checked: 3 errors, 0 warnings (1 fixable with --fix, 2 more with --fix --unsafe-fixes)\n"
        ),
        "{}",
        stdout(&output)
    );
}

#[test]
fn warnings_alone_exit_zero() {
    let output = run(&["fixtures/rules/empty-display-name/invalid.json"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).contains("warning[empty-display-name]"));
}

#[test]
fn an_unreadable_path_exits_2_and_the_others_are_still_checked() {
    let output = run(&[
        "does/not/exist.json",
        "fixtures/rules/unknown-type/invalid_misspelt.json",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("does/not/exist.json: no such file"),
        "{}",
        stderr(&output)
    );
    // The note about files checked alone names the one that was checked, not the one unread.
    assert!(
        stderr(&output).contains(
            "note: fixtures/rules/unknown-type/invalid_misspelt.json is not inside an app"
        ),
        "{}",
        stderr(&output)
    );
    assert!(stdout(&output).contains("error[unknown-type]"));
    assert!(
        stdout(&output).ends_with("1 file checked: 1 error, 0 warnings (1 fixable with --fix)\n")
    );
}

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    let output = run(&["--format", "yaml", EXAMPLE]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("yaml"));
    let help = run(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(
        stdout(&help).contains("Exit status: 0 no errors, 1 errors found, 2 usage or I/O error.")
    );
}

/// An install from npm or pip has no docs/ folder: help texts and `explain` name the docs by
/// their web address, never by a path of the repository.
#[test]
fn help_and_explain_point_to_the_docs_on_the_web() {
    let web = "https://github.com/iparams-lint/iparams-lint";
    let help = stdout(&run(&["--help"]));
    assert!(help.contains("Freshworks"), "{help}");
    assert!(
        help.contains(&format!("{web}/blob/main/docs/rules.md")),
        "{help}"
    );
    for command in ["preview", "hr-sandbox", "lsp"] {
        let help = stdout(&run(&[command, "--help"]));
        assert!(
            help.contains(&format!("{web}/blob/main/docs/")),
            "{command}: {help}"
        );
        assert!(!help.contains(" docs/"), "{command}: {help}");
    }
    let explained = stdout(&run(&["explain", "missing-default"]));
    assert!(
        explained.ends_with(&format!(
            "Online: {web}/blob/main/docs/rules.md#missing-default\n"
        )),
        "{explained}"
    );
}

#[test]
fn folders_are_searched_for_apps_and_iparams_files() {
    // An app folder, and a folder of apps (the fixtures of the app-aware rules among them).
    let app = run(&["fixtures/apps/hr-sync"]);
    assert_eq!(
        (app.status.code(), stdout(&app).as_str()),
        (Some(0), "6 files checked: 0 errors, 0 warnings\n")
    );
    let apps = run(&["--format", "json", "fixtures/apps/missing-handler"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&apps)).expect("JSON");
    let paths: Vec<&str> = json["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["path"].as_str().expect("a path"))
        .collect();
    assert!(
        paths.contains(&"fixtures/apps/missing-handler/invalid_typo/config/assets/iparams.js"),
        "{paths:?}"
    );
    assert!(
        paths.contains(&"fixtures/apps/missing-handler/valid/manifest.json"),
        "{paths:?}"
    );
    // A folder of lone iparams.json files: checked on their own, which is said once.
    let scratch = support::Scratch::new("lone-files");
    scratch.write("one/config/iparams.json", "{}");
    scratch.write("two/config/iparams.json", "{}");
    let lone = iparams_lint(&["."])
        .current_dir(&scratch.0)
        .output()
        .expect("runs");
    assert_eq!(stdout(&lone), "2 files checked: 0 errors, 0 warnings\n");
    assert_eq!(
        stderr(&lone),
        "note: 2 iparams.json files are not inside an app (no manifest.json beside their config/ folder); only the rules of iparams.json itself were checked.\n"
    );
    let empty = run(&["crates/iparams-core/src"]);
    assert_eq!(empty.status.code(), Some(2));
    assert!(stderr(&empty).contains("no app or config/iparams.json found"));
}

/// The plan takes a path named `*.json` for a file without looking at it; one that is a
/// folder is checked as a folder all the same, when its job finds out.
#[test]
fn a_folder_named_like_a_json_file_is_still_checked_as_a_folder() {
    let scratch = support::Scratch::new("folder-named-json");
    let app = support::repo_root().join("fixtures/apps/hr-sync");
    for file in ["manifest.json", "config/iparams.json"] {
        let text = std::fs::read_to_string(app.join(file)).expect("the example app");
        scratch.write(&format!("apps.json/app/{file}"), &text);
    }
    scratch.write(
        "apps.json/lone/config/iparams.json",
        r#"{"a": {"display_name": "A", "type": "Text"}}"#,
    );
    scratch.write(
        "one.json",
        r#"{"b": {"display_name": "B", "type": "Text"}}"#,
    );
    scratch.write("nothing.json/readme.txt", "no iparams here");
    let named = |paths: &[&str]| {
        let output = iparams_lint(paths)
            .current_dir(&scratch.0)
            .output()
            .expect("runs");
        (output.status.code(), stdout(&output), stderr(&output))
    };
    // Named as it is, and with the slash that says it is a folder (which the plan looks at):
    // the same findings, in path order, and the same two files checked alone.
    let by_name = named(&["one.json", "apps.json"]);
    assert_eq!(by_name, named(&["one.json", "apps.json/"]));
    let (code, out, err) = by_name;
    assert_eq!(code, Some(1), "{out}");
    let app_file = out.find("apps.json/app/").expect("the app's files");
    let lone = out
        .find("apps.json/lone/config/iparams.json")
        .expect("the lone file");
    let file = out.find("[one.json").expect("the named file");
    assert!(app_file < lone && lone < file, "in path order: {out}");
    assert!(
        err.contains("note: 2 iparams.json files are not inside an app"),
        "{err}"
    );
    // A folder with nothing to check says so, as any folder does.
    let (code, _, err) = named(&["nothing.json"]);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        "iparams-lint: nothing.json: no app or config/iparams.json found in this folder, nor an app above it\n"
    );
}

#[test]
fn standard_input_takes_its_name_from_stdin_filename() {
    let output = run_with_stdin(
        &["--stdin-filename", "app/config/iparams.json", "-"],
        br#"{"a": {"display_name": "A", "type": "txt"}}"#,
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).contains("[app/config/iparams.json:1:37]"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn json_output_follows_the_contract() {
    let output = run(&[
        "--format",
        "json",
        "fixtures/rules/default-not-in-options/invalid_case.json",
        EXAMPLE,
    ]);
    assert_eq!(output.status.code(), Some(1));
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&output)).expect("one JSON document");
    assert_eq!(json["version"], 1);
    assert_eq!(
        json["summary"],
        serde_json::json!({"files": 7, "errors": 1, "warnings": 0, "infos": 0})
    );
    // Files come sorted by path.
    let paths: Vec<&str> = json["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["path"].as_str().expect("a path"))
        .collect();
    assert_eq!(
        paths,
        [
            "fixtures/apps/hr-sync/app/index.html",
            "fixtures/apps/hr-sync/config/assets/iparams.js",
            "fixtures/apps/hr-sync/config/iparams.json",
            "fixtures/apps/hr-sync/config/requests.json",
            "fixtures/apps/hr-sync/manifest.json",
            "fixtures/apps/hr-sync/server/server.js",
            "fixtures/rules/default-not-in-options/invalid_case.json",
        ]
    );
    assert_eq!(json["files"][0]["diagnostics"], serde_json::json!([]));
    let finding = &json["files"][6]["diagnostics"][0];
    let fixture = std::fs::read_to_string(
        repo_root().join("fixtures/rules/default-not-in-options/invalid_case.json"),
    )
    .expect("fixture");
    let start = fixture
        .find("\"high\"")
        .expect("the default is in the fixture");
    assert_eq!(
        finding,
        &serde_json::json!({
            "rule": "default-not-in-options",
            "severity": "error",
            "message": "Default \"high\" of the radio iparam `priority` is not one of its options",
            "help": "Did you mean \"High\"? The options are \"Low\", \"High\".",
            "pointer": "/priority/default_value",
            "span": {"start": start, "end": start + 6},
            "start": {"line": 9, "column": 22},
            "end": {"line": 9, "column": 28},
            "fixable": true
        })
    );
    // The field order is part of the contract, for people reading it too.
    let text = stdout(&output);
    let order = [
        "\"rule\"",
        "\"severity\"",
        "\"message\"",
        "\"help\"",
        "\"pointer\"",
        "\"span\"",
        "\"start\"",
        "\"end\"",
        "\"fixable\"",
    ];
    let positions: Vec<usize> = order
        .iter()
        .map(|key| text.find(key).expect("field present"))
        .collect();
    assert!(
        positions.windows(2).all(|w| w[0] < w[1]),
        "fields out of order: {text}"
    );
}

#[test]
fn colour_follows_the_flag_and_the_environment() {
    let file = "fixtures/rules/unknown-type/invalid_misspelt.json";
    let has_escape = |output: &Output| stdout(output).contains('\u{1b}');
    assert!(
        !has_escape(&run(&[file])),
        "no colour when stdout is not a terminal"
    );
    assert!(has_escape(&run(&["--color", "always", file])));
    assert!(!has_escape(&run(&["--color", "never", file])));
    assert!(has_escape(
        &iparams_lint(&[file])
            .env("FORCE_COLOR", "1")
            .output()
            .expect("runs")
    ));
    assert!(!has_escape(
        &iparams_lint(&[file])
            .env("FORCE_COLOR", "1")
            .env("NO_COLOR", "1")
            .output()
            .expect("runs")
    ));
}

#[test]
fn hostile_input_ends_in_a_positioned_error_not_a_crash() {
    let cases: [(&str, Vec<u8>); 5] = [
        ("deep", "[".repeat(100_000).into_bytes()),
        ("empty", Vec::new()),
        ("bom", b"\xEF\xBB\xBF{}".to_vec()),
        (
            "latin1",
            b"{\"caf\xE9\": {\"display_name\": \"x\", \"type\": \"text\"}}".to_vec(),
        ),
        (
            "nul",
            b"{\"a\": {\"display_name\": \"x\0\", \"type\": \"text\"}}\0".to_vec(),
        ),
    ];
    for (name, input) in cases {
        let output = run_with_stdin(&["--stdin-filename", name, "-"], &input);
        assert_eq!(output.status.code(), Some(1), "{name}: {}", stdout(&output));
        assert!(
            stdout(&output).contains(&format!("[{name}:1:")),
            "{name} is not positioned: {}",
            stdout(&output)
        );
    }
}

#[test]
fn secrets_never_reach_the_output() {
    let secrets = [
        "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
        "s3cr3t-pass",
        "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB",
        "tok-1234",
        "hidden_domain",
        "multi-s3cr3t",
    ];
    let files = [
        "fixtures/rules/invalid-default-format/invalid_secure.json",
        "fixtures/rules/secure-default-value/invalid.json",
        "fixtures/rules/hardcoded-credential/invalid_url_password.json",
        "fixtures/rules/hardcoded-credential/invalid_token_in_description.json",
        "fixtures/rules/default-fails-regex/invalid_secure.json",
        // Its fix would write the secret back, inside an array.
        "fixtures/rules/default-value-type/invalid_secure_multiselect.json",
    ];
    for file in files {
        assert!(Path::new(&repo_root().join(file)).exists(), "{file}");
        for format in ["human", "concise", "json", "sarif", "github", "junit"] {
            let output = run(&["--format", format, file]);
            let mut text = stdout(&output) + &stderr(&output);
            if format == "sarif" {
                // The rule table quotes the rules' documented examples, not the user's file.
                let mut sarif: serde_json::Value =
                    serde_json::from_str(&stdout(&output)).expect("SARIF");
                sarif["runs"][0]["tool"] = serde_json::Value::Null;
                text = sarif.to_string();
            }
            for secret in secrets {
                assert!(
                    !text.contains(secret),
                    "{format} output of {file} shows {secret}:\n{text}"
                );
            }
        }
    }
}

#[test]
fn an_editor_buffer_is_checked_within_its_app() {
    let example = std::fs::read_to_string(repo_root().join(EXAMPLE)).expect("the example");
    let edited = example.replace("onHrDomainChange", "onHrDomainChanged");
    let output = run_with_stdin(
        &["--format", "concise", "--stdin-filename", EXAMPLE, "-"],
        edited.as_bytes(),
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout(&output).contains(
            "fixtures/apps/hr-sync/config/iparams.json:12:19: error[missing-handler] Handler `onHrDomainChanged` of `hr_domain` is not declared in config/assets/iparams.js"
        ),
        "{}",
        stdout(&output)
    );
    assert_eq!(stderr(&output), "");
}

#[test]
fn fixes_in_an_app_use_its_manifest() {
    let scratch = support::Scratch::new("app-fix");
    scratch.write(
        "manifest.json",
        r#"{"platform-version": "2.3", "product": {"freshdesk": {}, "freshservice": {}}}"#,
    );
    let file = scratch.write(
        "config/iparams.json",
        "{\n  \"domain\": {\"display_name\": \"Domain\", \"type\": \"domain\", \"data-bind\": \"product.domain\", \"type_attributes\": {\"product\": \"freshdesk\"}}\n}\n",
    );
    let output = iparams_lint(&["--fix", "."])
        .current_dir(&scratch.0)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        std::fs::read_to_string(file)
            .expect("readable")
            .contains("{\"product\": \"current\"}")
    );
    assert_eq!(
        stdout(&output),
        "Fixed 1 problem in 1 file.\n2 files checked: 0 errors, 0 warnings\n"
    );
}

/// Several files, each with findings: the human format draws the run's first N in full, in path
/// order across files, lists the rest one line each, and says so; the counts, the exit status and
/// the JSON output are the same whatever N is.
#[test]
fn max_diagnostics_caps_only_what_is_drawn() {
    let files = [
        "fixtures/rules/missing-default/invalid.json",
        "fixtures/rules/default-not-in-options/invalid_case.json",
        "fixtures/rules/unknown-type/invalid_misspelt.json",
    ];
    let with = |extra: &[&str]| {
        let mut args = extra.to_vec();
        args.extend(files);
        run(&args)
    };
    let all = with(&["--max-diagnostics", "none", "--color", "never"]);
    let two = with(&["--max-diagnostics", "2", "--color", "never"]);
    let frames = |output: &Output| stdout(output).matches("╭─[").count();
    let total = frames(&all);
    assert!(total > 2, "{}", stdout(&all));
    assert_eq!(frames(&two), 2, "{}", stdout(&two));
    let two_out = stdout(&two);
    let listed: Vec<&str> = two_out
        .lines()
        .filter(|line| line.starts_with("fixtures/") && line.contains(": error["))
        .map(|line| line.split(": ").next().unwrap_or(line))
        .collect();
    assert_eq!(listed.len(), total - 2, "{}", stdout(&two));
    // Listed in path order, after the two drawn, which are the run's first.
    let mut sorted = listed.clone();
    sorted.sort_by_key(|place| files.iter().position(|file| place.starts_with(file)));
    assert_eq!(listed, sorted);
    assert!(stdout(&two).contains(&format!(
        "The first 2 findings drawn in full, the other {} listed one line each (--max-diagnostics 2); --max-diagnostics none draws them all.",
        total - 2
    )));
    let summary = |output: &Output| stdout(output).lines().last().map(str::to_owned);
    assert_eq!(summary(&two), summary(&all));
    assert_eq!(two.status.code(), all.status.code());
    assert!(!stdout(&all).contains("--max-diagnostics"));
    let json = |max: &str| stdout(&with(&["--max-diagnostics", max, "--format", "json"]));
    assert_eq!(json("0"), json("none"));

    let bad = run(&["--max-diagnostics", "lots", EXAMPLE]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("`lots` is neither a number of findings nor `none`"),
        "{}",
        stderr(&bad)
    );
}

/// From inside an app's config/ folder, its iparams.json is checked within the app however the
/// path is spelled.
#[test]
fn iparams_json_is_checked_in_its_app_however_spelled() {
    let config = repo_root().join("fixtures/apps/hr-sync/config");
    let absolute = config.join("iparams.json");
    for path in [
        "iparams.json",
        "./iparams.json",
        "../config/iparams.json",
        absolute.to_str().expect("a UTF-8 path"),
    ] {
        let (status, out, err) = support::run_in(&config, &[path]);
        assert_eq!(status, Some(0), "{path}: {out}{err}");
        assert_eq!(out, "6 files checked: 0 errors, 0 warnings\n", "{path}");
        assert_eq!(err, "", "{path}: no note about a lone file");
    }
}

/// An app with a finding in each of several files, copied to a scratch folder (with a link to
/// it), for the paths people type.
fn app_with_a_finding_in_each_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("iparams-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let app = dir.join("app");
    let write = |relative: &str, text: &str| {
        let path = app.join(relative);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
        std::fs::write(path, text).expect("writable");
    };
    write(
        "manifest.json",
        r#"{"platform-version": "2.3", "product": {"freshdesk": {"location": {"ticket_sidebar": {"url": "index.html"}}, "requests": {"getMe": {}}}}}"#,
    );
    write(
        "config/iparams.json",
        r#"{"region": {"display_name": "Region", "type": "text", "required": true}}"#,
    );
    write(
        "config/requests.json",
        r#"{"getMe": {"schema": {"method": "GET", "host": "api.example.com", "path": "/me"}}}"#,
    );
    write(
        "app/scripts/app.js",
        "client.iparams.get(\"regoin\");\nclient.request.invokeTemplate(\"getMe\", {});\n",
    );
    write("app/styles/style.css", "body {}\n");
    std::os::unix::fs::symlink(&app, dir.join("link")).expect("a link");
    dir
}

/// (status, the rules of the findings, stderr) of the binary run in `dir` with `args`.
fn findings_in(dir: &Path, args: &[&str]) -> (Option<i32>, Vec<String>, String) {
    let output = iparams_lint(&[&["--format", "concise"], args].concat())
        .current_dir(dir)
        .output()
        .expect("runs");
    let rules = stdout(&output)
        .lines()
        .filter_map(|line| Some(line.split_once('[')?.1.split_once(']')?.0.to_owned()))
        .collect();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.code(), rules, stderr)
}

#[test]
fn every_spelling_of_an_app_file_checks_its_app() {
    let dir = app_with_a_finding_in_each_file("spellings");
    let app = dir.join("app");
    let absolute = app.join("config/iparams.json");
    let absolute = absolute.to_string_lossy();
    // From several working folders, each file kind and spelling: the whole app, once.
    let cases: [(&Path, &[&str]); 12] = [
        (&app, &[]),
        (&app.join("config"), &[]),
        (&app.join("app/scripts"), &[]),
        (&app.join("config"), &["iparams.json"]),
        (&app.join("config"), &["./iparams.json"]),
        (&app.join("config"), &["../config/requests.json"]),
        (&app.join("config"), &[&absolute]),
        (
            &app,
            &[
                "manifest.json",
                "app/scripts/app.js",
                "config/requests.json",
            ],
        ),
        (&app, &["app/scripts/app.js"]),
        (&app, &["."]),
        (&dir, &["link/config/iparams.json"]),
        (&dir, &["app/config"]),
    ];
    for (cwd, args) in cases {
        let (status, rules, stderr) = findings_in(cwd, args);
        assert_eq!(status, Some(1), "{cwd:?} {args:?}: {stderr}");
        assert_eq!(
            rules,
            ["unknown-iparam-read", "unused-iparam"],
            "{cwd:?} {args:?}: {stderr}"
        );
        assert!(
            !stderr.contains("not inside an app"),
            "{cwd:?} {args:?}: {stderr}"
        );
    }
    // Never parsed as iparams.json: the templates, the manifest, a script.
    let (_, rules, _) = findings_in(&app, &["config/requests.json"]);
    assert!(
        !rules
            .iter()
            .any(|rule| rule == "unknown-attribute" || rule == "invalid-json")
    );
    // A file no rule reads is said so once, and is no error.
    let (status, rules, stderr) = findings_in(&app, &["app/styles/style.css"]);
    assert_eq!((status, rules.len()), (Some(0), 0), "{stderr}");
    assert_eq!(
        stderr.matches("no rule reads this file").count(),
        1,
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn output_file_statistics_and_exit_zero_as_ruff_has_them() {
    let dir = app_with_a_finding_in_each_file("flags");
    let app = dir.join("app");
    // --exit-zero: findings leave the status 0; trouble still does not.
    let (status, rules, _) = findings_in(&app, &["--exit-zero"]);
    assert_eq!((status, rules.len()), (Some(0), 2));
    let (status, _, _) = findings_in(&app, &["--exit-zero", "missing.json"]);
    assert_eq!(status, Some(2));
    // --statistics: counts by rule, as a table or JSON.
    let output = iparams_lint(&["--statistics"])
        .current_dir(&app)
        .output()
        .expect("runs");
    let table = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{table}");
    assert!(table.contains("1  unknown-iparam-read  error"), "{table}");
    assert!(table.contains("1  unused-iparam"), "{table}");
    assert!(
        table.ends_with("2 findings in 4 files checked\n"),
        "{table}"
    );
    let output = iparams_lint(&["--statistics", "--format", "json"])
        .current_dir(&app)
        .output()
        .expect("runs");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(json[0]["rule"], "unknown-iparam-read");
    assert_eq!(json[0]["count"], 1);
    // --output-file: the report in the file, nothing on standard output, the same status.
    let report = dir.join("reports/findings.json");
    let output = iparams_lint(&[
        "--format",
        "json",
        "--output-file",
        &report.to_string_lossy(),
    ])
    .current_dir(&app)
    .output()
    .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&report).expect("written")).expect("JSON");
    assert_eq!(written["summary"]["errors"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rules_list_as_json() {
    let output = run(&["rules", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    let rules: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let rules = rules.as_array().expect("a list");
    assert_eq!(rules.len(), iparams_core::REGISTRY.len());
    let credential = rules
        .iter()
        .find(|rule| rule["name"] == "credential-in-template")
        .expect("listed");
    assert_eq!(credential["severity"], "error");
    assert_eq!(credential["area"], "Request templates");
    assert!(
        credential["url"]
            .as_str()
            .expect("a URL")
            .ends_with("rules.md#credential-in-template")
    );
}

#[test]
fn unsafe_fixes_alone_writes_nothing_and_withheld_fixes_are_said() {
    let dir = std::env::temp_dir().join(format!("iparams-cli-fixes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    // An unsafe fix (a default for a dropdown) and nothing else.
    let file = dir.join("unsafe.json");
    let text = r#"{"priority": {"display_name": "Priority", "type": "dropdown", "options": ["Low", "High"]}}"#;
    std::fs::write(&file, text).expect("written");
    let output = run(&["--unsafe-fixes", &file.to_string_lossy()]);
    assert_eq!(std::fs::read_to_string(&file).expect("read"), text);
    let out = stdout(&output);
    assert!(
        out.contains("fix available (unsafe: --unsafe-fixes)"),
        "{out}"
    );
    assert!(out.contains("(1 fixable with --fix)"), "{out}");
    let output = run(&["--fix", "--unsafe-fixes", &file.to_string_lossy()]);
    assert_ne!(
        std::fs::read_to_string(&file).expect("read"),
        text,
        "{output:?}"
    );
    // A trailing comma is removed by --fix, and the file's other fixes follow in the same run.
    let commas = dir.join("commas.json");
    let text = "{\n  \"a\": {\"display_name\": \"A\", \"type\": \"text\",},\n  \"b\": {\"display_name\": \"B\", \"type\": \"Text\"},\n}\n";
    std::fs::write(&commas, text).expect("written");
    let out = stdout(&run(&[&commas.to_string_lossy()]));
    assert!(out.contains("(3 fixable with --fix)"), "{out}");
    let output = run(&["--fix", &commas.to_string_lossy()]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let fixed = std::fs::read_to_string(&commas).expect("read");
    assert_eq!(
        fixed,
        "{\n  \"a\": {\"display_name\": \"A\", \"type\": \"text\"},\n  \"b\": {\"display_name\": \"B\", \"type\": \"text\"}\n}\n"
    );
    run(&["--fix", &commas.to_string_lossy()]);
    assert_eq!(std::fs::read_to_string(&commas).expect("read"), fixed);
    // A file with another syntax error gets no fix, and the run says why instead of counting it.
    let broken = dir.join("broken.json");
    let text = "{\n  \"a\": {\"display_name\": \"A\", \"type\": \"text\",}\n  \"b\": {\"display_name\": \"B\", \"type\": \"Text\"}\n}\n";
    std::fs::write(&broken, text).expect("written");
    let output = run(&[&broken.to_string_lossy()]);
    let out = stdout(&output);
    assert!(!out.contains("fixable with --fix"), "{out}");
    assert!(
        out.contains("2 fixes withheld: fixes are applied to valid JSON only"),
        "{out}"
    );
    let output = run(&["--diff", &broken.to_string_lossy()]);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(
        err.contains("0 problems would be fixed") && err.contains("2 fixes withheld"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn watch_checks_again_on_each_change_and_stops_on_ctrl_c() {
    use std::io::{BufRead, BufReader};
    let dir = app_with_a_finding_in_each_file("watch");
    let app = dir.join("app");
    let mut child = iparams_lint(&["--watch", "--format", "concise"])
        .current_dir(&app)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("starts");
    let (lines, received) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().expect("piped");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    // Waits (at most 20 s) for the summary line of the next run, and gives the run's lines.
    let next_run = || {
        let mut run = Vec::new();
        loop {
            let line = received
                .recv_timeout(std::time::Duration::from_secs(20))
                .expect("a run within 20 s");
            let done = line.contains("files checked");
            run.push(line);
            if done {
                return run;
            }
        }
    };
    let first = next_run();
    assert!(
        first.iter().any(|l| l.contains("unknown-iparam-read")),
        "{first:?}"
    );
    // The read is fixed: the next run finds it gone.
    std::fs::write(
        app.join("app/scripts/app.js"),
        "client.iparams.get(\"region\");\nclient.request.invokeTemplate(\"getMe\", {});\n",
    )
    .expect("written");
    let second = next_run();
    assert!(
        !second.iter().any(|l| l.contains("unknown-iparam-read")),
        "{second:?}"
    );
    assert!(
        second.last().expect("a summary").contains("0 errors"),
        "{second:?}"
    );
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let started = std::time::Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status.code();
        }
        assert!(
            started.elapsed().as_secs() < 20,
            "still running after Ctrl-C"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(code, Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn messages_read_on_real_apps_say_what_to_do() {
    let dir = std::env::temp_dir().join(format!("iparams-cli-messages-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    // A `$schema` key: the vendor reads it as an iparam; the schema belongs in the editor.
    let file = dir.join("schema.json");
    std::fs::write(
        &file,
        r#"{"$schema": "https://example.com/s.json", "a": {"display_name": "A", "type": "text"}}"#,
    )
    .expect("written");
    let out = stdout(&run(&["--color", "never", &file.to_string_lossy()]));
    assert!(
        out.contains("read every top-level key of iparams.json as an iparam"),
        "{out}"
    );
    assert!(out.contains("json.schemas"), "{out}");
    assert!(!out.contains("\"$schema\": {\"display_name\""), "{out}");
    // An app whose iparams.json defines nothing says so, not "defines ." with nothing named.
    let app = app_with_a_finding_in_each_file("messages");
    std::fs::write(app.join("app/config/iparams.json"), "{}").expect("written");
    let output = iparams_lint(&["--format", "json", "."])
        .current_dir(app.join("app"))
        .output()
        .expect("runs");
    let json = String::from_utf8_lossy(&output.stdout);
    assert!(json.contains("iparams.json defines no iparam."), "{json}");
    assert!(!json.contains("defines ."), "{json}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&app);
}

#[test]
fn a_script_too_large_to_read_is_said_and_a_large_page_is_read_whole() {
    let scratch = support::Scratch::new("too-large");
    scratch.write(
        "manifest.json",
        r#"{"platform-version": "2.3", "product": {"freshdesk": {"location": {"ticket_sidebar": {"url": "index.html", "icon": "icon.svg"}}}}, "engines": {"node": "18.20.4", "fdk": "9.3.1"}}"#,
    );
    // Three megabytes of page before its script: the page is still where the iparams come from.
    let padding = format!("<!-- {} -->\n", "bundled styles ".repeat(200_000));
    scratch.write(
        "config/iparams.html",
        format!(
            r#"<html><head><script src="{{{{{{appclient}}}}}}"></script></head><body>{padding}
<input id="domain">
<script>
function postConfigs() {{ return {{ domain: document.getElementById("domain").value }}; }}
function getConfigs(configs) {{ document.getElementById("domain").value = configs.domain; }}
</script></body></html>"#
        ),
    );
    scratch.write(
        "app/scripts/app.js",
        r#"app.initialized().then(function (client) {
  client.iparams.get("domain");
  client.iparams.get("region");
});
"#,
    );
    // A bundle that reads a key the page never stores: not read, so not reported, but said.
    let bundle = format!(
        "{}\nclient.iparams.get(\"zone\");\n",
        "var x=1;".repeat(400_000)
    );
    scratch.write("app/scripts/vendor.bundle.js", bundle);
    let output = iparams_lint(&["--format", "concise", "--color", "never", "."])
        .current_dir(&scratch.0)
        .output()
        .expect("runs");
    let out = stdout(&output);
    assert!(
        out.contains(
            "app/scripts/vendor.bundle.js:1:1: info[file-not-read] app/scripts/vendor.bundle.js \
             is not read: at 3.1 MB it is over the 2.0 MB"
        ),
        "{out}"
    );
    // The page was read whole: `domain` is stored, `region` is not.
    assert!(out.contains("unknown-iparam-read] "), "{out}");
    assert!(out.contains("`region`"), "{out}");
    assert!(
        !out.contains("`domain`") && !out.contains("`zone`"),
        "{out}"
    );
    assert_eq!(output.status.code(), Some(1), "{out}");
    // Nothing of the unread file is quoted: no rule looked for the secrets it may hold.
    let human = iparams_lint(&["--color", "never", "."])
        .current_dir(&scratch.0)
        .output()
        .expect("runs");
    let human = stdout(&human);
    assert!(human.contains("info[file-not-read]"), "{human}");
    assert!(!human.contains("var x=1"), "{human}");
}

#[test]
fn control_characters_of_a_file_never_reach_the_terminal() {
    let scratch = support::Scratch::new("controls");
    // A raw ESC sequence in a key, a JSON-escaped one in a value, a BEL and a C1 control: each
    // would act on a terminal (clear it, write the clipboard, ring) if printed as it is.
    let text = "{\n  \"re\x1b[2Jgion\": {\"display_name\": \"Region\", \"type\": \"txt\"},\n  \
                \"zone\": {\"display_name\": \"Zone\", \"type\": \"dropdown\", \"options\": [\"a\"], \
                \"default_value\": \"\\u001b]52;c;eA==\\u0007\u{9b}\"}\n}\n";
    let path = scratch.write("config/iparams.json", text);
    let path = path.to_string_lossy().into_owned();
    for format in ["human", "concise", "github"] {
        let output = iparams_lint(&["--format", format, "--color", "never", &path])
            .output()
            .expect("runs");
        let out = stdout(&output);
        assert_eq!(output.status.code(), Some(1), "{format}: {out}");
        let raw: Vec<char> = out
            .chars()
            .filter(|&c| c != '\n' && c != '\t' && (c.is_control()))
            .collect();
        assert!(raw.is_empty(), "{format} printed {raw:?}: {out}");
        assert!(out.contains("\\u{1b}"), "{format}: {out}");
    }
}

/// Files that never end or never answer, named or linked (a FIFO, `/dev/zero`,
/// `/proc/self/pagemap`, a configuration linked to one of them), are refused at once, each said
/// with why; the command never waits on them nor reads them past its limit.
#[cfg(target_os = "linux")]
#[test]
fn endless_files_and_fifos_are_refused_at_once() {
    let scratch = support::Scratch::new("endless");
    scratch.write("lone/config/iparams.json", "{}\n");
    let file = "lone/config/iparams.json";
    let cases = [
        (
            "fifo",
            "a FIFO, not a regular file: only regular files are read",
        ),
        (
            "/dev/zero",
            "a character device, not a regular file: only regular files are read",
        ),
        (
            "/proc/self/pagemap",
            "too large: a file is read to 64 MiB at most",
        ),
    ];
    support::fifo(&scratch.0.join("fifo"));
    for (target, says) in cases {
        let target = scratch.0.join(target);
        let named = scratch.0.join("named/config/iparams.json");
        let _ = std::fs::remove_dir_all(scratch.0.join("named"));
        std::fs::create_dir_all(named.parent().expect("a folder")).expect("a folder");
        std::os::unix::fs::symlink(&target, &named).expect("a link");
        let (status, _, stderr) = support::run_in_time(
            &scratch.0,
            &["--color", "never", "named/config/iparams.json"],
        );
        assert_eq!(status, Some(2), "{target:?}: {stderr}");
        assert!(
            stderr.contains(&format!("named/config/iparams.json: cannot read: {says}")),
            "{target:?}: {stderr}"
        );
        // The configuration beside the file.
        let config = scratch.0.join("lone/.iparams-lint.toml");
        let _ = std::fs::remove_file(&config);
        std::os::unix::fs::symlink(&target, &config).expect("a link");
        let (status, _, stderr) = support::run_in_time(&scratch.0, &["--color", "never", file]);
        if !target.is_file() {
            // Not a file: there is no configuration, as for a folder of that name.
            assert_eq!(status, Some(0), "{stderr}");
        } else {
            assert_eq!(status, Some(2), "{target:?}: {stderr}");
            assert!(
                stderr.contains(&format!(".iparams-lint.toml: cannot read it: {says}")),
                "{target:?}: {stderr}"
            );
        }
        let _ = std::fs::remove_file(&config);
    }
    // Standard input that never ends.
    let endless = std::fs::File::open("/dev/zero").expect("readable");
    let output = iparams_lint(&["-"])
        .stdin(endless)
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("cannot read standard input: too large: a file is read to 64 MiB at most"),
        "{output:?}"
    );
}

/// An app whose code and custom page hold suppression comments, in a scratch folder; with
/// `commented` false, the same app without them.
fn app_with_suppressions(name: &str, commented: bool) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("iparams-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |relative: &str, text: &str| {
        let path = dir.join(relative);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
        let text: String = text
            .lines()
            .filter(|line| commented || !line.contains("iparams-lint-ignore-next-line"))
            .map(|line| format!("{line}\n"))
            .collect();
        std::fs::write(path, text).expect("writable");
    };
    write(
        "manifest.json",
        r#"{"platform-version": "2.3", "product": {"freshdesk": {"location": {"ticket_sidebar": {"url": "index.html"}}}}}"#,
    );
    write(
        "config/iparams.html",
        r#"<html><head><script src="{{{appclient}}}"></script>
<!-- iparams-lint-ignore-next-line remote-page-resource -- pinned and reviewed -->
<script src="https://code.jquery.com/jquery-3.7.1.min.js"></script></head>
<body><input id="region">
<script>
function postConfigs() { return { region: $(region).val() }; }
function getConfigs(configs) { $(region).val(configs.region); }
</script></body></html>"#,
    );
    write(
        "app/index.html",
        r#"<html><head><script src="{{{appclient}}}"></script><script src="scripts/app.js"></script></head><body></body></html>"#,
    );
    write(
        "app/scripts/app.js",
        r#"// iparams-lint-ignore-next-line unknown-iparam-read -- read before it was renamed
client.iparams.get("regoin");
client.iparams.get("zone");
/* iparams-lint-ignore-next-line unknown-iparam-read, unknown-iparam-reed */
client.iparams.get("region");"#,
    );
    dir
}

#[test]
fn suppression_comments_turn_findings_off_and_unused_ones_are_said() {
    let plain = app_with_suppressions("unsuppressed", false);
    let (_, rules, _) = findings_in(&plain, &["."]);
    assert_eq!(
        rules,
        [
            "unknown-iparam-read",
            "unknown-iparam-read",
            "remote-page-resource"
        ],
        "without the comments"
    );

    let dir = app_with_suppressions("suppressed", true);
    let output = iparams_lint(&["--format", "concise", "."])
        .current_dir(&dir)
        .output()
        .expect("runs");
    let lines: Vec<String> = stdout(&output).lines().map(str::to_owned).collect();
    let found = |needle: &str| lines.iter().filter(|line| line.contains(needle)).count();
    // The read of `zone` had no comment; the page's remote script and the read of `regoin`
    // had theirs.
    assert_eq!(found("[unknown-iparam-read]"), 1, "{lines:#?}");
    assert_eq!(found("app/scripts/app.js:3:"), 1, "{lines:#?}");
    assert_eq!(found("[remote-page-resource]"), 0, "{lines:#?}");
    // The block comment over a known key suppresses nothing, and names a rule that is none.
    assert_eq!(found("[unused-suppression]"), 2, "{lines:#?}");
    assert_eq!(
        found(
            "app/scripts/app.js:4:34: warning[unused-suppression] The suppression of `unknown-iparam-read` suppresses nothing"
        ),
        1,
        "{lines:#?}"
    );
    assert_eq!(
        found(
            "app/scripts/app.js:4:55: warning[unused-suppression] `unknown-iparam-reed` is not a rule"
        ),
        1,
        "{lines:#?}"
    );
    let json = stdout(
        &iparams_lint(&["--format", "json", "."])
            .current_dir(&dir)
            .output()
            .expect("runs"),
    );
    assert!(
        json.contains("Did you mean `unknown-iparam-read`?"),
        "{json}"
    );

    // A rule turned off is not run: naming it suppresses nothing, and is not reported.
    let (_, rules, _) = findings_in(&dir, &["--ignore", "unknown-iparam-read", "."]);
    assert_eq!(rules, ["unused-suppression"], "only the unknown name");
    for dir in [plain, dir] {
        let _ = std::fs::remove_dir_all(dir);
    }
}
