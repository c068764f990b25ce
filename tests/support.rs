//! Helpers shared by the end-to-end tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository's top folder.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository exists")
}

/// A path relative to the repository, with `/` separators, for stable output.
pub fn relative(path: &Path) -> String {
    let root = repo_root();
    path.strip_prefix(&root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Runs the command in-process on `bytes` read from standard input and shown as
/// `display_path`, without colour; returns (status, stdout, stderr).
pub fn run_on(bytes: &[u8], display_path: &str, extra: &[&str]) -> (u8, String, String) {
    let mut args = vec![
        "iparams-lint",
        "--color",
        "never",
        "--stdin-filename",
        display_path,
    ];
    args.extend_from_slice(extra);
    args.push("-");
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let status = iparams_lint::run(
        args,
        &iparams_lint::Environment::default(),
        &mut &bytes[..],
        &mut stdout,
        &mut stderr,
    );
    (
        status,
        String::from_utf8(stdout).expect("UTF-8 output"),
        String::from_utf8(stderr).expect("UTF-8 output"),
    )
}

/// The `--format json` output for `bytes`, pretty-printed.
pub fn json_on(bytes: &[u8], display_path: &str) -> serde_json::Value {
    let (_, stdout, _) = run_on(bytes, display_path, &["--format", "json"]);
    serde_json::from_str(&stdout).expect("--format json prints one JSON document")
}

/// The built `iparams-lint` binary, run from the repository's top folder.
pub fn binary() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_iparams-lint"));
    command
        .current_dir(repo_root())
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE");
    command
}

/// Runs the binary in `dir` with `args`; returns (status, stdout, stderr).
pub fn run_in(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let output = binary()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs");
    let (stdout, stderr) = streams(&output);
    (output.status.code(), stdout, stderr)
}

/// Runs `command` to completion with `input` on its standard input.
pub fn run_with_input(mut command: std::process::Command, input: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(input)
        .expect("writes stdin");
    child.wait_with_output().expect("finishes")
}

/// A fresh, empty folder for one test, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("iparams-lint-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        Scratch(dir)
    }

    /// Writes `contents` at `relative`, creating folders, and returns its path.
    pub fn write(&self, relative: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(relative);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("folders");
        std::fs::write(&path, contents).expect("writable scratch file");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// stdout and stderr of a finished command, as text.
pub fn streams(output: &std::process::Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The iparams.json a values fixture is checked against: `iparams_<name>.json` beside
/// `valid_<name>.json` or `invalid_<name>.json` when there is one, else the custom page of the
/// app in `app/` beside it when there is one, else `iparams.json`.
pub fn values_definitions(values: &Path) -> PathBuf {
    let folder = values.parent().expect("a fixture is in a folder");
    let name = values
        .file_stem()
        .expect("a file name")
        .to_string_lossy()
        .into_owned();
    let own = name
        .strip_prefix("invalid_")
        .or_else(|| name.strip_prefix("valid_"))
        .map(|rest| folder.join(format!("iparams_{rest}.json")));
    // Values of an app with a custom page: the page, whose `postConfigs` says what it stores.
    let page = folder.join("app/config/iparams.html");
    own.filter(|path| path.is_file())
        .or_else(|| page.is_file().then_some(page))
        .unwrap_or_else(|| folder.join("iparams.json"))
}

/// Whether `ci`, the value of the `CI` variable, says the run is CI's: set, and neither empty
/// nor `0` nor `false` (the CI services set it to `true`, some to `1`). A tool a test needs that
/// is missing is a note elsewhere, and a failure under CI.
pub fn under_ci(ci: Option<&std::ffi::OsStr>) -> bool {
    ci.is_some_and(|value| {
        let value = value.to_string_lossy();
        !(value.is_empty() || value == "0" || value.eq_ignore_ascii_case("false"))
    })
}

/// The outcome of a missing tool: a failure under CI, a note elsewhere.
pub fn unavailable(what: &str) {
    assert!(
        !under_ci(std::env::var_os("CI").as_deref()),
        "{what}: under CI (`CI` is set) this test must run, not be skipped"
    );
    eprintln!("note: {what}: test skipped");
}

/// Runs `command`; `Err` says what failed with its output.
pub fn run(command: &mut std::process::Command) -> Result<std::process::Output, String> {
    let shown = format!("{command:?}");
    let output = command
        .output()
        .map_err(|error| format!("{shown} did not start: {error}"))?;
    if output.status.success() {
        Ok(output)
    } else {
        let (stdout, stderr) = streams(&output);
        Err(format!(
            "{shown} failed ({}):\n{stdout}{stderr}",
            output.status
        ))
    }
}

/// A Python with `requirements` installed: the one the variable `given` names (.ci/run installs
/// it), or a virtual environment at `venv`, made or brought up to date (rebuilt only when
/// requirements.txt changes); `Err` says why there is none.
pub fn python_venv(given: &str, venv: &Path, requirements: &Path) -> Result<PathBuf, String> {
    use std::fs;
    use std::process::Command;
    if let Some(python) = std::env::var_os(given) {
        return Ok(PathBuf::from(python));
    }
    let python = venv.join(if cfg!(windows) {
        "Scripts/python.exe"
    } else {
        "bin/python"
    });
    let wanted = fs::read_to_string(requirements).expect("a requirements.txt");
    let stamp = venv.join("installed-requirements.txt");
    if python.is_file() && fs::read_to_string(&stamp).is_ok_and(|had| had == wanted) {
        return Ok(python);
    }
    let _ = fs::remove_dir_all(venv);
    let system = std::env::var("IPARAMS_LINT_PYTHON").unwrap_or_else(|_| "python3".into());
    run(Command::new(&system).arg("-m").arg("venv").arg(venv))?;
    run(Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
        ])
        .arg(requirements))?;
    fs::write(&stamp, wanted).expect("the venv folder is writable");
    Ok(python)
}

