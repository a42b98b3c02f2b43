"""An ASGI middleware that refuses a request body past ``MAX_BODY_BYTES`` before the application reads it.

A declared ``Content-Length`` over the bound is answered at once; a body sent in chunks without one is counted
as it arrives and cut off at the bound, so a client can never make the server hold more than the bound.
"""

from __future__ import annotations

import json
from typing import Any

from engine.web.errors import STATUS, body

Scope = dict[str, Any]


class BodyLimit:
    def __init__(self, app: Any, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await self._refuse(send)
            return
        seen = 0
        refused = False

        async def bounded_receive() -> dict[str, Any]:
            nonlocal seen, refused
            message: dict[str, Any] = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    refused = True
                    raise _TooLarge
            return message

        started = False

        async def guarded_send(message: dict[str, Any]) -> None:
            # Once the body passed the bound, whatever the application answers (a parse error of the cut body,
            # say) is replaced by the one refusal.
            nonlocal started
            if message["type"] == "http.response.start":
                if started:
                    return
                started = True
                if refused:
                    await self._refuse(send)
                    return
            elif refused:
                return
            await send(message)

        try:
            await self.app(scope, bounded_receive, guarded_send)
        except _TooLarge:
            if not started:
                await self._refuse(send)
        except Exception:
            if not refused:
                raise
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Any) -> None:
        data = json.dumps(body("limit_exceeded", f"the request body is larger than {self.limit:,} bytes")).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
        await send({"type": "http.response.start", "status": STATUS["limit_exceeded"], "headers": headers})
        await send({"type": "http.response.body", "body": data})


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
