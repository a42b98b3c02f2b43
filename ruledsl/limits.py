"""Static bounds of a rule: what evaluating it can cost and how large its numbers can get, known before scoring.

A rulebook comes from a stranger, so a rule that passes ``riichi check`` must not hang or exhaust the scorer.
Every expression gets a static bound on its evaluation cost (nodes evaluated, a quantifier's body counted once
per element of its domain, domains sized from the hand's limits and range lengths) and an interval for each of
its integers; past a documented bound the checker reports a positioned diagnostic instead of a hang at run time.
The same walk finds the static forms of arithmetic the evaluator refuses at run time: division by a literal 0,
rounding to a step of 0, powers past their bound, and values that must not be negative (han, fu, points) or
absurdly large (multipliers). What is known only at run time is refused there (``ruledsl.compile``).

The bounds below are the engine's, the same for every rulebook, and documented in README ("Security and limits").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from ruledsl import ast
from ruledsl import vocabulary as V
from ruledsl.arithmetic import INT_LIMIT, POWER_LIMIT, RANGE_LIMIT
from ruledsl.record import record

# The run-time bounds of ``ruledsl.arithmetic``, known statically where the values are.
MAX_MAGNITUDE = INT_LIMIT  # integers stay within ±(2^63 - 1)
MAX_RANGE = RANGE_LIMIT  # values in one `a..b` range
MAX_EXPONENT = POWER_LIMIT  # the largest power `x ^ n`
MAX_COST = 50_000  # evaluation steps of one expression, on one reading of one hand
MAX_RULEBOOK_COST = 500_000  # evaluation steps of all the rulebook's expressions together
MAX_LIST = 18  # elements of a list fact: 14 tiles and one more per kan
MAX_HAN = 1_000  # han one bonus item (or `han_ceiling`) may give
MAX_MULTIPLIER = 100  # a yakuman's multiplier, a limit's yakuman count
MAX_FU_ROUNDING = 1_000

# Static ranges of the integer facts (what the engine can feed a rule); a fact not listed is a small count.
_SMALL = (0, 100)
FACT_RANGES: dict[str, tuple[int, int]] = {
    "han": (0, 100_000),
    "fu": (0, 100_000),
    "raw_fu": (0, 100_000),
    "yakuman": (0, 100_000),
    "basic_points": (0, 10**12),
    "base": (0, 10**12),
    "honba": (0, 1_000),
    "riichi_sticks": (0, 1_000),
}
# Integer functions' result ranges; None: computed from the arguments below.
FUNCTION_RANGES: dict[str, tuple[int, int] | None] = {
    "number": (0, 9),
    "count_of": (0, MAX_LIST),
    "value_roles": (0, 3),
    "size": None,
    "round_up": None,
}
# Fields whose value must not be negative, and the largest value each may take.
FIELD_BOUNDS: dict[tuple[str, str], tuple[str, int]] = {
    ("bonus", "han"): ("han", MAX_HAN),
    ("fu", "fu"): ("fu", MAX_MAGNITUDE),
    ("fu", "fixed"): ("fu", MAX_MAGNITUDE),
    ("limit", "base"): ("points", MAX_MAGNITUDE),
    ("limit", "yakuman"): ("a yakuman count", MAX_MULTIPLIER),
    ("payment", "amount"): ("points", MAX_MAGNITUDE),
    ("draw", "total"): ("points", MAX_MAGNITUDE),
    ("abortive_draw", "honba"): ("honba", MAX_MAGNITUDE),
    ("liability", "tsumo_liable"): ("a share", MAX_MAGNITUDE),
    ("liability", "ron_liable"): ("a share", MAX_MAGNITUDE),
    ("liability", "ron_discarder"): ("a share", MAX_MAGNITUDE),
}

Interval = tuple[int, int] | None  # (lowest, highest) of an integer, None when not an integer or not known


@record(slots=False)
class Finding:
    """One problem the bounds found: a message for a diagnostic at ``span``."""

    severity: str
    message: str
    span: ast.Span
    help: str


# What the walk knows of an expression: (its integer interval, its worst-case cost, for a list the largest number
# of elements, and the interval of an integer element). A tuple, as the walk makes one per node of every checked
# expression (tens of thousands in a big file), and a tuple is made in one step.
Info = tuple[Interval, int, int | None, Interval]
_COST_ONLY = (None, 1, None, None)  # a node known only to cost one step


Report = Callable[[Finding], None]


def _fmt(n: int) -> str:
    return f"{n:,}" if abs(n) < 10**9 else f"about 10^{len(str(abs(n))) - 1}" if n > 0 else f"about -10^{len(str(abs(n))) - 1}"


class Bounds:
    """Walks checked expressions; reports what is past a bound through ``report``."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.total_cost = 0

    def error(self, message: str, span: ast.Span, help: str) -> None:
        self.report(Finding("error", message, span, help))

    def warning(self, message: str, span: ast.Span, help: str) -> None:
        self.report(Finding("warning", message, span, help))

    # ---- entry points
    def field(self, kind: str, name: str, expr: ast.Expr) -> None:
        """Bound one field's expression: its cost, its numbers, and the field's own sign and size bounds."""
        value, cost = self.walk(expr, {})[:2]
        if cost > MAX_COST:
            self.error(
                f"evaluating `{name}` can take {_fmt(cost)} steps per hand, more than the bound of {MAX_COST:,}",
                expr.span,
                "nested quantifiers multiply: loop over `sets` rather than `tiles`, or split the rule",
            )
        self.total_cost += min(cost, MAX_COST)
        bound = FIELD_BOUNDS.get((kind, name))
        if bound is None or value is None:
            return
        what, highest = bound
        low, high = value  # a value that may be negative on some hands only is refused at run time
        if high < 0:
            self.error(f"`{name}` is negative ({_fmt(high)} at most), but {what} cannot be", expr.span, f"`{kind}` items give 0 or more {what}")
        if low > highest or (high > highest and (kind, name) == ("bonus", "han")):
            self.error(f"`{name}` can reach {_fmt(high)}, past the bound of {_fmt(highest)} {what}", expr.span, "no real rule comes near this; check the value")

    def finish(self, span: ast.Span) -> None:
        """After every field: the rulebook's total cost."""
        if self.total_cost > MAX_RULEBOOK_COST:
            self.error(
                f"evaluating all the rules can take {_fmt(self.total_cost)} steps per hand, more than the bound of {MAX_RULEBOOK_COST:,}",
                span,
                "simplify the heaviest rules (the ones with nested quantifiers)",
            )

    # ---- the walk
    def walk(self, expr: ast.Expr, bound: dict[str, Info]) -> Info:
        # the kinds of node most written first: a ``match`` tries its cases in order
        match expr:
            case ast.BinOp():
                return self._binop(expr, bound)
            case ast.Name():
                return self._name(expr, bound)
            case ast.Call():
                return self._call(expr, bound)
            case ast.Int():
                return ((expr.value, expr.value), 1, None, None)
            case ast.Quantifier():
                return self._quantifier(expr, bound)
            case ast.Bool() | ast.Str() | ast.Tiles():
                return (None, 1, _tiles_size(expr), None)
            case ast.ListLit():
                parts = [self.walk(e, bound) for e in expr.items]
                return (None, 1 + sum(p[1] for p in parts), len(parts), _union([p[0] for p in parts]))
            case ast.Record():
                parts = [self.walk(e.value, bound) for e in expr.entries]
                return (None, 1 + sum(p[1] for p in parts), None, None)
            case ast.Range():
                return self._range(expr, bound)
            case ast.Not():
                return (None, 1 + self.walk(expr.operand, bound)[1], None, None)
            case ast.Negate():
                inner = self.walk(expr.operand, bound)
                value = None if inner[0] is None else (-inner[0][1], -inner[0][0])
                return self._checked((value, 1 + inner[1], None, None), expr)
            case ast.Conditional():
                c, a, b = (self.walk(e, bound) for e in (expr.condition, expr.then, expr.otherwise))
                value = _union([a[0], b[0]]) if a[0] is not None and b[0] is not None else None
                return (value, 1 + c[1] + max(a[1], b[1]), _max_size(a[2], b[2]), _union([a[3], b[3]]))
        assert_never(expr)

    def _checked(self, info: Info, expr: ast.Expr) -> Info:
        """Report a value past the magnitude bound (once, at the outermost place it first appears)."""
        value = info[0]
        if value is not None and max(abs(value[0]), abs(value[1])) > MAX_MAGNITUDE:
            self.error(
                f"this value can reach {_fmt(max(abs(value[0]), abs(value[1])))}, past the bound of 2^63 - 1",
                expr.span,
                "integers in rules stay within ±(2^63 - 1); check the numbers",
            )
            return (None, info[1], info[2], info[3])
        return info

    def _name(self, expr: ast.Name, bound: dict[str, Info]) -> Info:
        name = expr.id
        if name in bound:
            return (bound[name][0], 1, None, None)
        fact = V.FACTS.get(name)
        if fact is not None:
            if fact.type == V.INT:
                return (FACT_RANGES.get(name, _SMALL), 1, None, None)
            if fact.type.startswith("list of "):
                return _LIST_FACT
        return _COST_ONLY

    def _call(self, expr: ast.Call, bound: dict[str, Info]) -> Info:
        args = [self.walk(a, bound) for a in expr.args]
        cost = 1
        for arg in args:
            cost += arg[1]
        name = expr.func
        if name == "round_up" and len(args) == 2:
            value, step = args[0][0], args[1][0]
            if step is not None and step[1] <= 0:
                self.error("`round_up` to a step of 0 or less", expr.args[1].span, "the step is what the value is rounded to a multiple of, e.g. `round_up(4 * base, 100)`")
                return (None, cost, None, None)
            if step is not None and step[0] <= 0:
                self.warning("`round_up` may get a step of 0 or less here", expr.args[1].span, "such a hand is refused at run time; make the step positive")
            if value is None or step is None:
                return (None, cost, None, None)
            return self._checked(((value[0], value[1] + max(step[1], 1)), cost, None, None), expr)
        if name == "size" and len(args) == 1:
            size = args[0][2]
            return ((0, size if size is not None else MAX_RANGE), cost, None, None)
        if name in FUNCTION_RANGES:
            return (FUNCTION_RANGES[name], cost, None, None)
        return (None, cost, None, None)

    def _range(self, expr: ast.Range, bound: dict[str, Info]) -> Info:
        low, high = self.walk(expr.low, bound), self.walk(expr.high, bound)
        cost = 1 + low[1] + high[1]
        if low[0] is None or high[0] is None:
            return (None, cost, MAX_RANGE, None)
        length = max(0, high[0][1] - low[0][0] + 1)
        if length > MAX_RANGE:
            self.error(
                f"this range can hold {_fmt(length)} values, more than the bound of {MAX_RANGE:,}",
                expr.span,
                "a rule about a hand needs small ranges, such as `1..9`",
            )
            length = MAX_RANGE
        return (None, cost, length, (low[0][0], high[0][1]))

    def _quantifier(self, expr: ast.Quantifier, bound: dict[str, Info]) -> Info:
        domain = self.walk(expr.domain, bound)
        size = domain[2] if domain[2] is not None else MAX_LIST
        inner = dict(bound)
        inner[expr.var] = (domain[3], 1, None, None)
        body = self.walk(expr.body, inner)
        cost = 1 + domain[1] + size * (body[1] + 1)
        value: Interval = None
        kind = expr.kind
        if kind == "count":
            value = (0, size)
        elif body[0] is not None:
            low, high = body[0]
            if kind == "sum":
                value = (min(0, size * low), max(0, size * high))
            else:  # max, min: one of the body's values, or 0 over an empty domain
                value = (min(0, low), max(0, high))
        return self._checked((value, cost, None, None), expr)

    def _binop(self, expr: ast.BinOp, bound: dict[str, Info]) -> Info:
        left, right = self.walk(expr.left, bound), self.walk(expr.right, bound)
        cost = 1 + left[1] + right[1]
        op = expr.op
        if op not in _ARITHMETIC:
            return (None, cost, None, None)
        a, b = left[0], right[0]
        if op == "/" and b is not None and b == (0, 0):
            self.error("division by zero", expr.right.span, "a rule's arithmetic is on whole numbers; divide by a number other than 0")
            return (None, cost, None, None)
        if op == "/" and b is not None and b[0] <= 0 <= b[1]:
            self.warning("the divisor can be 0 here", expr.right.span, "a hand where it is 0 is refused at run time")
        if op == "^" and b is not None:
            if b[1] > MAX_EXPONENT or b[1] < 0:
                self.error(
                    f"a power's exponent must be 0 to {MAX_EXPONENT}, and this one can be {_fmt(b[1])}",
                    expr.right.span,
                    "write the number itself, or a smaller power",
                )
                return (None, cost, None, None)
            if b[0] < 0:
                self.warning(f"the exponent can be negative here (down to {_fmt(b[0])})", expr.right.span, "a hand where it is negative is refused at run time")
        if a is None or b is None:
            return (None, cost, None, None)
        return self._checked((_arith(op, a, b), cost, None, None), expr)


