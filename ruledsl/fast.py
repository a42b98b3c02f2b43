"""Execution form of compiled rules: each frozen node tree turned into nested Python closures.

The node objects of ``ruledsl.compile`` are what a rule *is* (they print, compare and explain themselves);
walking them costs an attribute lookup and a method call per node. A scorer evaluates thousands of them per
second, so it runs these closures instead: built once per rulebook from the nodes, never from text.

Building happens in two steps. ``simplify`` rewrites the node tree without changing what it computes: constant
subexpressions are folded (``tile_of(m, 1)`` is a tile), ``and``/``or`` chains are flattened, and a quantifier
over a short constant list (``any(n in 1..7: ...)``) is unrolled into one condition per element, so no loop
variable is bound at run time. ``_build`` then turns the simplified tree into closures, specialising the common
shapes: a chain of conditions is one function; a quantifier whose body reads only its loop variable runs as a
C-level loop over a memo of the body's values (fused with a constant it is compared with or multiplied by); an
environment function called with constants may supply a faster bound form (``fast_bind``), and tests of set
membership it declares (``fast_member``) combine into set operations.

Rules are pure, so the order of operands is free, except where an operand may raise (``may_raise``):
arithmetic past its bounds raises ``RuleEvaluationError`` (``ruledsl.arithmetic``) in both evaluators, and the
closures meet the same error the nodes would, at the same place.

``reads`` and ``mentioned`` tell which facts a node reads, for a scorer deciding what to compute ahead or to
keep between hands; ``cost`` orders the operands of a chain.
"""

from __future__ import annotations

import _thread
import itertools
import operator
from collections.abc import Callable, Sequence
from functools import partial
from itertools import repeat

from ruledsl import arithmetic
from ruledsl import vocabulary as V
from ruledsl.memo import Memo
from ruledsl.nodes import (
    _BINARY,
    And,
    Apply,
    Binary,
    Cond,
    Const,
    ListNode,
    NotNode,
    Or,
    Quant,
    RangeNode,
    Ref,
)
from ruledsl.record import record
from ruledsl.tiles import KINDS as TILE_KINDS
from ruledsl.typing_names import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from typing import Any

    Fn = Callable[[dict], Any]
    # What ``any_of`` knows of one operand (``disjunct``)
    Disjunct = tuple[Any, ...]

UNROLL_LIMIT = 16  # longest constant domain unrolled
UNROLL_BUDGET = 4000  # most nodes an unrolled quantifier may grow to
MEMO_LIMIT = 4096  # a memo of a loop body is emptied when it grows past this many values
COEFFICIENT_LIMIT = 2**32  # largest ``c`` of ``c * count(...)`` summed per element (``element_counter``)


# ---- internal nodes produced by simplify ---------------------------------------------------------------------


@record
class Chain:
    """``a and b and c`` (``conjunction``) or ``a or b or c``, flattened; its value is a bool."""

    conjunction: bool
    parts: tuple[Any, ...]

    def __call__(self, env: dict) -> bool:
        if self.conjunction:
            return all(bool(p(env)) for p in self.parts)
        return any(bool(p(env)) for p in self.parts)


@record
class Unrolled:
    """A ``count``, ``sum``, ``max`` or ``min`` quantifier over a constant list, one body per element."""

    kind: str
    bodies: tuple[Any, ...]

    def __call__(self, env: dict) -> Any:
        values = [b(env) for b in self.bodies]
        return _reduce(self.kind, values)


def _reduce(kind: str, values: list[Any]) -> Any:
    if kind == "count":
        return sum(1 for v in values if v)
    if kind == "sum":
        return arithmetic.total(values)
    if kind == "max":
        return max(values, default=0)
    return min(values, default=0)


# ---- public entry points -------------------------------------------------------------------------------------


def closure(node: Any) -> Fn:
    """The fast evaluator of a compiled node; semantics identical to calling the node."""
    return _build(simplify(node))


def build(simple: Any) -> Fn:
    """The closure of a node ``simplify`` already gave (``closure`` without simplifying twice)."""
    return _build(simple)


def is_constant_true(simple: Any) -> bool:
    """A simplified node that is a true constant."""
    return isinstance(simple, Const) and bool(simple.value)


def cost(node: Any) -> int:
    """A rough price of evaluating a node, to try cheap conditions first (rules have no side effects)."""
    if isinstance(node, (Const, Ref)):
        return 1
    if isinstance(node, Apply):
        return (4 if node.needs_env else 2) + sum(cost(a) for a in node.args)
    if isinstance(node, (And, Or, Binary)):
        return 1 + cost(node.left) + cost(node.right)
    if isinstance(node, NotNode):
        return 1 + cost(node.operand)
    if isinstance(node, Chain):
        if _member_group(node, node.conjunction) is not None:
            return 3  # one set operation
        return 1 + sum(cost(p) for p in node.parts)
    if isinstance(node, Unrolled):
        if all(_member(b) is not None for b in node.bodies):
            return 3
        return 1 + sum(cost(b) for b in node.bodies)
    if isinstance(node, Quant):
        if _reads_only(node.body, node.var):
            return 6 + cost(node.domain) + cost(node.body)  # a memoised C-level loop
        return 8 + cost(node.domain) + 6 * cost(node.body)
    if isinstance(node, Cond):
        return 1 + cost(node.condition) + max(cost(node.then), cost(node.otherwise))
    return 10


_RAISING_OPERATORS = frozenset({"+", "-", "*", "/", "^"})


def may_raise(node: Any) -> bool:
    """Evaluating the node may raise ``RuleEvaluationError`` (it does arithmetic, builds a range or a sum).

    The vocabulary's other functions are total on every value of their types; a node this module does not know
    is assumed to raise. A chain keeps the written order of operands that may raise, so that both evaluators
    meet the same error first.
    """
    if isinstance(node, (Const, Ref)):
        return False
    if isinstance(node, Binary) and node.op in _RAISING_OPERATORS:
        return True
    if isinstance(node, RangeNode) or (isinstance(node, (Quant, Unrolled)) and node.kind == "sum"):
        return True
    if isinstance(node, Apply) and node.fn is arithmetic.round_up:
        return True
    if not isinstance(node, (Apply, And, Or, Binary, NotNode, Cond, ListNode, Quant, Chain, Unrolled)):
        return True
    return any(map(may_raise, _children(node)))


def reads(node: Any) -> frozenset[str] | None:
    """The environment keys a node may read, or None when that cannot be told.

    Facts and loop variables are read by name; an environment function reads the keys it declares
    (``env_reads``), so a node calling one that declares none (or a node this module does not know) answers None.
    """
    if isinstance(node, Const):
        return frozenset()
    if isinstance(node, Ref):
        return frozenset((node.name,))
    if isinstance(node, Apply):
        found = _reads_all(node.args)
        if not node.needs_env or found is None:
            return found
        declared = getattr(node.fn, "env_reads", None)
        return None if declared is None else found | declared
    if isinstance(node, (And, Or, Binary)):
        return _reads_all((node.left, node.right))
    if isinstance(node, NotNode):
        return reads(node.operand)
    if isinstance(node, Cond):
        return _reads_all((node.condition, node.then, node.otherwise))
    if isinstance(node, ListNode):
        return _reads_all(node.items)
    if isinstance(node, RangeNode):
        return _reads_all((node.low, node.high))
    if isinstance(node, Chain):
        return _reads_all(node.parts)
    if isinstance(node, Unrolled):
        return _reads_all(node.bodies)
    if isinstance(node, Quant):
        domain, body = reads(node.domain), reads(node.body)
        if domain is None or body is None:
            return None
        return domain | (body - {node.var})
    return None


