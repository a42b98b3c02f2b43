"""The HTTP API: the contract's commands as ``POST /score``, ``/analyze``, ``/check``, ``/explain``, ``/diff``,
``/impact``, ``GET /rulebooks``, ``GET /tile-set`` and ``GET /schema/{name}``, each answering the contract's JSON with a fitting status.

Scoring runs in the server process (the rulebooks it may name are the operator's, compiled once and cached);
checking, explaining and diffing may involve an uploaded rulebook, and an impact replays whole games, so they run
in a worker with a time bound (``engine.web.worker``). Nothing here computes on the event loop: a score or an
analysis runs in a thread of its lane (single requests and lists apart), and a job waits for its worker in the
jobs lane, whose queue is bounded (``engine.web.lanes``); a list is bounded in rulebooks and in seconds.
"""

from __future__ import annotations

import json
import os
import time
from collections import OrderedDict
from collections.abc import Callable
from threading import Lock
from typing import Any

from fastapi import APIRouter, Request
from pydantic import ValidationError

from engine.core.analysis import analyze as analyze_tiles
from engine.core.errors import EngineError, InternalError, InvalidRequest, LimitExceeded
from engine.core.version import installed_version
from engine.scoring.library import RulebookPolicy
from engine.services.schemas import SCHEMAS
from engine.web.errors import ContractJSON, answer, body, from_exception
from engine.web.impact import sample_paths
from engine.web.lanes import Lane
from engine.web.limits import MAX_BATCH, MAX_REQUEST_SECONDS, MAX_RULEBOOK_BYTES, MAX_RULEBOOKS_PER_REQUEST
from engine.web.models import (
    AnalyzeRequest,
    CheckRequest,
    DiffRequest,
    ExplainRequest,
    ImpactRequest,
    RulebookRef,
    Upload,
)
from engine.web.responses import (
    GET_ERRORS,
    POST_ERRORS,
    AnalyzeAnswer,
    CheckReport,
    DiffResponse,
    ErrorResponse,
    ExplainResponse,
    HealthResponse,
    ImpactResponse,
    RulebookRow,
    ScoreAnswer,
    TileSetResponse,
    documented,
)
from engine.web.state import ServerState
from engine.web.tile_sets import tile_set
from engine.web.validation import describe
from ruledsl.caches import register
from ruledsl.resolve import RULEBOOK_SUFFIX

router = APIRouter()

SCORE_BODY = {
    "description": "one score request (contract: Score request), or a list of at most 1,000 of them",
    "required": True,
    "content": {
        "application/json": {
            "schema": {
                "oneOf": [
                    {"$ref": "#/components/schemas/ScoreRequest"},
                    {"type": "array", "items": {"$ref": "#/components/schemas/ScoreRequest"}, "maxItems": MAX_BATCH},
                ]
            }
        }
    },
}


def state_of(request: Request) -> ServerState:
    return request.app.state.riichi


def parse_json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise InvalidRequest(f"the body is not JSON: {exc}") from None


def lane_for(state: ServerState, raw: bytes) -> Lane:
    """Lists run in the lists lane, so that a single request never waits behind a list of a thousand."""
    return state.batches if raw.lstrip()[:1] == b"[" else state.scores


@router.post(
    "/score",
    openapi_extra={"requestBody": SCORE_BODY},
    responses=documented(ScoreAnswer, "the score; for a list, a list of answers in order (each ok or not)", POST_ERRORS),
    summary="score a hand, or a list of hands",
)
async def score(request: Request) -> ContractJSON:
    """One request answers with its score (or an error with its status); a list answers 200 with one answer per
    request, in order, each ``ok`` or not, as the JSON-lines interface does. A list names at most
    ``MAX_RULEBOOKS_PER_REQUEST`` rulebooks and scores within the operator's ``--list-timeout`` seconds, else 413."""
    state = state_of(request)
    raw = await request.body()
    policy, seconds = state.policy, state.list_seconds
    return await lane_for(state, raw).run(lambda: respond(raw, lambda items: score_list(items, policy, seconds),
                                                          lambda item: score_one(item, policy)))


