"""The fast path's rewrites, each on an expression written to reach it: set operations over ``has_triplet`` and
``has_sequence`` calls (an ``and`` of ``or``s, an ``or`` of ``and``s, a count over a constant list), unrolled
quantifiers whose body rebinds the loop variable or holds lists, negations and conditionals, chains of three and
more operands, and sums. Each must give what the reference evaluator gives, value or error, in every environment
tried: a rewrite that is only sometimes right is the bug this guards against. The generated expressions of
``tests/ruledsl/test_evaluator_agreement.py`` reach these shapes only by chance; here each is named.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruledsl import ast
from ruledsl import fast as F
from ruledsl.compile import compile_expr
from ruledsl.parser import parse
from tests.ruledsl.test_evaluator_agreement import environments, outcome

EXPRESSIONS = [
    # membership tests as set operations
    "has_triplet(5z) and has_triplet(6z) and has_triplet(7z)",
    "has_triplet(5z) or has_triplet(6z) or has_triplet(7z)",
    "(has_triplet(5z) and has_triplet(6z)) or (has_triplet(6z) and has_triplet(7z))",
    "(has_triplet(5z) or has_triplet(6z)) and (has_triplet(1z) or has_triplet(2z))",
    "(has_sequence(m, 1) or has_sequence(m, 4)) and (has_sequence(p, 7) or tsumo)",
    "count(t in [5z, 6z, 7z]: has_triplet(t))",
    "count(t in [5z, 5z, 6z]: has_triplet(t))",  # a tile twice: counted twice, no set can say so
    "count(n in [1, 4, 7]: has_sequence(s, n)) + count(t in [5z, 6z]: has_triplet(t))",
    # chains of two, three and more operands, with and without operands that may raise
    "tsumo or riichi",
    "tsumo or riichi or dealer",
    "tsumo or riichi or dealer or closed or ippatsu",
    "tsumo and riichi and dealer",
    "closed and not tsumo and riichi and not dealer and han > 1",
    "han / fu > 0 or tsumo or riichi",
    "(han > 2) == (fu > 30)",
    # chains whose first operands compare facts with constants, made in place (``_compares_then``)
    "number_suits == 1 and honors > 0",
    "shape == standard and all(g in sets: is_triplet(g))",
    "honors > 0 and all(t in tiles: is_yaochuu(t)) and any(t in tiles: is_terminal(t))",
    "shape == standard and wait == ryanmen and all(g in sets: is_sequence(g)) and not is_value(pair)",
    "han >= 2 and fu != 30 and fu <= 40",
    "han < 3 and fu >= 30 and tsumo",
    "han > 1 and fu / han > 10",  # an operand that may raise: the chain keeps its written order
    "han == 1 and fu < 30 and all(t in tiles: is_simple(t)) and riichi and tsumo",  # more operands than the shapes made in place
    # a count of membership tests compared with a constant in place
    "count(w in 1234z: has_triplet(w)) == 3 and is_wind(pair)",
    "count(d in 567z: has_triplet(d)) >= 2",
    "count(d in [5z, 5z, 6z]: has_triplet(d)) != 1",  # a tile twice: not a set, compared as before
    # unrolled quantifiers
    "any(n in [1, 2, 3]: all(n in [4, 5]: n > han))",
    "any(n in [1, 2]: not (n == han))",
    "sum(n in [1, 2, 3]: if n > han then n else 0)",
    "count(n in [1, 2, 3]: n in [han, fu])",
    "all(n in [1, 2, 3]: any(t in tiles: is_honor(t)) or n < han)",
    "sum(n in 1..20: n * han)",
    "max(n in [2, 3]: n ^ 62)",
    "count(n in [0, 1]: 6 / n > 1)",
    "sum(n in [1, 2]: round_up(fu, n * 10))",
    # quantifiers over facts, and conditionals
    "count(g in sets: is_triplet(g) and is_concealed(g)) * 2",
    "3 * count(g in sets: is_triplet(g))",
    "count(g in sets: is_triplet(g)) * 5000000000",
    "all(t in tiles: is_simple(t)) or any(g in sets: is_kan(g))",
    "sum(g in sets: if is_kan(g) then 4 else 2)",
    "if tsumo then han + 1 else han - 1",
    "if 1 > 2 then han else fu",
    "size([han, fu, 3])",
    "[1, 2, han] == [1, 2, 3]",
]


def expr(text: str) -> ast.Expr:
    return parse(f"rulebook r\nyaku y {{ when = {text} }}").items[0].fields[0].value


@pytest.mark.parametrize("text", EXPRESSIONS)
@settings(max_examples=8, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_fast_path_agrees_with_the_reference_on_each_rewrite(text: str, data: st.DataObject) -> None:
    node = compile_expr(expr(text))
    fast = F.closure(node)
    env = data.draw(environments())
    assert outcome(fast, dict(env)) == outcome(node, dict(env)), text


def nodes(text: str) -> Any:
    return F.simplify(compile_expr(expr(text)))


def test_a_set_operation_is_costed_as_one_and_cheaper_than_the_calls_it_replaces() -> None:
    assert F.cost(nodes("has_triplet(5z) and has_triplet(6z) and has_triplet(7z)")) == 3
    assert F.cost(nodes("count(t in [5z, 6z, 7z]: has_triplet(t))")) == 3
    assert F.cost(nodes("tsumo or riichi or dealer")) < F.cost(nodes("any(g in sets: is_kan(g)) or tsumo"))
    assert F.cost(nodes("count(n in [1, 2, 3]: n > han)")) > 3  # three comparisons, no set to ask
    assert F.cost(nodes("if tsumo then han + 1 else han")) > F.cost(nodes("han"))


def test_what_may_raise_is_what_can_meet_a_bound() -> None:
    assert not F.may_raise(nodes("tsumo and riichi"))
    assert F.may_raise(nodes("han / fu > 0"))
    assert F.may_raise(nodes("sum(g in sets: 2)"))
    assert F.may_raise(nodes("round_up(fu, 10)"))
    assert F.may_raise(nodes("1..han"))


def test_reads_names_every_fact_an_expression_depends_on() -> None:
    assert F.reads(nodes("tsumo or riichi or dealer")) == {"tsumo", "riichi", "dealer"}
    assert F.reads(nodes("count(g in sets: is_kan(g))")) == {"sets"}
    assert F.reads(nodes("fu..han")) == {"fu", "han"}
    assert F.reads(nodes("if tsumo then han else fu")) == {"tsumo", "han", "fu"}


def test_element_counters_are_found_for_scaled_counts_only() -> None:
    found = F.element_counter(nodes("count(g in sets: is_triplet(g)) * 2"))
    assert found is not None and found[:2] == ("sets", 2)
    found = F.element_counter(nodes("3 * count(g in sets: is_triplet(g))"))
    assert found is not None and found[:2] == ("sets", 3)
    assert F.element_counter(nodes("count(g in sets: is_triplet(g)) * 5000000000")) is None  # past the coefficient bound
    assert F.element_counter(nodes("han * 2")) is None
    assert F.element_counter(nodes("count(g in sets: g == win_group)")) is None  # the body reads more than g


def test_comparisons_with_constants_are_made_in_place() -> None:
    """The shapes ``_compares_then`` and ``_fused`` write as one function are reached (their values are compared
    with the reference above)."""
    assert "_compares_then" in F.closure(compile_expr(expr("number_suits == 1 and honors > 0"))).__qualname__
    assert "_compares_then" in F.closure(compile_expr(expr("shape == standard and all(g in sets: is_triplet(g))"))).__qualname__
    assert "_compares_then" not in F.closure(compile_expr(expr("tsumo and han > 1"))).__qualname__  # a fact read first
    assert "_fused" in F.closure(compile_expr(expr("count(d in 567z: has_triplet(d)) == 2"))).__qualname__


VALUED = [
    ("wait in [kanchan, penchan, tanki]", "2"),
    ("shape == standard", "2 * count(g in sets: is_triplet(g))"),
    ("han >= 2", "4"),
    ("han > 2", "fu + han"),
    ("tsumo and not dealer", "2"),
    ("tsumo or riichi", "han * 2"),
    ("fu / han > 10", "3"),  # a condition that may raise
    ("fu != 30", "fu / han"),  # an amount that may raise
]


@pytest.mark.parametrize(("condition", "amount"), VALUED)
@settings(max_examples=8, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_value_where_its_condition_holds_agrees_with_the_reference(condition: str, amount: str, data: st.DataObject) -> None:
    """``valued_when`` (a fu or bonus item's value, 0 where its condition fails) against the reference nodes."""
    when, value = compile_expr(expr(condition)), compile_expr(expr(amount))
    fast = F.valued_when(F.simplify(when), F.closure(when), F.simplify(value), F.closure(value))
    env = data.draw(environments())
    assert outcome(fast, dict(env)) == outcome(lambda e: value(e) if when(e) else 0, dict(env)), (condition, amount)
