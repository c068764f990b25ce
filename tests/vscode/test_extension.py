"""The extension in VS Code (code-server), as a user sees it: findings in the Problems panel equal
to the command line's, hover, a quick fix saved to disk, an app with a custom page, and a
workspace of two folders each served by its own server."""

import json
import subprocess
from pathlib import Path

from conftest import BINARY
from vscode_harness import wait_until

BROKEN = "fixtures/vscode/broken-iparams"
# An app with only config/iparams.html, whose findings are in the page itself.
CUSTOM_PAGE = "fixtures/apps/page-secret-not-secure/invalid-misspelt-meta"


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


def test_the_problems_panel_shows_the_findings_of_a_broken_iparams_json(workbench, code_server, app_copy):
    assert any(e.startswith("iparams-lint.iparams-lint@") for e in code_server.installed_extensions())
    app = app_copy(BROKEN)
    workbench.open(code_server.folder_url(app))
    workbench.open_file("config/iparams.json")
    problems = wait_findings(workbench, app, "config/iparams.json")
    # Two errors, a warning and two infos, each with its rule.
    assert [p.severity for p in problems].count("error") == 2
    assert {"unknown-type", "default-not-in-options", "sensitive-key-not-secure", "unused-iparam"} == {
        p.code for p in problems
    }


def test_hover_shows_what_the_language_server_documents(workbench, code_server, app_copy):
    app = app_copy(BROKEN)
    workbench.open(code_server.folder_url(app))
    workbench.open_file("config/iparams.json")
    wait_findings(workbench, app, "config/iparams.json")
    # An attribute: what it means.
    attribute = workbench.hover_text('"required"')
    assert "mandatory" in attribute, attribute
    # A finding: its message and its rule's documentation.
    finding = workbench.hover_text('"txt"')
    assert 'unknown type "txt"' in finding, finding
    assert "unknown-type" in finding, finding


def test_a_quick_fix_changes_the_file_on_disk(workbench, code_server, app_copy):
    app = app_copy(BROKEN)
    iparams = app / "config/iparams.json"
    before = iparams.read_text()
    workbench.open(code_server.folder_url(app))
    workbench.open_file("config/iparams.json")
    problems = wait_findings(workbench, app, "config/iparams.json")
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


def test_a_workspace_of_two_folders_gets_findings_in_both(workbench, code_server, app_copy, tmp_path):
    broken = app_copy(BROKEN)
    page = app_copy(CUSTOM_PAGE, name="custom-page-app")
    workspace = tmp_path / "two-apps.code-workspace"
    workspace.write_text(json.dumps({"folders": [{"path": str(broken)}, {"path": str(page)}]}))
    workbench.open(code_server.workspace_url(workspace))
    workbench.open_file("iparams.json")
    workbench.open_file("iparams.html")
    wait_findings(workbench, broken, "config/iparams.json")
    wait_findings(workbench, page, "config/iparams.html")
