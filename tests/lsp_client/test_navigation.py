"""Completion, go to definition and find references between an iparam's key and its reads."""

from __future__ import annotations

from lsprotocol import types

from lsp_support import Client, position_at, range_of, text_in

IPARAMS = "config/iparams.json"
APP_JS = "app/scripts/app.js"


def _labels(result) -> set[str]:
    items = result.items if isinstance(result, types.CompletionList) else result or []
    return {item.label for item in items}


async def test_completion_of_iparam_keys_in_a_read(client: Client):
    client.open(IPARAMS, "json")
    text = 'client.iparams.get("").then(show);\n'
    client.open(APP_JS, "javascript", text=text)
    result = await client.ask(
        client.text_document_completion_async(
            types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=client.app.uri(APP_JS)),
                position=position_at(text, text.index('")'), client.encoding),
                context=types.CompletionContext(
                    trigger_kind=types.CompletionTriggerKind.TriggerCharacter, trigger_character='"'
                ),
            )
        )
    )
    assert {"region", "api_key"} <= _labels(result), _labels(result)


async def test_completion_of_types(client: Client):
    text = client.app.text(IPARAMS).replace('"txt"', '""')
    client.open(IPARAMS, "json", text=text)
    # Between the quotes of the empty type, after é and 🌍 on the line.
    where = position_at(text, text.index('"type": ""') + len('"type": "'), client.encoding)
    result = await client.ask(
        client.text_document_completion_async(
            types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=client.app.uri(IPARAMS)), position=where
            )
        )
    )
    assert {"text", "paragraph", "dropdown", "api_key"} <= _labels(result), _labels(result)


async def test_definition_and_references_of_an_iparam(client: Client):
    iparams = client.open(IPARAMS, "json")
    js = client.open(APP_JS, "javascript")
    iparams_uri, js_uri = client.app.uri(IPARAMS), client.app.uri(APP_JS)

    definition = await client.ask(
        client.text_document_definition_async(
            types.DefinitionParams(
                text_document=types.TextDocumentIdentifier(uri=js_uri),
                position=position_at(js, js.index("region") + 2, client.encoding),
            )
        )
    )
    locations = definition if isinstance(definition, list) else [definition]
    assert len(locations) == 1, locations
    target = locations[0]
    uri = getattr(target, "uri", None) or target.target_uri
    where = getattr(target, "range", None) or target.target_selection_range
    assert uri == iparams_uri, uri
    assert text_in(iparams, where, client.encoding) in ('"region"', "region"), where

    references = await client.ask(
        client.text_document_references_async(
            types.ReferenceParams(
                text_document=types.TextDocumentIdentifier(uri=iparams_uri),
                position=position_at(iparams, iparams.index('"region"') + 2, client.encoding),
                context=types.ReferenceContext(include_declaration=False),
            )
        )
    )
    assert references, f"{client.profile}: no reference to region"
    in_js = [r for r in references if r.uri == js_uri]
    assert len(in_js) == 1, references
    assert text_in(js, in_js[0].range, client.encoding) in ('"region"', "region")
    assert in_js[0].range in (range_of(js, '"region"', client.encoding), range_of(js, "region", client.encoding))
