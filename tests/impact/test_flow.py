"""Stage two: whole rounds played again through the round engine under B, and games followed under B.

The oracle counts the rounds' shapes straight from the logs' events (``flow_oracle.py``): a round with two wins
must become a head bump under a rulebook without double ron, charged to ``setting multiple_ron``; a round ended by
an abortive draw B does not have must diverge (the player would have had to play on), charged to that draw.
"""

from __future__ import annotations

import pytest

from engine.impact.files import placements
from tests.impact.flow_oracle import round_shapes
from tests.impact.oracle import corpus
from tests.impact.runs import excerpts, item, report, subset

# the log's abortive draw kinds and the items of the rulebooks that declare them (house has them, mleague not)
DRAWS = {
    "nine_terminals": "abortive_draw kyuushu_kyuuhai",
    "four_winds": "abortive_draw suufon_renda",
    "four_riichi": "abortive_draw suucha_riichi",
    "four_kans": "abortive_draw suukaikan",
}


def _check_house_mleague_rounds(files: tuple) -> dict:
    got = report("house", "mleague", files)
    shapes = round_shapes(files)
    assert shapes["multiple_ron"] > 0
    double = item(got, "setting multiple_ron")
    assert double["rounds_course_changed"] == shapes["multiple_ron"] and double["rounds_diverged"] == 0
    for example in double["round_examples"]:
        assert len(example["a"]["winners"]) == 2 and len(example["b"]["winners"]) == 1  # a head bump
        assert sum(example["a"]["deltas"]) == sum(example["b"]["deltas"])  # points conserved either way
    for kind, name in DRAWS.items():
        draw = item(got, name)
        assert draw["rounds_diverged"] == shapes[kind], name
        assert all(e["b"].get("diverged") for e in draw["round_examples"])
    resettled = got["rounds_resettled"]
    assert resettled["diverged"] == sum(shapes[k] for k in DRAWS)
    assert resettled["course_changed"] == shapes["multiple_ron"]
    return got


def test_double_ron_and_abortive_draws_on_the_excerpts_and_a_sample():
    got = _check_house_mleague_rounds(excerpts() + subset())
    assert got["rounds_resettled"]["compared"] > 200


def test_the_same_rules_replay_every_game_to_the_logs_final_points():
    """tenhou -> tenhou: every round settles as the log did and every game ends on the log's final points."""
    got = report("tenhou", "tenhou", subset())
    resettled, games = got["rounds_resettled"], got["games"]
    assert resettled["changed"] == 0 and resettled["left_out"] == 0 and resettled["compared"] == got["rounds"]
    assert games["compared"] == games["total"] > 10 and games["placement_changed"] == 0


def test_games_under_b_are_compared_only_while_b_plays_the_logs_rounds():
    got = report("house", "mleague", excerpts() + subset())
    games = got["games"]
    assert games["total"] == games["compared"] + games["diverged"] + games["left_out"]
    for example in games["examples"]:
        assert example["placements_b"] == list(placements(tuple(example["scores_b"])))
        assert example["placements_a"] != example["placements_b"]
    for example in games["diverged_examples"]:
        assert example["where"][:2] in {"E1", "E2", "E3", "E4", "S1", "S2", "S3", "S4", "W1", "W2", "W3", "W4"}


@pytest.mark.slow
def test_double_ron_and_abortive_draws_on_the_whole_corpus():
    got = _check_house_mleague_rounds(excerpts() + tuple(corpus()))
    assert got["rounds_resettled"]["course_changed"] == 15 and got["rounds_resettled"]["diverged"] == 31
