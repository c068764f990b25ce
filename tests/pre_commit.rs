//! The hook in .pre-commit-hooks.yaml, run by the real pre-commit on a sample repository.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::{Scratch, repo_root, streams};

/// Committer and author of the commits made here.
const IDENTITY: [(&str, &str); 4] = [
    ("GIT_AUTHOR_NAME", "test"),
    ("GIT_AUTHOR_EMAIL", "test@example.com"),
    ("GIT_COMMITTER_NAME", "test"),
    ("GIT_COMMITTER_EMAIL", "test@example.com"),
];

fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(args)
        .current_dir(dir)
        .envs(IDENTITY)
        .output()
        .expect("git runs");
    let (stdout, stderr) = streams(&output);
    assert!(output.status.success(), "git {args:?} failed: {stderr}");
    stdout
}

/// The repository as `pre-commit try-repo` offers it: a clone at its HEAD in `into`, with a
/// commit of the changes to its tracked files, staged or not, so that the hooks file and the
/// code are run as they stand. Returns the clone and that commit. Made once for the test's runs:
/// `try-repo` makes it, and builds the hook from it, again on each run, where pre-commit builds
/// a hook once for a repository and revision in its store.
fn repository_as_it_stands(into: &Path) -> (PathBuf, String) {
    let root = repo_root();
    let clone = into.join("hooks-repo");
    let head = git(&root, &["rev-parse", "HEAD"]);
    git(
        into,
        &[
            "clone",
            "-q",
            &root.to_string_lossy(),
            &clone.to_string_lossy(),
        ],
    );
    git(&clone, &["checkout", "-q", "--detach", head.trim()]);
    // As try-repo does: the work tree's files added to the clone's index and objects.
    let into_clone = |args: &[&str]| {
        let git_dir = clone.join(".git");
        let status = Command::new("git")
            .args(args)
            .current_dir(&root)
            .env("GIT_INDEX_FILE", git_dir.join("index"))
            .env("GIT_OBJECT_DIRECTORY", git_dir.join("objects"))
            .status()
            .expect("git runs");
        assert!(status.success(), "git {args:?} into the clone failed");
    };
    let staged = git(&root, &["diff", "--staged", "--name-only", "--no-renames"]);
    let staged: Vec<&str> = staged
        .lines()
        .filter(|path| root.join(path).exists())
        .collect();
    if !staged.is_empty() {
        into_clone(&[&["add", "--"][..], &staged].concat());
    }
    into_clone(&["add", "-u"]);
    git(
        &clone,
        &["commit", "-q", "--allow-empty", "-m", "the work tree"],
    );
    let commit = git(&clone, &["rev-parse", "HEAD"]).trim().to_owned();
    (clone, commit)
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
    let (hooks, commit) = repository_as_it_stands(&scratch.0);
    let config = scratch.write(
        "pre-commit-config.yaml",
        format!(
            "repos:\n- repo: {}\n  rev: {commit}\n  hooks:\n  - id: iparams-lint\n  - id: iparams-lint-fix\n",
            hooks.display()
        ),
    );

    // Each hook on its own, as `pre-commit try-repo REPO HOOK` runs it.
    let try_repo = |hook: &str| {
        Command::new("pre-commit")
            .args(["run", hook, "--all-files", "--config"])
            .arg(&config)
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
            .envs(IDENTITY)
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
