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
from ruledsl.values import KAN, PAIR, SEQUENCE, TRIPLET, Group
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
    # disjunctions whose like operands are tested together (``fast._merged_disjuncts``)
    "all(t in tiles: is_honor(t)) or all(t in tiles: t in 23468s6z) or all(t in tiles: is_terminal(t))",
    "(has_triplet(5z) and has_triplet(6z) and has_triplet(7z)) or count(w in 1234z: has_triplet(w)) == 4 or (count(w in 1234z: has_triplet(w)) == 3 and is_wind(pair)) or shape == thirteen_orphans",
    "all(t in tiles: is_honor(t)) or count(d in 567z: has_triplet(d)) >= 2 or all(t in tiles: is_simple(t)) or (has_triplet(1z) and has_triplet(9m))",
    "(has_sequence(m, 8) and has_sequence(m, 1)) or count(n in [1, 4, 7]: has_sequence(p, n)) > 1 or count(n in [2, 5]: has_sequence(p, n)) == 2 or tsumo",
    "count(d in 567z: has_triplet(d)) >= 0 or count(d in 567z: has_triplet(d)) == 3 or riichi",
    "count(d in 567z: has_triplet(d)) == 3 or count(w in 1234z: has_triplet(w)) == 4 or han / fu > 1",  # may raise: as written
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
    # a body that is a chain of properties of the element, some negated (``_properties_chain``)
    "count(g in sets: is_triplet(g) and not is_kan(g) and not is_concealed(g) and is_simple(g)) * 2",
    "any(g in groups: not is_sequence(g) or is_kan(g) or not is_simple(g))",
    "all(t in tiles: not is_honor(t) and is_simple(t))",
    "count(g in sets: not is_triplet(g) or not is_concealed(g))",
    "if tsumo then han + 1 else han - 1",
    # two facts added, each read in place (``_facts_plus``), past the bound too; a fact as an environment
    # function's one argument
    "dora_hits + kita_dora_hits",
    "han + fu",
    "2 * value_roles(pair)",
    "value_roles(win_tile) + is_value(pair)",
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
    assert "_facts_plus" in F.closure(compile_expr(expr("dora_hits + kita_dora_hits"))).__qualname__


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


# ``or``s of ``and``s of membership tests on one key: tried first against the size of the held set and the subsets'
# anchors (``fast._set_chain``), which must never turn away a held set that meets a subset
SUBSET_UNIONS = [  # each with the kinds its subsets name
    ("any(n in 1..7: all(x in [m, p, s]: has_sequence(x, n)))", (*range(7), *range(9, 16), *range(18, 25))),
    ("any(x in [m, p, s]: all(n in [1, 4, 7]: has_sequence(x, n)))", (0, 3, 6, 9, 12, 15, 18, 21, 24)),
    ("any(n in 1..9: all(x in [m, p, s]: has_triplet(tile_of(x, n))))", tuple(range(0, 27, 2)) + (1, 10, 19)),
    ("(has_triplet(5z) and has_triplet(6z)) or has_triplet(7z) or (has_triplet(1z) and has_triplet(2z) and has_triplet(3z))", tuple(range(27, 34))),
]


@pytest.mark.parametrize(("text", "kinds"), SUBSET_UNIONS)
def test_a_union_of_subsets_tried_after_its_bounds_agrees_with_the_reference(text: str, kinds: tuple[int, ...]) -> None:
    import itertools
    import random

    from ruledsl import vocabulary as V

    node = compile_expr(expr(text))
    fast = F.closure(node)
    # every held set of up to three of the kinds the subsets name, then larger ones with kinds they do not name
    held_sets = [frozenset(c) for size in range(4) for c in itertools.combinations(kinds, size)]
    draw = random.Random(24)
    held_sets += [frozenset(draw.sample(range(34), draw.randint(4, 6))) | set(draw.sample(kinds, 2)) for _ in range(200)]
    met = 0
    for held in held_sets:
        env = {V.SEQUENCE_STARTS: held, V.TRIPLET_KINDS: held}
        expected = outcome(node, dict(env))
        assert outcome(fast, dict(env)) == expected, (text, sorted(held))
        met += expected == ("value", "bool", True)
    assert met, "no held set met a subset: the bound was never passed"


# a property of one tile or group fact, kept per value of the fact (``fast._property_of_fact``): one closure asked
# about every pair, tile and group in turn (the memo carries over from one environment to the next), and None
PROPERTIES_OF_FACTS = [
    "is_wind(pair)",
    "count(d in 567z: has_triplet(d)) == 2 and is_dragon(pair)",
    "is_honor(win_tile) or is_terminal(win_tile)",
    "is_sequence(win_group) and not is_simple(win_group)",
]


@pytest.mark.parametrize("text", PROPERTIES_OF_FACTS)
def test_a_property_of_a_fact_kept_per_value_agrees_with_the_reference(text: str) -> None:
    from engine.core.tiles import KINDS
    from ruledsl import vocabulary as V
    from ruledsl.values import KAN, PAIR, SEQUENCE, TRIPLET, Group

    node = compile_expr(expr(text))
    fast = F.closure(node)
    values: list[Any] = [None]
    for kind in range(KINDS):
        values.append(Group(PAIR, kind, (kind, kind), False, True))
        values.append(Group(TRIPLET, kind, (kind,) * 3, True, False))
        values.append(Group(KAN, kind, (kind,) * 4, False, True))
        if kind < 27 and kind % 9 <= 6:
            values.append(Group(SEQUENCE, kind, (kind, kind + 1, kind + 2), False, True))
    for round_ in range(2):  # the second round finds every value kept
        for index, value in enumerate(values):
            tile = index % KINDS
            env = {"pair": value, "win_group": value, "win_tile": tile, V.TRIPLET_KINDS: frozenset((31, 32, 33)[: index % 4])}
            assert outcome(fast, dict(env)) == outcome(node, dict(env)), (text, round_, value, tile)