def element_counter(node: Any) -> tuple[str, int, Callable[[Any], int]] | None:
    """``c * count(x in fact: body)`` (or ``count(...) * c``, or the count alone) whose body reads only ``x``, as
    (fact, c, the body as 1 or 0 per element); None for any other node. Several such values over one fact can be
    summed in one pass over its elements (the scorer does so for fu items)."""
    node = simplify(node)
    coefficient: Any = 1
    if isinstance(node, Binary) and node.op == "*":
        if isinstance(node.left, Const) and isinstance(node.right, Quant):
            coefficient, node = node.left.value, node.right
        elif isinstance(node.right, Const) and isinstance(node.left, Quant):
            coefficient, node = node.right.value, node.left
        else:
            return None
    if type(coefficient) is not int or not (isinstance(node, Quant) and node.kind == "count" and isinstance(node.domain, Ref)):
        return None
    if abs(coefficient) > COEFFICIENT_LIMIT:  # summed per element, c * n must stay far inside the integer bound
        return None
    pure = _pure(node.body, node.var)
    if pure is None:
        return None
    return node.domain.name, coefficient, lambda x: 1 if pure(x) else 0


def mentioned(node: Any) -> frozenset[str]:
    """The environment keys a node names or its functions declare: what it is likely to read (an undeclared
    environment function may read more). For deciding what to compute ahead, never for correctness."""
    if isinstance(node, Ref):
        return frozenset((node.name,))
    if isinstance(node, Apply):
        found = frozenset().union(*[mentioned(a) for a in node.args])
        return found | getattr(node.fn, "env_reads", frozenset()) if node.needs_env else found
    if isinstance(node, Quant):
        return mentioned(node.domain) | (mentioned(node.body) - {node.var})
    return frozenset().union(*[mentioned(child) for child in _children(node)])


def _children(node: Any) -> tuple[Any, ...]:
    if isinstance(node, Apply):
        return node.args
    if isinstance(node, Quant):
        return (node.domain, node.body)
    if isinstance(node, (And, Or, Binary)):
        return (node.left, node.right)
    if isinstance(node, NotNode):
        return (node.operand,)
    if isinstance(node, Cond):
        return (node.condition, node.then, node.otherwise)
    if isinstance(node, ListNode):
        return node.items
    if isinstance(node, RangeNode):
        return (node.low, node.high)
    if isinstance(node, Chain):
        return node.parts
    if isinstance(node, Unrolled):
        return node.bodies
    return ()


def _reads_all(nodes: Any) -> frozenset[str] | None:
    found: frozenset[str] = frozenset()
    for n in nodes:
        more = reads(n)
        if more is None:
            return None
        found |= more
    return found


# ---- simplify: the same computation as a cheaper tree ----------------------------------------------------------


def simplify(node: Any) -> Any:
    """Fold constants, flatten ``and``/``or`` and unroll quantifiers over short constant lists.

    Rules are pure, so a subexpression whose inputs are all constants may be computed once here; one that raises
    is left as it was and raises at run time, as it would have.
    """
    if isinstance(node, Apply):
        args = tuple(simplify(a) for a in node.args)
        new = Apply(node.name, node.fn, args, node.needs_env)
        if not node.needs_env and all(isinstance(a, Const) for a in args):
            return _folded(new)
        return new
    if isinstance(node, (And, Or, Chain)):
        return _simplify_chain(node)
    if isinstance(node, NotNode):
        operand = simplify(node.operand)
        return _folded(NotNode(operand)) if isinstance(operand, Const) else NotNode(operand)
    if isinstance(node, Binary):
        left, right = simplify(node.left), simplify(node.right)
        binary = Binary(node.op, node.fn, left, right)
        return _folded(binary) if isinstance(left, Const) and isinstance(right, Const) else binary
    if isinstance(node, Cond):
        condition = simplify(node.condition)
        if isinstance(condition, Const):
            return simplify(node.then if condition.value else node.otherwise)
        return Cond(condition, simplify(node.then), simplify(node.otherwise))
    if isinstance(node, ListNode):
        items = tuple(simplify(i) for i in node.items)
        if all(isinstance(i, Const) for i in items):
            return Const(tuple(i.value for i in items))
        return ListNode(items)
    if isinstance(node, RangeNode):
        low, high = simplify(node.low), simplify(node.high)
        span = RangeNode(low, high)
        return _folded(span) if isinstance(low, Const) and isinstance(high, Const) else span
    if isinstance(node, Quant):
        return _simplify_quantifier(node)
    return node  # Const, Ref, and any node this module does not know


def _folded(node: Any) -> Any:
    """The node's value as a constant (its inputs are constants), or the node itself when evaluating fails."""
    try:
        return Const(node({}))
    except Exception:  # noqa: BLE001 - the same error will surface at run time
        return node


def _chain_operands(node: Any, conjunction: bool) -> list[Any]:
    if isinstance(node, And if conjunction else Or):
        return _chain_operands(node.left, conjunction) + _chain_operands(node.right, conjunction)
    if isinstance(node, Chain) and node.conjunction == conjunction:
        return list(node.parts)
    return [node]


def _simplify_chain(node: And | Or | Chain) -> Any:
    conjunction = node.conjunction if isinstance(node, Chain) else isinstance(node, And)
    parts: list[Any] = []
    for operand in _chain_operands(node, conjunction):
        for part in _chain_operands(simplify(operand), conjunction):
            if isinstance(part, Const):
                if bool(part.value) != conjunction:  # a false conjunct or a true disjunct decides the chain,
                    if any(map(may_raise, parts)):  # after the operands before it, which may still raise
                        return Chain(conjunction, (*parts, part))
                    return Const(not conjunction)
                continue  # a true conjunct or a false disjunct changes nothing
            parts.append(part)
    if not parts:
        return Const(conjunction)
    return Chain(conjunction, tuple(parts))


def _simplify_quantifier(node: Quant) -> Any:
    domain = simplify(node.domain)
    if isinstance(domain, Const) and _unrollable(node.var, domain.value):
        bodies = _unrolled_bodies(node, domain.value)
        if bodies is not None:
            if node.kind in ("any", "all"):
                return _simplify_chain(Chain(node.kind == "all", bodies))
            if all(isinstance(b, Const) for b in bodies):
                return _folded(Unrolled(node.kind, bodies))
            return Unrolled(node.kind, bodies)
    body = simplify(node.body)
    new = Quant(node.kind, node.var, domain, body)
    if isinstance(domain, Const) and _reads_only(body, node.var):
        return _folded(new)
    return new


def _unrollable(var: str, values: Any) -> bool:
    """A short constant list, and a loop variable no environment function could read in the environment."""
    if var in V.FACTS or var.startswith("_"):
        return False
    return isinstance(values, (tuple, list, range, frozenset)) and len(values) <= UNROLL_LIMIT


def _unrolled_bodies(node: Quant, values: Any) -> tuple[Any, ...] | None:
    bodies = []
    size = 0
    for value in values:
        body = _substitute(node.body, node.var, Const(value))
        if body is None:
            return None
        body = simplify(body)
        size += _size(body)
        if size > UNROLL_BUDGET:
            return None
        bodies.append(body)
    return tuple(bodies)


def _substitute(node: Any, var: str, value: Const) -> Any:
    """The node with the loop variable ``var`` replaced by a constant, or None for a node it cannot rewrite."""
    if isinstance(node, Ref):
        return value if node.name == var else node
    if isinstance(node, Const):
        return node
    if isinstance(node, Apply):
        args = [_substitute(a, var, value) for a in node.args]
        return None if _any_none(args) else Apply(node.name, node.fn, tuple(args), node.needs_env)
    if isinstance(node, (And, Or, Binary, NotNode, Cond, ListNode, RangeNode, Quant)):
        return _substitute_fields(node, var, value)
    return None


