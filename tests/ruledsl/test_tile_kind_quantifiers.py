"""``all`` and ``any`` of a property over the hand's tiles, as set tests against the kinds the property holds for
(``ruledsl.fast._over_tile_kinds``), agree with the reference nodes on every tile list: kinds alone (the engine's
tables), the empty list, and lists holding values that are not kinds, which the set tests leave to the loop; and
so does a disjunction of several ``all`` over the tiles (``_within_any``), turned away by a kind in none of them."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.tiles import KINDS
from ruledsl import ast
from ruledsl.compile import compile_expr
from ruledsl.fast import any_of, closure, simplify

_PROPERTIES = ("is_simple", "is_terminal", "is_honor", "is_yaochuu", "is_wind", "is_dragon")


def _bodies() -> list[ast.Expr]:
    t = ast.Name("t")
    bodies: list[ast.Expr] = [ast.Call(name, (t,)) for name in _PROPERTIES]
    bodies.append(ast.BinOp("in", t, ast.Tiles("23468s6z")))  # ryuuiisou's body
    bodies.append(ast.Not(ast.Call("is_simple", (t,))))
    bodies.append(ast.BinOp("or", ast.Call("is_honor", (t,)), ast.BinOp("==", t, ast.Tiles("1m"))))
    return bodies


_QUANTIFIERS = [ast.Quantifier(kind, "t", ast.Name("tiles"), body) for kind in ("all", "any") for body in _bodies()]
# mostly kinds, as every hand's tiles are; sometimes a value no kind has (a code past the kinds, a negative one)
_ELEMENTS = st.one_of(st.integers(0, KINDS - 1), st.integers(0, KINDS - 1), st.sampled_from([-1, KINDS, 37, 99]))


@pytest.mark.parametrize("expr", _QUANTIFIERS, ids=repr)
def test_the_set_tests_are_taken(expr: ast.Expr) -> None:
    assert closure(compile_expr(expr)).__name__ == "by_kinds"


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_QUANTIFIERS), st.lists(_ELEMENTS, max_size=18))
def test_set_tests_agree_with_the_reference(expr: ast.Expr, tiles: list[int]) -> None:
    node = compile_expr(expr)
    fast = closure(node)
    for value in (tuple(tiles), tuple(sorted(tiles)), ()):
        env = {"tiles": value}
        found, expected = fast(dict(env)), node(dict(env))
        assert found == expected and type(found) is type(expected), (expr, value)


def test_every_hand_of_kinds_is_decided_by_the_sets() -> None:
    """On kinds alone the loop is never asked (the shortcut is the whole answer)."""
    node = compile_expr(ast.Quantifier("all", "t", ast.Name("tiles"), ast.Call("is_simple", (ast.Name("t"),))))
    fast = closure(node)
    asked: list[Any] = []
    cells = dict(zip(fast.__code__.co_freevars, fast.__closure__ or (), strict=True))
    loop = cells["loop"].cell_contents

    def spy(env: dict[str, Any]) -> Any:
        asked.append(env)
        return loop(env)

    cells["loop"].cell_contents = spy
    for tiles in ((), (1, 2, 3), (0, 4, 8), (27, 28), tuple(range(KINDS))):
        assert fast({"tiles": tiles}) == node({"tiles": tiles})
    assert not asked
    assert fast({"tiles": (1, 99)}) is False  # a value that is no kind: the loop answers
    assert len(asked) == 1


def test_unhashable_and_missing_tiles_fail_as_the_loop_does() -> None:
    node = compile_expr(ast.Quantifier("any", "t", ast.Name("tiles"), ast.Call("is_honor", (ast.Name("t"),))))
    fast = closure(node)
    for env in ({}, {"tiles": 5}):
        with pytest.raises(Exception) as from_node:
            node(dict(env))
        with pytest.raises(type(from_node.value)):
            fast(dict(env))


_WITHIN = [
    ast.Quantifier("all", "t", ast.Name("tiles"), ast.Call("is_honor", (ast.Name("t"),))),  # tsuuiisou
    ast.Quantifier("all", "t", ast.Name("tiles"), ast.BinOp("in", ast.Name("t"), ast.Tiles("23468s6z"))),  # ryuuiisou
    ast.Quantifier("all", "t", ast.Name("tiles"), ast.Call("is_terminal", (ast.Name("t"),))),  # chinroutou
]
_WITHIN_KINDS = (27, 28, 29, 30, 31, 32, 33, 19, 20, 21, 23, 25, 0, 8, 9, 17, 18, 26)  # each kind some set holds


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_WITHIN_KINDS), max_size=14),
    st.lists(st.integers(0, KINDS - 1), max_size=14),
    st.integers(2, len(_WITHIN)),
)
def test_tile_disjunctions_turned_away_by_a_kind_outside_every_set(held: list[int], mixed: list[int], size: int) -> None:
    """``any_of`` of several ``all(t in tiles: ...)`` (the yakuman's "any holds?") answers as asking each in turn,
    on hands within some set (all honours, all green...) and hands holding a kind in none. Tiles are kinds: the
    merged test reads each operand's kinds (``_within_tiles``), as it did before the kind outside every set."""
    nodes = [compile_expr(expr) for expr in _WITHIN[:size]]
    simple = [simplify(node) for node in nodes]
    merged = any_of(simple, [closure(node) for node in nodes])
    for tiles in (tuple(held), tuple(mixed), tuple(held) + tuple(mixed), tuple(k for k in held if k >= 27)):
        assert merged({"tiles": tiles}) == any(node({"tiles": tiles}) for node in nodes), tiles
