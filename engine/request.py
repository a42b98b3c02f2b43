"""The score request and response of the contract, as pydantic models at the edge of the engine.

Inside the engine a request becomes a plain frozen ``Situation``; pydantic only guards the door, turning any
malformed JSON into an ``invalid_request`` error that names the field. Validation is strict: a boolean is a
JSON boolean and an integer a JSON integer (pydantic's lax mode would take ``"riichi": "false"``, ``"honba":
"5"`` or ``5.0``: another program's bug answered as if it were meant).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.errors import InvalidRequest
from engine.situation import WINDS, Situation
from engine.validation_words import describe

Wind = Literal["E", "S", "W", "N"]  # engine.situation.WINDS
MeldType = Literal["chi", "pon", "daiminkan", "kakan", "ankan"]


STRICT = ConfigDict(extra="forbid", strict=True)


class MeldModel(BaseModel):
    model_config = STRICT
    type: MeldType
    tiles: str


# The situation's fields below (``tsumo`` to ``renhou``, ``kita`` to ``riichi_sticks``) are those of
# ``engine.situation.Situation``, written out because pydantic and type checkers read class annotations and the
# contract's JSON Schema follows their order; a test holds them equal (names, order, defaults). (A comment, not
# the docstring: the docstring is the schema's description.)
class ScoreRequest(BaseModel):
    """One hand to score, as other programs send it (contract: Score request)."""

    model_config = STRICT
    rulebook: str | None = None
    hand: str
    win: str
    melds: list[MeldModel] = Field(default_factory=list)
    tsumo: bool = False
    seat_wind: Wind = "E"
    round_wind: Wind = "E"
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    # open riichi: the winner declared riichi with the hand shown; a ron's discarder was in riichi (established)
    open_riichi: bool = False
    discarder_in_riichi: bool = False
    dora_indicators: str = ""
    ura_indicators: str = ""
    kita: int = Field(default=0, ge=0, le=4)
    honba: int = Field(default=0, ge=0, le=1000)
    riichi_sticks: int = Field(default=0, ge=0, le=1000)
    # wins in a row of the current dealer before this hand, as the game counts them (paarenchan reads it)
    dealer_consecutive_wins: int = Field(default=0, ge=0, le=1000)
    # pao on one hand: the seat liable for the yakuman (it fed the completing set), and the discarder of a ron,
    # both by seat wind; with ``liable`` the response names each payer by seat wind (``engine.scoring.liability``)
    liable: Wind | None = Field(default=None, description="the seat liable (pao) for this win, by seat wind")
    from_: Wind | None = Field(default=None, alias="from", description="the discarder of a ron, by seat wind")


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
    """Each field named with what is wrong, in the words every interface uses (``engine.validation_words``)."""
    return describe(exc.errors())
