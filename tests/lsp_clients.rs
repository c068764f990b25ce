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

use support::{python_venv, repo_root, streams, unavailable};

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
    println!("pytest-lsp suite: {:.1} s", started.elapsed().as_secs_f64());
    support::assert_pytest_ran_and_passed(&output, "the pytest-lsp suite");
}

#[test]
fn the_vscode_extension_packages_into_a_vsix() {
    if Command::new("npm").arg("--version").output().is_err() {
        return unavailable("npm is not installed");
    }
    let work = match support::vscode_extension_copy(&target_tmp()) {
        Ok(work) => work,
        Err(why) => {
            return unavailable(&format!(
                "the extension's packages could not be installed: {why}"
            ));
        }
    };
    let npm = |args: &[&str]| support::npm_in(&work, &target_tmp(), args);

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
