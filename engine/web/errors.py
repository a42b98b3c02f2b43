"""The contract's error codes as HTTP answers: one body shape, ``{"ok": false, "error": {code, message}}``,
and the status that fits each code, so that a client in any language can branch on either.

| code | status | why |
|---|---|---|
| invalid_request, invalid_notation, invalid_hand, invalid_situation | 400 | the request itself is malformed |
| unknown_rulebook | 404 | it names a rulebook this server does not have or may not read |
| not_a_win, no_yaku, invalid_rulebook | 422 | well-formed, but the hand or rulebook cannot be scored |
| limit_exceeded | 413 | past a documented size, count, time or cost bound |
| internal_error | 500 | a bug of the server's, to be reported (never a traceback) |

The server's own bounds answer in the same shape with the status HTTP has for them: 408 ``limit_exceeded`` (a
body not whole in time), 415 ``invalid_request`` (a POST body not sent as JSON), 421 ``invalid_request`` (a Host
this server does not answer for) and 503 ``limit_exceeded`` with ``Retry-After`` (a queue full).
"""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse

from engine.core.errors import CODES, EngineError, InternalError
from engine.services.answers import encode

STATUS: dict[str, int] = {
    "invalid_request": 400,
    "invalid_notation": 400,
    "invalid_hand": 400,
    "invalid_situation": 400,
    "unknown_rulebook": 404,
    "not_a_win": 422,
    "no_yaku": 422,
    "invalid_rulebook": 422,
    "limit_exceeded": 413,
    "internal_error": 500,
}
assert set(STATUS) == CODES, "every contract code has a status"


def body(code: str, message: str) -> dict[str, Any]:
    """The error answer of the contract."""
    return {"ok": False, "error": {"code": code, "message": message}}


def status_of(answer: dict[str, Any]) -> int:
    """The HTTP status of one answer: the status of its error's code, else 200 (a check's report of a rulebook
    with errors, ``ok: false`` without an ``error``, is given its 422 by ``POST /check`` itself)."""
    error = answer.get("error")
    if answer.get("ok", True) or not isinstance(error, dict):
        return 200
    return STATUS.get(error.get("code", ""), 400)


class ContractJSON(JSONResponse):
    """JSON that is always valid UTF-8: a lone surrogate a request smuggled in is replaced, never a crash."""

    def render(self, content: Any) -> bytes:
        return encode(content)


def answer(data: dict[str, Any]) -> ContractJSON:
    """One answer of the contract, with the status that fits it."""
    return ContractJSON(data, status_code=status_of(data))


def from_exception(exc: EngineError | InternalError) -> dict[str, Any]:
    return body(exc.code if exc.code in CODES else "invalid_request", exc.message)


__all__ = ["STATUS", "ContractJSON", "answer", "body", "status_of", "from_exception"]
