"""The players' handout (``riichi sheet``): a whole rulebook written for the people who play by it.

``content`` decides what the handout says (from the rulebook's items and the engine's own payments),
``payments`` computes the tables, ``markdown`` and ``html`` lay it out.
"""

from __future__ import annotations

from engine.scoring.score import Scorer

FORMATS = ("md", "html")


def handout(scorer: Scorer, against: Scorer | None = None, fmt: str = "md") -> str:
    """The handout of ``scorer``'s rulebook as Markdown or HTML; with ``against``, every difference marked."""
    from engine.sheet import html, markdown
    from engine.sheet.content import build

    sheet = build(scorer, against)
    return html.render(sheet) if fmt == "html" else markdown.render(sheet)


__all__ = ["FORMATS", "handout"]
