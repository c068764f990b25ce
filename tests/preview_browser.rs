//! `iparams-lint preview`'s page in a real browser: the pytest suite of tests/preview_browser/
//! drives Debian's headless Chromium with Selenium (pinned in its requirements.txt, installed into
//! a virtual environment under the target folder, rebuilt only when the file changes) through the
//! page's test hooks: every type's control and value, validation messages, each callback return
//! form, `utils.set`, INSTALL failing and passing, the credential check against a running
//! hr-sandbox, the refill without secrets, findings after an edit on disk; and custom pages
//! (config/iparams.html) in the page's frame: a fixture app's, and real ones of the corpus,
//! read in place from `../shared/corpus/apps` (`IPARAMS_LINT_CORPUS_APPS` names another
//! folder; without it those tests say so and pass, except under CI).
//!
//! Without Chromium and its driver, or without Python or the registry, the test says so and
//! passes; under CI (`CI` set, as `.ci/run` sets it) that is a failure.

mod support;

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use support::{python_venv, repo_root, streams, unavailable, under_ci};

fn target_tmp() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

#[test]
fn selenium_drives_the_page_in_headless_chromium() {
    let (chromium, driver) = match support::chromium_and_driver() {
        Ok(tools) => tools,
        Err(why) => return unavailable(&why),
    };
    let suite = repo_root().join("tests/preview_browser");
    let python = match python_venv(
        "IPARAMS_LINT_BROWSER_PYTHON",
        &target_tmp().join("preview-browser-venv"),
        &suite.join("requirements.txt"),
    ) {
        Ok(python) => python,
        Err(why) => return unavailable(&format!("selenium could not be installed: {why}")),
    };
    let started = Instant::now();
    let corpus_apps = std::env::var_os("IPARAMS_LINT_CORPUS_APPS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("../shared/corpus/apps"));
    let ci = if under_ci(std::env::var_os("CI").as_deref()) {
        "1"
    } else {
        "0"
    };
    let pytest = |args: &[&OsStr]| {
        let mut command = Command::new(&python);
        command
            .args(["-m", "pytest", "-q"])
            .args(args)
            .current_dir(&suite)
            .env("IPARAMS_LINT_BIN", env!("CARGO_BIN_EXE_iparams-lint"))
            .env("IPARAMS_LINT_CHROMIUM", &chromium)
            .env("IPARAMS_LINT_CHROMEDRIVER", &driver)
            .env("IPARAMS_LINT_CORPUS_APPS", &corpus_apps)
            .env("IPARAMS_LINT_UNDER_CI", ci)
            .env("PYTHONDONTWRITEBYTECODE", "1");
        if let Some(filter) = std::env::var_os("IPARAMS_LINT_BROWSER_TESTS") {
            command.arg("-k").arg(filter);
        }
        command
    };
    // The tests, split in two halves run at once, each by its own pytest with its own browser:
    // a test mostly waits (for the page's debounced callbacks, for the browser's answers), so
    // the halves take about half the time of the whole, even on two cores.
    let collected = pytest(&["--collect-only".as_ref()])
        .output()
        .expect("the venv's python runs");
    let (listed, errors) = streams(&collected);
    assert!(collected.status.success(), "{listed}{errors}");
    let tests: Vec<&str> = listed.lines().filter(|line| line.contains("::")).collect();
    assert!(!tests.is_empty(), "no browser test collected: {listed}");
    let halves: Vec<Vec<&str>> = (0..2)
        .map(|half| tests.iter().skip(half).step_by(2).copied().collect())
        .filter(|half: &Vec<&str>| !half.is_empty())
        .collect();
    let running: Vec<_> = halves
        .iter()
        .enumerate()
        .map(|(half, tests)| {
            let runs = target_tmp().join(format!("preview-browser-runs-{half}"));
            let mut args: Vec<&OsStr> = vec!["-rfE".as_ref(), "--basetemp".as_ref(), runs.as_ref()];
            args.extend(tests.iter().map(OsStr::new));
            pytest(&args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the venv's python runs")
        })
        .collect();
    let mut passed = 0;
    for (half, child) in running.into_iter().enumerate() {
        let output = child.wait_with_output().expect("pytest ends");
        let stdout = support::assert_pytest_ran_and_passed(
            &output,
            &format!("half {half} of the browser suite"),
        );
        passed += stdout
            .lines()
            .filter_map(|line| line.split_once(" passed"))
            .filter_map(|(count, _)| count.rsplit(' ').next()?.parse::<usize>().ok())
            .sum::<usize>();
    }
    assert_eq!(passed, tests.len(), "every collected test passed");
    println!("browser suite: {:.1} s", started.elapsed().as_secs_f64());
}