def respond(raw: bytes, many: Callable[[list[Any]], list[dict[str, Any]]],
            one: Callable[[Any], dict[str, Any]]) -> ContractJSON:
    """The answer to a body holding one request or a list of them (run in a lane's thread)."""
    data = parse_json(raw)
    if isinstance(data, list):
        if len(data) > MAX_BATCH:
            raise LimitExceeded(f"a list holds at most {MAX_BATCH:,} requests, got {len(data):,}")
        return ContractJSON(many(data))
    return answer(one(data))


def score_list(items: list[Any], policy: RulebookPolicy, seconds: float = MAX_REQUEST_SECONDS) -> list[dict[str, Any]]:
    """Every request of a list, within the list's bounds: its distinct rulebooks (each may cost a compile) and
    its seconds; past either, the whole list is ``limit_exceeded``."""
    named = set()
    for item in items:
        if isinstance(item, dict):
            try:
                named.add(policy.choose(item.get("rulebook")))
            except EngineError:  # answered in its place below
                pass
    if len(named) > MAX_RULEBOOKS_PER_REQUEST:
        raise LimitExceeded(
            f"a list may name at most {MAX_RULEBOOKS_PER_REQUEST} distinct rulebooks, got {len(named)}; "
            "send one list per few rulebooks"
        )
    return within_time(items, lambda item: score_one(item, policy), seconds)


def within_time(items: list[Any], one: Callable[[Any], dict[str, Any]],
                seconds: float = MAX_REQUEST_SECONDS) -> list[dict[str, Any]]:
    """Every item's answer, or ``limit_exceeded`` once the list has run ``seconds``: a list holds a scoring thread,
    and the operator bounds how long (``--list-timeout``)."""
    deadline = time.monotonic() + seconds
    answers = []
    for index, item in enumerate(items):
        if time.monotonic() > deadline:
            raise LimitExceeded(
                f"the list took more than {seconds:g} s and was stopped at request {index:,}; "
                "send shorter lists"
            )
        answers.append(one(item))
    return answers


def score_one(data: Any, policy: RulebookPolicy) -> dict[str, Any]:
    """The contract's answer to one request: the rulebook it names must be one the operator allows."""
    try:
        if not isinstance(data, dict):
            raise InvalidRequest("a score request must be a JSON object")
        return policy.scorer(data.get("rulebook")).score(data, chosen=True)
    except (EngineError, InternalError) as exc:  # a bug answers this item (500 when alone), not the whole list
        return from_exception(exc)
    except RecursionError:
        return body("limit_exceeded", "the request is nested too deeply")


ANALYZE_BODY = {
    "description": 'one analysis `{"tiles": "..."}` (`riichi analyze --json`), or a list of at most 1,000 of them',
    "required": True,
    "content": {
        "application/json": {
            "schema": {
                "oneOf": [
                    {"$ref": "#/components/schemas/AnalyzeRequest"},
                    {"type": "array", "items": {"$ref": "#/components/schemas/AnalyzeRequest"}, "maxItems": MAX_BATCH},
                ]
            }
        }
    },
}


@router.post("/analyze", openapi_extra={"requestBody": ANALYZE_BODY},
             responses=documented(AnalyzeAnswer, "the analysis; for a list, a list of answers in order (each ok or not)",
                                  tuple(s for s in POST_ERRORS if s not in (404, 422))),
             summary="shanten and waits, or every decomposition of a complete hand")
async def analyze(request: Request) -> ContractJSON:
    """``{"tiles": "..."}`` answers one analysis; a list of such objects answers a list."""
    state = state_of(request)
    raw = await request.body()
    seconds = state.list_seconds
    return await lane_for(state, raw).run(lambda: respond(raw, lambda items: within_time(items, analyze_one, seconds),
                                                          analyze_one))


