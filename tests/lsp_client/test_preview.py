"""`iparams-lint.preview`, as each editor's client asks for it: the installation page served on
127.0.0.1 from the text the editor holds, before it is saved."""

from __future__ import annotations

import asyncio
import http.client
import json
from urllib.parse import urlsplit

from lsprotocol import types

from lsp_support import TIMEOUT, Client

IPARAMS = "config/iparams.json"


def _get(url: str, path: str) -> tuple[int, str]:
    authority = urlsplit(url).netloc
    host, port = authority.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT)
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, answer.read().decode("utf-8")
    finally:
        connection.close()


async def _until_state(url: str, holds) -> dict:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while True:
        status, body = await loop.run_in_executor(None, _get, url, "/custom_configs/state")
        state = json.loads(body) if status == 200 else None
        if state is not None and holds(state):
            return state
        assert loop.time() < deadline, f"the page's state never changed: {status} {body[:500]}"
        await asyncio.sleep(0.02)


async def test_the_preview_follows_unsaved_edits(client: Client):
    provider = client.init_result.capabilities.execute_command_provider
    assert provider is not None and "iparams-lint.preview" in provider.commands, provider
    text = client.open(IPARAMS, "json")
    answer = await client.ask(
        client.workspace_execute_command_async(
            types.ExecuteCommandParams(
                command="iparams-lint.preview", arguments=[client.app.uri(IPARAMS)]
            )
        )
    )
    url = answer["url"]
    assert url.startswith("http://127.0.0.1:") and url.endswith("/custom_configs"), answer
    state = await _until_state(url, lambda s: s["iparams"] is not None)
    assert [i["key"] for i in state["iparams"]] == ["region", "api_key"], state["iparams"]

    client.change(IPARAMS, 2, [types.TextDocumentContentChangeWholeDocument(
        text=text.replace("Région", "Zone")
    )])
    state = await _until_state(
        url, lambda s: s["iparams"] and s["iparams"][0]["display_name"].startswith("Zone")
    )
    # The finding of the misspelt type is at its field.
    assert any(f["rule"] == "unknown-type" and f["key"] == "region" for f in state["findings"])
    assert client.app.text(IPARAMS) == text, "the file on disk is untouched"

    # An editor that can open a URL was asked to, once, in the browser; the others were not.
    # The request follows the command's answer, which came before the page changed.
    window = client.client_capabilities.window
    if window and window.show_document and window.show_document.support:
        assert [(s.uri, s.external) for s in client.shown] == [(url, True)], client.shown
    else:
        assert client.shown == [], client.shown
