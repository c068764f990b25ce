"""What the client tests share: the editors' capability profiles, position arithmetic in the
three encodings (written here, independently of the server's), the sample app, the command
line's findings as the reference, and waiting for what the server pushes."""

from __future__ import annotations

import asyncio
import copy
import functools
import json
import os
import pathlib
import shutil
import subprocess
from dataclasses import dataclass

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features
from pygls.protocol import default_converter

# How long the server has to answer or push anything; a debug build answers in milliseconds,
# this only bounds a hang.
TIMEOUT = 15.0


def binary() -> str:
    """The server under test: IPARAMS_LINT_BIN (tests/lsp_clients.rs sets it to the binary
    cargo built), else `iparams-lint` on PATH."""
    found = os.environ.get("IPARAMS_LINT_BIN") or shutil.which("iparams-lint")
    if not found:
        raise RuntimeError(
            "no server to test: set IPARAMS_LINT_BIN to the iparams-lint binary "
            "(cargo test --test lsp_clients does), or put iparams-lint on PATH"
        )
    return found


# --- Capability profiles -------------------------------------------------------------------


@functools.cache
def _read_captured(editor: str) -> types.ClientCapabilities:
    return client_capabilities(editor)


def _captured(editor: str) -> types.ClientCapabilities:
    """An editor's captured capabilities, read once (each read structures the whole file with a
    new converter) and copied for each test, which may change its copy."""
    return copy.deepcopy(_read_captured(editor))


def _only(encodings: list[str]) -> types.ClientCapabilities:
    capabilities = _captured("neovim")
    capabilities.general = capabilities.general or types.GeneralClientCapabilities()
    capabilities.general.position_encodings = encodings
    return capabilities


# The editors' own captured capabilities (pytest-lsp ships them), and two made-up clients that
# offer a single encoding, so that utf-8 and utf-16 are each forced whatever the server prefers.
PROFILES = {
    "vscode": lambda: _captured("visual-studio-code"),  # offers none: utf-16
    "neovim": lambda: _captured("neovim"),  # 0.11: utf-8, utf-16, utf-32
    "emacs": lambda: _captured("emacs"),  # eglot 29.1: utf-32, utf-8, utf-16
    "utf-8-only": lambda: _only(["utf-8"]),
    "utf-16-only": lambda: _only(["utf-16"]),
}


def offered(capabilities: types.ClientCapabilities) -> list[str]:
    general = capabilities.general
    encodings = general.position_encodings if general else None
    return [str(getattr(e, "value", e)) for e in encodings or []]


# --- Positions -----------------------------------------------------------------------------


