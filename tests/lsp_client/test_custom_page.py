"""An app with a custom installation page (config/iparams.html, no iparams.json): its iparams
are the keys the object `postConfigs` returns, for hover and go to definition; the page's
`data-bind` values are hovered as in iparams.json."""

from __future__ import annotations

import pathlib

from lsprotocol import types

from lsp_support import App, Client, position_at, text_in
from test_hover import _markdown

FIXTURE = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "lsp" / "custom-page"
SCRIPT = "config/assets/iparams.js"
SERVER = "server/server.js"
PAGE = "config/iparams.html"


def _page_app(root: pathlib.Path) -> App:
    """A copy of the fixture page app, with `é` and `🌍` before a key of `postConfigs` on its
    line, so that its column differs in each encoding."""
    app = App(root)
    for path in FIXTURE.rglob("*"):
        if path.is_file():
            relative = path.relative_to(FIXTURE).as_posix()
            text = path.read_bytes().decode("utf-8")
            if relative == SCRIPT:
                text = text.replace("    channel:", "    /* é 🌍 */ channel:")
            app.write(relative, text)
    return app


async def _hover(client: Client, relative: str, text: str, needle: str, into: int) -> str:
    hover = await client.ask(
        client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=client.app.uri(relative)),
                position=position_at(text, text.index(needle) + into, client.encoding),
            )
        )
    )
    return _markdown(hover)


async def test_a_read_leads_to_the_key_post_configs_returns(client: Client, tmp_path):
    client.app = _page_app(tmp_path / "page-app")
    server = client.open(SERVER, "javascript")
    script = client.app.text(SCRIPT)

    shown = await _hover(client, SERVER, server, "iparams.channel", len("iparams.") + 2)
    assert "channel" in shown and "stored by `postConfigs`" in shown, shown
    assert "config/assets/iparams.js" in shown and "not secure" in shown, shown

    definition = await client.ask(
        client.text_document_definition_async(
            types.DefinitionParams(
                text_document=types.TextDocumentIdentifier(uri=client.app.uri(SERVER)),
                position=position_at(
                    server, server.index("iparams.channel") + len("iparams.") + 2, client.encoding
                ),
            )
        )
    )
    locations = definition if isinstance(definition, list) else [definition]
    assert len(locations) == 1, locations
    target = locations[0]
    uri = getattr(target, "uri", None) or target.target_uri
    where = getattr(target, "range", None) or target.target_selection_range
    assert uri == client.app.uri(SCRIPT), uri
    assert text_in(script, where, client.encoding) == "channel", where
    # The line of the key, after the non-ASCII comment.
    assert where.start.line == script[: script.index("/* é")].count("\n"), where


async def test_a_data_bind_value_of_the_page_says_what_it_binds(client: Client, tmp_path):
    client.app = _page_app(tmp_path / "page-app")
    page = client.open(PAGE, "html")
    shown = await _hover(client, PAGE, page, "product.api_key", 3)
    assert "product.api_key" in shown and len(shown) > 30, shown
