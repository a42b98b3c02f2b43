"""Every combination of Tenhou's rule flags routes to a rulebook that has every one of them (issue 10: a log with
"no open tanyao" and "no red fives" used to get a rulebook with open tanyao)."""

from __future__ import annotations

import itertools

import pytest

from engine.errors import EngineError
from engine.example_notation import request_from_example
from engine.library import rulebook, scorer
from engine.replay.compare import rulebook_for
from engine.replay.events import GameStart

FLAGS = list(itertools.product((4, 3), (True, False), (True, False), (True, False)))



def _score_or_error(name: str, text: str) -> dict:
    try:
        return scorer(name).score(request_from_example(text))
    except EngineError as exc:  # the no-yaku refusal
        return {"error": exc.code}


@pytest.mark.parametrize(("players", "red", "kuitan", "hanchan"), FLAGS)
def test_every_flag_combination_routes_to_a_rulebook_with_all_of_them(players, red, kuitan, hanchan):
    name = rulebook_for(GameStart(red_fives=red, kuitan=kuitan, hanchan=hanchan, players=players, raw_type=0))
    rb = rulebook(name)
    table = rb.settings["table"]
    assert table["players"] == players
    assert bool(table["red_fives"]) == red
    assert len(table["rounds"]) == (2 if hanchan else 1)
    hand = "234m567p678s55p win 5p ron seat S chi 234m" if players == 4 else "234p678p678s22s win 2s ron seat S pon 555p"
    result = _score_or_error(name, hand)
    assert ("error" not in result) == kuitan, (name, result)


def test_every_combination_has_its_own_rulebook():
    names = {rulebook_for(GameStart(red_fives=r, kuitan=k, hanchan=h, players=p, raw_type=0)) for p, r, k, h in FLAGS}
    assert len(names) == len(FLAGS)


def test_three_player_logs_get_tenhou_three_player_placement():
    name = rulebook_for(GameStart(red_fives=True, kuitan=True, hanchan=True, players=3, raw_type=0))
    game = rulebook(name).settings["game"]
    assert name == "tenhou_sanma"
    assert (game["oka_return"], game["uma"], game["extension_rounds"]) == (40000, (20, 0, -20), ("W",))
