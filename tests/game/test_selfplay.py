"""Self-played games under every bundled rulebook: the game always ends, points plus riichi sticks are conserved
after every round, every round conserves its tiles, the round's scores and the game's agree, every applied action
was legal (`Round.apply` refuses any other) and the result validates against the contract's model. The default run
plays a few hundred games; `-m slow` plays 2,000 per bundled rulebook."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.game import Game, GameResult
from engine.game.agents import AGENTS
from engine.round.wall import tile_set
from engine.scoring.library import rulebook
from ruledsl.resolve import bundled_names
from tests.rulebook_params import bundled_params

BUNDLED = bundled_names()
# The rulebooks that differ in more than Tenhou's rule flags; the flag variants of `tenhou`/`tenhou_sanma` (which
# change only red fives, open tanyao and the game length) get one game each in the default run.
PRINCIPAL = ("ema2012", "ema2016", "house", "mahjchina", "mleague", "sanma", "tenhou", "tenhou_east", "tenhou_sanma", "wrc2025")
# Default run (about 220 games, some 30 s of CPU): agents that win, call and declare riichi (shanten), the uniform
# random player, and the tsumogiri baseline.
DEFAULT_GAMES = {"shanten": 16, "random": 8, "tsumogiri": 2}
SLOW_GAMES = 2000


def play_checked(name: str, seed: int, agents: str) -> dict:
    """Play one game, checking the invariants after every round; the result."""
    rb = rulebook(name)
    game = Game(rb, seed, agents)
    rules = game.rules
    total = rules.players * rules.start_points
    full_set = Counter(tile_set(game.round_rules))
    while not game.state.finished:
        settlement = game.play_round()
        state, rnd = game.state, game.last_round
        assert sum(state.scores) + state.sticks * rules.riichi_deposit == total, (name, seed, settlement)
        assert list(state.scores) == list(settlement["scores"])
        assert Counter(rnd.tiles_in_play()) == full_set
    result = game.result()
    GameResult.model_validate(result)
    assert result["ended_by"] in ("last_round", "bust", "agari_yame", "tenpai_yame", "extension")
    points = result["final_points"]
    left_on_table = game.state.sticks * rules.riichi_deposit if rules.leftover_sticks == "table" else 0
    assert sum(points) + left_on_table == total
    return result


@pytest.mark.parametrize("name", PRINCIPAL)
@pytest.mark.parametrize("agents", sorted(DEFAULT_GAMES))
def test_self_played_games_keep_every_invariant(name, agents):
    for seed in range(DEFAULT_GAMES[agents]):
        play_checked(name, seed, agents)


@pytest.mark.parametrize("name", bundled_params([n for n in BUNDLED if n not in PRINCIPAL]))
def test_every_flag_variant_plays_a_whole_game(name):
    play_checked(name, 0, "shanten")


@pytest.mark.slow
@pytest.mark.parametrize("name", BUNDLED)
def test_two_thousand_games_per_rulebook(name):
    for seed in range(SLOW_GAMES):
        play_checked(name, 10_000 + seed, ("shanten", "random")[seed % 2])


def test_the_same_seed_plays_the_same_game():
    a, b = Game(rulebook("tenhou"), 3, "shanten"), Game(rulebook("tenhou"), 3, "shanten")
    assert a.play() == b.play()
    assert a.events == b.events


def test_shanten_agents_win_call_and_declare_riichi():
    seen: Counter = Counter()
    for seed in range(4):
        game = Game(rulebook("tenhou"), seed, "shanten")
        game.play()
        seen.update(e["type"] for e in game.events)
    assert seen["hora"] > 0 and seen["reach"] > 0 and (seen["pon"] + seen["chi"]) > 0, seen


def test_every_agent_is_known():
    assert set(AGENTS) == {"random", "tsumogiri", "shanten"}


def test_mjai_events_of_a_game_are_json_lines_from_start_to_end():
    game = Game(rulebook("house"), 1, "shanten")
    game.play()
    events = game.mjai_events()
    assert events[0]["type"] == "start_game" and events[-1]["type"] == "end_game"
    assert sum(e["type"] == "start_kyoku" for e in events) == game.state.rounds_played
    for e in events:
        json.dumps(e)