def _units(text: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-16":
        return len(text.encode("utf-16-le")) // 2
    if encoding == "utf-32":
        return len(text)
    raise ValueError(f"unknown position encoding {encoding!r}")


def _line_starts(text: str) -> list[int]:
    """Character offsets where each line starts; `\\r\\n`, `\\n` and a lone `\\r` end a line, as
    the protocol says."""
    starts = [0]
    i = 0
    while i < len(text):
        if text[i] == "\r":
            if i + 1 < len(text) and text[i + 1] == "\n":
                i += 1
            starts.append(i + 1)
        elif text[i] == "\n":
            starts.append(i + 1)
        i += 1
    return starts


def position_at(text: str, char_offset: int, encoding: str) -> types.Position:
    starts = _line_starts(text)
    line = max(i for i, start in enumerate(starts) if start <= char_offset)
    return types.Position(line=line, character=_units(text[starts[line] : char_offset], encoding))


def position_at_byte(text: str, byte_offset: int, encoding: str) -> types.Position:
    char_offset = len(text.encode("utf-8")[:byte_offset].decode("utf-8"))
    return position_at(text, char_offset, encoding)


def offset_of(text: str, position: types.Position, encoding: str) -> int:
    """The character offset of a position; a column past the end of its line is the line's end
    (the protocol's rule)."""
    starts = _line_starts(text)
    if position.line >= len(starts):
        return len(text)
    start = starts[position.line]
    end = starts[position.line + 1] if position.line + 1 < len(starts) else len(text)
    line = text[start:end].rstrip("\r\n")
    for n in range(len(line) + 1):
        units = _units(line[:n], encoding)
        if units == position.character:
            return start + n
        if units > position.character:
            raise AssertionError(
                f"{position} splits a character of line {position.line} ({line!r}) in {encoding}"
            )
    return start + len(line)


def range_of(text: str, needle: str, encoding: str, occurrence: int = 0) -> types.Range:
    """The range of the `occurrence`-th `needle` in `text`."""
    start = -1
    for _ in range(occurrence + 1):
        start = text.index(needle, start + 1)
    return types.Range(
        start=position_at(text, start, encoding),
        end=position_at(text, start + len(needle), encoding),
    )


def text_in(text: str, range_: types.Range, encoding: str) -> str:
    return text[offset_of(text, range_.start, encoding) : offset_of(text, range_.end, encoding)]


def apply_edits(text: str, edits, encoding: str) -> str:
    """Applies TextEdits (all against the same original text, as the protocol says)."""
    spans = sorted(
        (
            (offset_of(text, e.range.start, encoding), offset_of(text, e.range.end, encoding), e.new_text)
            for e in edits
        ),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def edits_for(edit: types.WorkspaceEdit, uri: str) -> list[types.TextEdit]:
    """The edits of one document in a WorkspaceEdit, whichever of its two forms it uses."""
    found = []
    if edit.changes:
        found.extend(edit.changes.get(uri, []))
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit) and change.text_document.uri == uri:
            found.extend(change.edits)
    return found


def touched(edit: types.WorkspaceEdit) -> set[str]:
    """The URIs a WorkspaceEdit creates or edits."""
    uris = set((edit.changes or {}).keys())
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit):
            uris.add(change.text_document.uri)
        elif isinstance(change, types.CreateFile):
            uris.add(change.uri)
    return uris


# --- The sample app ------------------------------------------------------------------------

MANIFEST = '{"platform-version": "2.3", "product": {"freshdesk": {}}}\n'
# Line 2 has `é` (2 UTF-8 bytes, 1 UTF-16 unit) and `🌍` (4 bytes, 2 units, 1 code point) before
# the misspelt type: its column differs in each of the three encodings.
IPARAMS = (
    "{\n"
    '  "region": {"display_name": "Région 🌍", "type": "txt"},\n'
    '  "api_key": {"display_name": "Clé API", "type": "text", "secure": true}\n'
    "}\n"
)
APP_JS = 'client.iparams.get("region").then(show);\n'


@dataclass
class App:
    root: pathlib.Path

    def path(self, relative: str) -> pathlib.Path:
        return self.root / relative

    def uri(self, relative: str = "") -> str:
        return (self.root / relative).as_uri() if relative else self.root.as_uri()

    def text(self, relative: str) -> str:
        # As bytes: read_text would turn `\r\n` and `\r` into `\n`.
        return self.path(relative).read_bytes().decode("utf-8")

    def write(self, relative: str, text: str) -> None:
        path = self.path(relative)
        path.parent.mkdir(parents=True, exist_ok=True)
        # newline="" keeps the text's own line ends.
        path.write_text(text, encoding="utf-8", newline="")


def make_app(root: pathlib.Path, iparams: str = IPARAMS) -> App:
    app = App(root)
    app.write("manifest.json", MANIFEST)
    app.write("config/iparams.json", iparams)
    app.write("app/scripts/app.js", APP_JS)
    return app


def cli_findings(app: App) -> dict[str, list[dict]]:
    """What `iparams-lint --format json` reports for the app on disk, by path relative to it:
    the reference the server's diagnostics must agree with."""
    run = subprocess.run(
        [binary(), "--format", "json", "--color", "never", "."],
        cwd=app.root,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode in (0, 1), run.stderr
    report = json.loads(run.stdout)
    return {f["path"]: f["diagnostics"] for f in report["files"]}


SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}


def expected_diagnostics(text: str, findings: list[dict], encoding: str) -> list[tuple]:
    """The command line's findings as (code, range, severity), ranges converted here from its
    byte spans."""
    return sorted(
        (
            f["rule"],
            (
                (p := position_at_byte(text, f["span"]["start"], encoding)).line,
                p.character,
                (q := position_at_byte(text, f["span"]["end"], encoding)).line,
                q.character,
            ),
            SEVERITY[f["severity"]],
        )
        for f in findings
    )