def _substitute_fields(node: Any, var: str, value: Const) -> Any:
    if isinstance(node, Quant):
        domain = _substitute(node.domain, var, value)
        if domain is None:
            return None
        if node.var == var:  # the inner loop rebinds the name: its body sees its own variable
            return Quant(node.kind, node.var, domain, node.body)
        body = _substitute(node.body, var, value)
        return None if body is None else Quant(node.kind, node.var, domain, body)
    if isinstance(node, ListNode):
        items = [_substitute(i, var, value) for i in node.items]
        return None if _any_none(items) else ListNode(tuple(items))
    if isinstance(node, NotNode):
        operand = _substitute(node.operand, var, value)
        return None if operand is None else NotNode(operand)
    if isinstance(node, Cond):
        parts = [_substitute(p, var, value) for p in (node.condition, node.then, node.otherwise)]
        return None if _any_none(parts) else Cond(*parts)
    if isinstance(node, RangeNode):
        low, high = _substitute(node.low, var, value), _substitute(node.high, var, value)
        return None if low is None or high is None else RangeNode(low, high)
    left, right = _substitute(node.left, var, value), _substitute(node.right, var, value)
    if left is None or right is None:
        return None
    if isinstance(node, Binary):
        return Binary(node.op, node.fn, left, right)
    return type(node)(left, right)


def _any_none(values: list[Any]) -> bool:
    """``None in values`` by identity: ``in`` would call each node's ``__eq__``."""
    return any(v is None for v in values)


def _size(node: Any) -> int:
    return 1 + sum(_size(child) for child in _children(node))


# ---- build: closures ---------------------------------------------------------------------------------------------


def _build(node: Any) -> Fn:
    if isinstance(node, Const):
        value = node.value
        return lambda env: value
    if isinstance(node, Ref):
        return operator.itemgetter(node.name)
    if isinstance(node, Apply):
        return _apply(node)
    if isinstance(node, Chain):
        return _chain(node)
    if isinstance(node, (And, Or)):
        return _build(_simplify_chain(node))
    if isinstance(node, NotNode):
        operand = _build(node.operand)
        return lambda env: not operand(env)
    if isinstance(node, Binary):
        return _binary(node)
    if isinstance(node, Cond):
        condition, then, otherwise = _build(node.condition), _build(node.then), _build(node.otherwise)
        return lambda env: then(env) if condition(env) else otherwise(env)
    if isinstance(node, ListNode):
        items = tuple(_build(i) for i in node.items)
        return lambda env: tuple(i(env) for i in items)
    if isinstance(node, RangeNode):
        low, high = _build(node.low), _build(node.high)
        return lambda env: arithmetic.number_range(low(env), high(env))
    if isinstance(node, Quant):
        return _quantifier(node)
    if isinstance(node, Unrolled):
        return _unrolled(node)
    return node  # an unknown node still evaluates correctly, just slowly


_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "notin"})


def _is_bool(node: Any) -> bool:
    """The node's value is always ``True`` or ``False`` (so a chain of one needs no ``bool``)."""
    if isinstance(node, (NotNode, Chain, And, Or)):
        return True
    if isinstance(node, Binary):
        return node.op in _COMPARISONS
    if isinstance(node, Quant):
        return node.kind in ("any", "all")
    return isinstance(node, Const) and isinstance(node.value, bool)


def _chain(node: Chain) -> Fn:
    """A flattened ``and``/``or`` as one function, cheapest operand first; pure rules make the order free."""
    as_sets = _set_chain(node)
    if as_sets is not None:
        return as_sets
    # rules are pure, so the order of the operands is free, unless one may raise: then, as written
    raises = any(map(may_raise, node.parts))
    parts = list(node.parts) if raises else sorted(node.parts, key=cost)
    if node.conjunction and len(parts) > 1:
        inlined = _compares_then(parts)
        if inlined is not None:
            return inlined
    if not node.conjunction and len(parts) > 2 and not raises:
        merged = _merged_disjuncts(parts, lambda i: _build(parts[i]))
        if merged is not None:
            return _any_of(merged)
    fns = tuple(_build(p) for p in parts)
    if len(fns) == 1:
        (a,) = fns
        return a if _is_bool(parts[0]) else (lambda env: True if a(env) else False)
    if node.conjunction:
        return _all_of(fns)
    return _any_of(fns)


# ---- disjunctions of like operands, tested together ------------------------------------------------------------
# A rulebook's yakuman are asked as one disjunction per reading ("does any hold?"), and nearly always none does.
# Operands of one shape are then tested together: ``all(t in tiles: P(t))`` of several ``P`` is one C-level loop of
# subset tests (``P`` read off every tile kind, a tile list holding kinds alone); operands that each need at least
# so many elements of one set of a reading (``has_triplet(5z) and has_triplet(6z) and has_triplet(7z)``,
# ``count(w in 1234z: has_triplet(w)) == 4``) are turned away together when the reading holds fewer of the
# elements they name than the least of them needs. The operands are pure and cannot raise (``_chain`` checks), so
# testing them in another order, or not at all once one holds, gives the same value.


def any_of(parts: Sequence[Any], fns: Sequence[Fn], kinds: Sequence[Disjunct] | None = None) -> Fn:
    """Whether any of several simplified conditions holds, as one function, given their closures (``fns``): like
    operands tested together (below), unless one may raise, when they are asked in the order given, as ``any``
    over the closures would. The scorer's check "does any yakuman hold?" of each reading. ``kinds``: each
    operand's ``disjunct``, worked out before (a rulebook's yakuman are combined anew for each situation that
    rules some of them out, and each one's analysis is the same every time)."""
    if len(parts) < 2:
        return _any_of(tuple(fns))
    if kinds is None:
        kinds = [disjunct(part) for part in parts]
    if _RAISES in kinds:
        return _any_of(tuple(fns))
    merged = _merged_kinds(kinds, fns.__getitem__)
    return _any_of(tuple(fns) if merged is None else merged)


# What ``any_of`` knows of one operand (``disjunct``): it may raise; ``all(t in FACT: P(t))`` over tile kinds, with
# the kinds ``P`` holds for; it needs at least so many elements of one fact; or none of these.
_RAISES: Disjunct = ("raises",)
_REST: Disjunct = ("rest",)


def disjunct(part: Any) -> Disjunct:
    """How ``any_of`` tests one simplified operand of a disjunction with others (a function of the operand alone,
    so that it can be worked out once per operand): ``("raises",)``, ``("within", fact, kinds)`` (``_within_tiles``),
    ``("members", key, elements, least)`` (``_least_members``) or ``("rest",)``."""
    if may_raise(part):
        return _RAISES
    found = _within_tiles(part)
    if found is not None:
        return ("within", *found)
    needs = _least_members(part)
    if needs is not None:
        return ("members", *needs)
    return _REST


def _merged_disjuncts(parts: list[Any], closure_of: Callable[[int], Fn]) -> tuple[Fn, ...] | None:
    """The disjunction's operands as functions (``closure_of``: the closure of the operand at a place), like ones
    merged; None when no two are alike. No operand may raise (the callers check)."""
    return _merged_kinds([disjunct(part) for part in parts], closure_of)


def _merged_kinds(kinds: Sequence[Disjunct], closure_of: Callable[[int], Fn]) -> tuple[Fn, ...] | None:
    """``_merged_disjuncts`` of operands whose ``disjunct`` is known (none of which raises)."""
    within: dict[str, list[frozenset[int]]] = {}
    members: dict[str, list[tuple[Fn, frozenset, int]]] = {}
    rest = []
    for at, kind in enumerate(kinds):
        if kind[0] == "within":
            within.setdefault(kind[1], []).append(kind[2])
        elif kind[0] == "members":
            members.setdefault(kind[1], []).append((closure_of(at), kind[2], kind[3]))
        else:
            rest.append(at)
    if all(len(v) < 2 for v in within.values()) and all(len(v) < 2 for v in members.values()):
        return None
    fns = [closure_of(at) for at in rest]
    for name, sets in within.items():
        fns.append(_within_any(name, tuple(sets)))
    for key, group in members.items():
        fns.append(_members_then(key, group))
    return tuple(fns)


