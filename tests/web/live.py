"""A real ``riichi serve`` process on a free port of 127.0.0.1, started and stopped by a test, and a few raw
HTTP helpers (the attacks on the server are about sockets, not about an application called in process)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Live:
    """One running server: its port and the file its log goes to."""

    def __init__(self, port: int, log: Path, process: subprocess.Popen[bytes]) -> None:
        self.port = port
        self.log = log
        self.process = process

    @property
    def base(self) -> str:
        return f"http://{HOST}:{self.port}"

    def request(self, method: str, path: str, data: Any = None, headers: dict[str, str] | None = None,
                timeout: float = 30) -> tuple[int, dict[str, str], bytes]:
        """(status, headers, body) of one request; a JSON ``data`` is sent as ``application/json``."""
        raw = data if isinstance(data, bytes) or data is None else json.dumps(data).encode()
        sent = {"content-type": "application/json"} if raw is not None else {}
        sent.update(headers or {})
        request = urllib.request.Request(self.base + path, data=raw, method=method, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, _lower(response.headers), response.read()
        except urllib.error.HTTPError as exc:
            return exc.code, _lower(exc.headers), exc.read()

    def raw(self, data: bytes, timeout: float = 10) -> bytes:
        """Bytes written on a fresh connection, and everything the server sends until it closes or is silent."""
        with socket.create_connection((HOST, self.port), timeout=timeout) as s:
            s.sendall(data)
            chunks = []
            try:
                while chunk := s.recv(65536):
                    chunks.append(chunk)
            except TimeoutError:
                pass
            return b"".join(chunks)


@contextmanager
def serve(*options: str, folder: Path, startup: float = 60) -> Iterator[Live]:
    """``riichi serve --port P OPTIONS`` whose log (stderr) goes to ``folder/serve.log``; stopped on exit."""
    port = free_port()
    log = folder / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "engine.cli", "serve", "--host", HOST, "--port", str(port), *options],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=out,
        )
    live = Live(port, log, process)
    try:
        _wait_up(live, startup)
        yield live
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def _lower(headers: Any) -> dict[str, str]:
    return {str(name).lower(): str(value) for name, value in headers.items()}


def _wait_up(live: Live, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if live.process.poll() is not None:
            raise AssertionError(f"riichi serve exited at start:\n{live.log.read_text()[-2000:]}")
        try:
            if live.request("GET", "/health", timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"riichi serve did not answer within {seconds:g} s")


def error_of(body: bytes) -> dict[str, Any]:
    """The contract's error of an answer: ``{"ok": false, "error": {"code", "message"}}``."""
    answer = json.loads(body)
    assert answer["ok"] is False and set(answer["error"]) == {"code", "message"}, answer
    return dict(answer["error"])


__all__ = ["Live", "serve", "free_port", "error_of", "HOST", "ROOT"]
