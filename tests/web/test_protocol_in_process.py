"""The connection guards of `riichi serve` (engine/web/protocol.py) and its request gate (engine/web/gate.py), run
in this process on a real socket: a client that never finishes its headers loses its socket, a connection past the
cap closes the oldest one still owing bytes, and a request answered in time keeps its connection. The tests against
a whole `riichi serve` process (test_serve_attacks.py) show the same from outside; these show each branch."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

uvicorn = pytest.importorskip("uvicorn")

from engine.web.gate import HostPolicy, RequestGate  # noqa: E402
from engine.web.protocol import guarded_protocol  # noqa: E402


async def _echo(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A tiny ASGI app: reads the whole body, answers 200 with its length."""
    body, more = b"", True
    while more:
        message = await receive()
        body += message.get("body", b"")
        more = message.get("more_body", False)
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": str(len(body)).encode()})


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def served() -> Iterator[int]:
    port = _free_port()
    app = RequestGate(_echo, HostPolicy("127.0.0.1"))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, http=guarded_protocol(0.4, 3), lifespan="off",
                            log_level="critical", timeout_keep_alive=30)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    yield port
    server.should_exit = True
    thread.join(15)


def _connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.settimeout(5)
    return sock


def _closed(sock: socket.socket, within: float = 3.0) -> bool:
    """Whether the server closed ``sock`` (end of stream or reset) within ``within`` seconds."""
    sock.settimeout(within)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def _get(sock: socket.socket, host: str = "127.0.0.1") -> bytes:
    sock.sendall(f"GET / HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    return sock.recv(4096)


def test_headers_not_finished_in_time_close_the_connection(served: int) -> None:
    sock = _connect(served)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # the blank line never comes
    assert _closed(sock)


def test_a_prompt_request_is_answered_and_its_connection_waits_for_the_next(served: int) -> None:
    sock = _connect(served)
    assert _get(sock).startswith(b"HTTP/1.1 200")
    # after the answer the header timer runs again: an idle kept-alive connection is closed too
    assert _closed(sock)


def test_past_the_cap_the_oldest_connection_owing_bytes_is_closed(served: int) -> None:
    silent = [_connect(served) for _ in range(3)]
    time.sleep(0.1)
    newcomer = _connect(served)
    assert _get(newcomer).startswith(b"HTTP/1.1 200")  # the prompt client still gets in
    assert _closed(silent[0], within=0.3)  # the oldest silent one made room
    for sock in (*silent, newcomer):
        sock.close()


def test_the_gate_refuses_another_host_and_a_post_that_is_not_json(served: int) -> None:
    sock = _connect(served)
    assert _get(sock, host="evil.example").startswith(b"HTTP/1.1 421")
    sock = _connect(served)
    sock.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}")
    assert sock.recv(4096).startswith(b"HTTP/1.1 415")
    sock = _connect(served)
    sock.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
    assert sock.recv(4096).startswith(b"HTTP/1.1 200")


def test_the_gate_passes_other_scopes_through() -> None:
    seen: list[str] = []

    async def inner(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(scope["type"])

    asyncio.run(RequestGate(inner, HostPolicy("127.0.0.1"))({"type": "lifespan"}, None, None))
    assert seen == ["lifespan"]


@pytest.mark.parametrize(
    ("bound", "host", "answered"),
    [("::1", "[::1]:8000", True), ("0.0.0.0", "10.0.0.7:80", True), ("0.0.0.0", "name.example", False),
     ("example.org", "example.org.", True), ("127.0.0.1", "", False), ("example.org", "localhost", False)],
)
def test_host_names_and_addresses(bound: str, host: str, answered: bool) -> None:
    assert HostPolicy(bound).allows(host) is answered
