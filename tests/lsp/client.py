"""Clients of ``riichi lsp`` for the tests and the benchmark: one over a pipe to ``python -m engine.cli lsp`` (as an
editor drives it), one in this process (``Server.handle`` on a byte buffer: quick, and measured by coverage)."""

from __future__ import annotations

import io
import itertools
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from engine.lsp import protocol as P
from engine.lsp.server import Server

ROOT = Path(__file__).resolve().parents[2]


class _Client:
    """Requests with ids, notifications, and the messages the server sent back (diagnostics, logs)."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self.notes: list[dict[str, Any]] = []

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        request_id = next(self._ids)
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params or {}})
        while True:
            message = self._next()
            if message.get("id") == request_id and "method" not in message:
                return message
            self.notes.append(message)

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params or {}})

    def diagnostics(self, uri: str) -> list[dict[str, Any]]:
        """The diagnostics last published for ``uri`` (waiting for them after an open or a change)."""
        self.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})  # a round trip: analysed by now
        for message in reversed(self.notes):
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                return message["params"]["diagnostics"]
        raise AssertionError(f"no diagnostics for {uri}")

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rulebook", "version": version, "text": text}})

    def at(self, method: str, uri: str, line: int, character: int, **extra: Any) -> Any:
        answer = self.request(method, {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}, **extra})
        assert "error" not in answer, answer
        return answer["result"]

    def _send(self, message: dict[str, Any]) -> None:
        raise NotImplementedError

    def _next(self) -> dict[str, Any]:
        raise NotImplementedError


class InProcess(_Client):
    """The server's own handler, called directly: each message is answered (and stale documents analysed, as
    the loop does when its inbox is empty) before ``_send`` returns."""

    def __init__(self) -> None:
        super().__init__()
        self.buffer = io.BytesIO()
        self.server = Server(self.buffer)
        self._read = 0

    def _send(self, message: dict[str, Any]) -> None:
        self.server.handle(message)
        self.server._analyse_stale()

    def drain(self) -> list[dict[str, Any]]:
        """Every message the server wrote that was not read yet."""
        out = []
        while self._read < len(self.buffer.getvalue()):
            out.append(self._next())
        return out

    def _next(self) -> dict[str, Any]:
        self.buffer.seek(self._read)
        message = P.read_message(self.buffer)
        self._read = self.buffer.tell()
        self.buffer.seek(0, io.SEEK_END)
        assert message is not None, "the server answered nothing"
        return message


class Piped(_Client):
    """``python -m engine.cli lsp`` in a subprocess, spoken to over its stdin and stdout."""

    def __init__(self, timeout: float = 60.0) -> None:
        super().__init__()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen([sys.executable, "-m", "engine.cli", "lsp"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=env)
        self.timeout = timeout

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(P.encode(message))
        self.process.stdin.flush()

    def _next(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        box: list[Any] = []
        reader = threading.Thread(target=lambda: box.append(P.read_message(self.process.stdout)), daemon=True)  # type: ignore[arg-type]
        reader.start()
        reader.join(self.timeout)
        if not box or box[0] is None:
            raise AssertionError(f"the server did not answer: {self.stderr()}")
        return box[0]

    def stderr(self) -> str:
        if self.process.poll() is None:
            return "(still running)"
        assert self.process.stderr is not None
        return self.process.stderr.read().decode("utf-8", "replace")

    def close(self) -> int:
        """Shut down as an editor does; the exit code."""
        if self.process.poll() is None:
            self.request("shutdown")
            self.notify("exit")
        return self.process.wait(timeout=self.timeout)
