"""Typed answers for programs that embed the engine: the contract's pydantic models, and an ok/error union.

The engine's own entries answer the contract's JSON as dicts, because the CLI and the HTTP server print them as
they are. An embedder wants a type checker to know the fields, so these wrap the same entries and validate their
answers into models (``ScoreResponse``, ``GameResult``, ``Settled``); ``attempt`` turns any call into ``Ok`` or
``Failed`` with an ``ErrorCode`` instead of an exception. Nothing here computes anything the dicts do not hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict

from engine.core.errors import CODES, EngineError
from engine.scoring.request import ScoreRequest, ScoreResponse

if TYPE_CHECKING:
    from engine.game.result import GameResult
    from engine.game.selfplay import Game
    from engine.scoring.score import Scorer

T = TypeVar("T")


class ErrorCode(StrEnum):
    """Every code an ``EngineError`` carries: the contract's score errors, and those of rounds and games."""

    INVALID_NOTATION = "invalid_notation"
    INVALID_HAND = "invalid_hand"
    INVALID_REQUEST = "invalid_request"
    INVALID_SITUATION = "invalid_situation"
    NOT_A_WIN = "not_a_win"
    NO_YAKU = "no_yaku"
    UNKNOWN_RULEBOOK = "unknown_rulebook"
    INVALID_RULEBOOK = "invalid_rulebook"
    LIMIT_EXCEEDED = "limit_exceeded"
    ILLEGAL_ACTION = "illegal_action"  # engine.round.IllegalAction
    GAME_STUCK = "game_stuck"  # engine.game.GameStuck
    INTERNAL_ERROR = "internal_error"  # engine.core.errors.InternalError: a bug; ``attempt`` lets it propagate


assert CODES <= {code.value for code in ErrorCode}  # every score error code has its member


class ErrorInfo(BaseModel):
    """What went wrong: the code a program branches on and the message a person reads."""

    model_config = ConfigDict(frozen=True)
    code: ErrorCode
    message: str


class Ok(BaseModel, Generic[T]):
    """A call that succeeded, with its typed answer in ``value``."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    ok: Literal[True] = True
    value: T


class Failed(BaseModel):
    """A call that raised an ``EngineError``: the contract's ``{"ok": false, "error": {...}}``."""

    model_config = ConfigDict(frozen=True)
    ok: Literal[False] = False
    error: ErrorInfo


class Settled(BaseModel):
    """What a win of a given value pays (``Scorer.settle``): its base, the limit tier reached, the payments."""

    model_config = ConfigDict(frozen=True)
    base_points: int
    limit: str | None
    yakuman: int
    payments: dict[str, int]
    total: int


def failed(exc: EngineError) -> Failed:
    """The ``Failed`` of an engine error (a code no member names is an engine bug, reported as the request's)."""
    code = exc.code if exc.code in ErrorCode._value2member_map_ else ErrorCode.INVALID_REQUEST
    return Failed(error=ErrorInfo(code=ErrorCode(code), message=exc.message))


def attempt(call: Callable[[], T]) -> Ok[T] | Failed:
    """``Ok(value=call())``, or ``Failed`` when it raises an ``EngineError`` (any other exception propagates)."""
    try:
        value = call()
    except EngineError as exc:
        return failed(exc)
    return Ok(value=value)


def score_model(scorer: Scorer, request: ScoreRequest | Mapping[str, Any]) -> ScoreResponse:
    """``Scorer.score`` as the contract's ``ScoreResponse``; raises ``EngineError`` as ``score`` does."""
    data = request if isinstance(request, ScoreRequest) else dict(request)
    return ScoreResponse.model_validate(scorer.score(data))


def settle_model(scorer: Scorer, han: int, fu: int, *, dealer: bool, tsumo: bool, yakuman: int = 0, honba: int = 0) -> Settled:
    """``Scorer.settle`` as a ``Settled``."""
    return Settled.model_validate(scorer.settle(han, fu, dealer=dealer, tsumo=tsumo, yakuman=yakuman, honba=honba))


def play_model(game: Game) -> GameResult:
    """``Game.play`` as the contract's ``GameResult``; raises ``GameStuck`` (``game_stuck``) as ``play`` does."""
    from engine.game.result import GameResult

    return GameResult.model_validate(game.play())


__all__ = ["ErrorCode", "ErrorInfo", "Failed", "Ok", "Settled", "attempt", "failed", "play_model", "score_model", "settle_model"]
