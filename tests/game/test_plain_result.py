"""A game result whose fields already have the model's exact types is returned as it is (``plain_result``): it is
what `GameResult`'s validation and dump give, on every bundled rulebook and every table the witness tries and on
played games; anything else goes through the model, which converts or refuses it as before. And playing a game
imports no pydantic."""

from __future__ import annotations

import subprocess
import sys

import pytest
from pydantic import ValidationError

from engine.game import Game
from engine.game.progression import start
from engine.game.result import _FIELDS, game_result, plain_result
from engine.game.result_model import GameResult
from engine.game.rules import GameRules
from engine.game.witness import _spread
from engine.scoring.library import rulebook
from ruledsl.record import replace
from ruledsl.resolve import bundled_names


def _through_model(result: dict) -> dict:
    return GameResult.model_validate(result).model_dump()


def test_the_fields_are_the_models_in_its_order():
    assert _FIELDS == list(GameResult.model_fields)


def test_every_final_table_is_the_models():
    for name in bundled_names():
        rules = GameRules.of(rulebook(name))
        for points, sticks in _spread(rules, rules.players):
            for ended_by in ("last_round", "bust"):
                state = replace(start(rules), scores=points, sticks=sticks, rounds_played=3, ended_by=ended_by)
                result = game_result(rules, state, name, 7)
                assert plain_result(dict(result)) is not None
                assert repr(result) == repr(_through_model(result))


@pytest.mark.parametrize("name", ["tenhou", "tenhou_sanma", "mleague"])
def test_played_games_results_are_the_models(name):
    for seed in (1, 2):
        result = Game(rulebook(name), seed, "random").play()
        assert repr(result) == repr(_through_model(result))


GOOD = {
    "rulebook": "tenhou", "seed": 3, "rounds": 8, "final_points": [25000, 25000, 25000, 25000], "placement": [0, 1, 2, 3],
    "uma_oka": [35.0, 5.0, -15.0, -25.0], "scores": [35.0, 5.0, -15.0, -25.0], "ended_by": "last_round",
}
ODD = [
    {"seed": True},
    {"seed": None},
    {"seed": "3"},
    {"rounds": 0},
    {"rounds": 2.0},
    {"final_points": (25000, 25000, 25000, 25000)},
    {"final_points": [25000.0, 25000, 25000, 25000]},
    {"placement": [0, 1, 2, False]},
    {"uma_oka": [35, 5.0, -15.0, -25.0]},
    {"scores": [35.0, 5.0, -15.0, "x"]},
    {"ended_by": "resign"},
    {"rulebook": 1},
]


@pytest.mark.parametrize("change", ODD, ids=repr)
def test_anything_else_is_the_models_to_convert_or_refuse(change):
    result = {**GOOD, **change}
    plain = plain_result(dict(result))
    try:
        expected = _through_model(result)
    except ValidationError:
        assert plain is None
        return
    assert plain is None or repr(plain) == repr(expected)


def test_a_missing_or_extra_field_goes_through_the_model():
    assert plain_result({k: v for k, v in GOOD.items() if k != "seed"}) is None
    assert plain_result({**GOOD, "extra": 1}) is None
    assert plain_result(dict(reversed(list(GOOD.items())))) is None
    assert repr(plain_result(dict(GOOD))) == repr(_through_model(GOOD))


def test_a_played_game_imports_no_pydantic():
    code = "import sys; from engine.game import Game; from engine.scoring.library import rulebook; Game(rulebook('tenhou'), 1, 'random').play(); print('pydantic' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
