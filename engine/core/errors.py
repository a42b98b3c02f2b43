"""The errors a user can cause, each with the contract's error code, so every interface reports them alike."""

from __future__ import annotations

from ruledsl.user_error import EngineError  # defined in the lower layer: the notation parser raises it too


class InvalidHand(EngineError):
    code = "invalid_hand"


class InvalidRequest(EngineError):
    code = "invalid_request"


class InvalidSituation(EngineError):
    code = "invalid_situation"


class NotAWin(EngineError):
    code = "not_a_win"


class NoYaku(EngineError):
    code = "no_yaku"


class UnknownRulebook(EngineError):
    code = "unknown_rulebook"


class InvalidRulebook(EngineError):
    """A rulebook that exists and may be used, but has errors; the message carries its rendered diagnostics."""

    code = "invalid_rulebook"


class LimitExceeded(EngineError):
    """A request or rulebook past a documented size, time or value bound (the contract's ``limit_exceeded``)."""

    code = "limit_exceeded"


class InternalError(Exception):
    """A bug of ours, not the caller's input: the contract's ``internal_error`` (CLI exit 3, HTTP 500).

    Deliberately not an ``EngineError``: a program that catches ``EngineError`` to report bad input must never
    swallow an engine bug as if the input were wrong. The message names the exception's type and asks for a
    report; the original exception is kept as ``__cause__`` for whoever debugs it, never shown to a user."""

    code = "internal_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}

    @classmethod
    def of(cls, exc: BaseException, doing: str = "answering this request") -> InternalError:
        """The internal error for an unexpected exception, in one line without a traceback."""
        text = str(exc)
        text = text if len(text) <= 120 else text[:120] + "..."  # the whole message stays one readable line
        detail = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
        return cls(f"internal error while {doing} ({detail}); this is a bug of the engine, please report it with the input that caused it")


# Every code an answer may carry (contract: Score response); anything raised with another code is a bug of ours.
CODES = frozenset(
    {
        "invalid_notation",
        "invalid_hand",
        "invalid_request",
        "invalid_situation",
        "not_a_win",
        "no_yaku",
        "unknown_rulebook",
        "invalid_rulebook",
        "limit_exceeded",
        "internal_error",
    }
)
