"""The fixture every test uses: the real server, started over stdio by pytest-lsp, initialised
with one editor's capabilities on a fresh sample app, and shut down cleanly afterwards."""

from __future__ import annotations

import json
import subprocess

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig

from lsp_support import PROFILES, Client, binary, make_app, make_client, offered

# `--stdio` is what VS Code's client and lspconfig add; the server accepts and ignores it.
CONFIG = ClientServerConfig(server_command=[binary(), "lsp", "--stdio"], client_factory=make_client)


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def pytest_sessionstart(session):
    """One bare exchange first: a server that does not answer `initialize` (or is not a
    language server at all) stops the run at once, instead of every test waiting for it."""
    exchange = b"".join(
        _frame(m)
        for m in [
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
            {"jsonrpc": "2.0", "method": "exit"},
        ]
    )
    try:
        done = subprocess.run(
            [binary(), "lsp", "--stdio"], input=exchange, capture_output=True, timeout=15
        )
    except subprocess.TimeoutExpired as hung:
        pytest.exit(
            f"{binary()} lsp did not end within 15 s of initialize, shutdown and exit "
            f"(stdout: {(hung.stdout or b'')[:500]!r}, stderr: {(hung.stderr or b'')[:500]!r})",
            returncode=1,
        )
    if done.returncode != 0 or b'"id":1' not in done.stdout.replace(b" ", b""):
        pytest.exit(
            f"{binary()} lsp is not a language server here: status {done.returncode}, "
            f"stdout {done.stdout[:500]!r}, stderr {done.stderr[:500]!r}",
            returncode=1,
        )


@pytest_lsp.fixture(config=CONFIG, params=list(PROFILES))
async def client(lsp_client: Client, request, tmp_path):
    profile = request.param
    capabilities = PROFILES[profile]()
    app = make_app(tmp_path / "app")
    lsp_client.app = app
    lsp_client.profile = profile
    result = await lsp_client.ask(
        lsp_client.initialize_session(
            types.InitializeParams(
                capabilities=capabilities,
                root_uri=app.uri(),
                workspace_folders=[types.WorkspaceFolder(uri=app.uri(), name="app")],
            )
        )
    )
    lsp_client.init_result = result
    chosen = result.capabilities.position_encoding
    lsp_client.encoding = str(getattr(chosen, "value", chosen)) if chosen else "utf-16"
    lsp_client.offered = offered(capabilities)
    lsp_client.client_capabilities = capabilities
    yield
    if not lsp_client.shut_down:
        await lsp_client.ask(lsp_client.shutdown_session())
        # Every session ends as an editor ends it: `shutdown`, `exit`, and status 0.
        assert lsp_client._server is not None
        assert lsp_client._server.returncode == 0, (
            f"{profile}: the server exited with {lsp_client._server.returncode} after exit"
        )
