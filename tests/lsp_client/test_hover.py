"""Hover: on a finding, its rule's documentation; on an attribute, what it means."""

from __future__ import annotations

from lsprotocol import types

from lsp_support import Client, position_at

IPARAMS = "config/iparams.json"


def _markdown(hover: types.Hover | None) -> str:
    assert hover is not None
    contents = hover.contents
    if isinstance(contents, types.MarkupContent):
        return contents.value
    if isinstance(contents, str):
        return contents
    if isinstance(contents, types.MarkedString):
        return contents.value
    return "\n".join(c if isinstance(c, str) else c.value for c in contents)


async def _hover(client: Client, text: str, needle: str, into: int) -> str:
    where = position_at(text, text.index(needle) + into, client.encoding)
    hover = await client.ask(
        client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=client.app.uri(IPARAMS)), position=where
            )
        )
    )
    return _markdown(hover)


async def test_hover_on_a_finding_shows_its_rule(client: Client):
    text = client.open(IPARAMS, "json")
    await client.wait_diagnostics(client.app.uri(IPARAMS), lambda p: len(p.diagnostics) > 0)
    # On the `x` of "txt", after the non-ASCII characters of the line.
    shown = await _hover(client, text, '"txt"', 2)
    assert "unknown-type" in shown, shown
    assert "not a known type" in shown, shown


async def test_hover_on_an_attribute_says_what_it_means(client: Client):
    text = client.open(IPARAMS, "json")
    # On `secure`, in the api_key line.
    shown = await _hover(client, text, '"secure"', 3)
    assert "secure" in shown.lower() and len(shown) > 20, shown
