"""An ASGI middleware that keeps the server's own folders out of every answer.

A diagnostic, an explanation or an error names the file it comes from, and the engine names files by their real
path: ``/srv/club/rules/ours.rulebook:4:10``. A client needs the name it asked for, not where the operator keeps
it, so every JSON and HTML answer has each known folder cut from its paths (a file of ``--rulebook-dir`` shows
relative to it, ``ours.rulebook:4:10``; a bundled rulebook as ``rulebooks/NAME.rulebook``), and the bare folder
itself, if quoted alone, replaced by a word. Answers of other types (static files, tiles) pass untouched.
"""

from __future__ import annotations

import json
import os
from typing import Any

_TEXT_TYPES = (b"application/json", b"text/html")


class HidePaths:
    def __init__(self, app: Any, folders: list[tuple[str, str]]) -> None:
        """``folders``: (absolute folder, the word shown for it alone), most specific first is not required."""
        self.app = app
        pairs: list[tuple[bytes, bytes]] = []
        for folder, word in sorted(folders, key=lambda f: -len(f[0])):
            folder = folder.rstrip(os.sep)
            if not os.path.isabs(folder) or folder == "":
                continue
            for form in _forms(folder):
                pairs.append((form + os.sep.encode(), b""))
            pairs.extend((form, word.encode()) for form in _forms(folder))
        self.pairs = pairs

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not self.pairs:
            await self.app(scope, receive, send)
            return
        start: dict[str, Any] | None = None
        chunks: list[bytes] = []

        async def hiding_send(message: dict[str, Any]) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                if _is_text(message.get("headers", [])):
                    start = message
                    return
            elif message["type"] == "http.response.body" and start is not None:
                chunks.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                raw = self.hide(b"".join(chunks))
                headers = [(k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"]
                headers.append((b"content-length", str(len(raw)).encode()))
                await send({**start, "headers": headers})
                await send({"type": "http.response.body", "body": raw})
                return
            await send(message)

        await self.app(scope, receive, hiding_send)

    def hide(self, raw: bytes) -> bytes:
        for old, new in self.pairs:
            if old in raw:
                raw = raw.replace(old, new)
        return raw


def _forms(text: str) -> list[bytes]:
    """The bytes a string takes in an answer: raw UTF-8, and JSON-escaped (non-ASCII, backslashes)."""
    forms = [text.encode("utf-8", "surrogatepass"), json.dumps(text)[1:-1].encode()]
    return list(dict.fromkeys(forms))


def _is_text(headers: list[tuple[bytes, bytes]]) -> bool:
    for name, value in headers:
        if name.lower() == b"content-type":
            return value.split(b";", 1)[0].strip().lower() in _TEXT_TYPES
    return False


__all__ = ["HidePaths"]