def summary(diagnostics) -> list[tuple]:
    return sorted(
        (
            str(d.code),
            (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character),
            d.severity,
        )
        for d in diagnostics
    )


# --- The client ----------------------------------------------------------------------------


class Client(LanguageClient):
    """pytest-lsp's client, keeping every publishDiagnostics (with its version) in order."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.published: list[types.PublishDiagnosticsParams] = []
        self.encoding = "utf-16"
        self.app: App | None = None
        self.profile = ""
        self.shut_down = False
        self.registrations: list[types.Registration] = []
        self.shown: list[types.ShowDocumentParams] = []
        self.client_capabilities: types.ClientCapabilities | None = None

    def latest(self, uri: str) -> types.PublishDiagnosticsParams | None:
        for params in reversed(self.published):
            if params.uri == uri:
                return params
        return None

    async def wait_diagnostics(self, uri: str, until=lambda params: True, what: str = "diagnostics"):
        """The newest diagnostics pushed for `uri` that satisfy `until`, waiting for them."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while True:
            params = self.latest(uri)
            if params is not None and until(params):
                return params
            if loop.time() > deadline:
                got = None if params is None else summary(params.diagnostics)
                raise AssertionError(
                    f"{self.profile}: no {what} for {uri} within {TIMEOUT} s; the last ones "
                    f"pushed: {got} (version {params.version if params else None})"
                )
            await asyncio.sleep(0.01)

    def open(self, relative: str, language: str, text: str | None = None, version: int = 1):
        assert self.app is not None
        text = self.app.text(relative) if text is None else text
        self.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=self.app.uri(relative), language_id=language, version=version, text=text
                )
            )
        )
        return text

    def change(self, relative: str, version: int, changes: list):
        assert self.app is not None
        self.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=self.app.uri(relative), version=version
                ),
                content_changes=changes,
            )
        )

    async def ask(self, awaitable):
        """A request's answer; a failure naming the profile if none comes in time, or at once
        (with the exit status) if the server ends before answering."""
        answer = asyncio.ensure_future(awaitable)
        waiters = {answer}
        if self._server is not None:
            waiters.add(asyncio.ensure_future(self._server.wait()))
        done, _ = await asyncio.wait(waiters, timeout=TIMEOUT, return_when=asyncio.FIRST_COMPLETED)
        if answer not in done and done:
            # The server ended: an answer already on its way (`shutdown` then `exit`) may
            # still be read.
            done, _ = await asyncio.wait({answer}, timeout=1.0)
            if answer not in done:
                answer.cancel()
                raise AssertionError(
                    f"{self.profile}: the server ended with status {self._server.returncode} "
                    "before answering (its standard error is above)"
                )
        for waiter in waiters - {answer}:
            waiter.cancel()
        if answer not in done:
            answer.cancel()
            raise AssertionError(f"{self.profile}: no answer within {TIMEOUT} s")
        return answer.result()


def _publish(client: Client, params: types.PublishDiagnosticsParams):
    client.published.append(params)
    client.diagnostics[params.uri] = params.diagnostics


def _register(client: Client, params: types.RegistrationParams):
    # As an editor does: accepted (the test checks the client had offered to register it).
    client.registrations.extend(params.registrations)


def _unregister(client: Client, params: types.UnregistrationParams):
    gone = {u.id for u in params.unregisterations}
    client.registrations = [r for r in client.registrations if r.id not in gone]


def _show_document(client: Client, params: types.ShowDocumentParams):
    # Recorded, not opened: the test checks what the editor was asked to show.
    client.shown.append(params)
    return types.ShowDocumentResult(success=True)


# One converter for every test's client: a converter builds the code that reads and writes each
# message type the first time it meets it, which a new one per test did again and again.
_CONVERTER = default_converter()


def make_client() -> Client:
    client = Client(converter_factory=lambda: _CONVERTER)
    register_lsp_features(
        client,
        {
            **DEFAULT_CLIENT_FEATURES,
            types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _publish,
            types.CLIENT_REGISTER_CAPABILITY: _register,
            types.CLIENT_UNREGISTER_CAPABILITY: _unregister,
            types.WINDOW_SHOW_DOCUMENT: _show_document,
        },
    )
    return client
