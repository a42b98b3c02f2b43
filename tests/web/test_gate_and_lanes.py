"""The pieces behind the server's bounds, in process: the Host policy, the lanes' queue, the body's deadline, a
client's hang-up, and the folders cut from answers (the same attacks against a real server are in
``test_serve_attacks.py``)."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from typing import Any

import pytest

from engine.web.body_limit import BodyLimit
from engine.web.gate import HostPolicy
from engine.web.hide_paths import HidePaths
from engine.web.lanes import Busy, Lane

Message = dict[str, Any]


@pytest.mark.parametrize(
    ("bound", "allowed", "host", "answered"),
    [
        ("127.0.0.1", (), "127.0.0.1:8000", True),
        ("127.0.0.1", (), "localhost", True),
        ("127.0.0.1", (), "[::1]:8000", True),
        ("127.0.0.1", (), "rebound.example:8000", False),
        ("127.0.0.1", (), "", False),
        ("127.0.0.1", ("club.example",), "Club.Example.:8000", True),
        ("192.168.1.5", (), "192.168.1.5:8000", True),
        ("192.168.1.5", (), "localhost:8000", False),
        ("0.0.0.0", (), "10.0.0.7:8000", True),
        ("0.0.0.0", (), "[fe80::1]:8000", True),
        ("0.0.0.0", (), "rebound.example", False),
        ("::", ("club.example",), "club.example", True),
    ],
)
def test_the_host_policy(bound: str, allowed: tuple[str, ...], host: str, answered: bool) -> None:
    assert HostPolicy(bound, allowed).allows(host) is answered


def test_a_full_lane_refuses_at_once_and_a_stale_job_is_refused() -> None:
    lane = Lane("test", threads=1, queue=1, retry_after=3, max_wait=0.2)
    release = threading.Event()

    async def main() -> list[Any]:
        first = asyncio.ensure_future(lane.run(lambda: release.wait(5)))
        await asyncio.sleep(0.05)
        second = asyncio.ensure_future(lane.run(lambda: "ran"))  # waits: the queue holds one
        await asyncio.sleep(0.05)
        with pytest.raises(Busy) as full:
            await lane.run(lambda: "never")
        assert full.value.retry_after == 3
        await asyncio.sleep(0.3)
        release.set()
        return await asyncio.gather(first, second, return_exceptions=True)

    first, second = asyncio.run(main())
    assert first is True and isinstance(second, Busy) and "waited" in str(second)
    assert lane.refused == 2 and lane.in_flight == 0
    lane.close()


def _run(app: Any, receive: Any, seconds: float | None = None) -> list[Message]:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(BodyLimit(app, 1000, seconds)({"type": "http", "headers": []}, receive, send))
    return sent


async def _reads_body(scope: Any, receive: Any, send: Any) -> None:
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def test_a_body_not_whole_in_time_is_answered_408_and_the_connection_closed() -> None:
    parts = [{"type": "http.request", "body": b"{", "more_body": True}]

    async def receive() -> Message:
        if parts:
            return parts.pop()
        await asyncio.sleep(30)  # a client that went silent
        return {"type": "http.disconnect"}

    start = time.monotonic()
    sent = _run(_reads_body, receive, seconds=0.2)
    assert time.monotonic() - start < 5
    assert sent[0]["status"] == 408 and (b"connection", b"close") in sent[0]["headers"]
    assert json.loads(sent[1]["body"])["error"]["code"] == "limit_exceeded"


def test_a_client_hanging_up_mid_body_ends_quietly(caplog: pytest.LogCaptureFixture) -> None:
    async def receive() -> Message:
        return {"type": "http.disconnect"}

    async def fails_on_hang_up(scope: Any, receive: Any, send: Any) -> None:
        if (await receive())["type"] == "http.disconnect":
            raise RuntimeError("ClientDisconnect, as Starlette raises it")

    with caplog.at_level(logging.WARNING, logger="riichi.serve"):
        for _ in range(50):
            assert _run(fails_on_hang_up, receive) == []
    assert len(caplog.records) <= 1 and all("\n" not in r.getMessage() for r in caplog.records)


def test_known_folders_are_cut_from_text_answers_only() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        kind = b"application/json" if scope["path"] == "/json" else b"application/octet-stream"
        text = json.dumps({"file": "/srv/rules/sub/ours.rulebook", "folder": "/srv/rules", "é": "/srv/règles/x"})
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", kind)]})
        await send({"type": "http.response.body", "body": text.encode(), "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    def answer(path: str) -> bytes:
        sent: list[Message] = []

        async def send(message: Message) -> None:
            sent.append(message)

        hide = HidePaths(app, [("/srv/rules", "the rulebook folder"), ("/srv/règles", "the other folder")])
        asyncio.run(hide({"type": "http", "path": path}, None, send))
        return b"".join(m.get("body", b"") for m in sent)

    data = json.loads(answer("/json"))
    assert data == {"file": "sub/ours.rulebook", "folder": "the rulebook folder", "é": "x"}
    assert b"/srv/rules" in answer("/file")


def test_a_repeated_warning_passes_once_a_minute_with_the_count_held_back() -> None:
    from engine.web.quiet_log import OncePerMinute

    gate = OncePerMinute(every=0.2)

    def record(msg: str) -> logging.LogRecord:
        return logging.LogRecord("uvicorn.error", logging.WARNING, __file__, 1, msg, None, None)

    passed = [gate.filter(record("Invalid HTTP request received.")) for _ in range(100)]
    assert passed.count(True) == 1 and gate.filter(record("another message"))
    time.sleep(0.25)
    later = record("Invalid HTTP request received.")
    assert gate.filter(later) and "99 more" in later.getMessage()
