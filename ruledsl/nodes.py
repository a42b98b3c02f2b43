"""What a rulebook compiles to: frozen, callable expression nodes, the rules made of them, and the compiled rulebook.

Each expression is a small frozen node with ``__call__(env)``; ``env`` is the engine's fact table for one reading (a
dict that computes a fact on first use). These nodes are the language's one reference evaluator: each construct
read the plainest way, left to right, with the integer bounds of ``ruledsl.arithmetic``. ``ruledsl.compile`` makes
them from a checked syntax tree; ``ruledsl.compiled_cache`` restores those of a bundled rulebook from the shipped
file. They live apart from the compiler so that scoring under a shipped rulebook imports neither the syntax tree's
classes nor the loader of rulebook files (about a tenth of a one-hand command's start-up).
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from ruledsl import arithmetic
from ruledsl import vocabulary as V
from ruledsl.record import field, fields, record
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from ruledsl.resolve import ResolvedRulebook

Env = dict  # fact name -> value; the engine supplies a dict subclass that computes facts lazily


# ---- expression nodes ----------------------------------------------------------------------------------------------


@record
class Const:
    value: Any

    def __call__(self, env: Env) -> Any:
        return self.value

    def __repr__(self) -> str:
        return repr(self.value)


@record
class Ref:
    """A fact or a loop variable, read from the environment."""

    name: str

    def __call__(self, env: Env) -> Any:
        return env[self.name]

    def __repr__(self) -> str:
        return self.name


@record
class Apply:
    name: str
    fn: Callable[..., Any] = field(repr=False, compare=False)
    args: tuple[Any, ...]
    needs_env: bool = False

    def __call__(self, env: Env) -> Any:
        if self.needs_env:
            return self.fn(env, *[a(env) for a in self.args])
        return self.fn(*[a(env) for a in self.args])

    def __repr__(self) -> str:
        return f"{self.name}({', '.join(map(repr, self.args))})"


@record
class And:
    left: Any
    right: Any

    def __call__(self, env: Env) -> bool:
        return bool(self.left(env)) and bool(self.right(env))

    def __repr__(self) -> str:
        return f"({self.left!r} and {self.right!r})"


@record
class Or:
    left: Any
    right: Any

    def __call__(self, env: Env) -> bool:
        return bool(self.left(env)) or bool(self.right(env))

    def __repr__(self) -> str:
        return f"({self.left!r} or {self.right!r})"


@record
class NotNode:
    operand: Any

    def __call__(self, env: Env) -> bool:
        return not self.operand(env)

    def __repr__(self) -> str:
        return f"not {self.operand!r}"


_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": arithmetic.add,
    "-": arithmetic.subtract,
    "*": arithmetic.multiply,
    "/": arithmetic.divide,
    "^": arithmetic.power,
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "in": lambda a, b: a in b,
    "notin": lambda a, b: a not in b,
}


@record
class Binary:
    op: str
    fn: Callable[[Any, Any], Any] = field(repr=False, compare=False)
    left: Any
    right: Any

    def __call__(self, env: Env) -> Any:
        return self.fn(self.left(env), self.right(env))

    def __repr__(self) -> str:
        return f"({self.left!r} {self.op} {self.right!r})"


@record
class Cond:
    condition: Any
    then: Any
    otherwise: Any

    def __call__(self, env: Env) -> Any:
        return self.then(env) if self.condition(env) else self.otherwise(env)


@record
class ListNode:
    items: tuple[Any, ...]

    def __call__(self, env: Env) -> tuple:
        return tuple(i(env) for i in self.items)


@record
class RangeNode:
    low: Any
    high: Any

    def __call__(self, env: Env) -> range:
        return arithmetic.number_range(self.low(env), self.high(env))


@record
class Quant:
    """A loop over a finite domain; the variable is bound in the environment and restored afterwards.

    This is the reference evaluator's only quantifier runner: the plainest loop per kind, no shortcut.
    """

    kind: str
    var: str
    domain: Any
    body: Any

    def __call__(self, env: Env) -> Any:
        var, body = self.var, self.body
        saved = dict.get(env, var, _MISSING)
        try:
            values = []
            for x in self.domain(env):
                env[var] = x
                values.append(body(env))
                if self.kind == "any" and values[-1]:
                    return True
                if self.kind == "all" and not values[-1]:
                    return False
            return _QUANTIFIED[self.kind](values)
        finally:
            if saved is _MISSING:
                dict.pop(env, var, None)
            else:
                env[var] = saved

    def __repr__(self) -> str:
        return f"{self.kind}({self.var} in {self.domain!r}: {self.body!r})"


_MISSING = object()

# What each quantifier makes of its body's values (``any`` and ``all`` stop early above; here none decided them).
_QUANTIFIED: dict[str, Callable[[list[Any]], Any]] = {
    "any": lambda values: False,
    "all": lambda values: True,
    "count": lambda values: sum(1 for v in values if v),
    "sum": arithmetic.total,
    "max": lambda values: max(values, default=0),
    "min": lambda values: min(values, default=0),
}


# ---- compiled items ------------------------------------------------------------------------------------------------


@record(slots=False)
class Variant:
    """An exception to an item: when its condition also holds, it replaces the item's id and some fields."""

    name: str
    title: str | None
    clause: str | None
    when: Any
    fields: dict[str, Any]