def analyze_one(data: Any) -> dict[str, Any]:
    try:
        if not isinstance(data, dict):
            raise InvalidRequest('an analyze request is an object `{"tiles": "..."}`')
        return {"ok": True, **analyze_tiles(AnalyzeRequest.model_validate(data).tiles)}
    except EngineError as exc:
        return from_exception(exc)
    except ValidationError as exc:
        return body("invalid_request", describe(exc.errors()))
    except (RecursionError, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - a bug answers this item (500 when alone), not the whole list
        return from_exception(InternalError.of(exc, "analysing"))


def vet(ref: RulebookRef, policy: RulebookPolicy) -> dict[str, str]:
    """What a worker may load for a request's rulebook: a name the operator allows, or a bounded upload."""
    if isinstance(ref, Upload):
        size = len(ref.text.encode("utf-8", "surrogatepass"))
        if size > MAX_RULEBOOK_BYTES:
            raise LimitExceeded(f"an uploaded rulebook holds at most {MAX_RULEBOOK_BYTES:,} bytes, got {size:,}")
        return {"text": ref.text, "file": ref.file}
    return {"name": policy.choose(ref)}


@router.post(
    "/check",
    summary="validate a rulebook and run its examples",
    responses=documented(CheckReport, "the report of a rulebook without errors (warnings alone leave it usable)", POST_ERRORS,
                         s422={"model": CheckReport | ErrorResponse,
                               "description": "the report of a rulebook with errors (`ok` false, its diagnostics), or an error"}),
)
async def check(payload: CheckRequest, request: Request) -> ContractJSON:
    """The report: 200 when the rulebook has no errors (warnings alone leave it usable), 422 when it has errors
    or a failing example (``ok`` false, with every diagnostic), as the contract's 422 is "a rulebook with errors"."""
    state = state_of(request)
    ref = vet(payload.rulebook, state.policy)
    report = await job(state, "check", ref=ref, examples=payload.examples)
    if report.get("ok") is False and "error" not in report:  # diagnostics found, not a failure to check
        return ContractJSON(report, status_code=422)
    return answer(report)


@router.post("/explain", summary="a rulebook, or one of its items, in plain English",
             responses=documented(ExplainResponse, "the explanation", POST_ERRORS))
async def explain(payload: ExplainRequest, request: Request) -> ContractJSON:
    state = state_of(request)
    ref = vet(payload.rulebook, state.policy)
    return answer(await job(state, "explain", ref=ref, item=payload.item, line=payload.line))


async def job(state: ServerState, name: str, **kwargs: Any) -> dict[str, Any]:
    """A worker's answer, waited for in the jobs lane (a thread per worker; the rest wait in its bounded queue)."""
    return await state.jobs.run(lambda: state.pool.run(name, **kwargs))


@router.post("/diff", summary="the difference of two rulebooks, with witness hands",
             responses=documented(DiffResponse, "every changed item, each with a witness or the reason there is none", POST_ERRORS))
async def diff(payload: DiffRequest, request: Request) -> ContractJSON:
    state = state_of(request)
    a, b = vet(payload.a, state.policy), vet(payload.b, state.policy)
    key = None
    if "name" in a and "name" in b and "/" not in a["name"] + b["name"]:  # bundled: the answer never changes
        key = (a["name"], b["name"], payload.hands)
        cached = _DIFFS.get(key)
        if cached is not None:
            return answer(cached)
    result = await job(state, "diff", a=a, b=b, hands=payload.hands)
    if key is not None and result.get("ok"):
        _DIFFS.put(key, result)
    return answer(result)


@router.post("/impact", summary="what changing rulebook A to B does to the sample games, charged item by item",
             responses=documented(ImpactResponse, "the impact report", POST_ERRORS))
async def impact(payload: ImpactRequest, request: Request) -> ContractJSON:
    """``riichi impact --json`` over sample logs shipped with the server (never a path from the request), in a
    worker with the same time and memory bounds as a diff; the report of two bundled rulebooks is kept a while."""
    state = state_of(request)
    a, b = state.policy.choose(payload.a), state.policy.choose(payload.b)
    paths = sample_paths(payload.logs)
    key = None
    if "/" not in a + b:  # bundled: the answer never changes
        key = (a, b, tuple(paths), payload.wins_only)
        cached = _IMPACTS.get(key)
        if cached is not None:
            return answer(cached)
    result = await job(state, "impact", a={"name": a}, b={"name": b}, logs=paths, flow=not payload.wins_only)
    if key is not None and result.get("ok"):
        _IMPACTS.put(key, result)
    return answer(result)


class _Recent:
    """The last few diffs and impact reports of bundled rulebooks (a page reloaded, the same pair asked by many
    players)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self._lock = Lock()

    def get(self, key: tuple[Any, ...]) -> dict[str, Any] | None:
        with self._lock:
            return self._items.get(key)

    def put(self, key: tuple[Any, ...], value: dict[str, Any]) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


_DIFFS = _Recent(16)
_IMPACTS = _Recent(8)
register("engine.web.api.diffs", _DIFFS.clear, _DIFFS.__len__, _DIFFS.size)
register("engine.web.api.impacts", _IMPACTS.clear, _IMPACTS.__len__, _IMPACTS.size)


@router.get("/rulebooks", summary="the rulebooks a request may name",
            responses=documented(list[RulebookRow], "bundled rulebooks, then the files of `--rulebook-dir`", GET_ERRORS))
def rulebooks(request: Request) -> ContractJSON:
    """The bundled rulebooks (name, title, extends), then the files of ``--rulebook-dir`` (``file: true``)."""
    return ContractJSON(list_rulebooks(state_of(request).policy))


def list_rulebooks(policy: RulebookPolicy, limit: int = 200) -> list[dict[str, Any]]:
    from engine.services.rulebooks import listing

    rows: list[dict[str, Any]] = [{**row, "file": False} for row in listing()]
    for folder in policy.dirs:
        for root, _dirs, files in os.walk(folder):
            for name in sorted(files):
                if name.endswith(RULEBOOK_SUFFIX) and len(rows) < limit:
                    rel = os.path.relpath(os.path.join(root, name), folder)
                    if not _may_name(policy, rel):  # a link leading out of the folder: not offered
                        continue
                    rows.append({"name": rel, "title": None, "extends": None, "file": True})
    return rows


def _may_name(policy: RulebookPolicy, rel: str) -> bool:
    try:
        policy.choose(rel)
    except EngineError:
        return False
    return True


@router.get("/tile-set", summary="the tiles a hand may hold under a rulebook (its red fives, its players' tiles)",
            responses=documented(TileSetResponse, "the rulebook's tiles", (400, 404, 413, 421, 422, 500, 503)))
async def rulebook_tiles(rulebook: str, request: Request) -> ContractJSON:
    """The Score page's palette for the chosen rulebook: ``settings table tiles`` and ``red_fives`` as a list of
    tiles in mpsz notation (``0p`` a red five), in the palette's order; compiled in the scores lane."""
    state = state_of(request)
    try:
        found = await state.scores.run(lambda: tile_set(state.policy, rulebook))
    except EngineError as exc:
        return answer(from_exception(exc))
    return ContractJSON(found)


@router.get("/schema/{name}", summary="the JSON Schema of a contract model (as `riichi schema NAME`)",
            description=f"`name` is one of: {', '.join(f'`{n}`' for n in SCHEMAS)}.",
            responses=documented(dict[str, Any], "the model's JSON Schema", (404, *GET_ERRORS),
                                 s404={"model": ErrorResponse, "description": "no schema of that name (`invalid_request`)"}),
            response_model=None)
def schema(name: str) -> ContractJSON:
    model = SCHEMAS.get(name)
    if model is None:
        return ContractJSON(body("invalid_request", f"unknown schema `{name[:80]}`; schemas: {', '.join(SCHEMAS)}"), 404)
    return ContractJSON(model.model_json_schema())


@router.get("/health", summary="whether the server answers, its version, and its workers' and lanes' counts",
            responses=documented(HealthResponse, "the server answers", GET_ERRORS), response_model=None)
async def health(request: Request) -> dict[str, Any]:
    """Answered on the event loop itself (no thread), so that it answers whatever the lanes hold."""
    state = state_of(request)
    pool = state.pool
    lanes = {lane.name: {"in_flight": lane.in_flight, "refused": lane.refused}
             for lane in (state.scores, state.batches, state.jobs)}
    return {"ok": True, "version": installed_version(), "workers_started": pool.started, "workers_killed": pool.killed, "lanes": lanes}


__all__ = ["router", "score_one", "vet", "list_rulebooks"]
