"""The players' handout on the web: ``GET /sheet`` for a rulebook the server may name (the link the Compare page
follows, a page to print), ``POST /sheet`` for one sent as text (the Write page's rulebook).

The handout is made in a worker, like a check or a diff (``engine.web.jobs.sheet``): an uploaded rulebook is a
stranger's program, bounded in time and memory there. Every word of a rulebook in the page is escaped by the
renderer (``engine.sheet.html``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from pydantic import BaseModel, Field

from engine.web.api import job, state_of, vet
from engine.web.errors import ContractJSON, answer
from engine.web.models import STRICT, RulebookRef
from engine.web.responses import POST_ERRORS, SheetResponse, documented

router = APIRouter()
Format = Literal["md", "html"]


class SheetRequest(BaseModel):
    """``riichi sheet`` over HTTP: the handout of ``rulebook``; with ``against``, every difference marked."""

    model_config = STRICT
    rulebook: RulebookRef
    against: RulebookRef | None = None
    format: Format = Field(default="html", description="`html`, a printable page, or `md`, Markdown")


@router.get(
    "/sheet",
    summary="the players' handout of a rulebook: every rule with its clause, the payment tables computed from it",
    responses=documented(
        SheetResponse,
        "the handout itself: a printable HTML page, or Markdown with `format=md` (errors are the contract's JSON)",
        (400, 404, 408, 413, 421, 422, 500, 503),
        s200={
            "description": "the handout itself: a printable HTML page, or Markdown with `format=md`",
            "content": {"text/html": {"schema": {"type": "string"}}, "text/markdown": {"schema": {"type": "string"}}},
        },
    ),
)
async def sheet_page(
    request: Request,
    rulebook: Annotated[str, Query(max_length=4096, description="a rulebook the server may name")],
    against: Annotated[str | None, Query(max_length=4096, description="mark every difference from this rulebook")] = None,
    format: Annotated[Format, Query(description="`html` (a printable page) or `md`")] = "html",
) -> Response:
    state = state_of(request)
    ref = vet(rulebook, state.policy)
    other = vet(against, state.policy) if against else None
    result = await job(state, "sheet", ref=ref, against=other, format=format)
    if not result.get("ok"):
        return answer(result)
    if format == "md":
        return PlainTextResponse(result["text"], media_type="text/markdown; charset=utf-8")
    return HTMLResponse(result["text"])


@router.post(
    "/sheet",
    summary="the players' handout of a rulebook named or sent as text, as JSON {ok, format, text}",
    responses=documented(SheetResponse, "the handout as text in the format asked for", POST_ERRORS),
)
async def sheet(payload: SheetRequest, request: Request) -> ContractJSON:
    state = state_of(request)
    ref = vet(payload.rulebook, state.policy)
    other = vet(payload.against, state.policy) if payload.against is not None else None
    return answer(await job(state, "sheet", ref=ref, against=other, format=payload.format))


__all__ = ["router", "SheetRequest"]
