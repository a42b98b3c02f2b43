"""The syntax tree of a rulebook: frozen records (``ruledsl.record``), every node carrying the span it was written at.

Spans never take part in equality (``compare=False``), so a rulebook rendered back to text and parsed again
compares equal to the original: the round-trip property the test suite checks.
"""

from __future__ import annotations

from functools import partial
from operator import itemgetter

from ruledsl.record import field, record
from ruledsl.typing_names import TYPE_CHECKING, assert_never

if TYPE_CHECKING:
    from typing import TypeAlias


class Span(tuple[str, int, int, int, int]):
    """Where a node was written: 1-based line and column of its start and end, plus the file.

    A tuple rather than a record: a parsed file holds one span per node (45,000 for a 2,000-item file), and a tuple
    is made in one step where a record sets five slots one call at a time (a fifth of reading a big file). Read by
    name as a record is; ``Span(...)`` takes the same arguments and ``repr`` shows the same text."""

    __slots__ = ()

    def __new__(cls, file: str = "<input>", line: int = 1, column: int = 1, end_line: int = 1, end_column: int = 1) -> Span:
        return _new_tuple(cls, (file, line, column, end_line, end_column))

    if TYPE_CHECKING:

        @property
        def file(self) -> str: ...
        @property
        def line(self) -> int: ...
        @property
        def column(self) -> int: ...
        @property
        def end_line(self) -> int: ...
        @property
        def end_column(self) -> int: ...

    else:
        file = property(itemgetter(0), doc="the file the node is in")
        line = property(itemgetter(1))
        column = property(itemgetter(2))
        end_line = property(itemgetter(3))
        end_column = property(itemgetter(4))

    def __getnewargs__(self) -> tuple[str, int, int, int, int]:  # pickling and ``copy``: the five values again
        return (self[0], self[1], self[2], self[3], self[4])

    def __repr__(self) -> str:
        return f"Span(file={self[0]!r}, line={self[1]!r}, column={self[2]!r}, end_line={self[3]!r}, end_column={self[4]!r})"

    def __str__(self) -> str:
        return f"{self[0]}:{self[1]}:{self[2]}"


_new_tuple = tuple.__new__
# ``make_span((file, line, column, end_line, end_column))``, for a reader building thousands: the span made in one
# step, without the Python call of ``Span.__new__``
make_span = partial(_new_tuple, Span)


NO_SPAN = Span()


def _span() -> Span:
    return field(default=NO_SPAN, compare=False, repr=False)


# ---- expressions -----------------------------------------------------------------------------------------------


@record
class Int:
    value: int
    span: Span = _span()


@record
class Bool:
    value: bool
    span: Span = _span()


@record
class Str:
    value: str
    span: Span = _span()


@record
class Tiles:
    """A tile literal such as ``5z`` or ``23468s6z`` (kept as written; the checker validates it)."""

    text: str
    span: Span = _span()


@record
class Name:
    id: str
    span: Span = _span()


@record
class Call:
    func: str
    args: tuple[Expr, ...]
    span: Span = _span()
    func_span: Span = _span()


@record
class Quantifier:
    """``any(x in D: body)`` and friends: the only loops, always over a finite domain."""

    kind: str  # any all count sum max min
    var: str
    domain: Expr
    body: Expr
    span: Span = _span()


@record
class ListLit:
    items: tuple[Expr, ...]
    span: Span = _span()


@record
class Entry:
    key: str
    value: Expr
    span: Span = _span()


@record
class Record:
    entries: tuple[Entry, ...]
    span: Span = _span()

    def get(self, key: str) -> Expr | None:
        for entry in self.entries:
            if entry.key == key:
                return entry.value
        return None


@record
class Range:
    low: Expr
    high: Expr
    span: Span = _span()


@record
class BinOp:
    """Arithmetic, comparison, boolean and membership operators: ``+ - * / ^ == != < <= > >= and or in notin``."""

    op: str
    left: Expr
    right: Expr
    span: Span = _span()


@record
class Not:
    operand: Expr
    span: Span = _span()


@record
class Negate:
    operand: Expr
    span: Span = _span()


@record
class Conditional:
    condition: Expr
    then: Expr
    otherwise: Expr
    span: Span = _span()


# Every expression node. The passes over expressions (checker, compiler, renderer, limits) ``match`` on it and end
# in ``assert_never``, so that mypy reports a pass that forgets a kind of node when one is added here.
Expr: TypeAlias = (
    Int | Bool | Str | Tiles | Name | Call | Quantifier | ListLit | Record | Range | BinOp | Not | Negate | Conditional
)


def children(expr: Expr) -> tuple[Expr, ...]:
    """The expressions directly inside ``expr``, in source order: the one place that knows where each kind of node
    keeps its sub-expressions, for the passes that only need to reach them all (a record's keys are not
    expressions, so an entry gives its value)."""
    match expr:  # the kinds of node most written first: a ``match`` tries its cases in order
        case BinOp():
            return (expr.left, expr.right)
        case Name():
            return ()
        case Call():
            return expr.args
        case Quantifier():
            return (expr.domain, expr.body)
        case Int() | Bool() | Str() | Tiles():
            return ()
        case ListLit():
            return expr.items
        case Record():
            return tuple(e.value for e in expr.entries)
        case Range():
            return (expr.low, expr.high)
        case Not() | Negate():
            return (expr.operand,)
        case Conditional():
            return (expr.condition, expr.then, expr.otherwise)
        case _:
            assert_never(expr)


