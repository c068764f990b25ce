"""Fixtures: one code-server with the extension installed and one headless Chromium for the run,
a fresh window per test, and copies of fixture apps in temporary folders."""

import json
import os
import shutil
from pathlib import Path

import pytest

from vscode_harness import CodeServer, Workbench, open_chromium

REPO = Path(__file__).resolve().parents[2]
BINARY = os.environ.get("IPARAMS_LINT_BIN", str(REPO / "target/debug/iparams-lint"))
CODE_SERVER = os.environ["IPARAMS_LINT_CODE_SERVER"]
VSIX = os.environ["IPARAMS_LINT_VSIX"]
CHROMIUM = os.environ.get("IPARAMS_LINT_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("IPARAMS_LINT_CHROMEDRIVER", "/usr/bin/chromedriver")


@pytest.fixture(scope="session")
def code_server(tmp_path_factory):
    # The extension starts the binary under test: the `iparams-lint.path` setting names it (in
    # the user settings here, and in each app copy's folder settings, see app_copy).
    with CodeServer(
        CODE_SERVER,
        tmp_path_factory.mktemp("code-server"),
        # The panel beside the editor, the window's height: every finding's row is drawn.
        settings={"iparams-lint.path": BINARY, "workbench.panel.defaultLocation": "right"},
        vsix_files=[VSIX],
    ) as server:
        yield server
        print(f"code-server log:\n{server.log()}")


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    driver = open_chromium(CHROMIUM, CHROMEDRIVER, tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def workbench(browser, code_server, request, tmp_path):
    bench = Workbench(browser)
    yield bench
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        bench.screenshot(tmp_path / "failure.png")
        print(f"screenshot of the failure: {tmp_path / 'failure.png'}")
        try:
            print(f"the iparams-lint output channel:\n{bench.output_channel('iparams-lint')}")
        except AssertionError as missing:
            print(f"no iparams-lint output channel: {missing}")
    # A blank page between tests: the window (and its extension host) of this test closes.
    browser.get("about:blank")


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


def with_binary_setting(folder: Path) -> Path:
    """`folder` with the binary under test in its folder settings: an extension host can
    activate before the user settings reach it."""
    (folder / ".vscode").mkdir()
    (folder / ".vscode/settings.json").write_text(json.dumps({"iparams-lint.path": BINARY}))
    return folder


@pytest.fixture
def app_copy(tmp_path):
    """Copies a fixture app (a folder of the repository) into the test's temporary folder."""

    def copy(fixture, name=None):
        target = tmp_path / (name or Path(fixture).name)
        shutil.copytree(REPO / fixture, target)
        return with_binary_setting(target)

    return copy