_ARITHMETIC = frozenset(("+", "-", "*", "/", "^"))
_LIST_FACT: Info = (None, 1, MAX_LIST, None)


def _arith(op: str, a: tuple[int, int], b: tuple[int, int]) -> Interval:
    if op == "+":
        return (a[0] + b[0], a[1] + b[1])
    if op == "-":
        return (a[0] - b[1], a[1] - b[0])
    if op == "*":
        corners = [x * y for x in a for y in b]
        return (min(corners), max(corners))
    if op == "/":
        top = max(abs(a[0]), abs(a[1]))
        return (-top, top) if a[0] < 0 or b[0] < 0 else (0, top)
    # "^": the exponent is within 0..MAX_EXPONENT here; magnitudes are checked before the power is computed
    exponent = max(0, b[1])
    top = max(abs(a[0]), abs(a[1]))
    if top > 1 and exponent * (top.bit_length() - 1) > 64:  # 2^64 and more: past the bound whatever the rest
        return (-(MAX_MAGNITUDE + 1), MAX_MAGNITUDE + 1)  # past the bound: reported by ``_checked``
    corners = [x**e for x in (a[0], a[1]) for e in {max(0, b[0]), exponent, max(0, exponent - 1)}]
    return (min(corners + [0]) if a[0] < 0 else min(corners), max(corners))


def _union(values: list[Interval]) -> Interval:
    known = [v for v in values if v is not None]
    if not known or len(known) != len(values):
        return None
    return (min(v[0] for v in known), max(v[1] for v in known))


def _max_size(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else max(a, b)


def _tiles_size(expr: ast.Expr) -> int | None:
    if isinstance(expr, ast.Tiles):
        return sum(1 for ch in expr.text if ch.isdigit())
    return None


__all__ = [
    "Bounds",
    "Finding",
    "MAX_COST",
    "MAX_RULEBOOK_COST",
    "MAX_MAGNITUDE",
    "MAX_RANGE",
    "MAX_LIST",
    "MAX_EXPONENT",
    "MAX_HAN",
    "MAX_MULTIPLIER",
    "MAX_FU_ROUNDING",
]
