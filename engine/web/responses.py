"""The HTTP API's answers as pydantic models, for the OpenAPI document only: a client generated from it (in
TypeScript, Go...) knows every field a route answers and every error it may get.

The routes answer the contract's JSON as the CLI makes it (``engine.web.api`` never re-validates an answer);
these models describe that JSON, and tests/web/test_openapi.py holds them to the live answers. Objects allow
more fields than listed (``extra="allow"``), as the contract adds fields and never renames or drops one.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from engine.core.errors import CODES
from engine.scoring.request import ScoreResponse
from engine.web.limits import MAX_BATCH

OPEN = ConfigDict(extra="allow")
ErrorCode = Literal[
    "internal_error", "invalid_hand", "invalid_notation", "invalid_request", "invalid_rulebook", "invalid_situation",
    "limit_exceeded", "no_yaku", "not_a_win", "unknown_rulebook",
]
assert set(get_args(ErrorCode)) == CODES, "the document lists every contract code"


class ErrorDetail(BaseModel):
    model_config = OPEN
    code: ErrorCode = Field(description="one of the contract's error codes (a client branches on it)")
    message: str = Field(description="the reason in words, for a person")


class ErrorResponse(BaseModel):
    """Every error of every route: the contract's error body, with the status of its code."""

    model_config = OPEN
    ok: Literal[False]
    error: ErrorDetail


class Decomposition(BaseModel):
    model_config = OPEN
    shape: str = Field(description="the reading's shape, e.g. `standard`")
    groups: list[str] = Field(description="the groups in mpsz notation")


class AnalyzeResponse(BaseModel):
    """``riichi analyze --json``: shanten and waits of 3n+1 tiles, or whether 3n+2 tiles are complete and how."""

    model_config = OPEN
    ok: Literal[True]
    tiles: str
    shanten: int = Field(description="-1 for a complete hand, 0 for tenpai")
    waits: list[str]
    complete: bool
    decompositions: list[Decomposition]


class ExampleCounts(BaseModel):
    model_config = OPEN
    run: int
    failed: int


class DiagnosticOut(BaseModel):
    """One diagnostic: where, what, the help line, and the rendered form with the source line and caret."""

    model_config = OPEN
    severity: Literal["error", "warning"]
    message: str
    file: str
    line: int
    column: int
    help: str | None
    end_line: int
    end_column: int
    rendered: str


class CheckReport(BaseModel):
    """``riichi check --json`` of one rulebook: ``ok`` false (status 422) when it has errors or a failing example."""

    model_config = OPEN
    ok: bool
    file: str
    errors: int
    warnings: int
    items: int
    examples: ExampleCounts
    diagnostics: list[DiagnosticOut]
    summary: str


class ExplainResponse(BaseModel):
    model_config = OPEN
    ok: Literal[True]
    item: str | None = Field(description="the item explained, `KIND NAME`; null for the whole rulebook")
    text: str


class DiffChange(BaseModel):
    """One changed item: both values and clauses, and a witness hand (or a round or game scenario) that shows it."""

    model_config = OPEN
    item: str
    change: str = Field(description="`added`, `removed` or `changed`")
    a: Any = None
    b: Any = None
    clause_a: str | None = None
    clause_b: str | None = None
    affects_score: bool
    witness: dict[str, Any] | None = Field(description="a hand both rulebooks score differently: its request and both answers")
    scenario: dict[str, Any] | None = None
    no_scenario: str | None = Field(default=None, description="why no hand, round or game shows this change alone")


class DiffResponse(BaseModel):
    """``riichi diff --json``."""

    model_config = OPEN
    ok: Literal[True]
    a: str
    b: str
    changes: list[DiffChange]
    searched: int
    searched_by_origin: dict[str, int]


class ImpactResponse(BaseModel):
    """``riichi impact --json`` over the server's sample logs (counts, item by item, the games' placements)."""

    model_config = OPEN
    ok: Literal[True]
    a: str
    b: str
    files: int
    rounds: int
    wins: int
    changed_rounds: int
    changed_wins: int
    items: list[dict[str, Any]]
    games: dict[str, Any] | None = None


class RulebookRow(BaseModel):
    model_config = OPEN
    name: str = Field(description="what a request's `rulebook` names")
    title: str | None
    extends: str | None
    file: bool = Field(description="true for a file of the operator's `--rulebook-dir`, false for a bundled rulebook")


class SheetResponse(BaseModel):
    """``POST /sheet``: the players' handout as text, in the format asked for."""

    model_config = OPEN
    ok: Literal[True]
    format: Literal["md", "html"]
    text: str


class TileSetResponse(BaseModel):
    model_config = OPEN
    ok: Literal[True]
    rulebook: str
    players: int
    tiles: list[str]
    red_fives: list[str]


class LaneCounts(BaseModel):
    model_config = OPEN
    in_flight: int
    refused: int


class HealthResponse(BaseModel):
    model_config = OPEN
    ok: Literal[True]
    version: str = Field(description="the installed riichi-rulebook version (also the OpenAPI document's)")
    workers_started: int
    workers_killed: int
    lanes: dict[str, LaneCounts]


ScoreAnswer = ScoreResponse | list[ScoreResponse]
AnalyzeAnswer = AnalyzeResponse | list[AnalyzeResponse | ErrorResponse]

# Why each error status is answered (every one with ``ErrorResponse``).
ERROR_STATUS: dict[int, str] = {
    400: "a malformed request (`invalid_request`, `invalid_notation`, `invalid_hand`, `invalid_situation`)",
    404: "an unknown rulebook, or one this server may not read (`unknown_rulebook`)",
    408: "the body was not whole within the server's body timeout (`limit_exceeded`)",
    413: f"past a size, count, time or cost bound (`limit_exceeded`; a list holds at most {MAX_BATCH:,} requests)",
    415: "a POST body not sent as `application/json` (`invalid_request`)",
    421: "a `Host` this server does not answer for (`invalid_request`)",
    422: "well-formed, but not a win, no yaku, or a rulebook with errors (`not_a_win`, `no_yaku`, `invalid_rulebook`)",
    500: "a bug of the server's (`internal_error`): please report it with the request",
    503: "the server's queue for this kind of request is full (`limit_exceeded`); retry after `Retry-After` seconds",
}
POST_ERRORS = (400, 404, 408, 413, 415, 421, 422, 500, 503)
GET_ERRORS = (421, 500)


def documented(ok: Any, description: str, errors: tuple[int, ...], **override: dict[str, Any]) -> dict[int | str, dict[str, Any]]:
    """A route's ``responses=``: its 200 answer, and the contract's error body for each status it may answer
    (``override``, keyed ``s422``, replaces one status's entry)."""
    out: dict[int | str, dict[str, Any]] = {200: override.get("s200", {"model": ok, "description": description})}
    for status in errors:
        out[status] = override.get(f"s{status}", {"model": ErrorResponse, "description": ERROR_STATUS[status]})
    return out


__all__ = [
    "ErrorResponse",
    "AnalyzeResponse",
    "CheckReport",
    "ExplainResponse",
    "DiffResponse",
    "ImpactResponse",
    "RulebookRow",
    "TileSetResponse",
    "SheetResponse",
    "HealthResponse",
    "ScoreAnswer",
    "AnalyzeAnswer",
    "ERROR_STATUS",
    "POST_ERRORS",
    "GET_ERRORS",
    "documented",
]
