"""The syntax tree of a rulebook: frozen records (``ruledsl.record``), every node carrying the span it was written at.

Spans never take part in equality (``compare=False``), so a rulebook rendered back to text and parsed again
compares equal to the original: the round-trip property the test suite checks.
"""

from __future__ import annotations

from ruledsl.record import field, record


@record
class Span:
    """Where a node was written: 1-based line and column of its start and end, plus the file."""

    file: str = "<input>"
    line: int = 1
    column: int = 1
    end_line: int = 1
    end_column: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


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


Expr = Int | Bool | Str | Tiles | Name | Call | Quantifier | ListLit | Record | Range | BinOp | Not | Negate | Conditional


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
