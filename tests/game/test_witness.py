"""Witness scenarios for game-rule differences (`engine.game.witness`): a round's end or a final table on which
two rulebooks' game settings disagree, for `riichi diff` to show an organiser."""

from __future__ import annotations

import itertools

from engine.game.rules import GameRules
from engine.game.witness import game_witness
from engine.scoring.library import rulebook
from ruledsl.resolve import bundled_names


def _rules(name: str) -> GameRules:
    return GameRules.of(rulebook(name))


def test_tenhou_against_mleague_shows_agari_yame():
    w = game_witness(_rules("tenhou"), _rules("mleague"))
    assert w is not None and w["kind"] == "round_end"
    assert w["situation"] == "the last dealer wins while leading"
    assert (w["a"], w["b"]) == ("the game ends (agari_yame)", "the game goes on: S round, seat 3 deals")


def test_wrc2025_against_mleague_shows_a_final_table():
    w = game_witness(_rules("wrc2025"), _rules("mleague"))
    assert w is not None and w["kind"] == "final_table"
    assert w["a"]["scores"] != w["b"]["scores"]


def test_a_rulebook_has_no_witness_against_itself():
    assert game_witness(_rules("tenhou"), _rules("tenhou")) is None


def test_every_two_bundled_tables_of_one_size_with_different_game_rules_have_a_witness():
    rules = {name: _rules(name) for name in bundled_names()}
    missing = [
        (x, y)
        for x, y in itertools.combinations(rules, 2)
        if rules[x].players == rules[y].players and rules[x] != rules[y] and game_witness(rules[x], rules[y]) is None
    ]
    assert missing == []


def test_witnesses_render_in_words():
    from engine.game.witness import render, witness_for

    lines = render(witness_for(rulebook("tenhou"), rulebook("mleague")), "tenhou", "mleague")
    assert lines[1:] == ["tenhou: the game ends (agari_yame)", "mleague: the game goes on: S round, seat 3 deals"]
    table = render(witness_for(rulebook("wrc2025"), rulebook("mleague")), "wrc2025", "mleague")
    assert table[0].startswith("final points ") and table[1].startswith("wrc2025: points ")


def test_a_leader_below_the_points_agari_yame_needs_is_a_witness():
    """Removing `yame_min_points` alone: the last dealer leading below it stops the game only without the line."""
    from ruledsl.record import replace

    a = _rules("tenhou")
    w = game_witness(a, replace(a, yame_min_points=None))
    assert w is not None and w["situation"] == "the last dealer wins while leading below the points needed to stop"
    assert w["a"] != w["b"]


def test_a_line_that_writes_out_what_a_rulebook_does_anyway_is_no_game_change():
    from engine.diff.change_witnesses import diff_with_witnesses
    from engine.game.witness import same_game
    from engine.round.witness import ALIKE
    from engine.scoring.library import scorer

    assert same_game(rulebook("tenhou"), rulebook("tenhou")) and not same_game(rulebook("tenhou"), rulebook("mleague"))
    report = diff_with_witnesses(scorer("wrc2025"), scorer("mleague"), random_hands=0)
    reasons = {change.item: report.reason(i) for i, (change, _) in enumerate(report.changes)}
    assert reasons["setting oka_return"] == ALIKE  # an oka return equal to the start points is no oka
