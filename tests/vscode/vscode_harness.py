"""A real VS Code for tests: code-server (VS Code's workbench served over HTTP) on 127.0.0.1, with
an extension installed from its .vsix, shown in headless Chromium driven by Selenium.

Reusable on its own: `CodeServer` starts and stops the server (its own user-data and extensions
folders, no network but loopback asked for), `open_chromium` starts the browser, and `Workbench`
does what a user does in the window (open a folder or a file, run a command, read the Problems
panel, hover, apply a quick fix, type, take a screenshot). Every wait has a timeout; `stop` and
`quit` end the processes on every exit path (use them as context managers).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

# What keeps the workbench quiet and off the network: no trust dialog, no welcome page, no update
# or extension checks, no schema downloads, no telemetry or experiments.
OFFLINE_SETTINGS = {
    "security.workspace.trust.enabled": False,
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "workbench.enableExperiments": False,
    "update.mode": "none",
    "extensions.autoCheckUpdates": False,
    "extensions.autoUpdate": False,
    "extensions.ignoreRecommendations": True,
    "json.schemaDownload.enable": False,
    "telemetry.telemetryLevel": "off",
    "npm.fetchOnlinePackageInfo": False,
    "typescript.disableAutomaticTypeAcquisition": True,
    "git.enabled": False,
    "files.autoSave": "off",
}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class CodeServer:
    """A code-server process on 127.0.0.1 with its own folders under `home` (user data, extensions,
    its log), started with `settings` and the extensions of `vsix_files` installed."""

    def __init__(self, executable: str, home: Path, settings: dict, vsix_files=(), start_timeout=60):
        self.executable = executable
        self.home = Path(home)
        self.user_data = self.home / "user-data"
        self.extensions = self.home / "extensions"
        self.log_path = self.home / "code-server.log"
        (self.user_data / "User").mkdir(parents=True, exist_ok=True)
        self.extensions.mkdir(parents=True, exist_ok=True)
        (self.user_data / "User" / "settings.json").write_text(
            json.dumps({**OFFLINE_SETTINGS, **settings}, indent=2)
        )
        for vsix in vsix_files:
            self._run(["--install-extension", str(vsix)], timeout=120)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self._log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [self.executable, *self._folders(), "--bind-addr", f"127.0.0.1:{self.port}", "--auth", "none",
             "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust",
             "--disable-getting-started-override"],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env=self._env(),
            # Its own process group: stop() ends the extension hosts and language servers with it.
            start_new_session=True,
        )
        try:
            self._wait_listening(start_timeout)
        except BaseException:
            self.stop()
            raise

    def _folders(self):
        return [
            "--config", str(self.home / "config.yaml"),
            "--user-data-dir", str(self.user_data),
            "--extensions-dir", str(self.extensions),
        ]

    def _env(self):
        env = dict(os.environ)
        # No extension gallery: nothing to look up or update from outside.
        env["EXTENSIONS_GALLERY"] = "{}"
        # Nothing written to the home folder.
        env["XDG_CONFIG_HOME"] = str(self.home / "xdg-config")
        env["XDG_DATA_HOME"] = str(self.home / "xdg-data")
        env.pop("VSCODE_PROXY_URI", None)
        return env

    def _run(self, args, timeout):
        done = subprocess.run(
            [self.executable, *self._folders(), *args],
            capture_output=True, text=True, timeout=timeout, env=self._env(),
        )
        assert done.returncode == 0, f"code-server {' '.join(args)}: {done.stdout}{done.stderr}"
        return done.stdout

    def installed_extensions(self) -> list[str]:
        return self._run(["--list-extensions", "--show-versions"], timeout=60).split()

    def _wait_listening(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"code-server ended ({self.process.returncode}): {self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise TimeoutError(f"code-server did not listen on {self.port} within {timeout} s: {self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def folder_url(self, folder: Path) -> str:
        return f"{self.url}?folder={quote(str(folder))}"

    def workspace_url(self, workspace_file: Path) -> str:
        return f"{self.url}?workspace={quote(str(workspace_file))}"

    def stop(self):
        """Ends code-server and everything it started (extension hosts, language servers)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        # Children that outlive the server (a language server between two messages) go too.
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=10)
        self._log.close()

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()


