"""Quick fixes and fix-all, applied here to the text as an editor would apply them."""

from __future__ import annotations

from lsprotocol import types

from lsp_support import Client, apply_edits, edits_for, touched

IPARAMS = "config/iparams.json"


async def _unknown_type(client: Client):
    text = client.open(IPARAMS, "json")
    uri = client.app.uri(IPARAMS)
    published = await client.wait_diagnostics(
        uri, lambda p: any(d.code == "unknown-type" for d in p.diagnostics)
    )
    return text, uri, next(d for d in published.diagnostics if d.code == "unknown-type")


async def test_the_quick_fix_of_a_finding_fixes_it(client: Client):
    text, uri, diagnostic = await _unknown_type(client)
    actions = await client.ask(
        client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=diagnostic.range,
                context=types.CodeActionContext(
                    diagnostics=[diagnostic], trigger_kind=types.CodeActionTriggerKind.Invoked
                ),
            )
        )
    )
    assert actions, f"{client.profile}: no code action on the unknown type"
    quick = [
        a
        for a in actions
        if isinstance(a, types.CodeAction)
        and a.kind == types.CodeActionKind.QuickFix
        and a.edit is not None
        and any(d.code == "unknown-type" for d in a.diagnostics or [])
    ]
    # The rule's fix edits the file; "turn this finding off here" edits .iparams-lint.toml.
    fixes = [a for a in quick if edits_for(a.edit, uri)]
    assert len(fixes) == 1, [a.title for a in actions]
    fix = fixes[0]
    # A safe fix is the preferred one (the one a single keystroke applies).
    assert fix.is_preferred is True, fix
    assert "text" in fix.title, fix.title
    off = [a for a in quick if a not in fixes]
    assert len(off) == 1, [a.title for a in actions]
    assert not off[0].is_preferred, off[0]
    assert any(
        target.endswith("/.iparams-lint.toml") for target in touched(off[0].edit)
    ), off[0].edit
    fixed = apply_edits(text, edits_for(fix.edit, uri), client.encoding)
    assert fixed == text.replace('"txt"', '"text"'), fixed


async def test_fix_all_applies_the_safe_fixes(client: Client):
    text, uri, _ = await _unknown_type(client)
    whole = types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=len(text.splitlines()), character=0)
    )
    actions = await client.ask(
        client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=whole,
                context=types.CodeActionContext(
                    diagnostics=[],
                    only=["source.fixAll.iparams-lint"],
                    trigger_kind=types.CodeActionTriggerKind.Automatic,
                ),
            )
        )
    )
    assert actions is not None and len(actions) == 1, actions
    action = actions[0]
    assert isinstance(action, types.CodeAction)
    assert action.kind == "source.fixAll.iparams-lint"
    assert action.edit is not None, action
    fixed = apply_edits(text, edits_for(action.edit, uri), client.encoding)
    assert fixed == text.replace('"txt"', '"text"'), fixed


async def test_only_quickfix_leaves_out_source_actions(client: Client):
    text, uri, diagnostic = await _unknown_type(client)
    actions = await client.ask(
        client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=diagnostic.range,
                context=types.CodeActionContext(diagnostics=[diagnostic], only=["quickfix"]),
            )
        )
    )
    kinds = {str(getattr(a, "kind", None)) for a in actions or []}
    assert kinds and all(k == "quickfix" or k.startswith("quickfix.") for k in kinds), kinds