# ---- items -----------------------------------------------------------------------------------------------------


@record
class Field:
    name: str
    value: Expr
    span: Span = _span()


@record
class Example:
    """An inline test case: a hand in the example mini-notation and the expected result fields."""

    text: str
    expected: Record
    span: Span = _span()


@record
class Decorator:
    name: str
    value: str
    span: Span = _span()


@record
class Item:
    """One rule. ``action`` is define, override, remove, exception or examples; exceptions name their target.

    An ``examples`` item (``examples for KIND NAME { ... }``) carries only ``examples``: cases added to the item
    of that key, kept apart from ``override`` so that adding a case is never mistaken for changing the rule."""

    action: str
    kind: str
    name: str
    title: str | None = None
    fields: tuple[Field, ...] = ()
    examples: tuple[Example, ...] = ()
    decorators: tuple[Decorator, ...] = ()
    target_kind: str | None = None
    target_name: str | None = None
    span: Span = _span()
    kind_span: Span = _span()
    name_span: Span = _span()
    target_span: Span = _span()

    @property
    def key(self) -> tuple[str, str]:
        return (self.kind, self.name)

    @property
    def clause(self) -> str | None:
        for deco in self.decorators:
            if deco.name == "clause":
                return deco.value
        return None

    def field(self, name: str) -> Field | None:
        for f in self.fields:
            if f.name == name:
                return f
        return None


@record
class Adoption:
    """``clauses from NAME = "WORDS"``: this file adopts, under its own words, the clauses it inherits from the
    rulebook ``NAME`` (and from the rulebooks ``NAME`` extends); players then read WORDS before the inherited clause
    instead of "from NAME:" (``ruledsl.clause_origin``)."""

    rulebook: str
    words: str
    span: Span = _span()
    rulebook_span: Span = _span()


@record
class Rulebook:
    name: str
    title: str | None
    extends: str | None
    source: str | None
    items: tuple[Item, ...]
    span: Span = _span()
    name_span: Span = _span()
    extends_span: Span = _span()
    file: str = field(default="<input>", compare=False)
    adoptions: tuple[Adoption, ...] = ()


# ---- what each node stores -------------------------------------------------------------------------------------
# ``ruledsl.parsed_cache`` writes a node as its class name and these fields, in this order, and checks every value
# it reads back against them. Written out rather than read from the annotations above so that storing a tree never
# depends on how an annotation is spelled; ``tests/ruledsl/test_ast.py`` holds each list equal to its
# class's fields.

SPAN, FILE, SCALAR, NODE, NODES = range(5)  # a span; the rulebook's file; an int, bool or str; one node; a tuple of them


@record
class Stored:
    """One stored field: its name, what it holds (``SPAN`` ... ``NODES``), the scalar type or node classes allowed,
    and whether it may be None."""

    name: str
    kind: int
    types: tuple[type, ...] = ()
    optional: bool = False


EXPRS: tuple[type, ...] = Expr.__args__  # the union's members, as typing.get_args gives them


def _at(*names: str) -> tuple[Stored, ...]:
    return tuple(Stored(name, SPAN) for name in names)


def _text(*names: str, optional: bool = False) -> tuple[Stored, ...]:
    return tuple(Stored(name, SCALAR, (str,), optional) for name in names)


def _exprs(*names: str) -> tuple[Stored, ...]:
    return tuple(Stored(name, NODE, EXPRS) for name in names)


STORED: dict[type, tuple[Stored, ...]] = {
    Int: (Stored("value", SCALAR, (int,)), *_at("span")),
    Bool: (Stored("value", SCALAR, (bool,)), *_at("span")),
    Str: (*_text("value"), *_at("span")),
    Tiles: (*_text("text"), *_at("span")),
    Name: (*_text("id"), *_at("span")),
    Call: (*_text("func"), Stored("args", NODES, EXPRS), *_at("span", "func_span")),
    Quantifier: (*_text("kind", "var"), *_exprs("domain", "body"), *_at("span")),
    ListLit: (Stored("items", NODES, EXPRS), *_at("span")),
    Entry: (*_text("key"), *_exprs("value"), *_at("span")),
    Record: (Stored("entries", NODES, (Entry,)), *_at("span")),
    Range: (*_exprs("low", "high"), *_at("span")),
    BinOp: (*_text("op"), *_exprs("left", "right"), *_at("span")),
    Not: (*_exprs("operand"), *_at("span")),
    Negate: (*_exprs("operand"), *_at("span")),
    Conditional: (*_exprs("condition", "then", "otherwise"), *_at("span")),
    Field: (*_text("name"), *_exprs("value"), *_at("span")),
    Example: (*_text("text"), Stored("expected", NODE, (Record,)), *_at("span")),
    Decorator: (*_text("name", "value"), *_at("span")),
    Item: (
        *_text("action", "kind", "name"),
        *_text("title", optional=True),
        Stored("fields", NODES, (Field,)),
        Stored("examples", NODES, (Example,)),
        Stored("decorators", NODES, (Decorator,)),
        *_text("target_kind", "target_name", optional=True),
        *_at("span", "kind_span", "name_span", "target_span"),
    ),
    Adoption: (*_text("rulebook", "words"), *_at("span", "rulebook_span")),
    Rulebook: (
        *_text("name"),
        *_text("title", "extends", "source", optional=True),
        Stored("items", NODES, (Item,)),
        *_at("span", "name_span", "extends_span"),
        Stored("file", FILE),
        Stored("adoptions", NODES, (Adoption,)),
    ),
}
