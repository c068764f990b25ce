//! Configuration through the real binary: overrides and `exclude` for every file of an app,
//! `--exclude`, rule selection (`--select`, `--ignore`, groups, `*`), `--show-settings`,
//! `init`, and what a mistyped command or another linter's option gets.

mod support;

use std::path::Path;

use support::Scratch;

/// A scratch copy of the fixture app `relative` (under fixtures/apps/).
fn app(name: &str, relative: &str) -> Scratch {
    let scratch = Scratch::new(name);
    copy_folder(
        &support::repo_root().join("fixtures/apps").join(relative),
        &scratch.0,
    );
    scratch
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from).expect("readable") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a type").is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copied");
        }
    }
}

fn concise(scratch: &Scratch, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["--format", "concise"];
    all.extend(args);
    support::run_in(&scratch.0, &all)
}

/// The script of the hr-body fixture has five errors of `hr-body`; nothing else is found.
const SCRIPT: &str = "app/scripts/app.js";

#[test]
fn overrides_and_exclude_reach_the_scripts_of_an_app() {
    let scratch = app("settings-script", "hr-body/invalid");
    let (status, stdout, _) = concise(&scratch, &["."]);
    assert_eq!(status, Some(1));
    assert_eq!(stdout.matches("app/scripts/app.js:").count(), 5, "{stdout}");

    scratch.write(
        ".iparams-lint.toml",
        "[overrides]\n\"app/scripts/*.js\" = { hr-body = \"warn\" }\n",
    );
    let (status, stdout, _) = concise(&scratch, &["."]);
    assert_eq!(status, Some(0));
    assert_eq!(stdout.matches(": warning[hr-body]").count(), 5, "{stdout}");

    // Turned on for the script alone, the rule is off everywhere else.
    scratch.write(
        ".iparams-lint.toml",
        "[rules]\nhr-body = \"off\"\n[overrides]\n\"app/**\" = { hr = \"info\" }\n",
    );
    let (_, stdout, _) = concise(&scratch, &["."]);
    assert_eq!(stdout.matches(": info[hr-body]").count(), 5, "{stdout}");

    scratch.write(".iparams-lint.toml", "exclude = [\"app/**\"]\n");
    let (status, stdout, _) = concise(&scratch, &["."]);
    assert_eq!(
        (status, stdout.as_str()),
        (Some(0), "3 files checked: 0 errors, 0 warnings\n")
    );

    // `ignore`, the older name, still leaves files out; the app goes when its manifest.json
    // and iparams.json both do.
    scratch.write(
        ".iparams-lint.toml",
        "ignore = [\"*.json\", \"config/*.json\"]\n",
    );
    let (status, stdout, _) = concise(&scratch, &["."]);
    assert_eq!(
        (status, stdout.as_str()),
        (Some(0), "0 files checked: 0 errors, 0 warnings\n")
    );

    std::fs::remove_file(scratch.0.join(".iparams-lint.toml")).expect("removed");
    let (status, stdout, _) = concise(&scratch, &["--exclude", SCRIPT, "."]);
    assert_eq!(
        (status, stdout.as_str()),
        (Some(0), "3 files checked: 0 errors, 0 warnings\n")
    );
}

#[test]
fn rules_are_selected_by_name_or_group() {
    let scratch = app("settings-select", "hr-body/invalid");
    let count = |args: &[&str]| {
        let mut all = args.to_vec();
        all.push(".");
        let (_, stdout, stderr) = concise(&scratch, &all);
        assert!(stderr.is_empty(), "{stderr}");
        stdout.lines().count() - 1
    };
    assert_eq!(count(&["--select", "file,keys"]), 0);
    assert_eq!(count(&["--select", "keys", "--select", "hr"]), 5);
    assert_eq!(count(&["--select", "hr-body"]), 5);
    assert_eq!(count(&["--ignore", "hr"]), 0);
    assert_eq!(count(&["--rule", "*=off"]), 0);
    assert_eq!(count(&["--rule", "*=off", "--rule", "hr=warn"]), 5);

    scratch.write(
        ".iparams-lint.toml",
        "select = [\"templates\"]\nignore-rules = [\"unanchored-regex\"]\n",
    );
    assert_eq!(count(&[]), 0);
    // The command line's selection wins over the file's.
    assert_eq!(count(&["--select", "hr-body"]), 5);

    let (status, _, stderr) = concise(&scratch, &["--select", "secret", "."]);
    assert_eq!(status, Some(2));
    assert!(
        stderr.contains("--select secret: there is no rule `secret`; did you mean `secrets`?"),
        "{stderr}"
    );
}

