//! The language server from the outside, by clients that are not ours:
//!
//! - `pytest-lsp` (tests/lsp_client/, pinned in its requirements.txt) starts the built binary as
//!   `iparams-lint lsp --stdio` and drives it with the captured capabilities of VS Code, Neovim
//!   and Emacs: findings at the right columns in each position encoding, quick fixes, hover,
//!   cross-file refresh from unsaved buffers, clean shutdown. Its virtual environment is kept
//!   in the target folder and rebuilt only when requirements.txt changes.
//! - The VS Code extension (editors/vscode/) is packaged into a `.vsix` by `vsce`, in a copy
//!   under the target folder (its `npm ci` is kept there too), and the package is checked.
//!
//! Without Python (with venv and pip) or npm, or without the registries, each test says so and
//! passes; under CI (`CI` set, as `.ci/run` sets it) that is a failure.

mod support;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use support::{python_venv, repo_root, run, streams, unavailable};

fn target_tmp() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

/// The Python with tests/lsp_client/requirements.txt installed: the one `IPARAMS_LINT_CLIENT_PYTHON`
/// names (.ci/run installs it), or a virtual environment under the target folder.
fn client_venv(requirements: &Path) -> Result<PathBuf, String> {
    python_venv(
        "IPARAMS_LINT_CLIENT_PYTHON",
        &target_tmp().join("lsp-client-venv"),
        requirements,
    )
}

#[test]
fn pytest_lsp_drives_the_server_as_vscode_neovim_and_emacs() {
    // `help lsp`, not `lsp --help`: without the command, `lsp` would be taken for a path.
    let has_server = Command::new(env!("CARGO_BIN_EXE_iparams-lint"))
        .args(["help", "lsp"])
        .output()
        .is_ok_and(|output| output.status.success());
    if !has_server {
        return unavailable("this build of iparams-lint has no `lsp` command to drive");
    }
    let suite = repo_root().join("tests/lsp_client");
    let python = match client_venv(&suite.join("requirements.txt")) {
        Ok(python) => python,
        Err(why) => return unavailable(&format!("pytest-lsp could not be installed: {why}")),
    };
    let runs = target_tmp().join("lsp-client-runs");
    let started = Instant::now();
    let output = Command::new(&python)
        .args(["-m", "pytest", "-q", "-rfE", "--basetemp"])
        .arg(&runs)
        .current_dir(&suite)
        .env("IPARAMS_LINT_BIN", env!("CARGO_BIN_EXE_iparams-lint"))
        // No __pycache__ in the source tree.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env_remove("NO_COLOR")
        .output()
        .expect("the venv's python runs");
    let (stdout, stderr) = streams(&output);
    println!("{stdout}{stderr}");
    println!("pytest-lsp suite: {:.1} s", started.elapsed().as_secs_f64());
    assert!(
        output.status.success(),
        "the pytest-lsp suite failed ({}): see its output above",
        output.status
    );
    assert!(
        stdout.contains(" passed") && !stdout.contains("skipped"),
        "every client test ran: {stdout}"
    );
}

/// Copies the extension's own files (not node_modules, a package, or the copied schema) from
/// `from` into `to`, replacing what an earlier run left there but its node_modules.
fn copy_extension(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("the target folder is writable");
    for entry in fs::read_dir(to).expect("readable") {
        let path = entry.expect("an entry").path();
        if path.file_name().is_some_and(|name| name == "node_modules") {
            continue;
        }
        if path.is_dir() {
            fs::remove_dir_all(&path).expect("removable");
        } else {
            fs::remove_file(&path).expect("removable");
        }
    }
    for entry in fs::read_dir(from).expect("editors/vscode") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().expect("a name").to_owned();
        let skipped = name == "node_modules"
            || name == "schemas"
            || path.extension().is_some_and(|ext| ext == "vsix");
        if skipped {
            continue;
        }
        if path.is_dir() {
            copy_extension(&path, &to.join(&name));
        } else {
            fs::copy(&path, to.join(&name)).expect("copied");
        }
    }
}

#[test]
fn the_vscode_extension_packages_into_a_vsix() {
    if Command::new("npm").arg("--version").output().is_err() {
        return unavailable("npm is not installed");
    }
    let source = repo_root().join("editors/vscode");
    let work = target_tmp().join("vscode-extension");
    copy_extension(&source, &work);
    let schema = repo_root().join("crates/iparams-lint/schemas/iparams.schema.json");
    let npm = |args: &[&str]| {
        let mut command = Command::new("npm");
        command
            .args(args)
            .current_dir(&work)
            .env("IPARAMS_LINT_SCHEMA", &schema)
            // Where the copy's tests read the server's source (the names they must agree on).
            .env("IPARAMS_LINT_REPO", repo_root())
            .env("npm_config_cache", target_tmp().join("npm-cache"))
            .env("npm_config_update_notifier", "false");
        run(&mut command)
    };

    // `npm ci` only when package-lock.json changed since the last run.
    let lock = fs::read_to_string(work.join("package-lock.json")).expect("package-lock.json");
    // Beside the copy, not in it: vsce would package a file in node_modules.
    let stamp = target_tmp().join("vscode-extension.installed-package-lock.json");
    if !fs::read_to_string(&stamp).is_ok_and(|had| had == lock) {
        if let Err(why) = npm(&["ci", "--no-audit", "--no-fund", "--prefer-offline"]) {
            return unavailable(&format!(
                "the extension's packages could not be installed: {why}"
            ));
        }
        fs::write(&stamp, &lock).expect("node_modules is writable");
    }

    let tested = npm(&["test"]).unwrap_or_else(|why| panic!("{why}"));
    println!("{}", streams(&tested).0);
    let started = Instant::now();
    npm(&["run", "package"]).unwrap_or_else(|why| panic!("{why}"));
    let checked = npm(&["run", "check-vsix"]).unwrap_or_else(|why| panic!("{why}"));
    let (stdout, _) = streams(&checked);
    assert!(
        stdout.contains("check-vsix: iparams-lint.vsix: "),
        "{stdout}"
    );
    let size = fs::metadata(work.join("iparams-lint.vsix"))
        .expect("the .vsix")
        .len();
    println!(
        "iparams-lint.vsix: {size} bytes, packaged and checked in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // vscode-languageclient and its four dependencies are about 300 KB; far more means that
    // .vscodeignore lets development files in.
    assert!(size < 1_000_000, "the .vsix is {size} bytes");
}
