"""`.iparams-lint.toml`: resolved per file as the command does, and reloaded when it changes."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from lsp_support import Client

IPARAMS = "config/iparams.json"


def _offers_watching(client: Client) -> bool:
    workspace = client.capabilities.workspace if client.capabilities else None
    watched = workspace.did_change_watched_files if workspace else None
    return bool(watched and watched.dynamic_registration)


async def test_watching_is_registered_only_with_clients_that_offer_it(client: Client):
    # Give a registration sent right after `initialized` time to arrive.
    await asyncio.sleep(0.3)
    methods = [r.method for r in client.registrations]
    if not _offers_watching(client):
        assert methods == [], f"{client.profile} offers no dynamic registration: {methods}"
        return
    assert methods == ["workspace/didChangeWatchedFiles"], methods
    options = client.registrations[0].register_options
    watchers = options["watchers"] if isinstance(options, dict) else options.watchers
    patterns = [w["globPattern"] if isinstance(w, dict) else w.glob_pattern for w in watchers]
    assert any(".iparams-lint.toml" in str(p) for p in patterns), patterns


async def test_a_changed_configuration_file_is_reloaded(client: Client):
    client.open(IPARAMS, "json")
    uri = client.app.uri(IPARAMS)
    await client.wait_diagnostics(uri, lambda p: any(d.code == "unknown-type" for d in p.diagnostics))

    client.app.write(".iparams-lint.toml", '[rules]\nunknown-type = "off"\n')
    # The editor tells of the new file when the server asked to watch it; a client that does not
    # watch still saves documents, and the server checks the file's modification time then.
    if _offers_watching(client):
        client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[
                    types.FileEvent(
                        uri=client.app.uri(".iparams-lint.toml"), type=types.FileChangeType.Created
                    )
                ]
            )
        )
    else:
        client.text_document_did_save(
            types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
    published = await client.wait_diagnostics(
        uri,
        lambda p: all(d.code != "unknown-type" for d in p.diagnostics),
        what="findings without the rule turned off",
    )
    assert [d.code for d in published.diagnostics] == ["unused-iparam"]
