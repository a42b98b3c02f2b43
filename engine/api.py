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

The round, game and replay names are imported on first use, so that scoring alone never loads them; type checkers
see the real names (``TYPE_CHECKING`` imports), so that the examples type-check under ``mypy --strict``.

Typed answers (``engine.services.outcome``): ``score_model``, ``settle_model`` and ``play_model`` give the contract's pydantic
models; ``attempt(call)`` gives ``Ok`` or ``Failed`` (an ``ErrorCode``) instead of raising. Logs held in memory:
``replay(bytes_or_text)`` (``engine.replay.source``). Names from other people: ``RulebookPolicy`` (docs/embedding.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.errors import (
    CODES,
    EngineError,
    InternalError,
    InvalidHand,
    InvalidRequest,
    InvalidRulebook,
    InvalidSituation,
    LimitExceeded,
    NotAWin,
    NoYaku,
    UnknownRulebook,
)
from engine.core.lazy import lazy_names
from engine.core.situation import Situation
from engine.scoring.library import (
    RulebookPolicy,
    forget,
    rulebook,
    rulebook_from_text,
    scorer,
    scorer_from_text,
)
from engine.scoring.request import ScoreRequest, ScoreResponse
from engine.scoring.score import Scorer
from engine.services.outcome import (
    ErrorCode,
    ErrorInfo,
    Failed,
    Ok,
    Settled,
    attempt,
    play_model,
    score_model,
    settle_model,
)
from ruledsl.compile import Rulebook
from ruledsl.diagnostics import RulebookError
from ruledsl.rulebook_files import UnreadableRulebook, confined


def load_rulebook_text(text: str, file: str = "<memory>") -> Scorer:
    """A scorer for rulebook text held in memory (it may ``extends`` a bundled rulebook); the same text again
    gives the same scorer without compiling it again (``library.scorer_from_text`` keys it by content)."""
    return scorer_from_text(text, file)


def resettle(a: str | Scorer, b: str | Scorer, log: str, rounds: bool = True) -> dict[str, Any]:
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
    "InvalidRoundRules": "engine.round",
    "Round": "engine.round",
    "RoundSetup": "engine.round",
    "Wall": "engine.round",
    "Agent": "engine.game.agents",
    "Game": "engine.game",
    "GameResult": "engine.game",
    "Bot": "engine.game.agents",
    "Observation": "engine.game.observation",
    "RiichiEnv": "engine.game.env",
    "GameStuck": "engine.game",
    "play_game": "engine.game",
    "ReplayReport": "engine.replay.rounds",
    "replay": "engine.replay.source",
    "replay_log": "engine.replay.source",
}

if TYPE_CHECKING:  # type checkers see the real names; at run time ``__getattr__`` imports them on first use
    from engine.game import Game, GameResult, GameStuck, play_game
    from engine.game.agents import Agent, Bot
    from engine.game.env import RiichiEnv
    from engine.game.observation import Observation
    from engine.replay.rounds import ReplayReport
    from engine.replay.source import replay, replay_log
    from engine.round import Action, IllegalAction, InvalidRoundRules, Round, RoundSetup, Wall


_lazy = lazy_names(__name__, _LAZY, globals())


def __getattr__(name: str) -> Any:
    return _lazy(name)


__all__ = [
    "Action",
    "Agent",
    "Bot",
    "CODES",
    "EngineError",
    "ErrorCode",
    "ErrorInfo",
    "Failed",
    "Game",
    "GameResult",
    "GameStuck",
    "IllegalAction",
    "InternalError",
    "InvalidHand",
    "InvalidRequest",
    "InvalidRoundRules",
    "InvalidRulebook",
    "Observation",
    "RiichiEnv",
    "InvalidSituation",
    "LimitExceeded",
    "NoYaku",
    "NotAWin",
    "Ok",
    "ReplayReport",
    "Round",
    "RoundSetup",
    "Rulebook",
    "RulebookError",
    "RulebookPolicy",
    "ScoreRequest",
    "ScoreResponse",
    "Scorer",
    "Settled",
    "Situation",
    "UnknownRulebook",
    "UnreadableRulebook",
    "Wall",
    "attempt",
    "confined",
    "forget",
    "load_rulebook_text",
    "play_game",
    "play_model",
    "replay",
    "replay_log",
    "resettle",
    "rulebook",
    "rulebook_from_text",
    "score_model",
    "scorer",
    "settle_model",
]