def _within_tiles(node: Any) -> tuple[str, frozenset[int]] | None:
    """(fact, kinds) of ``all(t in FACT: P(t))`` over a fact of tile kinds, ``P`` reading only ``t``: the kinds ``P``
    holds for, within which every tile of the fact must be."""
    if not (isinstance(node, Quant) and node.kind == "all" and isinstance(node.domain, Ref)):
        return None
    fact = V.FACTS.get(node.domain.name)
    if fact is None or fact.type != V.TILES:
        return None
    pure = _pure(node.body, node.var)
    if pure is None:
        return None
    try:
        return node.domain.name, frozenset(kind for kind in range(TILE_KINDS) if pure(kind))
    except Exception:  # noqa: BLE001 - a body that fails on some kind: left as it is
        return None


def _within_any(name: str, sets: tuple[frozenset[int], ...]) -> Fn:
    superset = frozenset.issuperset
    if len(sets) == 1:
        (kinds,) = sets
        return lambda env: kinds.issuperset(env[name])
    # a tile of a kind in none of the sets is within none of them: nearly every hand holds one, and is turned away
    # by one C-level test instead of a test per set
    outside = frozenset(range(TILE_KINDS)).difference(*sets)

    def within_some(env: dict) -> bool:
        tiles = env[name]
        if not outside.isdisjoint(tiles):
            return False
        return any(map(superset, sets, repeat(tiles)))

    return within_some


def _least_members(node: Any) -> tuple[str, frozenset, int] | None:
    """(key, elements, least) when the node holds only if ``env[key]`` holds at least ``least`` of ``elements``: a
    conjunction of membership tests on one key, a ``count`` of them compared with a constant, or a conjunction with
    either among its operands."""
    if isinstance(node, Chain) and node.conjunction:
        whole = _member_group(node, True)
        if whole is not None:
            return whole[0], whole[1], len(whole[1])
        for part in node.parts:
            found = _least_members(part)
            if found is not None:
                return found
        return None
    if isinstance(node, Binary) and isinstance(node.left, Unrolled) and isinstance(node.right, Const) and node.op in ("==", ">=", ">"):
        members = _set_members(node.left)
        c = node.right.value
        if members is None or type(c) is not int:
            return None
        least = c + 1 if node.op == ">" else c
        return (members[0], members[1], least) if least > 0 else None
    return None


def _members_then(key: str, group: list[tuple[Fn, frozenset, int]]) -> Fn:
    """The operands of ``group`` (their closures, each holding only when ``env[key]`` holds at least its least of
    its elements), tried only when the key holds as many of all their elements as the least of them needs."""
    elements = frozenset().union(*[e for _f, e, _n in group])
    least = min(n for _f, _e, n in group)
    fns = tuple(f for f, _e, _n in group)
    anyof = fns[0] if len(fns) == 1 else _any_of(fns)

    def some_member_rule(env: dict) -> bool:
        held = env[key]
        # none of the elements held (most readings): told without building the intersection
        if elements.isdisjoint(held) or len(elements.intersection(held)) < least:
            return False
        return True if anyof(env) else False

    return some_member_rule


# The comparisons of a fact with a constant written in place (``op(env[name], c)`` is ``env[name] OP c``, the very
# test ``_compare_fact`` makes), by operator: the reference nodes' own functions (``ruledsl.nodes._BINARY``).
_INLINE_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {op: _BINARY[op] for op in ("==", "!=", "<", "<=", ">", ">=")}


def _inline_compare(node: Any) -> tuple[str, Callable[[Any, Any], Any], Any] | None:
    """(fact, operator, constant) of ``fact OP constant``, a comparison a chain can make in place; else None."""
    if isinstance(node, Binary) and isinstance(node.left, Ref) and isinstance(node.right, Const):
        op = _INLINE_OPERATORS.get(node.op)
        if op is not None:
            return node.left.name, op, node.right.value
    return None


def valued_when(condition: Any, when: Fn, amount_node: Any, amount: Fn) -> Fn:
    """``amount if condition else 0`` (an item that adds fu or han where its condition holds) as one function of
    the simplified nodes and their closures: a constant amount, and a condition that compares a fact with a
    constant, are made in place (``fu = 2; when = wait in [kanchan, penchan, tanki]`` is one call, not three).
    The same value, from the same operands in the same order, as calling the closures."""
    constant = isinstance(amount_node, Const)
    c = amount_node.value if constant else None
    compare = _inline_compare(condition)
    if compare is not None:
        name, op, k = compare
        if constant:
            return lambda env: c if op(env[name], k) else 0
        return lambda env: amount(env) if op(env[name], k) else 0
    if isinstance(condition, Binary) and condition.op == "in" and isinstance(condition.left, Ref) and isinstance(condition.right, Const):
        name, k = condition.left.name, condition.right.value
        if constant:
            return lambda env: c if env[name] in k else 0
        return lambda env: amount(env) if env[name] in k else 0
    if constant:
        return lambda env: c if when(env) else 0
    return lambda env: amount(env) if when(env) else 0


def _compares_then(parts: list[Any]) -> Fn | None:
    """A conjunction whose first operands (in the order it evaluates them) compare facts with constants, as one
    function making those comparisons in place, then calling the one or two operands left: the chain of
    ``number_suits == 1 and honors > 0`` is one call instead of three. The operands are evaluated in the same
    order, and each stops the chain where it did (``tests/ruledsl/test_fast.py``). None for any other chain."""
    compares = []
    for part in parts[:3]:
        found = _inline_compare(part)
        if found is None:
            break
        compares.append(found)
    left = len(parts) - len(compares)
    if not compares or left > 2 or (len(compares) == 3 and left):
        return None
    rest = tuple(_build(p) for p in parts[len(compares) :])
    (n1, o1, c1) = compares[0]
    if len(compares) == 1:
        if len(rest) == 1:
            (r1,) = rest
            return lambda env: True if o1(env[n1], c1) and r1(env) else False
        r1, r2 = rest
        return lambda env: True if o1(env[n1], c1) and r1(env) and r2(env) else False
    (n2, o2, c2) = compares[1]
    if len(compares) == 3:
        (n3, o3, c3) = compares[2]
        return lambda env: True if o1(env[n1], c1) and o2(env[n2], c2) and o3(env[n3], c3) else False
    if not rest:
        return lambda env: True if o1(env[n1], c1) and o2(env[n2], c2) else False
    if len(rest) == 1:
        (r1,) = rest
        return lambda env: True if o1(env[n1], c1) and o2(env[n2], c2) and r1(env) else False
    r1, r2 = rest
    return lambda env: True if o1(env[n1], c1) and o2(env[n2], c2) and r1(env) and r2(env) else False


def _all_of(fns: tuple[Fn, ...]) -> Fn:
    if len(fns) == 2:
        a, b = fns
        return lambda env: True if a(env) and b(env) else False
    if len(fns) == 3:
        a, b, c = fns
        return lambda env: True if a(env) and b(env) and c(env) else False
    if len(fns) == 4:
        a, b, c, d = fns
        return lambda env: True if a(env) and b(env) and c(env) and d(env) else False

    def every(env: dict) -> bool:
        for fn in fns:
            if not fn(env):
                return False
        return True

    return every


