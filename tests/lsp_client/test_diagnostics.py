"""Findings pushed on open and on change: the command line's findings, at the columns of the
negotiated encoding, with the rule as `code` and a link to its documentation."""

from __future__ import annotations

from lsprotocol import types

from lsp_support import (
    IPARAMS as IPARAMS_TEXT,
    Client,
    cli_findings,
    expected_diagnostics,
    position_at,
    range_of,
    summary,
    text_in,
)

IPARAMS = "config/iparams.json"


async def test_open_pushes_the_command_lines_findings(client: Client):
    text = client.open(IPARAMS, "json")
    uri = client.app.uri(IPARAMS)
    published = await client.wait_diagnostics(uri, lambda p: len(p.diagnostics) > 0)

    assert published.version in (None, 1), f"version {published.version}, the open one is 1"
    findings = cli_findings(client.app)[IPARAMS]
    assert {f["rule"] for f in findings} == {"unknown-type", "unused-iparam"}, findings
    assert summary(published.diagnostics) == expected_diagnostics(text, findings, client.encoding)

    by_code = {d.code: d for d in published.diagnostics}
    for diagnostic in published.diagnostics:
        assert diagnostic.source == "iparams-lint"
        assert diagnostic.code_description is not None, diagnostic
        href = diagnostic.code_description.href
        assert href.startswith("https://") and diagnostic.code in href, href
    cli_message = next(f["message"] for f in findings if f["rule"] == "unknown-type")
    assert cli_message in by_code["unknown-type"].message


async def test_columns_count_in_the_negotiated_encoding(client: Client):
    text = client.open(IPARAMS, "json")
    uri = client.app.uri(IPARAMS)
    published = await client.wait_diagnostics(uri, lambda p: len(p.diagnostics) > 0)
    unknown = next(d for d in published.diagnostics if d.code == "unknown-type")

    # `  "region": {"display_name": "Région 🌍", "type": ` before "txt": 49 code points, of
    # which é is 2 bytes and 🌍 4 bytes and 2 UTF-16 units.
    column = {"utf-32": 49, "utf-16": 50, "utf-8": 53}[client.encoding]
    assert position_at(text, text.index('"txt"'), client.encoding).character == column
    assert unknown.range == types.Range(
        start=types.Position(line=1, character=column),
        end=types.Position(line=1, character=column + 5),
    ), (client.profile, client.encoding)
    assert text_in(text, unknown.range, client.encoding) == '"txt"'


async def test_an_incremental_change_after_non_ascii_text_is_applied_where_it_says(client: Client):
    text = client.open(IPARAMS, "json")
    uri = client.app.uri(IPARAMS)
    await client.wait_diagnostics(uri, lambda p: len(p.diagnostics) > 0)

    # Replace `txt` (inside the quotes, after é and 🌍) with `text`, by a range in the encoding.
    where = range_of(text, "txt", client.encoding)
    client.change(IPARAMS, 2, [types.TextDocumentContentChangePartial(range=where, text="text")])
    published = await client.wait_diagnostics(
        uri,
        lambda p: all(d.code != "unknown-type" for d in p.diagnostics),
        what="diagnostics without unknown-type",
    )
    assert published.version in (None, 2)
    assert [d.code for d in published.diagnostics] == ["unused-iparam"], summary(published.diagnostics)

    # Two changes in one notification, each against the text the previous one left: indent
    # line 2, then put a non-ASCII type in place of "text" (further right by the indent).
    fixed = text.replace('"txt"', '"text"')
    indented = fixed.replace("\n  ", "\n    ", 1)
    line_start = types.Position(line=1, character=0)
    client.change(
        IPARAMS,
        3,
        [
            types.TextDocumentContentChangePartial(
                range=types.Range(start=line_start, end=line_start), text="  "
            ),
            types.TextDocumentContentChangePartial(
                range=range_of(indented, '"text"', client.encoding), text='"🙂"'
            ),
        ],
    )
    published = await client.wait_diagnostics(
        uri, lambda p: any(d.code == "unknown-type" for d in p.diagnostics), what="unknown-type"
    )
    assert published.version in (None, 3)
    now = indented.replace('"text"', '"🙂"', 1)
    unknown = next(d for d in published.diagnostics if d.code == "unknown-type")
    assert text_in(now, unknown.range, client.encoding) == '"🙂"', unknown.range


async def test_close_empties_the_findings(client: Client):
    client.open(IPARAMS, "json")
    uri = client.app.uri(IPARAMS)
    await client.wait_diagnostics(uri, lambda p: len(p.diagnostics) > 0)
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await client.wait_diagnostics(uri, lambda p: len(p.diagnostics) == 0, what="empty diagnostics")


async def test_a_script_of_the_app_gets_its_findings_on_open(client: Client):
    # app.js reads `zone`, which iparams.json (on disk, not open) does not define.
    script = "app/scripts/app.js"
    client.app.write(script, 'const zone = "é🌍"; client.iparams.get("zone").then(show);\n')
    text = client.open(script, "javascript")
    published = await client.wait_diagnostics(
        client.app.uri(script), lambda p: len(p.diagnostics) > 0, what="app.js findings"
    )
    findings = cli_findings(client.app)[script]
    assert [f["rule"] for f in findings] == ["unknown-iparam-read"], findings
    assert summary(published.diagnostics) == expected_diagnostics(text, findings, client.encoding)


async def test_crlf_and_lone_cr_line_ends_count_as_lines(client: Client):
    for ending in ("\r\n", "\r"):
        client.app.write(IPARAMS, IPARAMS_TEXT.replace("\n", ending))
        text = client.open(IPARAMS, "json", version=1)
        uri = client.app.uri(IPARAMS)
        published = await client.wait_diagnostics(
            uri, lambda p: len(p.diagnostics) > 0, what=f"findings with {ending!r} line ends"
        )
        findings = cli_findings(client.app)[IPARAMS]
        assert summary(published.diagnostics) == expected_diagnostics(text, findings, client.encoding)
        unknown = next(d for d in published.diagnostics if d.code == "unknown-type")
        assert unknown.range.start.line == 1 and text_in(text, unknown.range, client.encoding) == '"txt"'
        client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        await client.wait_diagnostics(uri, lambda p: len(p.diagnostics) == 0, what="emptied")
