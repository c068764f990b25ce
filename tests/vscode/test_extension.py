"""The extension in VS Code (code-server), as a user sees it: findings in the Problems panel equal
to the command line's, hover, a quick fix saved to disk, an app with a custom page, an app with
neither page source (and a browser extension's folder left alone), a workspace of two folders
each served by its own server, and the installation page beside the editor."""

import json
import os
import socket
import subprocess
from pathlib import Path

from selenium.webdriver.common.by import By

from conftest import BINARY, with_binary_setting
from vscode_harness import wait_until

BROKEN = "fixtures/vscode/broken-iparams"
# An app with only config/iparams.html, whose findings are in the page itself.
CUSTOM_PAGE = "fixtures/apps/page-secret-not-secure/invalid-misspelt-meta"
# An app whose findings are in config/requests.json; its copy loses iparams.json, and is an app
# by its manifest.json beside config/ alone.
REQUESTS_APP = "fixtures/apps/request-method/invalid"


def cli_findings(app: Path, relative: str) -> list[tuple]:
    """What `iparams-lint --format json` reports in `relative` of the app on disk, as the
    Problems panel shows a finding: (rule, severity, first line of the message, line, column)."""
    run = subprocess.run(
        [BINARY, "--format", "json", "--color", "never", "."],
        cwd=app, capture_output=True, text=True, timeout=60,
    )
    assert run.returncode in (0, 1), run.stderr
    files = {f["path"]: f["diagnostics"] for f in json.loads(run.stdout)["files"]}
    return sorted(
        (d["rule"], d["severity"], d["message"], d["start"]["line"], d["start"]["column"])
        for d in files[relative]
    )


def shown(problems, file: str) -> list[tuple]:
    return sorted((p.code, p.severity, p.message, p.line, p.column) for p in problems if p.file == file)


def wait_findings(workbench, app: Path, relative: str):
    """Waits for the Problems panel to show iparams-lint's findings of `relative`, and checks they
    are the command line's."""
    expected = cli_findings(app, relative)
    assert expected, f"the fixture has findings in {relative}"
    name = Path(relative).name
    problems = workbench.wait_problems(
        lambda found: len(shown(found, name)) >= len(expected),
        source="iparams-lint",
        # The first check of a window waits for the extension host, the search behind
        # `workspaceContains` and the server's start.
        timeout=60,
        what=f"iparams-lint's {len(expected)} findings of {relative}",
    )
    assert shown(problems, name) == expected
    return problems


def open_broken_app(workbench, code_server, app_copy):
    """A window on a copy of the broken app with its iparams.json open, once iparams-lint's
    findings of it are shown: the copy's folder and those findings."""
    app = app_copy(BROKEN)
    workbench.open(code_server.folder_url(app))
    workbench.open_file("config/iparams.json")
    return app, wait_findings(workbench, app, "config/iparams.json")


def open_workspace(workbench, code_server, tmp_path, *folders: Path):
    """A window on a workspace of `folders`, in that order."""
    workspace = tmp_path / "folders.code-workspace"
    workspace.write_text(json.dumps({"folders": [{"path": str(folder)} for folder in folders]}))
    workbench.open(code_server.workspace_url(workspace))


def test_the_problems_panel_shows_the_findings_of_a_broken_iparams_json(workbench, code_server, app_copy):
    assert any(e.startswith("iparams-lint.iparams-lint@") for e in code_server.installed_extensions())
    app, problems = open_broken_app(workbench, code_server, app_copy)
    # Two errors, a warning and two infos, each with its rule.
    assert [p.severity for p in problems].count("error") == 2
    assert {"unknown-type", "default-not-in-options", "sensitive-key-not-secure", "unused-iparam"} == {
        p.code for p in problems
    }


def test_hover_shows_what_the_language_server_documents(workbench, code_server, app_copy):
    open_broken_app(workbench, code_server, app_copy)
    # An attribute: what it means.
    attribute = workbench.hover_text('"required"')
    assert "mandatory" in attribute, attribute
    # A finding: its message and its rule's documentation.
    finding = workbench.hover_text('"txt"')
    assert 'unknown type "txt"' in finding, finding
    assert "unknown-type" in finding, finding


def test_a_quick_fix_changes_the_file_on_disk(workbench, code_server, app_copy):
    app, problems = open_broken_app(workbench, code_server, app_copy)
    iparams = app / "config/iparams.json"
    before = iparams.read_text()
    unknown = next(p for p in problems if p.code == "unknown-type")
    # Inside "txt", as a user puts the cursor on the squiggle.
    workbench.go_to(unknown.line, unknown.column + 1)
    workbench.quick_fix('Change the type to "text"')
    workbench.save()
    wait_until(lambda: iparams.read_text() != before, 10, "the fixed iparams.json on disk")
    assert iparams.read_text() == before.replace('"type": "txt"', '"type": "text"')
    # The finding is gone from the panel; the others stay.
    workbench.wait_problems(
        lambda found: found and not any(p.code == "unknown-type" for p in found),
        source="iparams-lint",
        what="the unknown-type finding to go",
    )


def test_an_app_with_only_a_custom_page_gets_its_findings(workbench, code_server, app_copy):
    app = app_copy(CUSTOM_PAGE, name="custom-page-app")
    assert not (app / "config/iparams.json").exists()
    workbench.open(code_server.folder_url(app))
    workbench.open_file("config/iparams.html")
    problems = wait_findings(workbench, app, "config/iparams.html")
    assert "page-secret-not-secure" in {p.code for p in problems}