@record(slots=False)
class Rule:
    """One compiled hand rule (yaku, yakuman, bonus, fu, limit or payment)."""

    kind: str
    name: str
    title: str
    clause: str | None
    when: Any
    fields: dict[str, Any]
    variants: tuple[Variant, ...] = ()

    def __repr__(self) -> str:
        return f"<{self.kind} {self.name} when {self.when!r}>"


@record(slots=False)
class Rulebook:
    """A compiled rulebook: settings as plain values, hand rules as callables, the resolved source kept for tools."""

    name: str
    title: str
    settings: dict[str, dict[str, Any]]
    rules: dict[str, tuple[Rule, ...]]
    resolved: ResolvedRulebook = field(repr=False, compare=False)

    def setting(self, group: str, key: str) -> Any:
        """The value of a settings key, or the vocabulary's default when the rulebook does not write it (one
        default per key for every reader: the scorer, the round and the game)."""
        values = self.settings.get(group)
        if values is not None and key in values:
            return values[key]
        return V.SETTINGS[group][key].default

    def of(self, kind: str) -> tuple[Rule, ...]:
        return self.rules.get(kind, ())

    def files(self) -> tuple[str, ...]:
        """The files of its ``extends`` chain as loading named them, leaf first."""
        return tuple(self.resolved.texts)

    def settings_clauses(self) -> dict[str, str | None]:
        """The clause of each settings group written, by group name (refusals name the setting deciding them)."""
        return {item.name: item.clause for item in self.resolved.of_kind("settings")}

    def clause_origins(self) -> dict[tuple[str, str | None], dict[str, Any] | None]:
        """``clause_from`` of each inherited clause, by the (id, clause) a score response's line carries
        (``ruledsl.clause_origin.origins_by_line``); empty for a rulebook that extends nothing."""
        if len(self.resolved.chain) < 2:
            return {}
        from ruledsl.clause_origin import origins_by_line

        return origins_by_line(self.resolved)


class _ResolvedOnRead:
    """``ShippedRulebook.resolved``: the chain resolved when first read, then kept on the rulebook (an instance's
    own attribute hides this descriptor, so later reads are plain lookups)."""

    def __get__(self, rulebook: ShippedRulebook | None, owner: type | None = None) -> Any:
        if rulebook is None:
            return self
        resolved = rulebook._resolve()
        rulebook.__dict__["resolved"] = resolved
        return resolved


class ShippedRulebook(Rulebook):
    """A bundled rulebook as ``ruledsl.compiled_cache`` ships it compiled: the same settings and rules as compiling
    its chain gives, with the few facts of the chain that scoring reads kept beside them, and the resolved chain
    (its items, history and examples, which scoring never reads) resolved only when a tool reads ``resolved``."""

    resolved = _ResolvedOnRead()

    @classmethod
    def shipped(
        cls,
        name: str,
        title: str,
        settings: dict[str, dict[str, Any]],
        rules: dict[str, tuple[Rule, ...]],
        files: tuple[str, ...],
        settings_clauses: dict[str, str | None],
        origins: dict[tuple[str, str | None], dict[str, Any] | None],
        resolve: Callable[[], ResolvedRulebook],
    ) -> ShippedRulebook:
        made: ShippedRulebook = object.__new__(cls)
        made.__dict__.update(
            name=name, title=title, settings=settings, rules=rules,
            _files=files, _settings_clauses=settings_clauses, _origins=origins, _resolve=resolve,
        )
        return made

    # One made by ``replace`` (a test's rulebook with a rule more) has its ``resolved`` and none of the shipped
    # facts, which may no longer hold for it: it answers from ``resolved``, as any compiled rulebook does.
    def files(self) -> tuple[str, ...]:
        found = self.__dict__.get("_files")
        return super().files() if found is None else found

    def settings_clauses(self) -> dict[str, str | None]:
        found = self.__dict__.get("_settings_clauses")
        return super().settings_clauses() if found is None else found

    def clause_origins(self) -> dict[tuple[str, str | None], dict[str, Any] | None]:
        found = self.__dict__.get("_origins")
        return super().clause_origins() if found is None else found

    def _resolve(self) -> ResolvedRulebook:
        return self.__dict__["_resolve"]()

    def __eq__(self, other: object) -> bool:
        """Equal to a compiled rulebook of the same content (name, title, settings, rules), shipped or compiled
        from its texts: what it is, whichever way it was loaded."""
        if not isinstance(other, Rulebook):
            return NotImplemented
        return _content(self) == _content(other)

    __hash__ = Rulebook.__hash__


# What two compiled rulebooks compare by (the record's compared fields; the resolved chain is not one of them)
_content = operator.attrgetter(*[f.name for f in fields(Rulebook) if f.compare])

TRUE = Const(True)

__all__ = [
    "Env", "Const", "Ref", "Apply", "And", "Or", "NotNode", "Binary", "Cond", "ListNode", "RangeNode", "Quant", "TRUE",
    "Variant", "Rule", "Rulebook", "ShippedRulebook",
]
