"""The HTTP API: the contract's commands as ``POST /score``, ``/analyze``, ``/check``, ``/explain``, ``/diff``,
``/impact``, ``GET /rulebooks`` and ``GET /schema/{name}``, each answering the contract's JSON with a fitting status.

Scoring runs in the server process (the rulebooks it may name are the operator's, compiled once and cached);
checking, explaining and diffing may involve an uploaded rulebook, and an impact replays whole games, so they run
in a worker with a time bound (``engine.web.worker``).
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from threading import Lock
from typing import Any

from fastapi import APIRouter, Request

from engine.analysis import analyze as analyze_tiles
from engine.errors import EngineError, InvalidRequest, LimitExceeded
from engine.library import RulebookPolicy
from engine.request import SCHEMAS, ScoreResponse
from engine.web.errors import ContractJSON, answer, body, from_exception
from engine.web.impact import sample_paths
from engine.web.limits import MAX_BATCH, MAX_RULEBOOK_BYTES
from engine.web.models import (
    AnalyzeRequest,
    CheckRequest,
    DiffRequest,
    ExplainRequest,
    ImpactRequest,
    RulebookRef,
    Upload,
)
from engine.web.state import ServerState
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


async def json_body(request: Request) -> Any:
    raw = await request.body()
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise InvalidRequest(f"the body is not JSON: {exc}") from None


@router.post(
    "/score",
    openapi_extra={"requestBody": SCORE_BODY},
    responses={200: {"model": ScoreResponse, "description": "the score, or a list of answers (each ok or not)"}},
    summary="score a hand, or a list of hands",
)
async def score(request: Request) -> ContractJSON:
    """One request answers with its score (or an error with its status); a list answers 200 with one answer per
    request, in order, each ``ok`` or not, as the JSON-lines interface does."""
    policy = state_of(request).policy
    data = await json_body(request)
    if isinstance(data, list):
        if len(data) > MAX_BATCH:
            raise LimitExceeded(f"a list holds at most {MAX_BATCH:,} score requests, got {len(data):,}")
        return ContractJSON([score_one(item, policy) for item in data])
    return answer(score_one(data, policy))


def score_one(data: Any, policy: RulebookPolicy) -> dict[str, Any]:
    """The contract's answer to one request: the rulebook it names must be one the operator allows."""
    try:
        if not isinstance(data, dict):
            raise InvalidRequest("a score request must be a JSON object")
        return policy.scorer(data.get("rulebook")).score(data)
    except EngineError as exc:
        return from_exception(exc)
    except RecursionError:
        return body("limit_exceeded", "the request is nested too deeply")


@router.post("/analyze", summary="shanten and waits, or every decomposition of a complete hand")
async def analyze(request: Request) -> ContractJSON:
    """``{"tiles": "..."}`` answers one analysis; a list of such objects answers a list."""
    data = await json_body(request)
    if isinstance(data, list):
        if len(data) > MAX_BATCH:
            raise LimitExceeded(f"a list holds at most {MAX_BATCH:,} requests, got {len(data):,}")
        return ContractJSON([analyze_one(item) for item in data])
    return answer(analyze_one(data))


def analyze_one(data: Any) -> dict[str, Any]:
    try:
        tiles = AnalyzeRequest.model_validate(data).tiles if isinstance(data, dict) else None
        if tiles is None:
            raise InvalidRequest('an analyze request is an object `{"tiles": "..."}`')
        return {"ok": True, **analyze_tiles(tiles)}
    except EngineError as exc:
        return from_exception(exc)
    except ValueError as exc:  # pydantic's ValidationError
        return body("invalid_request", str(exc).splitlines()[0])


def vet(ref: RulebookRef, policy: RulebookPolicy) -> dict[str, str]:
    """What a worker may load for a request's rulebook: a name the operator allows, or a bounded upload."""
    if isinstance(ref, Upload):
        size = len(ref.text.encode("utf-8", "surrogatepass"))
        if size > MAX_RULEBOOK_BYTES:
            raise LimitExceeded(f"an uploaded rulebook holds at most {MAX_RULEBOOK_BYTES:,} bytes, got {size:,}")
        return {"text": ref.text, "file": ref.file}
    return {"name": policy.choose(ref)}


@router.post("/check", summary="validate a rulebook and run its examples")
def check(payload: CheckRequest, request: Request) -> ContractJSON:
    """200 with the report (``ok`` false when it has errors: the diagnostics are the answer)."""
    state = state_of(request)
    ref = vet(payload.rulebook, state.policy)
    return answer(state.pool.run("check", ref=ref, examples=payload.examples))


@router.post("/explain", summary="a rulebook, or one of its items, in plain English")
def explain(payload: ExplainRequest, request: Request) -> ContractJSON:
    state = state_of(request)
    ref = vet(payload.rulebook, state.policy)
    return answer(state.pool.run("explain", ref=ref, item=payload.item, line=payload.line))


@router.post("/diff", summary="the difference of two rulebooks, with witness hands")
def diff(payload: DiffRequest, request: Request) -> ContractJSON:
    state = state_of(request)
    a, b = vet(payload.a, state.policy), vet(payload.b, state.policy)
    key = None
    if "name" in a and "name" in b and "/" not in a["name"] + b["name"]:  # bundled: the answer never changes
        key = (a["name"], b["name"], payload.hands)
        cached = _DIFFS.get(key)
        if cached is not None:
            return answer(cached)
    result = state.pool.run("diff", a=a, b=b, hands=payload.hands)
    if key is not None and result.get("ok"):
        _DIFFS.put(key, result)
    return answer(result)


@router.post("/impact", summary="what changing rulebook A to B does to the sample games, charged item by item")
def impact(payload: ImpactRequest, request: Request) -> ContractJSON:
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
    result = state.pool.run("impact", a={"name": a}, b={"name": b}, logs=paths, flow=not payload.wins_only)
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


_DIFFS = _Recent(16)
_IMPACTS = _Recent(8)


@router.get("/rulebooks", summary="the rulebooks a request may name")
def rulebooks(request: Request) -> ContractJSON:
    """The bundled rulebooks (name, title, extends), then the files of ``--rulebook-dir`` (``file: true``)."""
    return ContractJSON(list_rulebooks(state_of(request).policy))


def list_rulebooks(policy: RulebookPolicy, limit: int = 200) -> list[dict[str, Any]]:
    from engine.cli.rulebooks import listing

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


@router.get("/schema/{name}", summary="the JSON Schema of a contract model")
def schema(name: str) -> ContractJSON:
    model = SCHEMAS.get(name)
    if model is None:
        return ContractJSON(body("invalid_request", f"unknown schema `{name[:80]}`; schemas: {', '.join(SCHEMAS)}"), 404)
    return ContractJSON(model.model_json_schema())


@router.get("/health", summary="whether the server answers, and its workers' counts")
def health(request: Request) -> dict[str, Any]:
    pool = state_of(request).pool
    return {"ok": True, "workers_started": pool.started, "workers_killed": pool.killed}


__all__ = ["router", "score_one", "vet", "list_rulebooks"]