def test_an_app_without_iparams_is_served_and_a_browser_extension_is_not(workbench, code_server, app_copy, tmp_path):
    app = app_copy(REQUESTS_APP, name="requests-only-app")
    (app / "config/iparams.json").unlink()
    assert not list(app.glob("config/iparams.*"))
    # A browser extension's folder: a manifest.json too, but no config/ folder beside it.
    extension = tmp_path / "browser-extension"
    extension.mkdir()
    (extension / "manifest.json").write_text('{"manifest_version": 3, "name": "tabs", "version": "1.0"}\n')
    with_binary_setting(extension)
    # The extension's folder first: its server is decided on before the app's starts.
    open_workspace(workbench, code_server, tmp_path, extension, app)
    workbench.open_file("config/requests.json")
    problems = wait_findings(workbench, app, "config/requests.json")
    assert {"request-method"} == {p.code for p in problems}
    started = workbench.output_channel("iparams-lint")
    assert "requests-only-app: Starting" in started, started
    assert "browser-extension:" not in started, started
    # What it lacks is said where the editor can show it: at the top of its manifest.json.
    workbench.open_file("requests-only-app/manifest.json")
    lacking = workbench.wait_problems(
        lambda found: any(p.file == "manifest.json" for p in found),
        source="iparams-lint",
        what="the missing-iparams-file finding in manifest.json",
    )
    assert [(p.code, p.severity, p.line, p.column) for p in lacking if p.file == "manifest.json"] == [
        ("missing-iparams-file", "error", 1, 1)
    ]


def open_two_apps(workbench, code_server, app_copy, tmp_path):
    """A window on a workspace of two folders, the broken app's and the custom page app's."""
    broken = app_copy(BROKEN)
    page = app_copy(CUSTOM_PAGE, name="custom-page-app")
    open_workspace(workbench, code_server, tmp_path, broken, page)
    return broken, page


def test_a_workspace_of_two_folders_gets_findings_in_both(workbench, code_server, app_copy, tmp_path):
    broken, page = open_two_apps(workbench, code_server, app_copy, tmp_path)
    workbench.open_file("iparams.json")
    workbench.open_file("iparams.html")
    wait_findings(workbench, broken, "config/iparams.json")
    wait_findings(workbench, page, "config/iparams.html")


PAGE_FRAME = 'iframe[title="Installation page"]'


def page_text(driver) -> str:
    return driver.execute_script("return document.body ? document.body.innerText : ''")


def test_the_installation_page_beside_the_editor_follows_unsaved_typing(workbench, code_server, app_copy):
    app, _ = open_broken_app(workbench, code_server, app_copy)
    iparams = app / "config/iparams.json"
    on_disk = iparams.read_text()
    workbench.run_command("iparams-lint: Preview Installation Page")
    with workbench.inside_webview(PAGE_FRAME, timeout=60) as page:
        workbench.wait_for(lambda d: "API key" in page_text(d), what="the page's fields")
        url = page.execute_script("return location.href")
        assert url.startswith("http://127.0.0.1:") and url.endswith("/custom_configs"), url
        # The finding of the misspelt type, at the field it concerns.
        workbench.wait_for(
            lambda d: d.find_elements(By.CSS_SELECTOR, '[data-finding="unknown-type"]'),
            what="the unknown-type finding on the page",
        )

    # Typed in the editor and not saved: the page shows it.
    display = on_disk.splitlines().index('    "display_name": "API key",') + 1
    workbench.go_to(display, len('    "display_name": "') + 1)
    workbench.type("Helpdesk ")
    workbench.wait_for(lambda d: workbench.visible(".tab.active.dirty"), what="the unsaved edit")
    with workbench.inside_webview(PAGE_FRAME) as page:
        workbench.wait_for(lambda d: "Helpdesk API key" in page_text(d), what="the typed label on the page")
    assert iparams.read_text() == on_disk, "nothing was saved"
    shot = workbench.screenshot(Path(os.environ.get("IPARAMS_LINT_SCREENSHOT_DIR", app)) / "vscode-preview.png")
    print(f"screenshot of the panel: {shot}")

    # A finding clicked on the page shows its line in the editor.
    workbench.go_to(1, 1)
    with workbench.inside_webview(PAGE_FRAME) as page:
        page.find_element(By.CSS_SELECTOR, '[data-finding="unknown-type"][data-reveal]').click()
    unknown_line = on_disk.splitlines().index('    "type": "txt",') + 1
    workbench.wait_for(lambda d: workbench.cursor()[0] == unknown_line, what=f"the cursor on line {unknown_line}")

    # Closing the panel stops its preview.
    port = int(url.split(":")[2].split("/")[0])
    workbench.close_tab("Installation page")
    wait_until(lambda: not _listening(port), 20, f"the preview on port {port} to stop")
    assert iparams.read_text() == on_disk


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def test_the_installation_page_follows_the_active_app(workbench, code_server, app_copy, tmp_path):
    broken, page = open_two_apps(workbench, code_server, app_copy, tmp_path)
    workbench.open_file("iparams.json")
    wait_findings(workbench, broken, "config/iparams.json")
    workbench.run_command("iparams-lint: Preview Installation Page")
    with workbench.inside_webview(PAGE_FRAME, timeout=60) as shown:
        workbench.wait_for(lambda d: "broken-iparams" in page_text(d), what="the first app's page")
    # Another app's file in the editor: the panel shows that app's page (its own, in a frame).
    workbench.open_file("iparams.html")
    workbench.wait_for(
        lambda d: any("custom-page-app" in (t.get_attribute("aria-label") or t.text) for t in workbench.visible(".tab")),
        what="the panel's title naming the second app",
    )
    with workbench.inside_webview(PAGE_FRAME) as shown:
        workbench.wait_for(lambda d: "custom-page-app" in page_text(d), what="the second app's page")
        assert shown.find_elements(By.CSS_SELECTOR, "iframe"), "a custom page is shown in a frame of the page"
