"""An ASGI middleware that answers only requests addressed to this server, and JSON writes only as JSON.

Two attacks from a web page the user happens to open: DNS rebinding (the page's own name made to point at
127.0.0.1, so that the browser lets it read ``/rulebooks`` and ``/explain``) and blind cross-site writes (a form or
``fetch`` with a ``text/plain`` body, which a browser sends without asking the server first). So:

- the ``Host`` header must name the address the server is bound to, a loopback name when it is bound to loopback,
  an IP address when it is bound to every address, or a name the operator allowed with ``--allow-host``; anything
  else (or no ``Host``) is answered 421 before any route runs;
- a ``POST`` must say ``Content-Type: application/json`` (which a page can send to another site only after the
  browser's preflight, which this server grants only to the origins an operator names with ``--cors-origin``):
  anything else is answered 415.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any

from engine.web.errors import body

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARDS = frozenset({"", "0.0.0.0", "::"})


class HostPolicy:
    """The Host names a server bound to ``bound`` answers for."""

    def __init__(self, bound: str, allowed: tuple[str, ...] | list[str] = ()) -> None:
        bound = _bare(bound)
        self.any_address = bound in WILDCARDS
        names = {bound, *(_bare(name) for name in allowed)} - {""}
        if self.any_address or _is_loopback(bound):
            names |= LOOPBACK_NAMES
        self.names = frozenset(names)

    def allows(self, host: str | None) -> bool:
        if not host:
            return False
        name = _bare(_without_port(host))
        return name in self.names or (self.any_address and _is_address(name))


class RequestGate:
    def __init__(self, app: Any, hosts: HostPolicy) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", []))
        host = headers.get(b"host", b"").decode("latin-1")
        if not self.hosts.allows(host):
            shown = host[:80] or "(none)"
            message = (f"this server does not answer for the host `{shown}`; its operator may allow a name with "
                       "`riichi serve --allow-host NAME`")
            await _answer(send, 421, message)
            return
        if scope.get("method") == "POST" and not _is_json(headers.get(b"content-type", b"")):
            await _answer(send, 415, "the request body must be JSON, sent with `Content-Type: application/json`")
            return
        await self.app(scope, receive, send)


def _is_json(content_type: bytes) -> bool:
    return content_type.split(b";", 1)[0].strip().lower() == b"application/json"


def _without_port(host: str) -> str:
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _bare(name: str) -> str:
    return name.strip().strip("[]").rstrip(".").lower()


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _is_loopback(name: str) -> bool:
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


async def _answer(send: Any, status: int, message: str) -> None:
    raw = json.dumps(body("invalid_request", message)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode()),
               (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": raw})


__all__ = ["HostPolicy", "RequestGate"]
