"""JSON-RPC 2.0 messages framed as the Language Server Protocol frames them: ``Content-Length`` headers, a blank
line, then a UTF-8 JSON body.

A client that sends a broken frame (no length, a body that is not JSON) gets its message skipped, never a crash:
an editor's server must outlive its client's mistakes.
"""

from __future__ import annotations

import json
from typing import Any, BinaryIO

MAX_BODY = 64 * 1024 * 1024  # bytes of one message; a rulebook is limited far below this


class BadMessage(Exception):
    """One frame could not be read as a JSON-RPC message (the stream itself is still usable)."""


def read_message(stream: BinaryIO) -> dict[str, Any] | None:
    """The next message, or None at the end of the stream; ``BadMessage`` for a frame that is not one."""
    length: int | None = None
    while True:
        line = stream.readline(65536)
        if not line:
            return None
        text = line.decode("ascii", "replace").strip()
        if not text:
            if length is None:
                continue  # stray blank lines between frames
            break
        name, _, value = text.partition(":")
        if name.strip().lower() == "content-length":
            try:
                length = int(value.strip())
            except ValueError:
                raise BadMessage(f"bad Content-Length `{value.strip()}`") from None
    if length < 0 or length > MAX_BODY:
        raise BadMessage(f"Content-Length {length} out of range")
    body = stream.read(length)
    if len(body) < length:
        return None
    try:
        message = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadMessage(f"the body is not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise BadMessage("a message is a JSON object")
    return message


def encode(message: dict[str, Any]) -> bytes:
    body = json.dumps(message, ensure_ascii=False).encode("utf-8")
    return b"Content-Length: " + str(len(body)).encode("ascii") + b"\r\n\r\n" + body


def response(request_id: Any, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def error(request_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def notification(method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": params}


METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = -32601, -32602, -32603
