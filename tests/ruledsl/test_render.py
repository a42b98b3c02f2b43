"""``parse(render(x)) == x``: a rulebook written back as text reads back as the same rulebook."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ruledsl import ast
from ruledsl.diagnostics import RulebookError
from ruledsl.parser import parse
from ruledsl.render import quote, render, render_expr
from tests.ruledsl import strategies as S

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK_FILES = sorted(ROOT.glob("rulebooks/**/*.rulebook")) + sorted(ROOT.glob("tests/ruledsl/fixtures/good/*.rulebook"))


@pytest.mark.parametrize("path", RULEBOOK_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rulebook_round_trips(path: Path) -> None:
    original = parse(path.read_text(encoding="utf-8"), str(path))
    text = render(original)
    assert parse(text, str(path)) == original
    assert render(parse(text)) == text  # rendering is a fixed point


def expr_of(text: str) -> ast.Expr:
    return parse(f"rulebook r\nyaku y {{ when = {text} }}").items[0].fields[0].value


@pytest.mark.parametrize(
    ("written", "rendered"),
    [
        ("(a or b) and c", "(a or b) and c"),
        ("a or (b and c)", "a or (b and c)"),  # an `and` inside an `or` keeps its parentheses
        ("a and b or c and d", "(a and b) or (c and d)"),
        ("a or (b or c)", "a or (b or c)"),
        ("(a or b) or c", "a or b or c"),
        ("not (a and b)", "not (a and b)"),
        ("not not a", "not not a"),
        ("(1 + 2) * 3", "(1 + 2) * 3"),
        ("1 - (2 - 3)", "1 - (2 - 3)"),
        ("(1 - 2) - 3", "1 - 2 - 3"),
        ("-(2 ^ 3)", "-2 ^ 3"),
        ("(-2) ^ 3", "(-2) ^ 3"),
        ("2 ^ (3 ^ 4)", "2 ^ 3 ^ 4"),
        ("(2 ^ 3) ^ 4", "(2 ^ 3) ^ 4"),
        ("- (-1)", "- -1"),
        ("(a == b) == c", "(a == b) == c"),
        ("x in (1..9)", "x in 1..9"),
        ("(1 + 1)..(9 - 1)", "1 + 1..9 - 1"),
        ("n >= (if a then 3 else 1)", "n >= (if a then 3 else 1)"),
        ("if (if a then b else c) then d else e", "if if a then b else c then d else e"),
        ("not (x in [1, 2])", "not x in [1, 2]"),
        ("x not in [kanchan, penchan]", "x not in [kanchan, penchan]"),
        ("count(g in sets: is_triplet(g)) == 3", "count(g in sets: is_triplet(g)) == 3"),
        ('{closed: 2, open: 1}', "{closed: 2, open: 1}"),
        ('"say \\"hi\\"\\n"', '"say \\"hi\\"\\n"'),
    ],
)
def test_minimal_parentheses(written: str, rendered: str) -> None:
    expr = expr_of(written)
    assert render_expr(expr) == rendered
    assert expr_of(rendered) == expr


def test_quote_escapes_what_the_lexer_needs() -> None:
    text = 'a "quoted" back\\slash\nnew\tline'
    assert parse(f"rulebook r {quote(text)}").title == text


def test_items_of_every_action_render() -> None:
    text = (
        'rulebook child "A child" extends base\nsource "a page"\n\n'
        '@clause("1.2")\n@note("why")\nyaku local "Local" {\n  han = {closed: 2, open: 1}\n  when = closed\n'
        '  example "123m456p789s11z22z win 2z ron" => {yaku: [local], error: "no_yaku"}\n}\n\n'
        "override settings table {\n  players = 3\n}\n\n"
        "remove abortive_draw some_draw\n\n"
        'exception double to yakuman big "Big, doubled" {\n  multiplier = 2\n}\n\n'
        "fu empty {}\n"
    )
    assert render(parse(text)) == text


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(S.rulebooks)
def test_generated_trees_round_trip(rulebook: ast.Rulebook) -> None:
    text = render(rulebook)
    try:
        parsed = parse(text)
    except RulebookError as exc:
        # only the size limits may refuse a generated tree
        assert all("nested more than" in d.message for d in exc.diagnostics), text
        return
    assert parsed == rulebook, text


# What the reader refuses on purpose in text the grammar accepts: the size limits, and a field written in an
# `examples` block (which holds only example lines, so a field there would silently not apply).
DELIBERATE_REFUSALS = ("nested more than", "too large", "an `examples` block holds only `example` lines")


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(S.rulebook_texts())
@example("rulebook a examples for a a { a = 0 }")
def test_generated_texts_round_trip(text: str) -> None:
    try:
        parsed = parse(text)
    except RulebookError as exc:
        assert all(any(words in d.message for words in DELIBERATE_REFUSALS) for d in exc.diagnostics), text
        return
    assert parse(render(parsed)) == parsed


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(S.rulebooks, S.rulebook_texts().map(lambda t: _parsed_or_none(t))))
def test_round_trip_long(rulebook: ast.Rulebook | None) -> None:
    if rulebook is None:
        return
    try:
        parsed = parse(render(rulebook))
    except RulebookError:
        return
    assert parsed == rulebook


def _parsed_or_none(text: str) -> ast.Rulebook | None:
    try:
        return parse(text)
    except RulebookError:
        return None
