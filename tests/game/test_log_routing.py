"""Every combination of Tenhou's rule flags routes to a rulebook that has every one of them (a log with
"no open tanyao" and "no red fives" used to get a rulebook with open tanyao)."""

from __future__ import annotations

import itertools

import pytest

from engine.core.errors import EngineError
from engine.replay.compare import rulebook_for
from engine.replay.events import GameStart
from engine.scoring.example_notation import request_from_example
from engine.scoring.library import rulebook, scorer

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


PHOENIX = GameStart(red_fives=True, kuitan=True, hanchan=True, players=4, raw_type=0xA9)


@pytest.mark.parametrize(
    ("log_id", "expected"),
    [
        ("2010081709gm-00a9-0000-fe3371ad.mjlog", "tenhou_rounded"),
        ("2020081220gm-00a9-0000-9ee6ab3b.mjlog", "tenhou_rounded"),
        ("2022060100gm-00a9-0000-00000000.mjlog", "tenhou"),
        ("kan4.mjlog", "tenhou_rounded"),  # a renamed Tenhou log: `undated_logs_date`
        (None, "tenhou"),  # an mjai log: no site's date
    ],
)
def test_the_log_ids_date_chooses_the_rounded_final_table(log_id, expected):
    assert rulebook_for(PHOENIX, log_id=log_id) == expected


@pytest.mark.parametrize(("players", "red", "kuitan", "hanchan"), FLAGS)
def test_every_old_combination_routes_to_its_rulebook_with_rounded_scores(players, red, kuitan, hanchan):
    flags = GameStart(red_fives=red, kuitan=kuitan, hanchan=hanchan, players=players, raw_type=0)
    old, new = rulebook_for(flags, log_id="2015010100gm-0000-0000-00000000"), rulebook_for(flags)
    assert old == f"{new}_rounded"
    assert rulebook(old).settings["game"]["score_rounding"] == "four_down_five_up"
    assert dict(rulebook(old).settings["table"]) == dict(rulebook(new).settings["table"])
    others = {k: v for k, v in rulebook(old).settings["game"].items() if k != "score_rounding"}
    assert others == {k: v for k, v in rulebook(new).settings["game"].items() if k != "score_rounding"}


def test_log_date_reads_a_tenhou_log_id_only():
    from engine.replay.compare import log_date

    assert log_date("2019020120gm-0009-10011-215330df.mjlog") == "2019-02-01"
    assert log_date("game.mjson") is None
    # a log id after a prefix of the file's own still dates it; digits that are no log id do not
    assert log_date("sample-2022060107gm-00a9-0000-b3c573cb.mjlog") == "2022-06-01"
    assert log_date("x12022060107gm-00a9-0000-b3c573cb.mjlog") is None


@pytest.mark.parametrize(
    ("condition", "date", "matches"),
    [
        ({"log_date_before": "2021-01-01"}, "2020-12-31", True),
        ({"log_date_before": "2021-01-01"}, "2021-01-01", False),
        ({"log_date_from": "2021-01-01"}, "2021-01-01", True),
        ({"log_date_from": "2021-01-01", "log_date_before": "2022-01-01"}, "2022-03-01", False),
        ({"log_date_before": "2021-01-01"}, None, False),  # a date condition needs a date
        ({}, None, True),
    ],
)
def test_the_date_matcher_reads_its_bounds_from_the_data(condition, date, matches):
    from engine.replay.compare import _date_matches

    assert _date_matches(condition, date, None) is matches
