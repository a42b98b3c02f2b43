"""Execution form of compiled rules: each frozen node tree turned into nested Python closures.

The node objects of ``ruledsl.compile`` are what a rule *is* (they print, compare and explain themselves);
walking them costs an attribute lookup and a method call per node. A scorer evaluates thousands of them per
second, so it runs these closures instead: built once per rulebook from the nodes, never from text, with the
common shapes (a constant operand, a one-argument function) specialised.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from ruledsl.compile import (
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

Fn = Callable[[dict], Any]
_MISSING = object()


def closure(node: Any) -> Fn:
    """The fast evaluator of a compiled node; semantics identical to calling the node."""
    if isinstance(node, Const):
        value = node.value
        return lambda env: value
    if isinstance(node, Ref):
        return operator.itemgetter(node.name)
    if isinstance(node, Apply):
        return _apply(node)
    if isinstance(node, (And, Or)):
        return _chain(node)
    if isinstance(node, NotNode):
        operand = closure(node.operand)
        return lambda env: not operand(env)
    if isinstance(node, Binary):
        return _binary(node)
    if isinstance(node, Cond):
        condition, then, otherwise = closure(node.condition), closure(node.then), closure(node.otherwise)
        return lambda env: then(env) if condition(env) else otherwise(env)
    if isinstance(node, ListNode):
        items = tuple(closure(i) for i in node.items)
        return lambda env: tuple(i(env) for i in items)
    if isinstance(node, RangeNode):
        low, high = closure(node.low), closure(node.high)
        return lambda env: range(low(env), high(env) + 1)
    if isinstance(node, Quant):
        return _quantifier(node)
    return node  # an unknown node still evaluates correctly, just slowly


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
    if isinstance(node, Quant):
        return 8 + cost(node.domain) + 6 * cost(node.body)
    if isinstance(node, Cond):
        return 1 + cost(node.condition) + max(cost(node.then), cost(node.otherwise))
    return 10


def _operands(node: Any, kind: type) -> list[Any]:
    if isinstance(node, kind):
        return _operands(node.left, kind) + _operands(node.right, kind)
    return [node]


def _chain(node: And | Or) -> Fn:
    """``a and b and c`` with the cheapest operand first; pure rules make the order free."""
    parts = sorted(_operands(node, type(node)), key=cost)
    fns = [closure(p) for p in parts]
    conjunction = isinstance(node, And)
    fn = fns.pop()
    while fns:
        fn = _pair(fns.pop(), fn, conjunction)
    return fn


def _pair(a: Fn, b: Fn, conjunction: bool) -> Fn:
    if conjunction:
        return lambda env: bool(a(env)) and bool(b(env))
    return lambda env: bool(a(env)) or bool(b(env))


def _apply(node: Apply) -> Fn:
    fn = node.fn
    args = tuple(closure(a) for a in node.args)
    consts = [isinstance(a, Const) for a in node.args]
    if node.needs_env:
        if len(args) == 1 and consts[0]:
            c0 = node.args[0].value
            return lambda env: fn(env, c0)
        if len(args) == 1:
            a0 = args[0]
            return lambda env: fn(env, a0(env))
        if len(args) == 2:
            a0, a1 = args
            return lambda env: fn(env, a0(env), a1(env))
        return lambda env: fn(env, *[a(env) for a in args])
    if len(args) == 1:
        a0 = args[0]
        return lambda env: fn(a0(env))
    if len(args) == 2:
        a0, a1 = args
        return lambda env: fn(a0(env), a1(env))
    return lambda env: fn(*[a(env) for a in args])


def _binary(node: Binary) -> Fn:
    op = node.fn
    left = closure(node.left)
    if isinstance(node.right, Const):
        c = node.right.value
        if node.op == "==":
            return lambda env: left(env) == c
        if node.op == "in":
            return lambda env: left(env) in c
        if node.op == ">=":
            return lambda env: left(env) >= c
        if node.op == ">":
            return lambda env: left(env) > c
        return lambda env: op(left(env), c)
    right = closure(node.right)
    return lambda env: op(left(env), right(env))


def _pure(node: Any, var: str) -> Callable[[Any], Any] | None:
    """A function of the loop variable alone, when the body reads nothing else (no facts, no environment)."""
    if isinstance(node, Const):
        value = node.value
        return lambda x: value
    if isinstance(node, Ref):
        return (lambda x: x) if node.name == var else None
    if isinstance(node, Apply):
        if node.needs_env:
            return None
        args = [_pure(a, var) for a in node.args]
        if any(a is None for a in args):
            return None
        fn = node.fn
        if len(args) == 1 and isinstance(node.args[0], Ref):
            return fn
        if len(args) == 1:
            a0 = args[0]
            return lambda x: fn(a0(x))
        return lambda x: fn(*[a(x) for a in args])
    if isinstance(node, (And, Or)):
        left, right = _pure(node.left, var), _pure(node.right, var)
        if left is None or right is None:
            return None
        if isinstance(node, And):
            return lambda x: bool(left(x)) and bool(right(x))
        return lambda x: bool(left(x)) or bool(right(x))
    if isinstance(node, NotNode):
        operand = _pure(node.operand, var)
        return None if operand is None else (lambda x: not operand(x))
    if isinstance(node, Binary):
        left, right = _pure(node.left, var), _pure(node.right, var)
        if left is None or right is None:
            return None
        op = node.fn
        if isinstance(node.right, Const):
            c = node.right.value
            return lambda x: op(left(x), c)
        return lambda x: op(left(x), right(x))
    return None


def _quantifier(node: Quant) -> Fn:
    domain, var, kind = closure(node.domain), node.var, node.kind
    pure = _pure(node.body, var)
    if pure is not None:
        # the common case (a property of each group or tile): a C-level loop, no environment binding
        if kind == "any":
            return lambda env: any(map(pure, domain(env)))
        if kind == "all":
            return lambda env: all(map(pure, domain(env)))
        if kind == "count":
            return lambda env: sum(1 for x in domain(env) if pure(x))
        if kind == "sum":
            return lambda env: sum(map(pure, domain(env)))
        if kind == "max":
            return lambda env: max(map(pure, domain(env)), default=0)
        return lambda env: min(map(pure, domain(env)), default=0)
    body = closure(node.body)

    def run(env: dict) -> Any:
        saved = dict.get(env, var, _MISSING)
        try:
            items = domain(env)
            if kind == "any":
                for x in items:
                    env[var] = x
                    if body(env):
                        return True
                return False
            if kind == "all":
                for x in items:
                    env[var] = x
                    if not body(env):
                        return False
                return True
            if kind == "count":
                n = 0
                for x in items:
                    env[var] = x
                    if body(env):
                        n += 1
                return n
            values = []
            for x in items:
                env[var] = x
                values.append(body(env))
            if kind == "sum":
                return sum(values)
            if kind == "max":
                return max(values, default=0)
            return min(values, default=0)
        finally:
            if saved is _MISSING:
                dict.pop(env, var, None)
            else:
                env[var] = saved

    return run
