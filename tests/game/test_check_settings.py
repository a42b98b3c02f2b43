"""Setting consistency checks (`ruledsl/check_settings.py`): each inconsistency is one positioned error with a
help line, and every bundled rulebook passes them."""

from __future__ import annotations

import pytest

from ruledsl.check import check
from ruledsl.resolve import resolve
from tests.rulebook_params import bundled_params


def _errors(body: str, group: str = "game", base: str = "house") -> list:
    text = f'rulebook t "t" extends {base}\n\n@clause("c")\noverride settings {group} {{\n{body}\n}}\n'
    return [d for d in check(resolve("t", text, "t.rulebook")) if d.is_error]


CASES = [
    ("  uma = [20, 10, -30]", "`uma` has 3 entries for 4 players", 5, 9),
    ("  uma = [20, 10, -10, -10]", "`uma` sums to 10, not 0", 5, 9),
    ("  oka_return = 20000", "`oka_return` (20000) is below `start_points` (25000)", 5, 16),
    ('  renchan = ["dealer_win", "dealer_tenapi"]', '`renchan` cannot contain "dealer_tenapi"', 5, 28),
    ('  honba_reset = ["exhaustiv"]', '`honba_reset` cannot contain "exhaustiv"', 5, 18),
    ('  extension_rounds = ["W"]', "`extension_rounds` has no effect without `target_points`", 5, 22),
    ("  target_points = 30000", "`target_points` has no effect without `extension_rounds`", 5, 19),
    ('  extension_ends = "round_end"', "`extension_ends` has no effect without `extension_rounds`", 5, 20),
    ("  floating_uma = [[12, -1, -3, -8], [8, 4, -12]]", "`floating_uma` entry 2 has 3 entries for 4 players", 5, 37),
    ("  floating_uma = [[12, -1, -3, -7]]", "`floating_uma` entry 1 sums to 1, not 0", 5, 19),
    ("  floating_uma = [[1, -1, 0, 0], [1, -1, 0, 0], [1, -1, 0, 0], [1, -1, 0, 0]]", "`floating_uma` has 4 entries; at most 3 players can float at a table of 4", 5, 18),
    ("  yame_min_points = 30000", "`yame_min_points` has no effect without `agari_yame` or `tenpai_yame`", 5, 21),
    ('  tie_break = "shared"', 'setting `tie_break` cannot be "shared"', 5, 15),
    ('  score_rounding = "round"', 'setting `score_rounding` cannot be "round"', 5, 20),
    ('  target_points = 30000\n  extension_rounds = ["W"]\n  extension_ends = "sudden"', 'setting `extension_ends` cannot be "sudden"', 7, 20),
]


@pytest.mark.parametrize(("body", "message", "line", "column"), CASES)
def test_each_inconsistency_is_one_positioned_error(body, message, line, column):
    errors = _errors(body)
    assert [d.message for d in errors] == [message]
    assert (errors[0].span.line, errors[0].span.column) == (line, column)
    assert errors[0].help


def test_misspelt_values_get_a_did_you_mean():
    [renchan] = _errors('  renchan = ["dealer_tenapi"]')
    assert renchan.help == "did you mean `dealer_tenpai`?"
    [tie] = _errors('  tie_break = "shared"')
    assert tie.help == "did you mean `share`?"


def test_winds_are_checked_in_rounds_and_extension_rounds():
    [bad] = _errors('  rounds = ["E", "Sout"]', group="table")
    assert bad.message == '`rounds` cannot contain "Sout"'
    [empty] = _errors("  rounds = []", group="table")
    assert empty.message == "`rounds` is empty"


def test_uma_is_counted_against_the_inherited_players():
    assert [d.message for d in _errors("  uma = [20, 0, -20]", base="sanma")] == []
    assert [d.message for d in _errors("  uma = [20, 10, -10, -20]", base="sanma")] == ["`uma` has 4 entries for 3 players"]


def test_consistent_settings_pass():
    body = '  agari_yame = true\n  yame_min_points = 30000\n  target_points = 30000\n  extension_rounds = ["W"]\n  uma = [20, 10, -10, -20]\n  oka_return = 30000'
    assert _errors(body) == []


@pytest.mark.parametrize("name", bundled_params())
def test_every_bundled_rulebook_is_consistent(name):
    assert [d.message for d in check(resolve(name)) if d.is_error] == []
