"""`examples for KIND NAME { example ... }`: examples added to an item, inherited or not, without changing it.

A variant that only wants to show an inherited rule at work on a hand used to `override` the item with no field,
which `riichi explain` then listed under "changed by". The block adds the examples (checked like the item's own,
failures at the example's line) and nothing else: fields, title, clause and history stay, and `riichi diff` sees
no change. Goldens (fixtures and expected output) live in ``tests/golden/examples_block/``; regenerate them after
an intended change with ``UPDATE_GOLDEN=1 python -m pytest tests/ruledsl/test_examples_block.py`` and review.
"""

from __future__ import annotations

import pytest

from ruledsl import ast
from ruledsl.check import check
from ruledsl.diagnostics import RulebookError
from ruledsl.parser import parse, parse_uncached
from ruledsl.render import render
from ruledsl.resolve import resolve
from ruledsl.rulebook_changes import diff
from tests.ruledsl.golden import ROOT, compare_golden, rel, run

GOLDEN = ROOT / "tests" / "golden" / "examples_block"
VARIANT = GOLDEN / "variant.rulebook"

TEXT = """\
rulebook v extends house

@clause("club rule 1")
examples for yaku pinfu {
  example "123m456m678p234s55p win 4s ron seat S" => {han: 1}
}
"""


# ---- syntax ---------------------------------------------------------------------------------------------------


def test_block_parses_to_an_examples_item_with_positions() -> None:
    (item,) = parse_uncached(TEXT, "v.rulebook").items
    assert (item.action, item.kind, item.name, item.title, item.fields) == ("examples", "yaku", "pinfu", None, ())
    assert item.clause == "club rule 1"
    assert (item.span.line, item.span.column, item.span.end_line, item.span.end_column) == (3, 1, 6, 2)
    assert (item.kind_span.line, item.kind_span.column, item.kind_span.end_column) == (4, 14, 18)
    assert (item.name_span.line, item.name_span.column, item.name_span.end_column) == (4, 19, 24)
    (example,) = item.examples
    assert example.text == "123m456m678p234s55p win 4s ron seat S"
    assert (example.span.file, example.span.line, example.span.column) == ("v.rulebook", 5, 3)
    assert example.expected.get("han") == ast.Int(1)


def test_block_renders_back_to_the_same_tree() -> None:
    book = parse_uncached(TEXT, "v.rulebook")
    text = render(book)
    assert "examples for yaku pinfu {" in text
    assert parse_uncached(text) == book


def test_examples_and_for_stay_names_outside_an_item_head() -> None:
    """The new keywords are keywords only where an item starts: a yaku called `examples` still parses."""
    book = parse_uncached('rulebook r\nyaku examples "E" {\n  for = 1\n}\n')
    assert [(i.action, i.kind, i.name) for i in book.items] == [("define", "yaku", "examples")]
    assert book.items[0].fields[0].name == "for"


def test_bundled_conversions_come_from_the_cache_as_examples_items() -> None:
    """sanma and the tournament example add examples with a block; the shipped cache holds the same trees."""
    for path, keys in (
        (ROOT / "rulebooks" / "sanma.rulebook", {("payment", "tsumo_non_dealer_share"), ("payment", "dealer_tsumo")}),
        (ROOT / "rulebooks" / "examples" / "tournament.rulebook", {("yakuman", n) for n in ("kokushi", "suuankou", "chuuren")}),
    ):
        text = path.read_text(encoding="utf-8")
        cached, fresh = parse(text, rel(path)), parse_uncached(text, rel(path))
        assert cached == fresh
        blocks = {i.key for i in cached.items if i.action == "examples"}
        assert blocks == keys
        assert all(i.clause for i in cached.items if i.action == "examples")  # each cites its clause


# ---- inheritance ----------------------------------------------------------------------------------------------


def test_variant_adds_examples_and_changes_nothing_else() -> None:
    base = resolve("house").items[("yaku", "pinfu")]
    book = resolve("v", text=TEXT, file="v.rulebook")
    pinfu = book.items[("yaku", "pinfu")]
    assert {n: f.value for n, f in pinfu.fields.items()} == {n: f.value for n, f in base.fields.items()}
    assert (pinfu.title, pinfu.clause, pinfu.field_clauses) == (base.title, base.clause, base.field_clauses)
    assert [(p.rulebook, p.action) for p in pinfu.history] == [("house", "define")]
    assert [w for _, w in pinfu.examples] == [w for _, w in base.examples] + ["v"]
    assert pinfu.examples[-1][0].span.file == "v.rulebook"
    assert [(p.rulebook, p.action, p.clause, p.span.line) for p in pinfu.example_blocks] == [("v", "examples", "club rule 1", 3)]


