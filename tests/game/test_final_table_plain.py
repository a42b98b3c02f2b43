"""A final table read without the contract's model (``final_table``, what ``riichi diff``'s game witness reads) says
what the validated ``game_result`` says, on every bundled rulebook and every table the witness tries; and reading
one imports no pydantic."""

from __future__ import annotations

import subprocess
import sys

from engine.game.progression import start
from engine.game.result import final_table, game_result
from engine.game.rules import GameRules
from engine.game.witness import _spread
from engine.scoring.library import rulebook
from ruledsl.record import replace
from ruledsl.resolve import bundled_names


def test_final_table_is_game_results_points_and_scores():
    for name in bundled_names():
        rules = GameRules.of(rulebook(name))
        for points, sticks in _spread(rules, rules.players):
            state = replace(start(rules), scores=points, sticks=sticks, rounds_played=1, ended_by="last_round")
            full = game_result(rules, state, name, None)
            assert final_table(rules, state) == {"final_points": full["final_points"], "scores": full["scores"]}


def test_the_game_witness_imports_no_pydantic():
    code = "import sys, engine.game.witness, engine.cli.diff; print('pydantic' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_game_package_still_offers_its_names():
    import engine.game

    for name in engine.game.__all__:
        assert getattr(engine.game, name) is not None
