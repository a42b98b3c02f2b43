"""uvicorn's HTTP protocol with two bounds it lacks: the seconds a client may take to send a request's headers,
and the connections the server holds open.

uvicorn closes an idle keep-alive connection, but its timer stops at the first byte: a client that sends half a
request line and goes silent (slowloris) keeps its socket for ever, and a thousand of them take the process's
descriptors. Here every connection must finish a request's headers within ``HEADER_SECONDS`` of opening, or of
the previous answer, or it is closed. Past ``MAX_CONNECTIONS`` open connections, a new one makes room by closing
the oldest connection that is waiting on its client (no request yet, or a body not whole): a slow client is the
one that loses its socket, and a client that sends its request at once still gets in while a thousand silent ones
hold the server; only when every connection is being answered is the new one closed at once (uvicorn's
``limit_concurrency`` would hold it open to answer 503). The body's own deadline is ``engine.web.body_limit``'s.
Imported only by ``riichi serve`` (uvicorn is in the ``web`` extra).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from engine.web.limits import HEADER_SECONDS, MAX_CONNECTIONS


def guarded_protocol(header_seconds: float = HEADER_SECONDS, max_connections: int = MAX_CONNECTIONS) -> type[asyncio.Protocol]:
    """The protocol class uvicorn picks (httptools when installed, else h11), with the two bounds."""
    base: Any = AutoHTTPProtocol

    class GuardedProtocol(base):
        _header_timer: asyncio.TimerHandle | None = None
        _opened = 0.0

        def connection_made(self, transport: asyncio.Transport) -> None:
            self._opened = time.monotonic()
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                victim = self._oldest_waiting()
                if victim is None:
                    transport.close()
                    return
                victim.transport.close()
            self._arm()

        def _oldest_waiting(self) -> Any:
            """The oldest other open connection whose client owes the server bytes, if any."""
            waiting = [c for c in self.connections if isinstance(c, GuardedProtocol) and c is not self
                       and c._waiting_on_client() and not c.transport.is_closing()]
            return min(waiting, key=lambda c: c._opened, default=None)

        def _waiting_on_client(self) -> bool:
            cycle = getattr(self, "cycle", None)
            if cycle is None or cycle.response_complete:
                return True  # no request, or between two
            return bool(getattr(cycle, "more_body", False))  # a body not whole yet

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