def _any_of(fns: tuple[Fn, ...]) -> Fn:
    # written out up to six operands (a rulebook's yakuman check of a reading is one of four to six): a loop
    # costs a few bytecodes per operand more
    if len(fns) == 2:
        a, b = fns
        return lambda env: True if a(env) or b(env) else False
    if len(fns) == 3:
        a, b, c = fns
        return lambda env: True if a(env) or b(env) or c(env) else False
    if len(fns) == 4:
        a, b, c, d = fns
        return lambda env: True if a(env) or b(env) or c(env) or d(env) else False
    if len(fns) == 5:
        a, b, c, d, e = fns
        return lambda env: True if a(env) or b(env) or c(env) or d(env) or e(env) else False
    if len(fns) == 6:
        a, b, c, d, e, f = fns
        return lambda env: True if a(env) or b(env) or c(env) or d(env) or e(env) or f(env) else False

    def some(env: dict) -> bool:
        for fn in fns:
            if fn(env):
                return True
        return False

    return some


# ---- membership tests as set operations ---------------------------------------------------------------------
# An environment function may declare, for constant arguments, that its call is ``element in env[key]`` with a
# frozenset there (``fast_member``). Several such tests on one key then combine: ``has_triplet(5z) and
# has_triplet(6z)`` is one subset test, ``any(n in 1..7: all(x in [m, p, s]: has_sequence(x, n)))`` one C-level
# loop of subset tests, a ``count`` of them the size of an intersection.


def _member(node: Any) -> tuple[str, Any] | None:
    """(key, element) when the node is a membership test ``element in env[key]``, else None."""
    if not (isinstance(node, Apply) and node.needs_env and all(isinstance(a, Const) for a in node.args)):
        return None
    member = getattr(node.fn, "fast_member", None)
    if member is None:
        return None
    try:
        key, element = member(*[a.value for a in node.args])
        hash(element)
    except Exception:  # noqa: BLE001 - not a set member: the call is evaluated as written
        return None
    return key, element


def _member_group(node: Any, conjunction: bool) -> tuple[str, frozenset] | None:
    """(key, elements) when the node is one membership test, or a chain of them on one key."""
    found = _member(node)
    if found is not None:
        return found[0], frozenset((found[1],))
    if isinstance(node, Chain) and node.conjunction == conjunction:
        found = _on_one_key([_member(p) for p in node.parts])
        if found is not None:
            return found[0], frozenset(found[1])
    return None


_E = TypeVar("_E")


def _on_one_key(tests: Sequence[tuple[str, _E] | None]) -> tuple[str, list[_E]] | None:
    """The key and the elements of these tests, when each was found (not None) and all are on one key."""
    found = [test for test in tests if test is not None]
    if not found or len(found) != len(tests) or len({key for key, _element in found}) != 1:
        return None
    return found[0][0], [element for _key, element in found]


def _set_chain(node: Chain) -> Fn | None:
    """A chain of membership tests on one key, as set operations (None when it is not one)."""
    whole = _member_group(node, node.conjunction)
    if whole is not None:
        key, elements = whole
        if node.conjunction:
            return lambda env: elements.issubset(env[key])
        return lambda env: not elements.isdisjoint(env[key])
    # an `or` of `and`s (or an `and` of `or`s) of membership tests on one key
    groups = _on_one_key([_member_group(p, not node.conjunction) for p in node.parts])
    if groups is None:
        return None
    key = groups[0]
    subsets: tuple[frozenset, ...] = tuple(groups[1])
    if node.conjunction:

        def every_meets(env: dict) -> bool:
            held = env[key]
            if type(held) is frozenset:
                return not any(map(held.isdisjoint, subsets))
            return not any(s.isdisjoint(held) for s in subsets)

        return every_meets

    if not subsets or not all(subsets):  # no subset, or an empty one (within anything): no bound to test first

        def some_within_plain(env: dict) -> bool:
            held = env[key]
            return any(s.issubset(held) for s in subsets)

        return some_within_plain
    # A subset within the held elements is no larger than they are and holds its anchor (any one of its elements):
    # two C-level tests that turn most readings away (seven subsets of three sequence starts, one per suit, need
    # three starts held, one of them among the seven anchors) before the subsets are tried one by one.
    least = min(map(len, subsets))
    anchors = frozenset(next(iter(s)) for s in subsets)

    def some_within(env: dict) -> bool:
        held = env[key]
        if type(held) is frozenset:
            if len(held) < least or held.isdisjoint(anchors):
                return False
            return any(map(held.issuperset, subsets))
        return any(s.issubset(held) for s in subsets)

    return some_within


def _set_count(node: Unrolled) -> Fn | None:
    """A ``count`` of membership tests of distinct elements on one key: the size of an intersection."""
    members = _set_members(node)
    if members is None:
        return None
    key, wanted = members
    return lambda env: len(wanted.intersection(env[key]))


def _set_members(node: Unrolled) -> tuple[str, frozenset] | None:
    """(key, elements) of a ``count`` of membership tests of distinct elements on one key (``_set_count``)."""
    if node.kind != "count":
        return None
    members = _on_one_key([_member(b) for b in node.bodies])
    if members is None:
        return None
    key, elements = members
    if len(set(elements)) != len(elements):
        return None
    return key, frozenset(elements)


def _apply(node: Apply) -> Fn:
    fn = node.fn
    args = tuple(_build(a) for a in node.args)
    consts = [isinstance(a, Const) for a in node.args]
    if node.needs_env:
        bound = _bound(fn, node.args) if all(consts) else None
        if bound is not None:
            return bound
        key = getattr(fn, "member_of", None)
        if key is not None and len(args) == 1:
            if isinstance(node.args[0], Ref):
                name = node.args[0].name
                return lambda env: env[name] in env[key]
            a0 = args[0]
            return lambda env: a0(env) in env[key]
        if len(args) == 1 and consts[0]:
            c0 = node.args[0].value
            return lambda env: fn(env, c0)
        if len(args) == 1 and isinstance(node.args[0], Ref):  # ``value_roles(pair)``: the fact read in place
            name = node.args[0].name
            return lambda env: fn(env, env[name])
        if len(args) == 1:
            a0 = args[0]
            return lambda env: fn(env, a0(env))
        if len(args) == 2:
            a0, a1 = args
            return lambda env: fn(env, a0(env), a1(env))
        return lambda env: fn(env, *[a(env) for a in args])
    if len(args) == 1:
        held = _property_of_fact(fn, node.args[0])
        if held is not None:
            return held
        a0 = args[0]
        return lambda env: fn(a0(env))
    if len(args) == 2:
        a0, a1 = args
        return lambda env: fn(a0(env), a1(env))
    return lambda env: fn(*[a(env) for a in args])


def _property_of_fact(fn: Callable[[Any], Any], arg: Any) -> Fn | None:
    """``is_wind(pair)``: a property of one tile or group fact, kept per value of the fact (``_memo_for``'s way:
    tiles and interned groups are few, and the function reads nothing else), so a reading asks the memo, not the
    function; None for any other call."""
    if not isinstance(arg, Ref):
        return None
    fact = V.FACTS.get(arg.name)
    if fact is None or fact.type not in (V.TILE, V.GROUP):
        return None
    name = arg.name
    memo = Memo(fn, MEMO_LIMIT)
    get = memo.__getitem__

    def property_of(env: dict) -> Any:
        try:
            return get(env[name])
        except TypeError:  # a value that cannot be a key (never one the engine makes): the function itself
            return fn(env[name])

    return property_of


def _bound(fn: Callable[..., Any], args: tuple[Const, ...]) -> Fn | None:
    """The function's own ``fast_bind`` form for these constant arguments, if it offers one."""
    bind = getattr(fn, "fast_bind", None)
    if bind is None:
        return None
    try:
        return bind(*[a.value for a in args])
    except Exception:  # noqa: BLE001 - arguments it cannot bind are evaluated (and fail) at run time as before
        return None


