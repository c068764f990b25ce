"""The handshake and the end of a session, as each editor does them."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from lsp_support import TIMEOUT, Client


async def test_capabilities_are_the_agreed_ones(client: Client):
    capabilities = client.init_result.capabilities

    # The encoding: one the client offered, utf-16 when it offered none.
    if client.offered:
        assert client.encoding in client.offered, (client.profile, client.encoding, client.offered)
    else:
        assert client.encoding == "utf-16", client.profile
    if client.profile == "utf-8-only":
        assert client.encoding == "utf-8"

    sync = capabilities.text_document_sync
    assert isinstance(sync, types.TextDocumentSyncOptions), sync
    assert sync.open_close is True
    assert sync.change == types.TextDocumentSyncKind.Incremental
    assert sync.save not in (None, False), "the server wants didSave"

    assert capabilities.hover_provider not in (None, False)
    assert capabilities.definition_provider not in (None, False)
    assert capabilities.references_provider not in (None, False)

    completion = capabilities.completion_provider
    assert completion is not None
    assert {'"', "."} <= set(completion.trigger_characters or []), completion.trigger_characters

    actions = capabilities.code_action_provider
    assert isinstance(actions, types.CodeActionOptions), actions
    kinds = {str(getattr(k, "value", k)) for k in actions.code_action_kinds or []}
    assert {"quickfix", "source.fixAll.iparams-lint"} <= kinds, kinds

    info = client.init_result.server_info
    assert info is not None and info.name == "iparams-lint", info


async def test_shutdown_twice_then_exit_ends_with_status_0(client: Client):
    # Neovim sends `shutdown` twice; both are answered, and `exit` ends the process with 0.
    first = await client.ask(client.shutdown_async(None))
    assert first is None
    try:
        second = await client.ask(client.shutdown_async(None))
        assert second is None
    except Exception as error:  # an error answer is allowed too, as long as one comes
        assert "shutdown" in str(error).lower() or "invalid" in str(error).lower(), error
    client.exit(None)
    assert client._server is not None
    code = await asyncio.wait_for(client._server.wait(), TIMEOUT)
    assert code == 0, f"{client.profile}: exit status {code}"
    client.shut_down = True
