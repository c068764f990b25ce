//! The hook in .pre-commit-hooks.yaml, run by the real pre-commit on a sample repository.

mod support;

use std::process::Command;

use support::{Scratch, repo_root, streams};

fn git(dir: &std::path::Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?} failed");
}

#[test]
fn the_hook_runs_under_pre_commit() {
    if Command::new("pre-commit")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI installs pre-commit (see .ci/run); it must be here"
        );
        eprintln!(
            "pre-commit is not installed: hook test skipped (`pip install pre-commit` to run it)"
        );
        return;
    }
    let scratch = Scratch::new("pre-commit");
    let project = scratch.0.join("project");
    let broken = "{\"region\": {\"display_name\": \"Region\", \"type\": \"txt\"}}\n";
    scratch.write("project/apps/hr/config/iparams.json", broken);
    scratch.write(
        "project/notes/config.json",
        "not checked: not an iparams file",
    );
    git(&project, &["init", "-q"]);
    git(&project, &["add", "."]);

    let try_repo = |hook: &str| {
        Command::new("pre-commit")
            .args([
                "try-repo",
                &repo_root().to_string_lossy(),
                hook,
                "--all-files",
            ])
            .current_dir(&project)
            .env("PRE_COMMIT_HOME", scratch.0.join("cache"))
            // Keep the hook's build between runs instead of compiling from scratch each time.
            .env("CARGO_TARGET_DIR", repo_root().join("target/pre-commit"))
            // The quickest build of the hook: unoptimised, as a debug build; its behaviour is the
            // same.
            .env("CARGO_PROFILE_RELEASE_LTO", "false")
            .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
            .env("CARGO_PROFILE_RELEASE_STRIP", "false")
            .env("CARGO_PROFILE_RELEASE_INCREMENTAL", "false")
            .env("GIT_AUTHOR_NAME", "test")
            .env("GIT_AUTHOR_EMAIL", "test@example.com")
            .env("GIT_COMMITTER_NAME", "test")
            .env("GIT_COMMITTER_EMAIL", "test@example.com")
            .output()
            .expect("pre-commit runs")
    };
    let output = try_repo("iparams-lint");
    let (stdout, stderr) = streams(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("error[unknown-type]") && stdout.contains("apps/hr/config/iparams.json"),
        "{stdout}{stderr}"
    );
    assert!(!stdout.contains("notes/config.json"), "{stdout}");

    let output = try_repo("iparams-lint-fix");
    let (stdout, stderr) = streams(&output);
    assert!(
        stdout.contains("files were modified by this hook") || stdout.contains("Fixed 1 problem"),
        "{stdout}{stderr}"
    );
    let fixed =
        std::fs::read_to_string(project.join("apps/hr/config/iparams.json")).expect("the file");
    assert_eq!(fixed, broken.replace("\"txt\"", "\"text\""));
    git(&project, &["add", "."]);
    let output = try_repo("iparams-lint");
    let (stdout, stderr) = streams(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("Passed"), "{stdout}");
}
