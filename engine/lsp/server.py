"""The server loop: read messages on a thread, answer them in order on the main one, analyse edited documents
when no message is waiting (a burst of keystrokes is checked once), and never let one bad message or one failing
feature end the session: a request that fails gets a JSON-RPC error, a notification that fails a log message.
"""

from __future__ import annotations

import queue
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any, BinaryIO

from engine.lsp import protocol as P
from engine.lsp.actions import code_actions
from engine.lsp.completion import complete
from engine.lsp.definition import definition
from engine.lsp.diagnostics import publish
from engine.lsp.documents import Document, apply_change
from engine.lsp.hover import hover
from engine.lsp.symbols import symbols

NAME = "riichi-rulebook"
CAPABILITIES: dict[str, Any] = {
    "textDocumentSync": {"openClose": True, "change": 2, "save": {"includeText": True}},
    "hoverProvider": True,
    "completionProvider": {"triggerCharacters": [" ", "=", '"', "("]},
    "definitionProvider": True,
    "documentSymbolProvider": True,
    "codeActionProvider": {"codeActionKinds": ["quickfix"]},
}
_END = object()


class Server:
    """One session with one client: its open documents and how each method is answered."""

    def __init__(self, output: BinaryIO) -> None:
        self.output = output
        self.documents: dict[str, Document] = {}
        self.shutdown = False
        self.exit_code: int | None = None
        self.requests: dict[str, Callable[[dict[str, Any]], Any]] = {
            "initialize": self._initialize,
            "shutdown": self._shutdown,
            "textDocument/hover": lambda p: hover(self._doc(p), *_at(p)),
            "textDocument/completion": lambda p: complete(self._doc(p), *_at(p)),
            "textDocument/definition": lambda p: definition(self._doc(p), *_at(p)),
            "textDocument/documentSymbol": lambda p: symbols(self._doc(p)),
            "textDocument/codeAction": lambda p: code_actions(self._doc(p).uri, _list(p.get("context", {}).get("diagnostics"))),
        }
        self.notifications: dict[str, Callable[[dict[str, Any]], None]] = {
            "initialized": lambda p: None,
            "exit": self._exit,
            "textDocument/didOpen": self._did_open,
            "textDocument/didChange": self._did_change,
            "textDocument/didSave": self._did_save,
            "textDocument/didClose": self._did_close,
        }

    # ---- the loop ---------------------------------------------------------------------------------------------

    def serve(self, inbox: queue.Queue[Any]) -> int:
        while self.exit_code is None:
            try:
                message = inbox.get(timeout=0.05) if any(d.stale for d in self.documents.values()) else inbox.get()
            except queue.Empty:
                self._analyse_stale()
                continue
            if message is _END:
                return 0 if self.shutdown else 1
            if isinstance(message, P.BadMessage):
                self._log(f"skipped a message: {message}")
                continue
            self.handle(message)
            if inbox.empty():
                self._analyse_stale()
        return self.exit_code

    def handle(self, message: dict[str, Any]) -> None:
        method, request_id, params = message.get("method"), message.get("id"), message.get("params")
        params = params if isinstance(params, dict) else {}
        if not isinstance(method, str):
            return  # a response to a request of ours (we send none), or garbage
        if "id" in message:
            self._answer(request_id, method, params)
            return
        handler = self.notifications.get(method)
        if handler is None:
            return
        try:
            handler(params)
        except Exception as exc:  # noqa: BLE001 - a notification has no answer: log, keep serving
            self._log(f"{method} failed: {exc!r}\n{traceback.format_exc(limit=3)}")

    def _answer(self, request_id: Any, method: str, params: dict[str, Any]) -> None:
        handler = self.requests.get(method)
        if handler is None:
            self.send(P.error(request_id, P.METHOD_NOT_FOUND, f"no method `{method}`"))
            return
        try:
            result = handler(params)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            self.send(P.error(request_id, P.INVALID_PARAMS, f"{method}: bad parameters ({exc!r})"))
            return
        except Exception as exc:  # noqa: BLE001 - one failing feature must not end the session
            self._log(f"{method} failed: {exc!r}\n{traceback.format_exc(limit=3)}")
            self.send(P.error(request_id, P.INTERNAL_ERROR, f"{method} failed: {exc!r}"))
            return
        self.send(P.response(request_id, result))

    def send(self, message: dict[str, Any]) -> None:
        self.output.write(P.encode(message))
        self.output.flush()

    def _log(self, text: str) -> None:
        self.send(P.notification("window/logMessage", {"type": 2, "message": text}))

    # ---- documents --------------------------------------------------------------------------------------------

    def _doc(self, params: dict[str, Any]) -> Document:
        uri = params["textDocument"]["uri"]
        document = self.documents.get(uri)
        if document is None:
            raise KeyError(f"document {uri} is not open")
        if document.report is None:  # a request right after opening: answer from a fresh analysis
            self._analyse(document)
        return document

    def _did_open(self, params: dict[str, Any]) -> None:
        item = params["textDocument"]
        text = item["text"]
        if not isinstance(text, str):
            raise TypeError("textDocument.text is a string")
        self.documents[item["uri"]] = Document(item["uri"], text, int(item.get("version") or 0))

    def _did_change(self, params: dict[str, Any]) -> None:
        document = self.documents[params["textDocument"]["uri"]]
        for change in _list(params.get("contentChanges")):
            document.text = apply_change(document.text, change)
        document.version = int(params["textDocument"].get("version") or document.version + 1)

    def _did_save(self, params: dict[str, Any]) -> None:
        document = self.documents[params["textDocument"]["uri"]]
        if isinstance(params.get("text"), str) and params["text"] != document.text:
            document.text = params["text"]
            document.version += 1
        self._analyse(document, examples=True)

    def _did_close(self, params: dict[str, Any]) -> None:
        document = self.documents.pop(params["textDocument"]["uri"], None)
        if document is not None:
            self.send(P.notification("textDocument/publishDiagnostics", {"uri": document.uri, "diagnostics": []}))

    def _analyse_stale(self) -> None:
        for document in list(self.documents.values()):
            if document.stale:
                self._analyse(document)

    def _analyse(self, document: Document, *, examples: bool = False) -> None:
        try:
            report = document.analyse(examples=examples)
        except Exception as exc:  # noqa: BLE001 - the checker should never fail; if it does, say so and go on
            document.analysed_version = document.version
            self._log(f"checking {document.uri} failed: {exc!r}\n{traceback.format_exc(limit=5)}")
            return
        self.send(P.notification("textDocument/publishDiagnostics", publish(document, report)))

    # ---- lifecycle --------------------------------------------------------------------------------------------

    def _initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        from engine.core.version import shown_version

        return {"capabilities": CAPABILITIES, "serverInfo": {"name": NAME, "version": shown_version()}}

    def _shutdown(self, params: dict[str, Any]) -> None:
        self.shutdown = True

    def _exit(self, params: dict[str, Any]) -> None:
        self.exit_code = 0 if self.shutdown else 1


def _at(params: dict[str, Any]) -> tuple[int, int]:
    pos = params["position"]
    return int(pos["line"]), int(pos["character"])


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _read_into(stream: BinaryIO, inbox: queue.Queue[Any]) -> None:
    """The reader thread: every frame into the inbox (a broken one as its ``BadMessage``), then the end mark."""
    try:
        while True:
            try:
                message = P.read_message(stream)
            except P.BadMessage as exc:
                inbox.put(exc)
                continue
            if message is None:
                break
            inbox.put(message)
    except (OSError, ValueError):  # the pipe closed under us
        pass
    inbox.put(_END)


def run(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """Serve one client on stdin/stdout until it says `exit` or closes the pipe."""
    inbox: queue.Queue[Any] = queue.Queue()
    source = stdin if stdin is not None else sys.stdin.buffer
    reader = threading.Thread(target=_read_into, args=(source, inbox), name="lsp-reader", daemon=True)
    reader.start()
    return Server(stdout if stdout is not None else sys.stdout.buffer).serve(inbox)
