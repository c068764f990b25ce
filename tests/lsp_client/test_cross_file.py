"""An edit to the open iparams.json, not saved, refreshes the findings of the app's other open
files, from what the editor holds and not from the disk."""

from __future__ import annotations

import shutil

from lsprotocol import types

from lsp_support import Client, cli_findings, expected_diagnostics, make_app, summary

IPARAMS = "config/iparams.json"
APP_JS = "app/scripts/app.js"


def _reads_unknown(params) -> bool:
    return any(d.code == "unknown-iparam-read" for d in params.diagnostics)


async def test_removing_an_iparam_in_the_buffer_marks_its_reads(client: Client, tmp_path):
    app = client.app
    js = client.open(APP_JS, "javascript")
    js_uri = app.uri(APP_JS)
    first = await client.wait_diagnostics(js_uri)
    assert not _reads_unknown(first), summary(first.diagnostics)

    iparams = client.open(IPARAMS, "json")
    await client.wait_diagnostics(app.uri(IPARAMS), lambda p: len(p.diagnostics) > 0)

    # Delete line 2, the `region` iparam that app.js reads; nothing is saved.
    without_region = iparams.replace(iparams.splitlines(keepends=True)[1], "")
    client.change(
        IPARAMS,
        2,
        [
            types.TextDocumentContentChangePartial(
                range=types.Range(
                    start=types.Position(line=1, character=0), end=types.Position(line=2, character=0)
                ),
                text="",
            )
        ],
    )
    marked = await client.wait_diagnostics(js_uri, _reads_unknown, what="unknown-iparam-read")
    # The file's own version: app.js did not change.
    assert marked.version in (None, 1), marked.version
    assert app.text(IPARAMS) == iparams, "the test saved nothing"

    # The reference: the command line on a copy of the app whose iparams.json is the buffer.
    copy = make_app(tmp_path / "as-edited", iparams=without_region)
    shutil.copy(app.path(APP_JS), copy.path(APP_JS))
    findings = cli_findings(copy)[APP_JS]
    assert [f["rule"] for f in findings] == ["unknown-iparam-read"], findings
    assert summary(marked.diagnostics) == expected_diagnostics(js, findings, client.encoding)

    # Undo the edit: the read is known again.
    client.change(
        IPARAMS,
        3,
        [
            types.TextDocumentContentChangePartial(
                range=types.Range(
                    start=types.Position(line=1, character=0), end=types.Position(line=1, character=0)
                ),
                text=iparams.splitlines(keepends=True)[1],
            )
        ],
    )
    await client.wait_diagnostics(js_uri, lambda p: not _reads_unknown(p), what="the read known again")


async def test_closing_the_unsaved_iparams_json_goes_back_to_the_disk(client: Client):
    app = client.app
    client.open(APP_JS, "javascript")
    js_uri = app.uri(APP_JS)
    await client.wait_diagnostics(js_uri)
    iparams = client.open(IPARAMS, "json")
    client.change(
        IPARAMS,
        2,
        [types.TextDocumentContentChangeWholeDocument(text=iparams.replace('"region"', '"zone"'))],
    )
    await client.wait_diagnostics(js_uri, _reads_unknown, what="unknown-iparam-read")
    # Closed without saving: the disk's iparams.json, which defines `region`, counts again.
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=app.uri(IPARAMS)))
    )
    await client.wait_diagnostics(js_uri, lambda p: not _reads_unknown(p), what="the read known again")
