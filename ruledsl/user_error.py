"""The base of every error a user's input can cause, with its contract code: one class for both layers.

The mpsz notation lives in the rule language (rulebooks name tiles too), and the engine reports bad notation
like any other user error (``except EngineError``). The engine's ``EngineError`` is this class, defined here in the
lower layer so that the notation parser raises an error of the engine's hierarchy without importing the engine,
and what the parser raises is the same class whether or not the engine has been imported.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base of every user-facing error; ``code`` is one of the contract's error codes."""

    code = "invalid_request"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}
