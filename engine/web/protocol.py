"""uvicorn's HTTP protocol with two bounds it lacks: the seconds a client may take to send a request's headers,
and the connections the server holds open.

uvicorn closes an idle keep-alive connection, but its timer stops at the first byte: a client that sends half a
request line and goes silent (slowloris) keeps its socket for ever, and a thousand of them take the process's
descriptors. Here every connection must finish a request's headers within ``HEADER_SECONDS`` of opening, or of
the previous answer, or it is closed; and a connection past ``MAX_CONNECTIONS`` is closed as soon as it opens
(uvicorn's ``limit_concurrency`` would still hold it open to answer 503). The body's own deadline is
``engine.web.body_limit``'s. Imported only by ``riichi serve`` (uvicorn is in the ``web`` extra).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from engine.web.limits import HEADER_SECONDS, MAX_CONNECTIONS


def guarded_protocol(header_seconds: float = HEADER_SECONDS, max_connections: int = MAX_CONNECTIONS) -> type[asyncio.Protocol]:
    """The protocol class uvicorn picks (httptools when installed, else h11), with the two bounds."""
    base: Any = AutoHTTPProtocol

    class GuardedProtocol(base):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                transport.close()
                return
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._in_request():
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and not self._in_request():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _in_request(self) -> bool:
            """A request's headers have arrived and its answer is not complete yet."""
            cycle = getattr(self, "cycle", None)
            return cycle is not None and not cycle.response_complete

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_seconds, self._headers_too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_too_slow(self) -> None:
            self._header_timer = None
            if not self._in_request() and not self.transport.is_closing():
                self.transport.close()

    return GuardedProtocol


__all__ = ["guarded_protocol"]
