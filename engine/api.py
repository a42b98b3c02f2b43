"""The Python API for programs that embed the engine: load a rulebook once, score many hands.

    from engine.api import scorer
    rules = scorer(NAME_OR_PATH)                 # compiled once, cached per process
    result = rules.score({"hand": "234m567m789p46s88p5s", "win": "5s", "riichi": True, "dora_indicators": "4s"})

``score`` raises ``EngineError`` (with ``.code`` and ``.message``) for bad input or a hand that is not a win;
``score_json`` never raises and answers ``{"ok": false, "error": ...}`` instead, as the JSON-lines interface does.

Rounds and games under the same rulebook (``docs/round-engine.md``)::

    from engine.api import Round, RoundSetup, Game, rulebook
    r = Round(rulebook(NAME_OR_PATH), RoundSetup(dealer=0), seed=7)
    while not r.finished:
        seat = r.waiting()[0]
        r.apply(r.legal_actions(seat)[-1])     # IllegalAction (code ``illegal_action``) names the rule refusing one
    r.settlement                               # the contract's round settlement
    Game(rulebook(NAME_OR_PATH), seed=1, agents="shanten").play()   # the contract's game result

The round and game names are imported on first use, so that scoring alone never loads them.
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


def resettle(a: str | Scorer, b: str | Scorer, log: str, rounds: bool = True) -> dict:
    """One game log re-settled under rulebook ``b`` after ``a`` reproduced it: every win re-scored and (``rounds``)
    every round played again through the round engine, the changes charged to the items of the diff, the final
    placements under both (``riichi impact`` for one file).

    ``a`` and ``b`` are bundled names, rulebook files or scorers (``load_rulebook_text`` for one held in memory).
    """
    from engine.impact.files import impact_of_file
    from engine.impact.flow import FlowRules
    from engine.impact.variants import rules_of

    rules = rules_of(a, b)
    return impact_of_file(rules, log, FlowRules(rules) if rounds else None).to_json()


# name -> module: imported when first read (PEP 562), to keep the start-up of scoring short
_LAZY = {
    "Action": "engine.round",
    "IllegalAction": "engine.round",
    "Round": "engine.round",
    "RoundSetup": "engine.round",
    "Wall": "engine.round",
    "Game": "engine.game",
    "GameResult": "engine.game",
    "Bot": "engine.game.agents",
    "Observation": "engine.game.observation",
    "RiichiEnv": "engine.game.env",
    "play_game": "engine.game",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'engine.api' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = [*_LAZY, "EngineError", "Rulebook", "ScoreRequest", "ScoreResponse", "Scorer", "load_rulebook_text", "resettle", "rulebook", "scorer"]
