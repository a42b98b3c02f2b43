"""An ASGI middleware that bounds a request body in size and in time, and lets a client hang up quietly.

A declared ``Content-Length`` over the bound is answered at once; a body sent in chunks without one is counted
as it arrives and cut off at the bound, so a client can never make the server hold more than the bound. A body
that has not arrived whole ``seconds`` after its headers (a slow or half-open client) is answered 408 and its
connection closed, so that a silent client never keeps a socket. A client that hangs up before its body is whole
ends its request without an answer and without a traceback: at most one line in the log a minute.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from typing import Any

from engine.web.errors import STATUS, body

Scope = dict[str, Any]
LOG = logging.getLogger("riichi.serve")


class BodyLimit:
    def __init__(self, app: Any, limit: int, seconds: float | None = None) -> None:
        self.app = app
        self.limit = limit
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await self._refuse(send)
            return
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        seen = 0
        refused = slow = hung_up = whole = False

        async def bounded_receive() -> dict[str, Any]:
            nonlocal seen, refused, slow, hung_up, whole
            if whole or deadline is None:
                message: dict[str, Any] = await receive()
            else:
                try:
                    message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
                except TimeoutError:
                    slow = True
                    raise _TooSlow from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                whole = whole or not message.get("more_body", False)
                if seen > self.limit:
                    refused = True
                    raise _TooLarge
            elif message["type"] == "http.disconnect" and not whole:
                hung_up = True
            return message

        started = False

        async def guarded_send(message: dict[str, Any]) -> None:
            # Once the body passed a bound, whatever the application answers (a parse error of the cut body,
            # say) is replaced by the one refusal; a client that hung up gets nothing.
            nonlocal started
            if hung_up:
                return
            if message["type"] == "http.response.start":
                if started:
                    return
                started = True
                if slow or refused:
                    await (self._too_slow(send) if slow else self._refuse(send))
                    return
            elif refused or slow:
                return
            await send(message)

        try:
            await self.app(scope, bounded_receive, guarded_send)
        except (_TooLarge, _TooSlow):
            pass
        except Exception:
            if not (refused or slow or hung_up):
                raise
        if hung_up:
            _HANG_UPS.note()
        elif not started and (slow or refused):
            await (self._too_slow(send) if slow else self._refuse(send))

    async def _refuse(self, send: Any) -> None:
        message = f"the request body is larger than {self.limit:,} bytes"
        await _answer(send, STATUS["limit_exceeded"], body("limit_exceeded", message), close=False)

    async def _too_slow(self, send: Any) -> None:
        message = f"the request body did not arrive within {self.seconds:g} s"
        await _answer(send, 408, body("limit_exceeded", message), close=True)


async def _answer(send: Any, status: int, data: dict[str, Any], close: bool) -> None:
    raw = json.dumps(data).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
    if close:  # the rest of a slow body is never read: the connection cannot serve another request
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": raw})


class _HangUps:
    """Clients that hung up mid-body, noted in one log line a minute at most (an attacker cannot grow the log)."""

    def __init__(self, every: float = 60.0) -> None:
        self.every = every
        self.count = 0
        self.last = -every
        self._lock = threading.Lock()

    def note(self) -> None:
        with self._lock:
            self.count += 1
            now = time.monotonic()
            if now - self.last < self.every:
                return
            count, self.count, self.last = self.count, 0, now
        LOG.warning("%d client(s) hung up before sending their whole request body", count)


_HANG_UPS = _HangUps()


class _TooSlow(Exception):
    """Raised inside the application's ``receive`` when the body is not whole by its deadline."""


class _TooLarge(Exception):
    """Raised inside the application's ``receive`` when the body passes the bound."""


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


__all__ = ["BodyLimit"]