/// One HTTP/1.1 request to `authority` (`127.0.0.1:PORT`) as written (the path is sent as it
/// is: no client normalises `..`); the answer's status, head (lower case) and body.
pub fn exchange(
    authority: &str,
    method: &str,
    path: &str,
    host: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(authority).expect("connects");
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .expect("timeout");
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    let _ = stream.write_all(request.as_bytes());
    let _ = stream.write_all(body.as_bytes());
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a status in {answer:?}"));
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let head = head.to_ascii_lowercase();
    let body = if head.contains("transfer-encoding: chunked") {
        dechunk(body)
    } else {
        body.to_owned()
    };
    (status, head, body)
}

/// Prints a pytest run's output and asserts that it passed with every test run (none skipped:
/// a suite that skips has not checked what it is there for); `suite` names it in the failure.
pub fn assert_pytest_ran_and_passed(output: &std::process::Output, suite: &str) -> String {
    let (stdout, stderr) = streams(output);
    println!("{stdout}{stderr}");
    assert!(
        output.status.success(),
        "{suite} failed ({}): see its output above",
        output.status
    );
    assert!(
        stdout.contains(" passed") && !stdout.contains("skipped"),
        "every test of {suite} ran: {stdout}"
    );
    stdout
}

/// The data of a chunked body: size line, data, CRLF.
pub fn dechunk(mut rest: &str) -> String {
    let mut data = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || after.len() < size {
            break;
        }
        data.push_str(&after[..size]);
        rest = after[size..].trim_start_matches("\r\n");
    }
    data
}

/// The binary started with `args`, standard output and error piped, and the first line it
/// printed (a server's announcement), trimmed.
pub fn spawn_announcing(args: &[&str]) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = binary()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("a first line");
    (child, line.trim().to_owned())
}

/// Waits (30 s at most) for the answer on a connection whose request stopped arriving, asserts
/// it is 408 Request Timeout, and returns it.
pub fn assert_timed_out(mut stalled: std::net::TcpStream) -> String {
    use std::io::Read;
    stalled
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .expect("a read timeout");
    let mut answer = String::new();
    let _ = stalled.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    answer
}

/// Runs the binary in `dir` with `args`, as [`run_in`] does, but fails the test when it has not
/// ended within 20 seconds (it is then killed): for input that could make it wait for ever.
pub fn run_in_time(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = binary()
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = pipe.read_to_end(&mut text);
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped")));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} did not end within 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let stdout = stdout.join().expect("read");
    let stderr = stderr.join().expect("read");
    (status.code(), stdout, stderr)
}

/// Makes a FIFO at `path` (nothing ever writes to it).
pub fn fifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// Copies the extension's own files (not node_modules, a package, or the copied schema) from
/// `from` into `to`, replacing what an earlier run left there but its node_modules.
fn copy_extension(from: &Path, to: &Path) {
    use std::fs;
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

/// Runs `npm ARGS` in the extension's copy `work`, with the npm cache under `target_tmp` and the
/// schema its packaging copies in; `Err` says what failed.
pub fn npm_in(
    work: &Path,
    target_tmp: &Path,
    args: &[&str],
) -> Result<std::process::Output, String> {
    let mut command = std::process::Command::new("npm");
    command
        .args(args)
        .current_dir(work)
        .env(
            "IPARAMS_LINT_SCHEMA",
            repo_root().join("crates/iparams-lint/schemas/iparams.schema.json"),
        )
        // Where the copy's tests read the server's source (the names they must agree on).
        .env("IPARAMS_LINT_REPO", repo_root())
        .env("npm_config_cache", target_tmp.join("npm-cache"))
        .env("npm_config_update_notifier", "false");
    run(&mut command)
}

/// The VS Code extension (editors/vscode/) copied to `vscode-extension` under `target_tmp`, with
/// its packages installed there by `npm ci` (again only when package-lock.json changes): the
/// folder `npm test` and `npm run package` run in. `Err` says why the packages are not there.
pub fn vscode_extension_copy(target_tmp: &Path) -> Result<PathBuf, String> {
    use std::fs;
    let work = target_tmp.join("vscode-extension");
    copy_extension(&repo_root().join("editors/vscode"), &work);
    let lock = fs::read_to_string(work.join("package-lock.json")).expect("package-lock.json");
    // Beside the copy, not in it: vsce would package a file in node_modules.
    let stamp = target_tmp.join("vscode-extension.installed-package-lock.json");
    if !fs::read_to_string(&stamp).is_ok_and(|had| had == lock) {
        npm_in(
            &work,
            target_tmp,
            &["ci", "--no-audit", "--no-fund", "--prefer-offline"],
        )?;
        fs::write(&stamp, &lock).expect("node_modules is writable");
    }
    Ok(work)
}

/// Debian's Chromium and its driver, or those `IPARAMS_LINT_CHROMIUM` and
/// `IPARAMS_LINT_CHROMEDRIVER` name; `Err` says which is not installed.
pub fn chromium_and_driver() -> Result<(String, String), String> {
    let chromium =
        std::env::var("IPARAMS_LINT_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let driver = std::env::var("IPARAMS_LINT_CHROMEDRIVER")
        .unwrap_or_else(|_| "/usr/bin/chromedriver".into());
    for (tool, path) in [("chromium", &chromium), ("chromium-driver", &driver)] {
        if !Path::new(path).is_file() {
            return Err(format!("{tool} is not installed ({path})"));
        }
    }
    Ok((chromium, driver))
}
