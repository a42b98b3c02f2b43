"""Quantifiers over a reading's sets read off a pack's sum (``ruledsl.fast.Pack``) agree with the reference nodes:
with the sum in the table (as the scorer writes it, ``Pack.put``), without it (a plain dict: the loop as written),
with more sets than a field counts, and after the pack took a new property (its key changes, so a sum made
before is never read for it). Whole responses of the scorer with packs equal the reference scorer's
(``tests/ruledsl/test_reference_scoring.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.scoring.library import scorer
from ruledsl import ast
from ruledsl import fast as F
from ruledsl.compile import compile_expr
from ruledsl.fast import closure, packs_read, simplify
from ruledsl.values import KAN, PAIR, Group
from tests.ruledsl.test_evaluator_agreement import groups

_PROPERTIES = ("is_sequence", "is_triplet", "is_kan", "is_concealed", "is_called", "has_yaochuu", "has_terminal", "is_simple", "is_honor", "is_dragon")


@st.composite
def bodies(draw: st.DrawFn, depth: int = 2) -> ast.Expr:
    """A property of the set ``g``: a vocabulary property, or ``and``/``or``/``not`` of them."""
    if depth <= 0 or draw(st.booleans()):
        return ast.Call(draw(st.sampled_from(_PROPERTIES)), (ast.Name("g"),))
    shape = draw(st.sampled_from(["and", "or", "not"]))
    if shape == "not":
        return ast.Not(draw(bodies(depth - 1)))
    return ast.BinOp(shape, draw(bodies(depth - 1)), draw(bodies(depth - 1)))


@st.composite
def quantifiers(draw: st.DrawFn) -> ast.Expr:
    kind = draw(st.sampled_from(["any", "all", "count"]))
    found: ast.Expr = ast.Quantifier(kind, "g", ast.Name("sets"), draw(bodies()))
    if kind == "count" and draw(st.booleans()):
        found = ast.BinOp(draw(st.sampled_from(["==", "!=", ">=", "<"])), found, ast.Int(draw(st.integers(0, 4))))
    return found


def _node_and_closure(expr: ast.Expr) -> tuple[Any, Any, list[F.Pack]]:
    node = compile_expr(expr)
    fast = closure(node)
    return node, fast, packs_read(simplify(node))


def _put(env: dict[str, Any], packs: list[F.Pack]) -> dict[str, Any]:
    for pack in packs:
        pack.put(env)
    return env


def _agree(node: Any, fast: Any, packs: list[F.Pack], sets: tuple[Any, ...]) -> None:
    expected = node({"sets": sets})
    for env in ({"sets": sets}, _put({"sets": sets}, packs)):
        found = fast(env)
        assert found == expected and type(found) is type(expected), (node, sets, env)


@settings(max_examples=300, deadline=None)
@given(quantifiers(), st.lists(groups(), max_size=5), st.lists(groups(), min_size=32, max_size=40))
def test_packed_quantifiers_agree_with_the_reference(expr: ast.Expr, sets: list[Any], many: list[Any]) -> None:
    node, fast, packs = _node_and_closure(expr)
    assert packs, "a quantifier over sets of pure properties is packed"
    _agree(node, fast, packs, tuple(sets))
    _agree(node, fast, packs, ())
    _agree(node, fast, packs, tuple(many))  # past what a field counts: no sum, the loop answers


def test_a_sum_made_before_a_new_property_is_not_read() -> None:
    node, fast, packs = _node_and_closure(ast.Quantifier("count", "g", ast.Name("sets"), ast.Call("is_kan", (ast.Name("g"),))))
    (pack,) = packs
    env = _put({"sets": ()}, packs)
    before = pack.key
    # a property no other test uses, so that the pack takes it as a new field
    body = ast.BinOp("and", ast.Call("is_kan", (ast.Name("g"),)), ast.Not(ast.Call("is_kan", (ast.Name("g"),))))
    closure(compile_expr(ast.Quantifier("any", "g", ast.Name("sets"), body)))
    if pack.key != before:  # the pack took the property (not full): the old sum is under the old key
        kans = (Group(KAN, 0, (0, 0, 0, 0), False, True), Group(KAN, 30, (30,) * 4, True, False))
        env["sets"] = kans  # the sum of no sets is still in the table, under the old key
        assert fast(env) == node({"sets": kans}) == 2  # no sum under the new key: the loop answers


def test_bodies_that_may_raise_and_other_facts_are_not_packed() -> None:
    g = ast.Name("g")
    raising = ast.BinOp(">", ast.BinOp("/", ast.Int(1), ast.Int(0)), ast.Int(0))
    for expr in (
        ast.Quantifier("any", "g", ast.Name("sets"), ast.BinOp("and", ast.Call("is_kan", (g,)), raising)),
        ast.Quantifier("all", "g", ast.Name("groups"), ast.Call("is_kan", (g,))),
        ast.Quantifier("count", "g", ast.Name("sets"), ast.Call("is_value", (g,))),  # reads the winds
    ):
        assert packs_read(simplify(compile_expr(expr))) == [], expr


def test_put_leaves_no_sum_for_sets_it_cannot_count() -> None:
    _node, _fast, packs = _node_and_closure(ast.Quantifier("all", "g", ast.Name("sets"), ast.Call("is_triplet", (ast.Name("g"),))))
    (pack,) = packs
    for sets in ([[1, 2]], ("not a group",) * 40):
        env: dict[str, Any] = {"sets": sets}
        pack.put(env)
        assert env[pack.key] is None


@pytest.mark.parametrize("name", ["house", "tenhou", "wrc2025"])
def test_each_reading_gets_the_sums_its_rulebook_reads(name: str) -> None:
    prepared = scorer(name).prepared
    puts = [step for step in prepared.reading_ahead if getattr(step, "__self__", None).__class__ is F.Pack]
    assert puts, "the rulebook's set quantifiers are packed, and their sums planned ahead"
    env: dict[str, Any] = {"sets": (), "groups": (Group(PAIR, 5, (5, 5), False, True),)}
    for step in puts:
        step(env)
        assert env[step.__self__.key] == 0


def test_a_property_added_while_a_sum_is_made_leaves_that_sum_under_its_own_key() -> None:
    """A rulebook compiled in one thread while another scores: the pack takes a property between ``put`` reading
    the pack and storing the sum. The sum is stored under the key of the properties that made it, never under the
    new key, whose quantifiers then find no sum and loop as written."""
    pack = F.Pack("sets")
    pack.add(lambda g: g.shape == KAN)
    added: list[int] = []

    class SetsMeanwhile(tuple):  # type: ignore[type-arg]
        def __iter__(self) -> Any:
            if not added:
                added.append(pack.add(lambda g: True))  # the other thread's new property
            return super().__iter__()

    kans = (Group(KAN, 0, (0, 0, 0, 0), False, True), Group(KAN, 30, (30,) * 4, True, False))
    before = pack.key
    env: dict[str, Any] = {"sets": SetsMeanwhile(kans)}
    pack.put(env)
    assert added == [2] and pack.key != before
    assert pack.key not in env
    width = F.PACK_WIDTH
    assert env[before] == 2 + (2 << width)  # two groups, two kans, and no field for the property added meanwhile
    pack.put(env)  # the next reading's sum has both
    assert env[pack.key] == 2 + (2 << width) + (2 << 2 * width)