def test_base_is_unchanged_after_a_variant_resolved() -> None:
    before = resolve("house").items[("yaku", "pinfu")]
    resolve("v", text=TEXT, file="v.rulebook")
    after = resolve("house").items[("yaku", "pinfu")]
    assert [w for _, w in after.examples] == [w for _, w in before.examples] == ["house"] * len(before.examples)
    assert after.example_blocks == []


def test_block_may_come_before_the_item_it_illustrates_and_may_target_an_exception() -> None:
    text = """\
rulebook v extends house

examples for yaku local "before its definition" {
  example "123m456m678p234s55p win 4s ron seat S" => {han: 2}
}

@clause("club rule 2")
yaku local "Local" {
  han = 1
  when = closed
}

examples for exception kokushi_13 {
  example "19m19p19s1234567z1m win 1m ron seat S" => {yakuman: 2}
}
"""
    with pytest.raises(RulebookError):  # a title after the name is not part of the form
        resolve("v", text=text, file="v.rulebook")
    book = resolve("v", text=text.replace(' "before its definition"', ""), file="v.rulebook")
    assert [w for _, w in book.items[("yaku", "local")].examples] == ["v"]
    assert [w for _, w in book.items[("exception", "kokushi_13")].examples][-1] == "v"
    # the new item's examples came from a block: it is not reported as having none
    assert not [d for d in check(book) if "has no example" in d.message]


def test_examples_of_a_block_are_run_by_check(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(["check", rel(VARIANT)], capsys, monkeypatch)
    assert (code, err) == (0, "")
    assert out == f"{rel(VARIANT)}: ok (91 items, 3 examples passed)\n"


# ---- diagnostics (golden) -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["unknown_items", "field_in_block", "failing_example"])
def test_diagnostics_are_golden(name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(["check", rel(GOLDEN / f"{name}.rulebook")], capsys, monkeypatch)
    compare_golden(GOLDEN / f"{name}.expected", out)
    assert (code, err) == (1, "")
    errors = [line for line in out.splitlines() if ": error: " in line]
    warnings = [line for line in out.splitlines() if ": warning: " in line]
    assert out.count("= help: ") == len(errors) + len(warnings)


def test_unknown_item_says_did_you_mean_and_why(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _, out, _ = run(["check", rel(GOLDEN / "unknown_items.rulebook")], capsys, monkeypatch)
    assert "unknown_items.rulebook:5:19: error: `examples for yaku pinfuu`: no such item" in out
    assert "did you mean `pinfu`?" in out
    assert "`pinfu` is a `yaku`, not a `yakuman`" in out
    assert "it was removed by `unknown_items`" in out
    assert "warning: `examples for yaku pinfu` adds no example" in out


def test_failing_example_is_reported_at_its_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _, out, _ = run(["check", rel(GOLDEN / "failing_example.rulebook")], capsys, monkeypatch)
    assert "failing_example.rulebook:7:3: error: example of `yaku pinfu` fails: expected han 2, got 1" in out
    assert ":6:3:" not in out  # the first example passes


def test_a_field_in_a_block_is_an_error_not_a_silent_no_op() -> None:
    with pytest.raises(RulebookError) as info:
        parse_uncached('rulebook v extends house\nexamples for yaku pinfu {\n  han = 2\n}\n', "v.rulebook")
    (d,) = info.value.diagnostics
    assert (d.span.line, d.span.column, d.span.end_column) == (3, 3, 6)
    assert "override yaku pinfu" in (d.help or "")


# ---- explain and diff -----------------------------------------------------------------------------------------


def test_explain_shows_added_examples_with_their_file(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(["explain", rel(VARIANT), "yaku pinfu"], capsys, monkeypatch)
    assert (code, err) == (0, "")
    compare_golden(GOLDEN / "variant_pinfu.explain", out)
    assert f"example (variant, added at {rel(VARIANT)}:7): " in out
    assert f"examples added by variant at {rel(VARIANT)}:5 citing" in out
    assert "changed by" not in out


def test_explain_of_converted_bundled_items_lists_no_change(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _, out, _ = run(["explain", "sanma", "payment dealer_tsumo"], capsys, monkeypatch)
    assert "changed by" not in out and "examples added by sanma at rulebooks/sanma.rulebook:" in out
    _, out, _ = run(["explain", "rulebooks/examples/tournament.rulebook", "yakuman kokushi"], capsys, monkeypatch)
    assert "changed by" not in out
    assert 'examples added by tournament at rulebooks/examples/tournament.rulebook:33 citing "sheet 4: yakuman are single"' in out


def test_diff_does_not_report_an_item_whose_examples_were_added(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert diff(resolve("house"), resolve(str(VARIANT))) == []
    code, out, err = run(["diff", "house", rel(VARIANT)], capsys, monkeypatch)
    assert (code, err) == (0, "")
    assert out.startswith("no differences found between house and variant")
    changed = {c.item for c in diff(resolve("house"), resolve("sanma"))}
    assert not changed & {"payment tsumo_non_dealer_share", "payment dealer_tsumo"}
