"""One JSON answer as a line of bytes: the form every JSON-lines batch (``riichi score --json``) and the web
server's worker pipe write.

An answer that cannot be JSON (a bug of ours) still becomes an ``internal_error`` answer, and text that cannot be
UTF-8 (a lone surrogate) is replaced, so a reader on the other side of the pipe always gets one valid line.
"""

from __future__ import annotations

import json
import re

from engine.core.errors import InternalError
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

_ENCODE = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode  # answers are trees, never cyclic
SURROGATE = re.compile("[\ud800-\udfff]")


def error(code: str, message: str) -> dict[str, Any]:
    """The contract's error answer."""
    return {"ok": False, "error": {"code": code, "message": message}}


def encode(answer: dict[str, Any]) -> bytes:
    """One answer as a UTF-8 JSON line; text that cannot be UTF-8 (a lone surrogate) is replaced, never raised."""
    try:
        text = _ENCODE(answer)
    except (TypeError, ValueError) as exc:  # an answer that is not JSON: a bug, still answered
        text = _ENCODE(error("internal_error", InternalError.of(exc, "writing the answer").message))
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (SURROGATE.sub("\ufffd", text) + "\n").encode("utf-8")


__all__ = ["SURROGATE", "encode", "error"]
