"""The parts of the check's search for lines that cannot act (``engine.diff.shadowing``), each on its own: the values a
setting is tried with, how a value and a place are written in the warning, and the search's bounds."""

from __future__ import annotations

import pytest

from engine.diff import shadowing
from engine.diff.shadowing import Shadow, _alternatives, _decides, _source, _written, setting_text, shadowed
from ruledsl import ast
from ruledsl.resolve import resolve
from ruledsl.rulebook_changes import Change

SPAN = ast.Span("club.rulebook", 1, 1, 1, 5)
CLUB = '''rulebook club "Club" extends house

remove abortive_draw suufon_renda

override settings win {
  triple_ron = "head_bump"
}

@clause("club rule 2")
draw extra "A draw of ours" {
  when = true
}
'''


def _shadow(rule: str, others: tuple[str, ...] = ()) -> Shadow:
    return Shadow(rule, f"`{rule}`", "write something", SPAN, "East discards", others)


def test_a_setting_is_tried_with_every_other_value_its_kind_allows() -> None:
    assert [text for _e, text in _alternatives("calls", "chi", ast.Bool(True))] == ["false"]
    assert [text for _e, text in _alternatives("win", "triple_ron", ast.Str("abort"))] == ['"head_bump"']
    assert [text for _e, text in _alternatives("win", "multiple_ron", ast.Int(0))] == ["1"]
    assert [text for _e, text in _alternatives("win", "multiple_ron", ast.Int(2))] == ["3", "1"]
    lists = [text for _e, text in _alternatives("calls", "kuikae", ast.ListLit((ast.Str("same_tile"),)))]
    assert lists == ['["same_tile", "suji"]', "[]"]
    assert _alternatives("win", "no_such_key", ast.Bool(True)) == []
    assert _alternatives("calls", "chi", ast.Int(1)) == []  # a value of another kind: nothing to try


def test_values_are_written_as_a_rulebook_writes_them() -> None:
    assert setting_text(ast.Bool(False)) == "false" and setting_text(ast.Str("x")) == '"x"'
    assert setting_text(ast.Int(3)) == "3"
    assert setting_text(ast.ListLit((ast.Str("a"), ast.Int(1)))) == '["a", 1]'
    assert setting_text(ast.Name("riichi")) == "..."


def test_the_deciding_rule_is_named_with_the_others_that_settle_the_same_rounds() -> None:
    assert "decides first (where" in _decides(_shadow("setting multiple_ron"))
    assert "its own fields (where" in _decides(_shadow("abortive_draw sanchahou"))
    assert "the abortive draw `suukaikan` also" in _decides(_shadow("abortive_draw sanchahou", ("suukaikan",)))
    assert "the abortive draws `a`, `b` also" in _decides(_shadow("abortive_draw sanchahou", ("a", "b")))


def test_the_warning_points_at_the_line_this_file_wrote() -> None:
    rb = resolve("club", CLUB, "club.rulebook")
    setting = Change("settings", "triple_ron", "changed", "abort", "head_bump", None, None, group="win")
    span, words, drop = _written(rb, setting)
    assert (span.line, words, drop) == (6, '`triple_ron = "head_bump"`', "drop this setting")
    removal = Change("abortive_draw", "suufon_renda", "removed", None, None, None, None)
    span, words, drop = _written(rb, removal)
    assert (span.line, words, drop) == (3, "`remove abortive_draw suufon_renda`", "drop this removal")
    added = Change("draw", "extra", "added", None, None, None, None, fields=["when"])
    span, words, drop = _written(rb, added)
    assert (span.line, words, drop) == (11, "`draw extra`", "drop this item")
    gone = Change("draw", "nowhere", "changed", None, None, None, None)
    assert _written(rb, gone)[1:] == ("`draw nowhere`", "drop it")


def test_a_span_over_several_lines_has_no_one_line_source() -> None:
    rb = resolve("club", CLUB, "club.rulebook")
    assert _source(rb, ast.Span("club.rulebook", 5, 1, 7, 2)) is None
    assert _source(rb, ast.Span("club.rulebook", 6, 3, 6, 13)) == "triple_ron"


def test_a_spent_time_guard_ends_the_search_without_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    rb = resolve("club", CLUB, "club.rulebook")
    monkeypatch.setattr(shadowing, "SHADOW_SECONDS", 0.0)
    monkeypatch.setattr(shadowing.Budget.__init__, "__defaults__", (shadowing.SHADOW_TRIES, 0.0))
    assert shadowed(rb) == []


def test_a_file_that_extends_nothing_or_changes_no_flow_rule_is_not_searched() -> None:
    assert shadowed(resolve("alone", 'rulebook alone "Alone"\n', "alone.rulebook")) == []
    scoring_only = 'rulebook s "S" extends house\noverride yaku tanyao { han = {closed: 1, open: 0} }\n'
    assert shadowed(resolve("s", scoring_only, "s.rulebook")) == []