#[test]
fn show_settings_prints_what_applies_without_checking() {
    let scratch = app("settings-show", "hr-body/invalid");
    scratch.write(
        ".iparams-lint.toml",
        "exclude = [\"legacy/**\"]\n[rules]\nhr-body = \"warning\"\n[overrides]\n\"app/**\" = { hr-body = \"off\" }\n",
    );
    let (status, stdout, stderr) =
        support::run_in(&scratch.0, &["--show-settings", SCRIPT, "--ignore", "keys"]);
    assert_eq!(status, Some(0), "{stderr}");
    assert!(
        stdout.starts_with("Settings for app/scripts/app.js\n"),
        "{stdout}"
    );
    let config = scratch.0.join(".iparams-lint.toml");
    assert!(
        stdout.contains(&format!(
            "Configuration file: {} (the nearest",
            config.display()
        )),
        "{stdout}"
    );
    assert!(stdout.contains("Command line: --ignore keys\n"), "{stdout}");
    assert!(stdout.contains(": legacy/**\nExcluded: no\n"), "{stdout}");
    assert!(stdout.contains("  \"app/**\" (applies)\n"), "{stdout}");
    let level = |rule: &str| {
        stdout
            .lines()
            .find(|line| line.trim_start().starts_with(&format!("{rule} ")))
            .map(|line| {
                line.split_whitespace()
                    .skip(1)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
    };
    assert_eq!(level("hr-body").as_deref(), Some("off (default: error)"));
    assert_eq!(
        level("unknown-type").as_deref(),
        Some("off (default: error)")
    );
    assert_eq!(level("missing-default").as_deref(), Some("error"));
    // Every rule is listed, and nothing was checked.
    assert_eq!(
        stdout.lines().filter(|line| line.starts_with("  ")).count(),
        iparams_core::REGISTRY.len() + 1
    );
    assert!(!stdout.contains("files checked"));

    // The app's folder stands for its iparams.json.
    let (status, stdout, _) = support::run_in(&scratch.0, &["--show-settings"]);
    assert_eq!(status, Some(0));
    assert!(
        stdout.starts_with("Settings for config/iparams.json\n"),
        "{stdout}"
    );
    assert_eq!(level_in(&stdout, "hr-body"), "warning  (default: error)");
}

fn level_in<'t>(text: &'t str, rule: &str) -> &'t str {
    text.lines()
        .find_map(|line| line.trim_start().strip_prefix(&format!("{rule} ")))
        .map(str::trim)
        .expect("the rule is listed")
}

#[test]
fn init_writes_a_configuration_once_and_prints_the_snippets() {
    let scratch = app("settings-init", "hr-body/invalid");
    let (_, before, _) = concise(&scratch, &["."]);
    let (status, stdout, stderr) = support::run_in(&scratch.0.join("app/scripts"), &["init"]);
    assert_eq!(status, Some(0), "{stderr}");
    // Written in the app, not in the folder it was run from.
    let written = scratch.0.join(".iparams-lint.toml");
    let text = std::fs::read_to_string(&written).expect("written");
    assert!(
        text.contains("\nexclude = []\n") && text.contains("[overrides]"),
        "{text}"
    );
    assert!(stdout.contains("# .pre-commit-config.yaml\n"), "{stdout}");
    assert!(stdout.contains("      - id: iparams-lint "), "{stdout}");
    assert!(
        stdout.contains("- uses: iparams-lint/iparams-lint@v"),
        "{stdout}"
    );
    // The configuration it writes changes nothing.
    let (_, after, _) = concise(&scratch, &["."]);
    assert_eq!(before, after);

    std::fs::write(&written, "# mine\n").expect("writable");
    let (status, stdout, stderr) = support::run_in(&scratch.0, &["init"]);
    assert_eq!(status, Some(2));
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("it already exists; not overwritten"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&written).expect("kept"), "# mine\n");
}

#[test]
fn a_mistyped_command_or_another_linters_option_is_named() {
    let scratch = app("settings-typos", "hr-body/invalid");
    let (status, stdout, stderr) = support::run_in(&scratch.0, &["prevew", "."]);
    assert_eq!(status, Some(2));
    assert_eq!(stdout, "", "the app is not checked");
    assert_eq!(
        stderr,
        "iparams-lint: `prevew` is neither a path nor a command; did you mean `preview`?\n"
    );
    // A folder of that name is a path, checked as such (inside the app: the app).
    scratch.write("prevew/notes.txt", "");
    let (status, stdout, stderr) = support::run_in(&scratch.0, &["prevew"]);
    assert_eq!(status, Some(1), "{stderr}");
    assert!(stdout.contains("5 errors"), "{stdout}");

    let (status, _, stderr) = support::run_in(&scratch.0, &["--output-format", "json", "."]);
    assert_eq!(status, Some(2));
    assert!(
        stderr.contains("tip: a similar argument exists: '--format'"),
        "{stderr}"
    );
}
