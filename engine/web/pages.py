"""The pages (score a hand, write a rulebook, compare rulebooks, open an impact report) and the tile pictures
they draw.

Pages are rendered on the server from templates with the data they need (the rulebooks, the tiles, the
language's words for highlighting) embedded as JSON; a little JavaScript per page calls the HTTP API. No build
step, no file from elsewhere: the pages work offline.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

from engine.core.errors import EngineError
from engine.core.situation import COUNTER_FIELDS, COUNTER_LABELS, COUNTER_LIMITS, EXTRA_FLAGS, FACT_WORDS
from engine.web.api import list_rulebooks, state_of
from engine.web.impact import sample_listing, samples_rulebook
from engine.web.limits import DEFAULT_TIMEOUT, MAX_RULEBOOK_BYTES
from engine.web.tile_art import tile_svg
from engine.web.tile_sets import tile_set
from rulebooks import DEFAULT_RULEBOOK

router = APIRouter()

_TEMPLATES = Environment(
    loader=FileSystemLoader(str(resources.files("engine.web").joinpath("templates"))),
    autoescape=select_autoescape(["html"]),
)

# The starting text of the editor: a small variant of the default rulebook, with the habits a rulebook should
# have (a clause on every item, an example that `check` runs).
STARTER = f"""rulebook myclub "Our club" extends {DEFAULT_RULEBOOK}

# A local yaku: three triplets of consecutive numbers in one suit (333m 444m 555m).
@clause("club rule 4.2: three consecutive triplets in one suit, 2 han")
yaku sanrenkou "Three consecutive triplets" {{
  han = 2
  when = any(x in [m, p, s]: any(n in 1..7:
    has_triplet(tile_of(x, n)) and has_triplet(tile_of(x, n + 1))
    and has_triplet(tile_of(x, n + 2))))
  example "333444m678p55s win 5s ron seat S pon 555m" => {{han: 3, fu: 40, total: 5200}}
}}

@clause("club rule 7: no four-winds abortive draw")
remove abortive_draw suufon_renda
"""


def language_words() -> dict[str, list[str]]:
    """The words the editor highlights, from the one vocabulary (so highlighting never drifts from the checker)."""
    from ruledsl import vocabulary as V
    from ruledsl.parser import grammar_keywords

    keywords = sorted({*grammar_keywords(), *V.QUANTIFIERS})
    names = sorted({*V.FACTS, *V.FUNCTIONS, *V.CONSTANTS})
    return {"keywords": keywords, "kinds": sorted(V.ITEM_KINDS), "names": names}


# The situation's counters as the score form asks for them and the comparison says them (``engine.core.situation``):
# the request field, what players call it, its largest value and its meaning. The pages' scripts read these, so a
# new counter of ``Situation`` is a new input and a new word with no edit here or in the pages.
SITUATION_COUNTERS = [
    {"name": name, "label": COUNTER_LABELS[name], "max": COUNTER_LIMITS[name], "meaning": FACT_WORDS[name][0]}
    for name in COUNTER_FIELDS
]


def _page(request: Request, template: str, title: str, **data: Any) -> HTMLResponse:
    policy = state_of(request).policy
    # the situation's flags (but tsumo) for the score form's switches and the comparison's words, and its counters
    data.update(rulebooks=list_rulebooks(policy), default_rulebook=policy.default, situation_flags=EXTRA_FLAGS,
                situation_counters=SITUATION_COUNTERS)
    html = _TEMPLATES.get_template(template).render(title=title, page=template.split(".")[0], data=data)
    return HTMLResponse(html)


@router.get("/", response_class=HTMLResponse)
def score_page(request: Request) -> HTMLResponse:
    """The default rulebook's tile set comes with the page (its palette draws at once); another rulebook's is
    asked of ``GET /tile-set`` when it is chosen."""
    policy = state_of(request).policy
    try:
        first = tile_set(policy, policy.default)
    except EngineError:  # an operator's default with errors: the page asks, and shows the error in words
        first = None
    return _page(request, "score.html", "Score a hand", tile_set=first)


@router.get("/editor", response_class=HTMLResponse)
def editor_page(request: Request) -> HTMLResponse:
    return _page(request, "editor.html", "Write a rulebook", starter=STARTER, words=language_words(),
                 max_bytes=MAX_RULEBOOK_BYTES)


@router.get("/compare", response_class=HTMLResponse)
def compare_page(request: Request) -> HTMLResponse:
    return _page(request, "compare.html", "Compare rulebooks", timeout=DEFAULT_TIMEOUT, max_bytes=MAX_RULEBOOK_BYTES)


@router.get("/impact", response_class=HTMLResponse)
def impact_page(request: Request) -> HTMLResponse:
    """Open a report of ``riichi impact --json`` (read in the browser, never sent) or run one on the samples."""
    return _page(request, "impact.html", "Rule-change impact", samples=sample_listing(), played_under=samples_rulebook(),
                 timeout=state_of(request).pool.timeout)


@router.get("/tiles/{code}.svg")
def tile(code: str) -> Response:
    try:
        svg = tile_svg(code)
    except ValueError:
        return Response("not a tile", status_code=404, media_type="text/plain")
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})


__all__ = ["router", "language_words", "STARTER"]
