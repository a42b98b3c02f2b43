"""The Python API for programs that embed the engine: load a rulebook once, score many hands.

    from engine.api import scorer
    rules = scorer(NAME_OR_PATH)                 # compiled once, cached per process
    result = rules.score({"hand": "234m567m789p46s88p5s", "win": "5s", "riichi": True, "dora_indicators": "4s"})

``score`` raises ``EngineError`` (with ``.code`` and ``.message``) for bad input or a hand that is not a win;
``score_json`` never raises and answers ``{"ok": false, "error": ...}`` instead, as the JSON-lines interface does.
"""

from __future__ import annotations

from engine.errors import EngineError
from engine.library import rulebook, scorer
from engine.request import ScoreRequest, ScoreResponse
from engine.score import Scorer
from ruledsl.compile import Rulebook, compile_rulebook
from ruledsl.resolve import resolve


def load_rulebook_text(text: str, file: str = "<memory>") -> Scorer:
    """A scorer for rulebook text held in memory (it may ``extends`` a bundled rulebook)."""
    return Scorer(compile_rulebook(resolve(file, text=text, file=file)))


__all__ = ["EngineError", "Rulebook", "ScoreRequest", "ScoreResponse", "Scorer", "load_rulebook_text", "rulebook", "scorer"]