# Disjunctions of like operands (``fast._merged_disjuncts``), asked of readings where their operands do hold: hands of
# every tile kind in a few shapes (honours, greens, terminals, plain) with every set of honour triplets.
def _merged(text: str) -> bool:
    simple = nodes(text)
    return isinstance(simple, F.Chain) and not simple.conjunction and len(simple.parts) > 2 and ("all(t in tiles" in text or "has_" in text)


MERGED_DISJUNCTIONS = [text for text in EXPRESSIONS if _merged(text)]


@pytest.mark.parametrize("text", MERGED_DISJUNCTIONS)
def test_a_disjunction_of_like_operands_tested_together_agrees_with_the_reference(text: str) -> None:
    import itertools

    from ruledsl import vocabulary as V
    from ruledsl.values import PAIR, SEQUENCE, TRIPLET, Group

    node = compile_expr(expr(text))
    fast = F.closure(node)
    tile_sets = [tuple(range(27, 34)), (19, 20, 21, 23, 25, 32), (0, 8, 9, 17, 18, 26), (0, 8, 27, 33), (4, 13, 22), tuple(range(34))]
    held = 0
    for tiles, size in itertools.product(tile_sets, range(0, 8)):
        for honours in itertools.combinations(range(27, 34), size):
            sets = tuple(Group(TRIPLET, k, (k,) * 3, False, True) for k in honours) + (Group(SEQUENCE, 9, (9, 10, 11), False, True),)
            pair = Group(PAIR, honours[0] if honours else 27, (27, 27), False, True)
            env = {"tiles": tiles + tuple(k for k in honours for _ in range(3)), "sets": sets, "pair": pair, "shape": "standard",
                   "tsumo": False, "riichi": False, "han": 2, "fu": 30}  # fmt: skip
            env[V.TRIPLET_KINDS] = frozenset(honours)
            env[V.SEQUENCE_STARTS] = frozenset(((9, 12), (10, 13), (0, 9))[size % 3])
            expected = outcome(node, dict(env))
            assert outcome(fast, dict(env)) == expected, (text, tiles, honours)
            held += expected == ("value", "bool", True)
    assert held, "no reading held the disjunction: its merged operands were never passed"


def test_like_operands_of_a_disjunction_are_merged_and_raising_ones_are_not() -> None:
    """The operands of the shapes ``_merged_disjuncts`` knows are merged (so the test above reaches the merged
    functions); a disjunction with an operand that may raise keeps its operands, asked in their written order."""
    for text in MERGED_DISJUNCTIONS[1:5]:
        simple = nodes(text)
        assert F._merged_disjuncts(list(simple.parts), lambda i, parts=simple.parts: F.build(parts[i])) is not None, text
    raising = nodes(MERGED_DISJUNCTIONS[-1])
    assert any(map(F.may_raise, raising.parts))
    fns = [F.build(p) for p in raising.parts]
    from ruledsl.arithmetic import RuleEvaluationError

    with pytest.raises(RuleEvaluationError):  # han / fu with fu = 0, reached after the two counts fail
        F.any_of(raising.parts, fns)({"han": 1, "fu": 0, "__triplet_kinds__": frozenset()})


PROPERTY_CHAINS = [
    "count(g in sets: is_triplet(g) and not is_kan(g) and not is_concealed(g) and is_simple(g))",
    "count(g in sets: is_kan(g) and is_concealed(g) and has_yaochuu(g))",
    "any(g in groups: not is_sequence(g) or is_kan(g) or not is_simple(g))",
    "all(g in groups: has_terminal(g) or is_pair(g))",
    "all(t in tiles: not is_honor(t) and is_simple(t))",
    "any(t in tiles: is_terminal(t) or is_dragon(t))",
]


def _every_group() -> list[Group]:
    """Every group a reading can hold: each shape of each kind, called or not, concealed or not."""
    found = []
    for kind in range(34):
        shapes = [(PAIR, 2), (TRIPLET, 3), (KAN, 4)] + ([(SEQUENCE, 3)] if kind < 27 and kind % 9 <= 6 else [])
        for shape, size in shapes:
            tiles = tuple(kind + i for i in range(3)) if shape == SEQUENCE else (kind,) * size
            found += [Group(shape, kind, tiles, called, concealed) for called in (False, True) for concealed in (False, True)]
    return found


@pytest.mark.parametrize("text", PROPERTY_CHAINS)
def test_a_chain_of_properties_of_the_element_agrees_with_the_chain_over_its_element(text: str) -> None:
    node = nodes(text)
    assert isinstance(node, F.Quant)
    chain = F._properties_chain(node.body)
    assert chain is not None
    elements = list(range(34)) if node.domain.name == "tiles" else _every_group()
    for element in elements:
        assert chain(element) is bool(node.body({node.var: element})), (text, element)
    assert F._properties_chain(nodes("is_triplet(g) and closed")) is None  # a fact read: not the element's alone
