//! `iparams-lint preview`'s page in a real browser: the pytest suite of tests/preview_browser/
//! drives Debian's headless Chromium with Selenium (pinned in its requirements.txt, installed into
//! a virtual environment under the target folder, rebuilt only when the file changes) through the
//! page's test hooks: every type's control and value, validation messages, each callback return
//! form, `utils.set`, INSTALL failing and passing, the credential check against a running
//! hr-sandbox, the refill without secrets, findings after an edit on disk.
//!
//! Without Chromium and its driver, or without Python or the registry, the test says so and
//! passes; under CI (`CI` set, as `.ci/run` sets it) that is a failure.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use support::{python_venv, repo_root, streams, unavailable};

fn target_tmp() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

#[test]
fn selenium_drives_the_page_in_headless_chromium() {
    let chromium =
        std::env::var("IPARAMS_LINT_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let driver = std::env::var("IPARAMS_LINT_CHROMEDRIVER")
        .unwrap_or_else(|_| "/usr/bin/chromedriver".into());
    for (tool, path) in [("chromium", &chromium), ("chromium-driver", &driver)] {
        if !Path::new(path).is_file() {
            return unavailable(&format!("{tool} is not installed ({path})"));
        }
    }
    let suite = repo_root().join("tests/preview_browser");
    let python = match python_venv(
        "IPARAMS_LINT_BROWSER_PYTHON",
        &target_tmp().join("preview-browser-venv"),
        &suite.join("requirements.txt"),
    ) {
        Ok(python) => python,
        Err(why) => return unavailable(&format!("selenium could not be installed: {why}")),
    };
    let runs = target_tmp().join("preview-browser-runs");
    let started = Instant::now();
    let mut command = Command::new(&python);
    command
        .args(["-m", "pytest", "-q", "-rfE", "--basetemp"])
        .arg(&runs)
        .current_dir(&suite)
        .env("IPARAMS_LINT_BIN", env!("CARGO_BIN_EXE_iparams-lint"))
        .env("IPARAMS_LINT_CHROMIUM", &chromium)
        .env("IPARAMS_LINT_CHROMEDRIVER", &driver)
        .env("PYTHONDONTWRITEBYTECODE", "1");
    if let Some(filter) = std::env::var_os("IPARAMS_LINT_BROWSER_TESTS") {
        command.arg("-k").arg(filter);
    }
    let output = command.output().expect("the venv's python runs");
    let (stdout, stderr) = streams(&output);
    println!("{stdout}{stderr}");
    println!("browser suite: {:.1} s", started.elapsed().as_secs_f64());
    assert!(
        output.status.success(),
        "the browser suite failed ({}): see its output above",
        output.status
    );
    assert!(
        stdout.contains(" passed") && !stdout.contains("skipped"),
        "every browser test ran: {stdout}"
    );
}
