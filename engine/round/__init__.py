"""The round engine: one hand of riichi, from the deal to its settlement, under any compiled rulebook.

    from engine.round import Round, RoundSetup, Action, Wall, RoundRules, IllegalAction
    from engine.api import rulebook
    r = Round(rulebook(NAME), RoundSetup(), seed=1)   # NAME: a bundled rulebook or a path
    while not r.finished:
        seat = r.waiting()[0]
        r.apply(r.legal_actions(seat)[-1])
    r.settlement

See ``docs/round-engine.md``.
"""

from engine.round.actions import Action
from engine.round.round import IllegalAction, Round, RoundSetup
from engine.round.rules import InvalidRoundRules, RoundRules, round_rules
from engine.round.wall import Wall, tile_set

__all__ = ["Action", "IllegalAction", "InvalidRoundRules", "Round", "RoundRules", "RoundSetup", "Wall", "round_rules", "tile_set"]
