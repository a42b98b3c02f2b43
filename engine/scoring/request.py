"""The score request and response of the contract, as pydantic models at the edge of the engine.

Inside the engine a request becomes a plain frozen ``Situation``; pydantic only guards the door, turning any
malformed JSON into an ``invalid_request`` error that names the field. Validation is strict: a boolean is a
JSON boolean and an integer a JSON integer (pydantic's lax mode would take ``"riichi": "false"``, ``"honba":
"5"`` or ``5.0``: another program's bug answered as if it were meant).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from engine.core.errors import InvalidRequest
from engine.core.situation import (
    COUNTER_FIELDS,
    COUNTER_LIMITS,
    SITUATION_DEFAULTS,
    SITUATION_FIELDS,
    WIND_FIELDS,
    WINDS,
    Situation,
)
from engine.scoring.validation_words import describe

Wind = Literal["E", "S", "W", "N"]  # engine.core.situation.WINDS
MeldType = Literal["chi", "pon", "daiminkan", "kakan", "ankan"]


STRICT = ConfigDict(extra="forbid", strict=True)


class MeldModel(BaseModel):
    model_config = STRICT
    type: MeldType
    tiles: str


class _Head(BaseModel):
    """What every request begins with: the rulebook, the tiles and the melds (the model's first fields)."""

    rulebook: str | None = None
    hand: str
    win: str
    melds: list[MeldModel] = Field(default_factory=list)


class _Tail(BaseModel):
    """The fields of a request that are not the situation's: the indicators and pao (``engine.scoring.liability``)."""

    dora_indicators: str = ""
    ura_indicators: str = ""
    # pao on one hand: the seat liable for the yakuman (it fed the completing set), and the discarder of a ron,
    # both by seat wind; with ``liable`` the response names each payer by seat wind (``engine.scoring.liability``)
    liable: Wind | None = Field(default=None, description="the seat liable (pao) for this win, by seat wind")
    from_: Wind | None = Field(default=None, alias="from", description="the discarder of a ron, by seat wind")


def _situation_field(name: str) -> tuple[object, object]:
    """A request field for the situation's field ``name``: its type (a wind is one of E, S, W, N; a counter a
    non-negative integer up to its limit) and its default, those of ``engine.core.situation.Situation``."""
    default = SITUATION_DEFAULTS[name]
    if name in WIND_FIELDS:
        return Wind, default
    if name in COUNTER_FIELDS:
        return int, Field(default=default, ge=0, le=COUNTER_LIMITS[name])
    return bool, default


def _request_fields() -> dict[str, tuple[object, object]]:
    """Every field in the contract's order: the head, the situation's flags and winds, the indicators, its counters,
    then pao. The situation's fields come from ``Situation`` (a new field there is a new request field)."""
    tail: dict[str, tuple[object, object]] = {name: (info.annotation, info) for name, info in _Tail.model_fields.items()}
    head: dict[str, tuple[object, object]] = {name: (info.annotation, info) for name, info in _Head.model_fields.items()}
    situation = {name: _situation_field(name) for name in SITUATION_FIELDS if name not in COUNTER_FIELDS}
    counters = {name: _situation_field(name) for name in COUNTER_FIELDS}
    indicators = {name: tail.pop(name) for name in ("dora_indicators", "ura_indicators")}
    return {**head, **situation, **indicators, **counters, **tail}


if TYPE_CHECKING:
    from engine.scoring.request_situation import RequestSituation

    class ScoreRequest(_Head, RequestSituation, _Tail):
        """What type checkers see of the model built below: the situation's fields as generated from ``Situation``
        (``python -m ruledsl.regenerate``), so that a new field is declared once."""

else:
    ScoreRequest = create_model(
        "ScoreRequest",
        __config__=STRICT,
        __doc__="One hand to score, as other programs send it (contract: Score request).",
        __module__=__name__,
        **_request_fields(),
    )


class ClauseFrom(BaseModel):
    """Where an inherited clause comes from (``ruledsl.clause_origin``): the rulebook that wrote it, and the words
    of a ``clauses from`` statement that adopted it, with the file that wrote that statement."""

    rulebook: str
    adopted: str | None = None
    adopted_in: str | None = None


class YakuLine(BaseModel):
    id: str
    name: str
    han: int | None = None
    yakuman: int | None = None
    clause: str | None = None
    clause_from: ClauseFrom | None = None  # null when the scored rulebook's own file wrote the clause


class FuLine(BaseModel):
    id: str
    fu: int
    clause: str | None = None
    clause_from: ClauseFrom | None = None


class ScoreError(BaseModel):
    code: str
    message: str


class ScoreResponse(BaseModel):
    """The contract's answer: ``ok`` and either the score or an error."""

    ok: bool
    rulebook: str | None = None
    han: int | None = None
    fu: int | None = None
    yakuman: int | None = None
    limit: str | None = None
    limit_id: str | None = None  # the limit item that set the base (several may reach one tier)
    limit_clause: str | None = None
    limit_clause_from: ClauseFrom | None = None
    yaku: list[YakuLine] | None = None
    fu_items: list[FuLine] | None = None
    base_points: int | None = None
    payments: dict[str, int] | None = None
    total: int | None = None
    # with a request's ``liable``: the liable seat and the liability rule's clause (payments are then by seat wind)
    liable: Wind | None = None
    liability_clause: str | None = None
    liability_clause_from: ClauseFrom | None = None
    error: ScoreError | None = None


__all__ = ["WINDS", "Situation", "ScoreRequest", "ScoreResponse", "MeldModel", "parse_request", "SCHEMAS"]

SCHEMAS: dict[str, type[BaseModel]] = {"score-request": ScoreRequest, "score-response": ScoreResponse}


def parse_request(data: Any) -> ScoreRequest:
    """Validate a decoded JSON object; every problem becomes one ``invalid_request`` message."""
    if not isinstance(data, dict):
        raise InvalidRequest("a score request must be a JSON object")
    try:
        return ScoreRequest.model_validate(data)
    except ValidationError as exc:
        raise InvalidRequest(_describe(exc)) from None


def _describe(exc: ValidationError) -> str:
    """Each field named with what is wrong, in the words every interface uses (``engine.scoring.validation_words``)."""
    return describe(exc.errors())
