"""Every game-level name of the rule language executes: for each `settings table` name the game reads and each
`settings game` name, a scenario whose result moves when only that value moves.

The scenarios run the pure progression (`engine.game.progression.advance`) and the final table
(`engine.game.result`) from settlement dicts, so each is a few lines: where the game stands, one settlement, and
what changes. `renchan`, `honba_increase`, `honba_reset` and `voluntary_noten` decide the round's own settlement;
their scenarios are self-played games (see `test_round_level_game_names_move_a_played_game`).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.game.progression import GameState, advance, start
from engine.game.result import game_result
from engine.game.rules import GameRules
from ruledsl import vocabulary as V
from ruledsl.record import replace
from tests.game.helpers import rules, settlement

South4 = 1  # wind index of the second wind of a hanchan


def _at(r: GameRules, wind: int, dealer: int, scores: tuple[int, ...], sticks: int = 0) -> GameState:
    return replace(start(r), wind_index=wind, dealer=dealer, scores=scores, sticks=sticks, rounds_played=7)


def _outcome(r: GameRules, state: GameState, s: dict[str, Any]) -> tuple:
    after = advance(r, state, s)
    return (after.ended_by, after.wind_index, after.dealer)


def _final(r: GameRules, scores: tuple[int, ...], sticks: int = 0) -> dict[str, Any]:
    state = replace(start(r), scores=scores, sticks=sticks, rounds_played=8, ended_by="last_round")
    return game_result(r, state, "variant", 1)


# ---- scenarios: each takes the rules and returns something that must differ between the two values
def start_points(r: GameRules):
    return start(r).scores


def rounds(r: GameRules):
    # East 4 ends without renchan: an east-only game is over, a hanchan goes into South.
    state = _at(r, 0, 3, (25000,) * 4)
    return _outcome(r, state, settlement(dealer_next=0, renchan=False))


def bust_below(r: GameRules):
    state = _at(r, 0, 0, (25000,) * 4)
    return _outcome(r, state, settlement(deltas=(3000, 0, 0, -26000), dealer_next=1, renchan=False, winners=(0,)))


bust_ends_game = bust_below


def _last_dealer_keeps_seat(r: GameRules, kind: str, scores=(20000, 20000, 20000, 40000)):
    state = _at(r, South4, 3, scores)
    winners = (3,) if kind == "win" else ()
    tenpai = (3,) if kind == "exhaustive" else None
    return _outcome(r, state, settlement(kind, dealer_next=3, renchan=True, winners=winners, tenpai=tenpai))


def agari_yame(r: GameRules):
    return _last_dealer_keeps_seat(r, "win")


def tenpai_yame(r: GameRules):
    return _last_dealer_keeps_seat(r, "exhaustive")


def yame_min_points(r: GameRules):
    return _last_dealer_keeps_seat(r, "win", scores=(22000, 22000, 22000, 34000))


def target_points(r: GameRules):
    # South 4 passes with a top of 29,000: under a 30,000 target the game goes into West.
    state = _at(r, South4, 3, (29000, 28000, 22000, 21000))
    return _outcome(r, state, settlement(dealer_next=0, renchan=False))


def extension_rounds(r: GameRules):
    # The last West hand passes with nobody at the target: one extension wind ends the game, two go on.
    state = _at(r, 2, 3, (29000, 28000, 22000, 21000))
    return _outcome(r, state, settlement(dealer_next=0, renchan=False))


def extension_ends(r: GameRules):
    # West 1 leaves a player at the target: sudden death ends now, "round_end" plays West to its end.
    state = _at(r, 2, 0, (29000, 28000, 22000, 21000))
    return _outcome(r, state, settlement(deltas=(-2000, 3000, 0, -1000), dealer_next=1, renchan=False, winners=(1,)))


def leftover_sticks(r: GameRules):
    return _final(r, (40000, 30000, 20000, 8000), sticks=2)["final_points"]


def uma(r: GameRules):
    return _final(r, (40000, 30000, 20000, 10000))["scores"]


def floating_uma(r: GameRules):
    # Two players finish above the 30,000 return: the floating table's second entry replaces `uma`.
    return _final(r, (40000, 32000, 18000, 10000))["scores"]


def oka_return(r: GameRules):
    return _final(r, (40000, 30000, 20000, 10000))["scores"]


def tie_break(r: GameRules):
    return _final(r, (35000, 35000, 20000, 10000))["scores"]


def score_rounding(r: GameRules):
    return _final(r, (40300, 30500, 19600, 9600))["scores"]


def score_rounding_points(r: GameRules):
    # 25,500 in second place: -4.5 from the return rounds to -4 (five down, six up), 25,500 to 26,000 (-4 too)
    # only when the points are rounded; 34,500 tells the two apart: +4 against +5.
    return _final(r, (40000, 34500, 15500, 10000))["scores"]


def players(r: GameRules):
    return start(r).scores


def riichi_deposit(r: GameRules):
    return leftover_sticks(r)


def dealer_win_streak_breaks(r: GameRules):
    # The South dealer, three wins in a row, keeps the seat tenpai at an exhaustive draw: does his count go on?
    state = replace(_at(r, 0, 1, (25000,) * 4), dealer_wins=3)
    return advance(r, state, settlement("exhaustive", dealer_next=1, renchan=True, tenpai=(1,))).dealer_wins


HANCHAN_WEST = {"target_points": 30000, "extension_rounds": ["W"]}
# name -> (scenario, rulebook keyword arguments for value A, for value B); `table` keys go in a `table` dict.
SCENARIOS: dict[str, tuple[Any, dict[str, Any], dict[str, Any]]] = {
    "start_points": (start_points, {"table": {"start_points": 25000}}, {"table": {"start_points": 30000}}),
    "rounds": (rounds, {"table": {"rounds": ["E"]}}, {"table": {"rounds": ["E", "S"]}}),
    "players": (players, {"table": {"players": 4}}, {"table": {"players": 3}}),
    "riichi_deposit": (riichi_deposit, {"table": {"riichi_deposit": 1000}}, {"table": {"riichi_deposit": 1500}}),
    "bust_below": (bust_below, {"bust_below": 0}, {"bust_below": -5000}),
    "bust_ends_game": (bust_ends_game, {"bust_ends_game": True}, {"bust_ends_game": False}),
    "agari_yame": (agari_yame, {"agari_yame": False}, {"agari_yame": True}),
    "tenpai_yame": (tenpai_yame, {"tenpai_yame": False}, {"tenpai_yame": True}),
    "yame_min_points": (yame_min_points, {"agari_yame": True, "yame_min_points": 30000}, {"agari_yame": True, "yame_min_points": 35000}),
    "target_points": (target_points, {**HANCHAN_WEST, "target_points": 29000}, {**HANCHAN_WEST, "target_points": 30000}),
    "extension_rounds": (extension_rounds, {**HANCHAN_WEST}, {**HANCHAN_WEST, "extension_rounds": ["W", "N"]}),
    "extension_ends": (extension_ends, {**HANCHAN_WEST, "extension_ends": "sudden_death"}, {**HANCHAN_WEST, "extension_ends": "round_end"}),
    "leftover_sticks": (leftover_sticks, {"leftover_sticks": "first_place"}, {"leftover_sticks": "table"}),
    "uma": (uma, {"uma": []}, {"uma": [20, 10, -10, -20]}),
    "floating_uma": (
        floating_uma,
        {"oka_return": 30000, "uma": [20, 10, -10, -20]},
        {"oka_return": 30000, "uma": [20, 10, -10, -20], "floating_uma": [[12, -1, -3, -8], [8, 4, -4, -8], [8, 3, 1, -12]]},
    ),
    "oka_return": (oka_return, {"oka_return": 25000}, {"oka_return": 30000}),
    "tie_break": (tie_break, {"uma": [20, 10, -10, -20], "tie_break": "seat_order"}, {"uma": [20, 10, -10, -20], "tie_break": "share"}),
    "score_rounding": (score_rounding, {"score_rounding": "exact"}, {"score_rounding": "five_down_six_up"}),
    # a second row for `score_rounding`: its third value against the second
    "score_rounding four_down_five_up": (
        score_rounding_points, {"score_rounding": "five_down_six_up"}, {"score_rounding": "four_down_five_up"},
    ),
    "dealer_win_streak_breaks": (dealer_win_streak_breaks, {}, {"dealer_win_streak_breaks": ["abortive"]}),
}
ROUND_LEVEL = {"renchan", "honba_increase", "honba_reset", "voluntary_noten"}
TABLE_NAMES_THE_GAME_READS = {"start_points", "rounds", "players", "riichi_deposit"}


def _build(kwargs: dict[str, Any]) -> GameRules:
    kwargs = dict(kwargs)
    base = kwargs.pop("base", "house")
    table = kwargs.pop("table", None)
    return rules(base, table, **kwargs)


def test_every_game_name_has_a_scenario():
    assert set(V.SETTINGS["game"]) - ROUND_LEVEL == {n.split()[0] for n in SCENARIOS} - TABLE_NAMES_THE_GAME_READS
    assert TABLE_NAMES_THE_GAME_READS <= set(V.SETTINGS["table"])


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_scenario_moves_when_only_that_value_moves(name):
    scenario, a, b = SCENARIOS[name]
    assert scenario(_build(a)) != scenario(_build(b))


# ---- the names the round's own settlement reads, moved through self-played games
class _DeclaresNoten:
    """A shanten agent that declares noten whenever the rulebook lets it (so `voluntary_noten` has an effect)."""

    def __init__(self, seed: int) -> None:
        from engine.game.agents import ShantenAgent

        self.inner = ShantenAgent(seed)

    def act(self, rnd, seat, legal):
        noten = next((a for a in legal if a.type == "noten"), None)
        return noten if noten is not None else self.inner.act(rnd, seat, legal)


def _played(rb, agents: str = "shanten", seeds: range = range(3)):
    from engine.game import Game

    out = []
    for seed in seeds:
        chosen = agents if agents != "noten" else [_DeclaresNoten(seed * 10 + s) for s in range(4)]
        game = Game(rb, seed, chosen)
        result = game.play()
        out.append((result["final_points"], [(s.next.honba_next, s.next.dealer_next) for s in game.settlements]))
    return out


ROUND_SCENARIOS = {
    "renchan": ({"renchan": ["dealer_win", "dealer_tenpai", "abortive"]}, {"renchan": ["dealer_win"]}, "shanten"),
    "honba_increase": ({"honba_increase": ["dealer_win", "exhaustive", "abortive"]}, {"honba_increase": ["dealer_win"]}, "shanten"),
    "honba_reset": ({"honba_reset": ["non_dealer_win"]}, {"honba_reset": ["non_dealer_win", "dealer_win"]}, "shanten"),
    "voluntary_noten": ({"voluntary_noten": False}, {"voluntary_noten": True}, "noten"),
}


def test_every_round_level_game_name_has_a_scenario():
    assert set(ROUND_SCENARIOS) == ROUND_LEVEL


@pytest.mark.parametrize("name", sorted(ROUND_SCENARIOS))
def test_round_level_game_names_move_a_played_game(name):
    from tests.game.helpers import variant

    a, b, agents = ROUND_SCENARIOS[name]
    assert _played(variant("house", **a), agents) != _played(variant("house", **b), agents)
