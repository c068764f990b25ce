"""Fixtures: the built binary, copies of fixture apps, a running preview and hr-sandbox, and a
headless Chromium driven by Selenium."""

import json
import os
import shutil
import signal
import subprocess
import warnings
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

REPO = Path(__file__).resolve().parents[2]
BINARY = os.environ.get("IPARAMS_LINT_BIN", str(REPO / "target/debug/iparams-lint"))
CHROMIUM = os.environ.get("IPARAMS_LINT_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("IPARAMS_LINT_CHROMEDRIVER", "/usr/bin/chromedriver")
# Real apps, read in place (never copied into the repository); tests/preview_browser.rs says
# where, and whether a missing folder fails the run (under CI) or is a note.
CORPUS_APPS = Path(os.environ.get("IPARAMS_LINT_CORPUS_APPS", str(REPO.parent / "shared/corpus/apps")))
UNDER_CI = os.environ.get("IPARAMS_LINT_UNDER_CI") == "1"


class Server:
    """An `iparams-lint` server process; its first line on standard output is kept."""

    def __init__(self, args, cwd=None):
        self.process = subprocess.Popen(
            [BINARY, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd
        )
        self.first_line = self.process.stdout.readline().strip()
        assert self.first_line, self.process.stderr.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        return self.process.stderr.read()


@pytest.fixture
def app_copy(tmp_path):
    def copy(fixture):
        target = tmp_path / Path(fixture).name
        shutil.copytree(REPO / fixture, target)
        return target

    return copy


@pytest.fixture
def corpus_app():
    """The folder of a real app of the corpus, or None (with a note) when the corpus is not
    here; under CI a missing corpus fails the test."""

    def find(name):
        app = CORPUS_APPS / name
        if app.is_dir():
            return app
        why = f"{app} is not here (the corpus is beside the repository on CI; IPARAMS_LINT_CORPUS_APPS names another folder)"
        if UNDER_CI:
            pytest.fail(f"the corpus is missing: {why}")
        # A warning shows in pytest's summary of a passing run (a print would be captured).
        warnings.warn(f"note: a corpus page was not checked: {why}", stacklevel=2)
        return None

    return find


@pytest.fixture
def preview():
    started = []

    def start(app, *extra, cwd=None):
        server = Server(["preview", str(app), "--port", "0", *extra], cwd=cwd)
        assert server.first_line.startswith("http://127.0.0.1:")
        assert server.first_line.endswith("/custom_configs")
        started.append(server)
        return server.first_line

    yield start
    for server in started:
        log = server.stop()
        assert server.process.returncode == 0, log


@pytest.fixture(scope="session")
def sandbox():
    server = Server(["hr-sandbox", "--port", "0"])
    announced = json.loads(server.first_line)
    yield announced
    server.stop()


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1000,1400",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(10)
    yield driver
    driver.quit()


class Page:
    """The installation page, through its test hooks."""

    def __init__(self, driver, url):
        self.driver = driver
        driver.get(url)
        self.wait_for(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")

    def wait_for(self, condition, timeout=5):
        # The page re-renders its form when the app changes on disk: an element read while
        # that happens is stale, and the next poll looks again. Chromium reports some of those
        # reads as a bare WebDriverException ("Node with given id does not belong to the
        # document"): polled past too, the condition must still hold before the timeout.
        return WebDriverWait(
            self.driver,
            timeout,
            poll_frequency=0.05,
            ignored_exceptions=(StaleElementReferenceException, WebDriverException),
        ).until(condition)

    def control(self, key):
        return self.driver.find_element(By.CSS_SELECTOR, f'[data-iparam="{key}"]')

    def controls(self, key):
        return self.driver.find_elements(By.CSS_SELECTOR, f'[data-iparam="{key}"]')

    def error(self, key):
        return self.driver.find_element(By.CSS_SELECTOR, f'[data-iparam-error="{key}"]').text

    def wait_error(self, key, text, timeout=5):
        try:
            self.wait_for(lambda d: self.error(key) == text, timeout)
        except Exception as exc:
            raise AssertionError(f"error of {key}: {self.error(key)!r}, wanted {text!r}") from exc

    def type(self, key, text, clear=True):
        control = self.control(key)
        if clear:
            self.driver.execute_script(
                "arguments[0].value = ''; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))",
                control,
            )
        control.send_keys(text)

    def set(self, key, value):
        """A value set as a picker would (date inputs take keys by locale)."""
        self.driver.execute_script(
            "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))",
            self.control(key),
            value,
        )

    def value(self, key):
        return self.driver.execute_script("return utils.get(arguments[0])", key)

    def visible(self, key):
        field = self.driver.find_element(By.CSS_SELECTOR, f'[data-field="{key}"]')
        return field.is_displayed()

    def install(self):
        self.driver.find_element(By.CSS_SELECTOR, '[data-action="install"]').click()
        status = self.driver.find_element(By.CSS_SELECTOR, "[data-install-status]")
        self.wait_for(lambda d: status.get_attribute("data-outcome") in ("passed", "failed"), 20)
        return status.get_attribute("data-outcome"), status.text

    def findings_of(self, key):
        # One script, run between the page's own tasks: a list the page is re-rendering after an
        # edit on disk is read whole, and no element goes stale between finding and reading it.
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0]),"
            " li => li.getAttribute('data-finding'))",
            f'[data-findings-of="{key}"] li',
        )


@pytest.fixture
def open_page(browser):
    def open_(url):
        return Page(browser, url)

    return open_