def _binary(node: Binary) -> Fn:
    op = node.fn
    fused = _fused(node)
    if fused is not None:
        return fused
    if isinstance(node.right, Const):
        c = node.right.value
        if isinstance(node.left, Ref):
            compare = _compare_fact(node.op, node.left.name, c)
            if compare is not None:
                return compare
        left = _build(node.left)
        if node.op == "==":
            return lambda env: left(env) == c
        if node.op == "!=":
            return lambda env: left(env) != c
        if node.op == "in":
            return lambda env: left(env) in c
        if node.op == "notin":
            return lambda env: left(env) not in c
        if node.op == ">=":
            return lambda env: left(env) >= c
        if node.op == ">":
            return lambda env: left(env) > c
        if node.op == "<=":
            return lambda env: left(env) <= c
        if node.op == "<":
            return lambda env: left(env) < c
        return _bounded_constant_right(op, left, c) or (lambda env: op(left(env), c))
    right = _build(node.right)
    if isinstance(node.left, Const):
        c = node.left.value
        return _bounded_constant_left(op, c, right) or (lambda env: op(c, right(env)))
    if op is arithmetic.add and isinstance(node.left, Ref) and isinstance(node.right, Ref):
        return _facts_plus(node.left.name, node.right.name)
    left = _build(node.left)
    return _bounded(op, left, right) or (lambda env: op(left(env), right(env)))


def _facts_plus(a: str, b: str) -> Fn:
    """``a + b`` of two facts (``dora_hits + kita_dora_hits``), read in place: no item getter called for either,
    the same bound check as ``_bounded``'s."""

    def plus_facts(env: dict) -> Any:
        value = env[a] + env[b]
        return value if _LOW <= value <= _SMALL else _checked(value)

    return plus_facts


# ``+ - *`` with ``ruledsl.arithmetic``'s bound check written in place (None for any other operator): they run for
# every hand's bonus han and fu, and in place they save a Python call per operation. The check is the very one
# ``arithmetic.add`` makes; past the bound ``arithmetic.checked`` raises, as it would there.
# The in-place test is against a small bound (``SMALL``: numbers of one machine digit, which the interpreter
# compares fastest); a value past it, however rare, gets ``checked``'s full test.
_SMALL = arithmetic.SMALL
_LOW = -_SMALL
_checked = arithmetic.checked


def _bounded(op: Callable[[Any, Any], Any], left: Fn, right: Fn) -> Fn | None:
    if op is arithmetic.add:

        def plus(env: dict) -> Any:
            value = left(env) + right(env)
            return value if _LOW <= value <= _SMALL else _checked(value)

        return plus
    if op is arithmetic.subtract:

        def minus(env: dict) -> Any:
            value = left(env) - right(env)
            return value if _LOW <= value <= _SMALL else _checked(value)

        return minus
    if op is arithmetic.multiply:

        def times(env: dict) -> Any:
            value = left(env) * right(env)
            return value if _LOW <= value <= _SMALL else _checked(value)

        return times
    return None


def _bounded_constant_left(op: Callable[[Any, Any], Any], c: Any, right: Fn) -> Fn | None:
    if op is arithmetic.add:

        def plus(env: dict) -> Any:
            value = c + right(env)
            return value if _LOW <= value <= _SMALL else _checked(value)

        return plus
    if op is arithmetic.subtract:

        def minus(env: dict) -> Any:
            value = c - right(env)
            return value if _LOW <= value <= _SMALL else _checked(value)

        return minus
    if op is arithmetic.multiply:

        def times(env: dict) -> Any:
            value = c * right(env)
            return value if _LOW <= value <= _SMALL else _checked(value)

        return times
    return None


def _bounded_constant_right(op: Callable[[Any, Any], Any], left: Fn, c: Any) -> Fn | None:
    if op is arithmetic.add:

        def plus(env: dict) -> Any:
            value = left(env) + c
            return value if _LOW <= value <= _SMALL else _checked(value)

        return plus
    if op is arithmetic.subtract:

        def minus(env: dict) -> Any:
            value = left(env) - c
            return value if _LOW <= value <= _SMALL else _checked(value)

        return minus
    if op is arithmetic.multiply:

        def times(env: dict) -> Any:
            value = left(env) * c
            return value if _LOW <= value <= _SMALL else _checked(value)

        return times
    return None


def _fused(node: Binary) -> Fn | None:
    """``count(g in sets: ...) == 3`` or ``2 * count(...)``: a memoised loop over a fact and its constant
    operand in one function (these are the most frequent shapes of fu items and set-counting rules); and
    ``count(w in 1234z: has_triplet(w)) == 3``, the size of an intersection (``_set_count``) compared in place."""
    if isinstance(node.right, Const) and isinstance(node.left, Unrolled) and node.op in _INLINE_OPERATORS:
        members = _set_members(node.left)
        if members is not None:
            key, wanted = members
            compare, c = _INLINE_OPERATORS[node.op], node.right.value
            return lambda env: compare(len(wanted.intersection(env[key])), c)
    if isinstance(node.right, Const) and (found := _fact_loop(node.left)) is not None:
        c, compare = node.right.value, node.fn
        reduce, get, fallback, name = found

        def loop_then_constant(env: dict) -> Any:
            try:
                value = reduce(map(get, env[name]))
            except TypeError:
                value = reduce(map(fallback, env[name]))
            return compare(value, c)

        packed = _packed_count(node.left, fallback, loop_then_constant, node.op, compare, c)
        return loop_then_constant if packed is None else packed
    if isinstance(node.left, Const) and (found := _fact_loop(node.right)) is not None:
        c, combine = node.left.value, node.fn
        reduce, get, fallback, name = found

        def constant_then_loop(env: dict) -> Any:
            try:
                value = reduce(map(get, env[name]))
            except TypeError:
                value = reduce(map(fallback, env[name]))
            return combine(c, value)

        return constant_then_loop
    return None


def _fact_loop(node: Any) -> tuple[Callable[..., Any], Callable[[Any], Any], Callable[[Any], Any], str] | None:
    """(reduce, memo lookup, body, fact name) of an ``any``/``all``/``count``/``sum`` quantifier whose domain is a
    fact and whose body reads only its variable; None for any other node."""
    if not (isinstance(node, Quant) and isinstance(node.domain, Ref) and node.kind in _REDUCERS):
        return None
    pure = _pure(node.body, node.var)
    if pure is None:
        return None
    memo = _memo_for(node.kind, pure)
    return _REDUCERS[node.kind], memo.__getitem__, memo.fn, node.domain.name


_REDUCERS: dict[str, Callable[..., Any]] = {"any": any, "all": all, "count": sum, "sum": arithmetic.total}


def _memo_for(kind: str, pure: Callable[[Any], Any]) -> Memo:
    """The memo of a loop's body: its value per element, as 1 or 0 for a ``count`` (elements are tiles, groups and
    such small values; the memo is registered in ``ruledsl.memo`` like every cache)."""
    return Memo((lambda x: 1 if pure(x) else 0) if kind == "count" else pure, MEMO_LIMIT)


def _compare_fact(op: str, name: str, c: Any) -> Fn | None:
    """A fact compared with a constant (``shape == standard``, ``honors > 0``): one function, no inner call."""
    if op == "==":
        return lambda env: env[name] == c
    if op == "!=":
        return lambda env: env[name] != c
    if op == "in":
        return lambda env: env[name] in c
    if op == ">=":
        return lambda env: env[name] >= c
    if op == ">":
        return lambda env: env[name] > c
    if op == "<=":
        return lambda env: env[name] <= c
    if op == "<":
        return lambda env: env[name] < c
    return None


def _unrolled(node: Unrolled) -> Fn:
    as_set = _set_count(node)
    if as_set is not None:
        return as_set
    bodies = tuple(_build(b) for b in node.bodies)
    kind = node.kind
    if kind == "count":

        def count(env: dict) -> int:
            n = 0
            for b in bodies:
                if b(env):
                    n += 1
            return n

        return count
    if kind == "sum":
        return lambda env: arithmetic.total([b(env) for b in bodies])
    if kind == "max":
        return lambda env: max([b(env) for b in bodies], default=0)
    return lambda env: min([b(env) for b in bodies], default=0)


