"""The checker's proof that a condition can never hold (``ruledsl.check.unsatisfiable``) looks each term up by a
hash taken once and skips a lone conjunct that cannot contradict itself: it gives the reason the plain version
gives (kept here as written before those shortcuts), on every condition of the repository's rulebooks and on
generated conjunctions of the terms the proof reasons about."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruledsl import ast
from ruledsl import check as C
from ruledsl.parser import parse

ROOT = Path(__file__).resolve().parents[2]


def plain_unsatisfiable(expr: ast.Expr) -> str | None:
    if C._fold(expr) is False:
        return "it is always false"
    if isinstance(expr, ast.BinOp) and expr.op == "or":
        if plain_unsatisfiable(expr.left) is not None and plain_unsatisfiable(expr.right) is not None:
            return "neither side of `or` can hold"
        return None
    conjuncts = C._conjuncts(expr)
    if len(conjuncts) > 1:
        for c in conjuncts:
            reason = plain_unsatisfiable(c)
            if reason is not None:
                return reason
    return plain_contradiction(conjuncts)


def plain_contradiction(conjuncts: list[ast.Expr]) -> str | None:  # noqa: C901 - the reference, as it was
    literals: dict[ast.Expr, bool] = {}
    equal: dict[ast.Expr, C._Const] = {}
    unequal: dict[ast.Expr, set[C._Const]] = {}
    bounds: dict[ast.Expr | str, tuple[float, float]] = {}
    shown: dict[ast.Expr | str, ast.Expr | str] = {}

    def bound(key: ast.Expr | str, low: float, high: float) -> bool:
        old_low, old_high = bounds.get(key, (float("-inf"), float("inf")))
        bounds[key] = (max(old_low, low), min(old_high, high))
        return bounds[key][0] > bounds[key][1]

    for c in conjuncts:
        atom, truth = (c.operand, False) if isinstance(c, ast.Not) else (c, True)
        if atom in literals and literals[atom] != truth:
            return f"`{C._words(atom)}` must be both true and false"
        literals[atom] = truth
        comparison = C._comparison(c)
        if comparison is None:
            continue
        term, op, value = comparison
        key: ast.Expr | str = C._size_of(term) or term
        shown.setdefault(key, term)
        if op == "==":
            if term in equal and equal[term] != value:
                return f"`{C._words(term)}` cannot equal both `{C._shown(equal[term])}` and `{C._shown(value)}`"
            if value in unequal.get(term, set()):
                return f"`{C._words(term)}` cannot both equal and differ from `{C._shown(value)}`"
            equal[term] = value
            if value[0] == "name" and isinstance(term, ast.Name) and term.id == "shape":
                for size_key, has in C._SHAPE_SIZES.get(str(value[1]), {}).items():
                    shown.setdefault(size_key, f"size({size_key})")
                    if bound(size_key, *has):
                        return f"a `{value[1]}` hand has {C._range_words(*has)} `{size_key}`"
        elif op == "!=":
            if equal.get(term) == value:
                return f"`{C._words(term)}` cannot both equal and differ from `{C._shown(value)}`"
            unequal.setdefault(term, set()).add(value)
        if value[0] != "int":
            continue
        number = cast(int, value[1])
        low, high = {
            "==": (number, number), "<": (float("-inf"), number - 1), "<=": (float("-inf"), number),
            ">": (number + 1, float("inf")), ">=": (number, float("inf")), "!=": (float("-inf"), float("inf")),
        }[op]
        if isinstance(key, str):
            bound(key, *C._SIZE_BOUNDS[key])
        if bound(key, low, high):
            shape = equal.get(ast.Name("shape"))
            if isinstance(key, str) and shape is not None and str(shape[1]) in C._SHAPE_SIZES:
                has = C._SHAPE_SIZES[str(shape[1])].get(key, C._SIZE_BOUNDS[key])
                return f"a `{shape[1]}` hand has {C._range_words(*has)} `{key}`"
            return f"no number meets every bound on `{C._named(shown[key])}`"
    for key, (low, _) in bounds.items():
        domain = C._counted(key)
        if domain is not None and low > bounds.get(domain, C._SIZE_BOUNDS[domain])[1]:
            return f"no number meets every bound on `{C._named(shown[key])}`"
    for a, b in C._EXACTLY_ONE:
        ta, tb = literals.get(ast.Name(a)), literals.get(ast.Name(b))
        if ta is not None and ta == tb:
            return f"every win is exactly one of `{a}` and `{b}`"
    return None


def _conditions() -> list[ast.Expr]:
    found: list[ast.Expr] = []
    for folder in ("rulebooks", "tests/ruledsl/fixtures", "tests/golden", "docs"):
        for path in sorted((ROOT / folder).rglob("*.rulebook")):
            try:
                tree = parse(path.read_text(encoding="utf-8"), str(path))
            except Exception:  # noqa: BLE001 - a fixture of syntax mistakes has no condition to compare
                continue
            found += [f.value for item in tree.items for f in item.fields if f.name in ("when", "fixed", "fu", "han")]
    return found


def test_every_condition_of_the_repository_gets_the_plain_reason() -> None:
    conditions = _conditions()
    assert len(conditions) > 200
    for expr in conditions:
        assert C.unsatisfiable(expr) == plain_unsatisfiable(expr), expr


def _n(value: int) -> ast.Expr:
    return ast.Int(value) if value >= 0 else ast.Negate(ast.Int(-value))


_counts = st.sampled_from(
    [
        ast.Call("size", (ast.Name("sets"),)),
        ast.Call("size", (ast.Name("pairs"),)),
        ast.Quantifier("count", "g", ast.Name("sets"), ast.Call("is_kan", (ast.Name("g"),))),
        ast.Quantifier("count", "g", ast.Name("pairs"), ast.Bool(True)),
        ast.Quantifier("count", "g", ast.Name("sets"), ast.Bool(True)),
        ast.Name("han"),
        ast.Name("fu"),
        ast.Name("dora_hits"),
    ]
)
_comparisons = st.builds(
    lambda term, op, n, flip: ast.BinOp(op, _n(n), term) if flip else ast.BinOp(op, term, _n(n)),
    _counts,
    st.sampled_from(["==", "!=", "<", "<=", ">", ">="]),
    st.integers(-1, 9),
    st.booleans(),
)
_names = st.builds(
    lambda term, op, value: ast.BinOp(op, ast.Name(term), ast.Name(value)),
    st.sampled_from(["shape", "wait"]),
    st.sampled_from(["==", "!="]),
    st.sampled_from(["standard", "seven_pairs", "thirteen_orphans", "kanchan", "tanki"]),
)
_flags = st.sampled_from([ast.Name(n) for n in ("tsumo", "ron", "riichi", "closed")] + [ast.Bool(True), ast.Bool(False)])
_atoms = st.one_of(_comparisons, _names, _flags)
_terms = st.recursive(
    _atoms,
    lambda inner: st.one_of(
        st.builds(ast.Not, inner),
        st.builds(lambda a, b: ast.BinOp("and", a, b), inner, inner),
        st.builds(lambda a, b: ast.BinOp("or", a, b), inner, inner),
    ),
    max_leaves=8,
)


@settings(max_examples=500, deadline=None)
@given(_terms)
def test_generated_conditions_get_the_plain_reason(expr: ast.Expr) -> None:
    assert C.unsatisfiable(expr) == plain_unsatisfiable(expr)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None)
@given(_terms)
def test_generated_conditions_get_the_plain_reason_at_length(expr: ast.Expr) -> None:
    assert C.unsatisfiable(expr) == plain_unsatisfiable(expr)


@settings(max_examples=200, deadline=None)  # the twin below runs 2000 under -m slow
@given(st.one_of(_atoms, st.builds(ast.Not, _atoms)))
def test_a_lone_conjunct_is_proved_as_in_the_tables(expr: ast.Expr) -> None:
    """The proof of one conjunct alone, made without the tables, gives the tables' reason."""
    conjunct = C._Conjunct(expr)
    assert C._lone_contradiction(conjunct) == C._contradiction([conjunct])


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(st.one_of(_atoms, st.builds(ast.Not, _atoms)))
def test_a_lone_conjunct_is_proved_as_in_the_tables_at_length(expr: ast.Expr) -> None:
    test_a_lone_conjunct_is_proved_as_in_the_tables.hypothesis.inner_test(expr)


@settings(max_examples=200, deadline=None)  # the twin below runs 2000 under -m slow
@given(st.lists(st.one_of(_atoms, st.builds(ast.Not, _atoms)), min_size=2, max_size=5))
def test_conjuncts_told_independent_have_no_contradiction(exprs: list[ast.Expr]) -> None:
    """Conjuncts that hold each alone and that ``_independent`` tells apart get no reason from the whole proof."""
    conjuncts = [C._Conjunct(e) for e in exprs]
    if all(C._unsatisfiable_alone(c) is None for c in conjuncts) and C._independent(conjuncts):
        assert C._contradiction(conjuncts) is None


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(st.lists(st.one_of(_atoms, st.builds(ast.Not, _atoms)), min_size=2, max_size=5))
def test_conjuncts_told_independent_have_no_contradiction_at_length(exprs: list[ast.Expr]) -> None:
    test_conjuncts_told_independent_have_no_contradiction.hypothesis.inner_test(exprs)