def open_chromium(chromium: str, chromedriver: str, profile: Path, size=(1600, 1200)) -> webdriver.Chrome:
    """Debian's Chromium, headless, with a fresh profile; `quit()` ends it and its driver."""
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--window-size={size[0]},{size[1]}",
        f"--user-data-dir={profile}",
    ]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(20)
    return driver


@dataclass(frozen=True)
class Problem:
    """A finding as a row of the Problems panel shows it."""

    severity: str  # "error", "warning" or "info", from the row's icon
    message: str  # its first line
    source: str  # "iparams-lint", "json", ...
    code: str  # the rule, for iparams-lint
    line: int
    column: int
    file: str  # the name of the file row it is under


# Every rendered row of the Problems panel in one script (no row goes stale between reads): a
# file row gives the name the marker rows under it belong to.
READ_PROBLEMS = """
const rows = [];
let file = '';
for (const row of document.querySelectorAll('.markers-panel .monaco-list-row')) {
  const name = row.querySelector('.file-icon .label-name, .monaco-icon-label .label-name');
  const marker = row.querySelector('.marker-icon');
  if (!marker) { if (name) file = name.textContent; continue; }
  const place = (row.querySelector('.marker-line') || {}).textContent || '';
  const text = (css) => ((row.querySelector(css) || {}).textContent || '').trim();
  rows.push({
    severity: ['error', 'warning', 'info'].find((s) => marker.classList.contains(s)) || '',
    message: text('.marker-message'),
    source: text('.marker-source'),
    code: text('.marker-code'),
    place: place,
    file: file,
  });
}
return rows;
"""