# ---- quantifiers -------------------------------------------------------------------------------------------------


def _reads_only(node: Any, var: str) -> bool:
    """The node reads nothing but the loop variable ``var`` (no fact, no environment function)."""
    found = reads(node)
    return found is not None and found <= {var}


def _pure(node: Any, var: str) -> Callable[[Any], Any] | None:
    """The node as a function of the loop variable alone, when it reads nothing else; else None.

    It is built like any node, over a one-entry environment: it runs only when a memo of its values misses.
    """
    if not _reads_only(node, var):
        return None
    if isinstance(node, Ref):  # the variable itself
        return _identity
    prop = _element_property(node)
    if prop is not None:
        return prop  # a property of the element (``is_simple(g)``): the function itself, the commonest body
    chain = _properties_chain(node)
    if chain is not None:
        return chain
    fn = _build(node)
    return lambda x: fn({var: x})


def _element_property(node: Any) -> Callable[[Any], Any] | None:
    """The function of a property applied to the element alone (``is_simple(g)``, in a body ``_pure`` found to read
    nothing but the loop variable), else None."""
    if isinstance(node, Apply) and not node.needs_env and len(node.args) == 1 and isinstance(node.args[0], Ref):
        return node.fn
    return None


def _properties_chain(node: Any) -> Callable[[Any], bool] | None:
    """A chain of properties of the element, each maybe negated (``is_triplet(g) and not is_kan(g)``), as one
    function calling the properties themselves in the order written: the body of most per-set fu items, run for
    each new element a memo meets, where the chain over a one-entry environment made a dict and a call per
    operand. Its value is the chain's (a bool), and it stops where the chain does; None for any other body.
    ``tests/ruledsl/test_fast.py`` holds the two equal on every tile and group."""
    if not isinstance(node, Chain):
        return None
    tests = []
    for part in node.parts:
        negated = isinstance(part, NotNode)
        prop = _element_property(part.operand if negated else part)
        if prop is None:
            return None
        tests.append((prop, negated))
    steps = tuple(tests)
    if node.conjunction:

        def every(x: Any) -> bool:
            for fn, negated in steps:
                if (not fn(x)) is not negated:  # this operand is false
                    return False
            return True

        return every

    def some(x: Any) -> bool:
        for fn, negated in steps:
            if (not fn(x)) is negated:  # this operand is true
                return True
        return False

    return some


def _identity(x: Any) -> Any:
    return x


def _quantifier(node: Quant) -> Fn:
    pure = _pure(node.body, node.var)
    if pure is not None:
        loop = _pure_quantifier(node.kind, node.domain, pure)
        packed = _packed_quantifier(node, pure, loop)
        return loop if packed is None else packed
    return _bound_quantifier(node.kind, node.var, _build(node.domain), _build(node.body))


def _pure_quantifier(kind: str, domain_node: Any, pure: Callable[[Any], Any]) -> Fn:
    """The common case (a property of each group or tile): a C-level loop over memoised values.

    The body depends on the element alone, so its value per element is kept; an unhashable element (never
    produced by the vocabulary) falls back to calling the body.
    """
    memo = _memo_for(kind, pure)
    reduce = _REDUCERS.get(kind) or (max if kind == "max" else min)
    get = memo.__getitem__
    fallback = memo.fn
    if kind in ("max", "min"):
        domain = _build(domain_node)

        def extreme(env: dict) -> Any:
            items = domain(env)
            try:
                return reduce(map(get, items), default=0)
            except TypeError:
                return reduce(map(fallback, items), default=0)

        return extreme

    if isinstance(domain_node, Ref):
        name = domain_node.name

        def over_fact(env: dict) -> Any:
            try:
                return reduce(map(get, env[name]))
            except TypeError:
                return reduce(map(fallback, env[name]))

        by_kinds = _over_tile_kinds(kind, name, pure, over_fact)
        return over_fact if by_kinds is None else by_kinds

    domain = _build(domain_node)

    def run(env: dict) -> Any:
        items = domain(env)
        try:
            return reduce(map(get, items))
        except TypeError:
            return reduce(map(fallback, items))

    return run


def _over_tile_kinds(kind: str, name: str, pure: Callable[[Any], Any], loop: Fn) -> Fn | None:
    """``all`` or ``any`` of a property over a fact of tile kinds (``all(t in tiles: is_simple(t))``) as set tests
    against the kinds the property holds for and the kinds it does not, worked out once: one C-level test answers
    nearly every hand. Elements that are not kinds (never in the engine's tables) leave both tests undecided, and
    the loop as written (``loop``) answers; None for any other quantifier, or a property that fails on some kind
    (the loop meets that error where it would)."""
    fact = V.FACTS.get(name)
    if kind not in ("all", "any") or fact is None or fact.type != V.TILES:
        return None
    try:
        holds = [bool(pure(k)) for k in range(TILE_KINDS)]
    except Exception:  # noqa: BLE001 - a property that fails on a kind: looped over as written
        return None
    within = frozenset(k for k in range(TILE_KINDS) if holds[k])
    outside = frozenset(k for k in range(TILE_KINDS) if not holds[k])
    # ``all``: a kind without the property answers False, only kinds with it True; ``any`` the other way round
    deciding, settling, early = (outside, within, False) if kind == "all" else (within, outside, True)

    def by_kinds(env: dict) -> bool:
        items = env[name]
        try:
            if not deciding.isdisjoint(items):
                return early
            if settling.issuperset(items):
                return not early
        except TypeError:  # an element that cannot be a set member
            pass
        return bool(loop(env))

    return by_kinds


def _bound_quantifier(kind: str, var: str, domain: Fn, body: Fn) -> Fn:
    """A body that reads the environment: the variable is bound in it and restored afterwards (``_restore``).

    One plain loop per kind, stopping where the reference's does (``any`` at the first true body, ``all`` at the
    first false one)."""
    if kind == "any":

        def some(env: dict) -> bool:
            saved = dict.get(env, var, _MISSING)
            try:
                for x in domain(env):
                    env[var] = x
                    if body(env):
                        return True
                return False
            finally:
                _restore(env, var, saved)

        return some
    if kind == "all":

        def every(env: dict) -> bool:
            saved = dict.get(env, var, _MISSING)
            try:
                for x in domain(env):
                    env[var] = x
                    if not body(env):
                        return False
                return True
            finally:
                _restore(env, var, saved)

        return every
    reduce = _REDUCE_VALUES[kind]

    def values(env: dict) -> Any:
        saved = dict.get(env, var, _MISSING)
        try:
            found = []
            for x in domain(env):
                env[var] = x
                found.append(body(env))
            return reduce(found)
        finally:
            _restore(env, var, saved)

    return values


def _restore(env: dict, var: str, saved: Any) -> None:
    if saved is _MISSING:
        dict.pop(env, var, None)
    else:
        env[var] = saved


_MISSING = object()
_REDUCE_VALUES: dict[str, Callable[[list[Any]], Any]] = {
    "count": lambda values: sum(1 for v in values if v),
    "sum": arithmetic.total,
    "max": lambda values: max(values, default=0),
    "min": lambda values: min(values, default=0),
}


# ---- properties of a reading's groups, packed --------------------------------------------------------------------
# A scorer asks several quantifiers over the same groups of each reading (``count(g in sets: is_kan(g)) == 3``,
# ``all(g in sets: is_triplet(g))``), each one a loop over the groups. Their bodies are pure properties of one
# group, so the properties met over one fact are packed: each group's value is one int holding, per property, a
# field of ``PACK_WIDTH`` bits that is 1 where the property holds (and field 0, 1 for every group). The sum of the
# groups' values then holds every property's count at once. A fact table may hold that sum under the pack's key
# (``Pack.key``; the scorer writes it for each reading, ``Pack.put``): each quantifier is then a shift and a mask.
# A table without it (a plain dict), or a fact with more elements than a field counts, is answered by the loop as
# written; bodies that may raise are never packed (a pack evaluates all of its properties).

