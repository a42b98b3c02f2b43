"""The size bounds of a rulebook (items, tokens per item, bracket nesting) are told from the fast parser's tokens
when they certainly hold (``fast_parser.parse_bounded``) instead of a second pass over the text: whenever that
says they hold, the pass (``parser._check_nesting``) finds nothing, and ``parse`` gives what it gave with the pass
first (the same tree, or the same diagnostics), on every rulebook of the repository, generated files at and past
each bound, and typo-like mutations of the bundled rulebooks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from ruledsl import fast_parser, parsed_cache, parser
from ruledsl.diagnostics import Reporter, RulebookError
from ruledsl.parser import MAX_ITEM_TOKENS, MAX_ITEMS, MAX_NESTING
from tests.ruledsl import strategies as S

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted({*ROOT.glob("rulebooks/**/*.rulebook"), *ROOT.glob("tests/**/*.rulebook"), *ROOT.glob("docs/**/*.rulebook")})
BUNDLED_TEXTS = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "rulebooks").glob("*.rulebook"))]
FILE = "bounds.rulebook"


def pass_first(text: str) -> object:
    """``parse_uncached`` as it was: the bounds' pass over the text, then the fast parser, then lark."""
    text = parser.normalise(text)
    reporter = Reporter(FILE, text)
    if parser._check_characters(text, reporter) or parser._check_nesting(text, reporter):
        return [(d.message, d.span) for d in reporter.diagnostics]
    try:
        tree = fast_parser.parse(text, FILE)
    except fast_parser.TooDeep:  # then, lark read the text and reported the depth
        tree = None
    if tree is not None:
        return parsed_cache.encode(tree)
    try:
        return parsed_cache.encode(_lark(text, reporter))
    except RulebookError as exc:
        return [(d.message, d.span) for d in exc.diagnostics]


def _lark(text: str, reporter: Reporter) -> Any:
    from ruledsl import lark_parser

    return lark_parser.parse_tree(text, FILE, reporter)


def now(text: str) -> object:
    try:
        return parsed_cache.encode(parser.parse_uncached(text, FILE))
    except RulebookError as exc:
        return [(d.message, d.span) for d in exc.diagnostics]


def agree(text: str) -> None:
    text = parser.normalise(text)
    tree, bounded = fast_parser.parse_bounded(text, FILE, MAX_ITEMS, MAX_ITEM_TOKENS, MAX_NESTING)
    if bounded:
        assert not parser._check_nesting(text, Reporter(FILE, text))
    else:
        assert tree is None  # no tree built before the bounds are checked
    assert now(text) == pass_first(text)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rulebook_of_the_repository(path: Path) -> None:
    agree(path.read_text(encoding="utf-8"))


def _items(count: int, body: str = "han = 1\n  when = riichi") -> str:
    items = "".join(f'@clause("C{i}")\nyaku y{i} "Y" {{\n  {body}\n}}\n' for i in range(count))
    return f'rulebook bounds "t" extends house\nsource "s"\n{items}'


def _nested(depth: int) -> str:
    return _items(1, f"han = 1\n  when = {'(' * depth}riichi{')' * depth}")


def _long(elements: int, element: str = "kanchan") -> str:
    """An item of about ``2 * elements`` tokens in a flat list (a long `and` chain is refused for its depth)."""
    return _items(1, "han = 1\n  when = wait in [" + ", ".join([element] * elements) + "]")


@pytest.mark.parametrize(
    "text",
    [
        _items(MAX_ITEMS), _items(MAX_ITEMS + 1),
        _nested(MAX_NESTING - 2), _nested(MAX_NESTING - 1), _nested(MAX_NESTING), _nested(MAX_NESTING + 5),
        _long(2_400), _long(2_600), _long(4_990), _long(5_010), _long(1_200, "1 == 1"), _long(2_100, "1 == 1"),
    ],
    ids=["items", "items+1", "nest-2", "nest-1", "nest", "nest+5", "long", "long+", "half", "half+", "symbols", "symbols+"],
)
def test_at_and_past_each_bound(text: str) -> None:
    agree(text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(S.mutations(BUNDLED_TEXTS[0]))
def test_mutations_of_a_bundled_rulebook(text: str) -> None:
    agree(text)


def same_bounds(text: str) -> None:
    """The running sum of ``_within_bounds`` against the loop that clamps (``_within_bounds_reference``), at the
    parser's bounds and at small ones that the texts reach."""
    try:
        toks = fast_parser._tokens(parser.normalise(text))
    except fast_parser._GiveUp:
        return
    for bounds in ((MAX_ITEMS, MAX_ITEM_TOKENS, MAX_NESTING), (3, 40, 2), (1, 10_000, 1), (50, 30, 64)):
        assert fast_parser._within_bounds(toks, *bounds) == fast_parser._within_bounds_reference(toks, *bounds)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_bounds_told_as_the_loop_tells_them(path: Path) -> None:
    same_bounds(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "text",
    ["", "}", "} rulebook x {", ")]}{", "{ ( } )", "{}{}{}", "{{}}", _items(3), _nested(3) + ")))", "(((" + _items(2), _long(30)],
)
def test_bounds_of_stray_and_odd_brackets(text: str) -> None:
    same_bounds(text)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(S.mutations(BUNDLED_TEXTS[0]))
def test_bounds_of_mutations(text: str) -> None:
    same_bounds(text)