class Workbench:
    """The VS Code window in the browser, driven as a user drives it."""

    def __init__(self, driver: webdriver.Chrome, timeout: float = 30):
        self.driver = driver
        self.timeout = timeout

    # --- waiting ----------------------------------------------------------------------------

    def wait_for(self, condition, timeout=None, what="the workbench"):
        try:
            return WebDriverWait(
                self.driver,
                timeout or self.timeout,
                poll_frequency=0.1,
                ignored_exceptions=(StaleElementReferenceException,),
            ).until(condition)
        except TimeoutException as timeout_error:
            raise AssertionError(f"timed out waiting for {what}") from timeout_error

    def find(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def visible(self, css):
        return [element for element in self.find(css) if element.is_displayed()]

    # --- windows, folders, files -------------------------------------------------------------

    def open(self, url: str, ready_css: str = ".explorer-folders-view .monaco-list-row"):
        """Loads the window at `url` and waits for the workbench and the explorer's first row."""
        self.driver.get(url)
        self.wait_for(lambda d: self.visible(".monaco-workbench"), what="the workbench")
        self.wait_for(lambda d: self.visible(ready_css), what="the explorer's folder")

    def keys(self, *keys):
        """Presses `keys` together (a chord: `keys(Keys.CONTROL, "p")`) where the focus is."""
        chain = ActionChains(self.driver)
        *modifiers, key = keys
        for modifier in modifiers:
            chain.key_down(modifier)
        chain.send_keys(key)
        for modifier in reversed(modifiers):
            chain.key_up(modifier)
        chain.perform()

    def type(self, text: str):
        """Types `text` where the focus is (the editor's cursor, a quick input)."""
        ActionChains(self.driver).send_keys(text).perform()

    def quick_input(self, text: str, pick: str | None = None):
        """Types `text` into the open quick input and accepts the row whose label holds `pick`
        (the first row when None)."""
        box = self.wait_for(lambda d: self.visible(".quick-input-widget .quick-input-box input"), what="the quick input")[0]
        box.send_keys(text)

        def row(_):
            rows = self.visible(".quick-input-widget .quick-input-list .monaco-list-row")
            chosen = [r for r in rows if pick is None or pick in (r.get_attribute("aria-label") or r.text)]
            return chosen[0] if chosen else None

        # Accepted; what it opens (an editor, another quick input) is the caller's to wait for.
        self.wait_for(row, what=f"a quick input row for {pick or text!r}").click()

    def run_command(self, title: str):
        """Runs a command by its title through the command palette (F1), as a user does."""
        self.focus_workbench()
        self.keys(Keys.F1)
        self.quick_input(title, pick=title)

    def output_channel(self, name: str) -> str:
        """The text of the output channel `name` (View: Output, that channel chosen), as its view
        lines show it (a long line wraps), with the editor's no-break spaces as spaces."""
        self.run_command("Output: Show Output Channels...")
        self.quick_input(name, pick=name)
        self.wait_for(lambda d: self.visible(".output-view .view-line"), what=f"the output of {name}")
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll('.output-view .view-line'), l => l.textContent).join('\\n')"
        ).replace("\xa0", " ")

    def focus_workbench(self):
        # Where the keys go: Escape closes a hover, a menu or a quick input left open.
        self.keys(Keys.ESCAPE)

    def open_file(self, relative: str):
        """Opens a file of the folder through Quick Open (the file search, as Ctrl+P), and waits
        for its editor to have the focus."""
        self.focus_workbench()
        self.keys(Keys.CONTROL, "p")
        self.quick_input(relative, pick=Path(relative).name)
        name = Path(relative).name
        self.wait_for(
            lambda d: any(name in (t.get_attribute("aria-label") or "") for t in self.visible(".tab.active")),
            what=f"the editor of {relative}",
        )
        self.wait_for(lambda d: self.visible(".editor-group-container.active .monaco-editor .view-line"), what="the editor's text")

    def editor_text(self) -> str:
        """The active editor's text as the editor model holds it (unsaved edits included)."""
        lines = self.visible(".editor-group-container.active .monaco-editor .view-line")
        return "\n".join(line.text for line in lines)

    def go_to(self, line: int, column: int):
        """Puts the cursor at `line`:`column` (1-based) with Go to Line/Column."""
        self.focus_editor()
        self.keys(Keys.CONTROL, "g")
        box = self.wait_for(lambda d: self.visible(".quick-input-widget .quick-input-box input"), what="Go to Line")[0]
        box.send_keys(f"{line}:{column}")
        box.send_keys(Keys.ENTER)
        self.wait_for(lambda d: not self.visible(".quick-input-widget .quick-input-box input"), what="Go to Line to close")

    def focus_editor(self):
        self.visible(".editor-group-container.active .monaco-editor .view-lines")[0].click()

    def save(self):
        self.focus_editor()
        self.keys(Keys.CONTROL, "s")
        self.wait_for(lambda d: not self.visible(".tab.active.dirty"), what="the file to be saved")

    # --- what the window shows -----------------------------------------------------------------

    def problems(self, source: str | None = None) -> list[Problem]:
        """The findings the Problems panel shows (opened when closed), of `source` only when
        given. The panel draws only the rows that fit: a window with many findings puts the panel
        at the side (`"workbench.panel.defaultLocation": "right"`), where it is the window's
        height."""
        if not self.visible(".markers-panel"):
            self.run_command("View: Focus Problems (Errors, Warnings, Infos)")
            self.wait_for(lambda d: self.visible(".markers-panel"), what="the Problems panel")
        found = []
        for row in self.driver.execute_script(READ_PROBLEMS):
            place = re.search(r"Ln (\d+), Col (\d+)", row["place"])
            problem = Problem(
                severity=row["severity"],
                message=row["message"],
                source=row["source"],
                code=row["code"],
                line=int(place[1]) if place else 0,
                column=int(place[2]) if place else 0,
                file=row["file"],
            )
            if source is None or problem.source == source:
                found.append(problem)
        return found

    def wait_problems(self, condition, source: str | None = None, timeout=None, what="the Problems panel"):
        """Waits until `condition(problems)` holds for the panel's rows (of `source`); returns them."""
        seen = []

        def check(_):
            seen[:] = self.problems(source)
            return condition(seen)

        try:
            self.wait_for(check, timeout=timeout, what=what)
        except AssertionError as failure:
            raise AssertionError(f"{failure}; the panel shows: {seen}") from None
        return list(seen)

    def hover_text(self, token: str, timeout=None) -> str:
        """Moves the mouse over the first `token` the active editor shows and returns the hover's
        text once it has loaded (a hover still open from before is closed first)."""
        hovers = ".monaco-hover:not(.hidden) .hover-contents"
        ActionChains(self.driver).move_to_element(self.visible(".monaco-workbench .part.statusbar")[0]).perform()
        self.keys(Keys.ESCAPE)
        self.wait_for(lambda d: not self.visible(hovers), timeout=timeout, what="the last hover to close")
        spans = [
            s for s in self.visible(".editor-group-container.active .monaco-editor .view-line span span")
            if s.text == token
        ]
        assert spans, f"the editor shows no {token!r}"
        ActionChains(self.driver).move_to_element(spans[0]).perform()

        def shown(_):
            text = "\n".join(h.text for h in self.visible(hovers)).strip()
            return text if text and "Loading" not in text else None

        return self.wait_for(shown, timeout=timeout, what=f"the hover of {token!r}")

    def quick_fix(self, title_part: str):
        """Opens the quick fix menu (Ctrl+.) at the cursor and applies the action whose title holds
        `title_part`, chosen with the arrow keys as the menu blocks the mouse while it opens."""
        self.keys(Keys.CONTROL, ".")
        actions = ".action-widget .monaco-list-row.action"
        rows = self.wait_for(lambda d: self.visible(actions), what="the quick fix menu")
        titles = [row.get_attribute("aria-label") or row.text for row in rows]
        for _ in titles:
            focused = self.visible(actions + ".focused")
            if focused and title_part in (focused[0].get_attribute("aria-label") or focused[0].text):
                self.keys(Keys.ENTER)
                self.wait_for(lambda d: not self.visible(actions), what="the quick fix menu to close")
                return
            self.keys(Keys.ARROW_DOWN)
        raise AssertionError(f"no quick fix {title_part!r} among {titles}")

    def close_tab(self, label: str):
        """Closes the editor tab whose label holds `label` with its close button, as a user does."""
        def tab(_):
            tabs = [t for t in self.visible(".tab") if label in (t.get_attribute("aria-label") or t.text)]
            return tabs[0] if tabs else None

        closing = self.wait_for(tab, what=f"the tab {label!r}")
        # The button shows on hover; a script's click needs none.
        button = closing.find_element(By.CSS_SELECTOR, ".tab-actions .action-label")
        self.driver.execute_script("arguments[0].click()", button)
        self.wait_for(lambda d: not tab(d), what=f"the tab {label!r} to close")

    def cursor(self) -> tuple[int, int]:
        """The active editor's cursor (1-based line and column), as the status bar shows it."""
        item = self.wait_for(lambda d: self.visible(".statusbar-item[id*='selection']"), what="the cursor's place")[0]
        place = re.search(r"Ln (\d+), Col (\d+)", item.text)
        assert place, item.text
        return int(place[1]), int(place[2])

    @contextlib.contextmanager
    def inside_webview(self, frame_css: str, timeout=None):
        """Inside the frame `frame_css` of a webview (an extension's panel): VS Code holds a
        webview's document in a frame (`#active-frame`) of a frame of its own (`iframe.webview`).
        Back to the workbench on leaving."""
        def enter(driver):
            for host in self.visible("iframe.webview"):
                driver.switch_to.default_content()
                try:
                    driver.switch_to.frame(host)
                    driver.switch_to.frame(driver.find_element(By.CSS_SELECTOR, "#active-frame"))
                    inner = [f for f in driver.find_elements(By.CSS_SELECTOR, frame_css) if f.is_displayed()]
                    if inner:
                        driver.switch_to.frame(inner[0])
                        return True
                except WebDriverException:
                    pass
            driver.switch_to.default_content()
            return False

        self.wait_for(enter, timeout=timeout, what=f"a webview holding {frame_css}")
        try:
            yield self.driver
        finally:
            self.driver.switch_to.default_content()

    def screenshot(self, path: Path) -> Path:
        self.driver.save_screenshot(str(path))
        return path


def wait_until(condition, timeout: float, what: str, interval: float = 0.1):
    """Polls `condition` (no browser involved: a file on disk, a process) until it is true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