PACK_WIDTH = 5  # bits of one field: counts up to 31 elements (a reading holds at most 7 groups)
PACK_FIELDS = 11  # properties per pack: with field 0, 60 bits, a sum the interpreter keeps in a machine word
PACK_ELEMENTS = (1 << PACK_WIDTH) - 1  # most elements a sum counts without one field spilling into the next
PACKS_LIMIT = 64  # packs of the process; properties met beyond them are looped over as written
# The facts whose quantifiers are packed: a reading's sets, over which a rulebook asks most of its quantifiers (a
# sum pays for itself when several of them read it; the few over ``groups`` or ``pairs`` loop as written).
PACKED_FACTS = frozenset({"sets"})


class Pack:
    """Pure properties of the elements of one fact, each element's packed in one int (above). Properties are
    added as rules are built; each addition gives the pack a new key, so that no table keeps a sum made before it
    under the key a quantifier reads.

    A pack may take a property (a rulebook compiled) while another thread scores with it: what ``put`` reads, the
    key and the memo of the elements' values, is one pair replaced whole (``state``), its memo made over the
    properties of its own key, so a sum is always stored under the key whose properties made it. A quantifier
    reads ``key``, set after: it finds that sum, or (one key behind or ahead) none, and loops as written."""

    __slots__ = ("fact", "bodies", "state", "key")

    def __init__(self, fact: str) -> None:
        self.fact = fact
        self.bodies: tuple[Callable[[Any], Any], ...] = ()
        self._renew()

    def __repr__(self) -> str:
        return f"Pack({self.fact!r}, {len(self.bodies)} properties)"

    def _renew(self) -> None:
        memo: Memo = Memo(partial(_packed_value, self.bodies), MEMO_LIMIT)
        key = f"__{self.fact} packed {next(_PACK_KEYS)}__"  # a key never given before, in any pack
        self.state = (key, memo.__getitem__)
        self.key = key

    def add(self, body: Callable[[Any], Any]) -> int:
        """Add a property; returns its field."""
        self.bodies = (*self.bodies, body)
        self._renew()
        return len(self.bodies)

    def put(self, env: dict) -> None:
        """Write the sum of the fact's elements' values into a fact table, under the pack's key; None when it
        cannot be told (too many elements, or one that cannot be a key): the quantifiers then loop as written."""
        key, get = self.state
        try:
            items = env[self.fact]
            env[key] = sum(map(get, items)) if len(items) <= PACK_ELEMENTS else None
        except TypeError:
            env[key] = None


def _packed_value(bodies: tuple[Callable[[Any], Any], ...], element: Any) -> int:
    """One element's value under these properties: 1, and a 1 in the field of each property it has."""
    value = 1
    shift = 0
    for body in bodies:
        shift += PACK_WIDTH
        if body(element):
            value += 1 << shift
    return value


_PACK_KEYS = itertools.count()
_PACKS: list[Pack] = []
_OPEN: dict[str, Pack] = {}  # per fact, the pack that takes its next property
_FIELDS: dict[tuple[str, Any], tuple[Pack, int]] = {}  # (fact, simplified body) -> its pack and field
# rulebooks compiled in two threads at once add their properties one at a time (the interpreter's own lock:
# ``threading`` is not imported on the way to a first score)
_PACKING = _thread.allocate_lock()


def _packed_field(fact: str, body: Any, pure: Callable[[Any], Any]) -> tuple[Pack, int] | None:
    """The pack and field of a property (``body``, simplified, reading only its element; ``pure``: its function)
    of the elements of ``fact``, added to a pack if it is new; None when it is not packed."""
    if fact not in PACKED_FACTS or may_raise(body):
        return None
    key = (fact, body)
    try:
        found = _FIELDS.get(key)
    except TypeError:  # a body that cannot be a key
        return None
    if found is not None:
        return found
    with _PACKING:
        found = _FIELDS.get(key)  # another thread may have added it meanwhile
        if found is not None:
            return found
        pack = _OPEN.get(fact)
        if pack is None or len(pack.bodies) >= PACK_FIELDS:
            if len(_PACKS) >= PACKS_LIMIT:
                return None
            pack = Pack(fact)
            _PACKS.append(pack)
            _OPEN[fact] = pack
        found = _FIELDS[key] = (pack, pack.add(pure))
    return found


def _packed_of(node: Any, pure: Callable[[Any], Any]) -> tuple[Pack, int] | None:
    """The pack of a quantifier over a packed fact whose body reads only its element (``pure``: the body as a
    function of the element, which the caller has made already), and the shift of its field in the pack's sum."""
    if not (isinstance(node, Quant) and isinstance(node.domain, Ref) and node.kind in ("any", "all", "count")):
        return None
    found = _packed_field(node.domain.name, node.body, pure)
    if found is None:
        return None
    pack, at = found
    return pack, at * PACK_WIDTH


def packs_read(node: Any) -> list[Pack]:
    """The packs whose sums the closure of a simplified node reads (``Pack.put``), so that a scorer can write them
    into each reading's table ahead."""
    found: list[Pack] = []
    if isinstance(node, Quant) and isinstance(node.domain, Ref):
        try:
            field = _FIELDS.get((node.domain.name, node.body))
        except TypeError:
            field = None
        if field is not None:
            found.append(field[0])
    for child in _children(node):
        found += [pack for pack in packs_read(child) if pack not in found]
    return found


def _packed_quantifier(node: Quant, pure: Callable[[Any], Any], loop: Fn) -> Fn | None:
    """``any``, ``all`` or ``count`` of a pure property (``pure``) over a packed fact, read off the pack's sum
    (``loop``: the quantifier as written, for a table without the sum); None for any other quantifier."""
    found = _packed_of(node, pure)
    if found is None:
        return None
    pack, shift = found
    field = PACK_ELEMENTS
    if node.kind == "any":
        mask = field << shift

        def some_packed(env: dict) -> Any:
            try:
                return env[pack.key] & mask != 0
            except (KeyError, TypeError):
                return loop(env)

        return some_packed
    if node.kind == "all":

        def every_packed(env: dict) -> Any:
            try:
                total = env[pack.key]
                return (total >> shift ^ total) & field == 0  # the property's count is the elements' (field 0)
            except (KeyError, TypeError):
                return loop(env)

        return every_packed

    def count_packed(env: dict) -> Any:
        try:
            return env[pack.key] >> shift & field
        except (KeyError, TypeError):
            return loop(env)

    return count_packed


def _packed_count(node: Any, pure: Callable[[Any], Any], loop: Fn, op: str, compare: Callable[[Any, Any], Any], c: Any) -> Fn | None:
    """``count(x in FACT: ...) OP c`` read off a pack's sum (``_packed_quantifier``; ``pure``: the body, as 1 or
    0 of the element), compared (or combined) as ``loop`` does; None unless the quantifier is a packed ``count``."""
    if not (isinstance(node, Quant) and node.kind == "count"):
        return None
    found = _packed_of(node, pure)
    if found is None:
        return None
    pack, shift = found
    field = PACK_ELEMENTS
    if op == "==":

        def count_is(env: dict) -> Any:
            try:
                return env[pack.key] >> shift & field == c
            except (KeyError, TypeError):
                return loop(env)

        return count_is

    def count_then_constant(env: dict) -> Any:
        try:
            value = env[pack.key] >> shift & field
        except (KeyError, TypeError):
            return loop(env)
        return compare(value, c)

    return count_then_constant
