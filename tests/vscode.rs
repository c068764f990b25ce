//! The VS Code extension in a real VS Code: the pytest suite of tests/vscode/ starts code-server
//! (VS Code's workbench served over HTTP, pinned, installed under the target folder by
//! tests/vscode/install-code-server.sh) on 127.0.0.1, installs the extension's `.vsix` (packaged
//! here by vsce, as tests/lsp_clients.rs packages it) with `--install-extension`, points its
//! `iparams-lint.path` setting at the binary this run built, and drives the window in Debian's
//! headless Chromium with Selenium (the browser suite's virtual environment): findings in the
//! Problems panel, hover, a quick fix saved to disk, an app with a custom page, a workspace of
//! two folders. Where the run may make a network namespace (as root: `unshare --net`), the suite
//! runs in one that has nothing but loopback, so nothing in it can reach another address.
//!
//! Without Chromium and its driver, ripgrep, npm, Python or the registries, the test says so and
//! passes; under CI (`CI` set, as `.ci/run` sets it) that is a failure.

mod support;

use std::ffi::OsString;
use std::fs;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::{python_venv, repo_root, run, streams, unavailable, under_ci};

/// How long the whole suite may take before it is stopped.
const SUITE_LIMIT: Duration = Duration::from_secs(900);

fn target_tmp() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
}

/// code-server, installed by tests/vscode/install-code-server.sh into the target folder (again
/// only when the script changes), or the one `IPARAMS_LINT_CODE_SERVER` names.
fn code_server() -> Result<PathBuf, String> {
    if let Some(given) = std::env::var_os("IPARAMS_LINT_CODE_SERVER") {
        return Ok(PathBuf::from(given));
    }
    let script = repo_root().join("tests/vscode/install-code-server.sh");
    let wanted = fs::read_to_string(&script).expect("install-code-server.sh");
    let dest = target_tmp().join("code-server");
    let executable = dest.join("node_modules/.bin/code-server");
    let stamp = target_tmp().join("code-server.installed-by.sh");
    if executable.is_file() && fs::read_to_string(&stamp).is_ok_and(|had| had == wanted) {
        return Ok(executable);
    }
    let started = Instant::now();
    run(Command::new("bash")
        .arg(&script)
        .arg(&dest)
        .env("npm_config_cache", target_tmp().join("npm-cache")))?;
    println!(
        "code-server installed in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    fs::write(&stamp, wanted).expect("the target folder is writable");
    Ok(executable)
}

/// The extension's `.vsix`, packaged from editors/vscode by vsce.
fn packaged_extension() -> Result<PathBuf, String> {
    let work = support::vscode_extension_copy(&target_tmp())?;
    support::npm_in(&work, &target_tmp(), &["run", "package"])?;
    // Its own copy: tests/lsp_clients.rs packages into the same folder.
    let vsix = target_tmp().join("vscode-suite-iparams-lint.vsix");
    fs::copy(work.join("iparams-lint.vsix"), &vsix).expect("the target folder is writable");
    Ok(vsix)
}

/// Whether this process may run a command in a network namespace of its own (root may).
fn can_isolate_network() -> bool {
    Command::new("unshare")
        .args(["--net", "--", "true"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

#[test]
fn the_extension_works_in_code_server_driven_by_chromium() {
    let (chromium, driver) = match support::chromium_and_driver() {
        Ok(tools) => tools,
        Err(why) => return unavailable(&why),
    };
    for tool in ["rg", "npm"] {
        if Command::new(tool).arg("--version").output().is_err() {
            return unavailable(&format!("{tool} is not installed"));
        }
    }
    let python = match python_venv(
        "IPARAMS_LINT_BROWSER_PYTHON",
        &target_tmp().join("preview-browser-venv"),
        &repo_root().join("tests/preview_browser/requirements.txt"),
    ) {
        Ok(python) => python,
        Err(why) => return unavailable(&format!("selenium could not be installed: {why}")),
    };
    let code_server = match code_server() {
        Ok(path) => path,
        Err(why) => return unavailable(&format!("code-server could not be installed: {why}")),
    };
    let vsix = match packaged_extension() {
        Ok(vsix) => vsix,
        Err(why) => return unavailable(&format!("the .vsix could not be packaged: {why}")),
    };

    let isolated = can_isolate_network();
    assert!(
        isolated || !under_ci(std::env::var_os("CI").as_deref()),
        "under CI the suite runs with nothing but loopback (`unshare --net`, as root)"
    );
    let mut pytest: Vec<OsString> = Vec::new();
    if isolated {
        // A network namespace of its own: loopback brought up, nothing else there.
        pytest.extend(
            [
                "unshare",
                "--net",
                "--",
                "sh",
                "-c",
                "ip link set lo up && exec \"$@\"",
                "sh",
            ]
            .map(OsString::from),
        );
    }
    pytest.push(python.into());
    pytest.extend(["-m", "pytest", "-q", "-rfE", "--basetemp"].map(OsString::from));
    pytest.push(target_tmp().join("vscode-runs").into());
    if let Some(filter) = std::env::var_os("IPARAMS_LINT_VSCODE_TESTS") {
        pytest.extend([OsString::from("-k"), filter]);
    }
    let started = Instant::now();
    let child = Command::new(&pytest[0])
        .args(&pytest[1..])
        .current_dir(repo_root().join("tests/vscode"))
        .env("IPARAMS_LINT_BIN", env!("CARGO_BIN_EXE_iparams-lint"))
        .env("IPARAMS_LINT_CODE_SERVER", &code_server)
        .env("IPARAMS_LINT_VSIX", &vsix)
        .env("IPARAMS_LINT_CHROMIUM", &chromium)
        .env("IPARAMS_LINT_CHROMEDRIVER", &driver)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group, so that a run past the limit is stopped whole.
        .process_group(0)
        .spawn()
        .expect("the venv's python runs");
    let group = child.id();
    let (finished, done) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        let over_time = done.recv_timeout(SUITE_LIMIT).is_err();
        if over_time {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{group}")])
                .status();
        }
        over_time
    });
    let output = child.wait_with_output().expect("pytest ends");
    let _ = finished.send(());
    let timed_out = watchdog.join().expect("the watchdog ends");
    if timed_out {
        let (stdout, stderr) = streams(&output);
        println!("{stdout}{stderr}");
        panic!("the VS Code suite took over {SUITE_LIMIT:?} and was stopped");
    }
    support::assert_pytest_ran_and_passed(&output, "the VS Code suite");
    println!(
        "VS Code suite ({}): {:.1} s",
        if isolated {
            "loopback only"
        } else {
            "network not isolated"
        },
        started.elapsed().as_secs_f64()
    );
}
