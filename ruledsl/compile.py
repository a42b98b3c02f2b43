"""Checked syntax tree to frozen, callable rule objects (the nodes, rules and rulebooks of ``ruledsl.nodes``).

Nothing here evaluates text: names were checked against the vocabulary, functions come from its table, loops run
over finite lists, and depth is bounded by the parser.

The nodes are the language's one reference evaluator. The scorer runs the closures of ``ruledsl.fast`` instead;
``tests/ruledsl/test_evaluator_agreement.py`` holds the two equal on generated expressions, and
``tests/ruledsl/test_reference_scoring.py`` on whole responses (``Scorer(rulebook, reference=True)``).
"""

from __future__ import annotations

from collections.abc import Iterator

from ruledsl import arithmetic, ast, parsed_cache
from ruledsl import vocabulary as V
from ruledsl.diagnostics import RulebookError
from ruledsl.nodes import (
    _BINARY,
    TRUE,
    And,
    Apply,
    Binary,
    Cond,
    Const,
    Env,
    ListNode,
    NotNode,
    Or,
    Quant,
    RangeNode,
    Ref,
    Rule,
    Rulebook,
    ShippedRulebook,
    Variant,
)
from ruledsl.resolve import ResolvedItem, ResolvedRulebook, is_bundled_name, item_kind, resolve
from ruledsl.tiles import kind_of, parse_tiles
from ruledsl.typing_names import TYPE_CHECKING, assert_never

if TYPE_CHECKING:
    from typing import Any


def compile_expr(expr: ast.Expr) -> Any:
    """Build the evaluator for a checked expression."""
    match expr:
        case ast.Int() | ast.Bool() | ast.Str():
            return Const(expr.value)
        case ast.Tiles():
            kinds = tuple(kind_of(c) for c in parse_tiles(expr.text))
            return Const(kinds[0] if len(kinds) == 1 else kinds)
        case ast.Name():
            constant = V.CONSTANTS.get(expr.id)
            if constant is not None:
                return Const(constant.value)
            return Ref(expr.id)
        case ast.Call():
            fn = V.FUNCTIONS[expr.func]
            if fn.name == "has_yaku":
                arg = expr.args[0]
                return Apply(fn.name, fn.impl, (Const(arg.id if isinstance(arg, ast.Name) else ""),), True)
            return Apply(fn.name, fn.impl, tuple(compile_expr(a) for a in expr.args), fn.name in V.NEEDS_ENV)
        case ast.Quantifier():
            return Quant(expr.kind, expr.var, compile_expr(expr.domain), compile_expr(expr.body))
        case ast.ListLit():
            items = tuple(compile_expr(i) for i in expr.items)
            if all(isinstance(i, Const) for i in items):
                return Const(tuple(i.value for i in items))
            return ListNode(items)
        case ast.Range():
            return RangeNode(compile_expr(expr.low), compile_expr(expr.high))
        case ast.Not():
            return NotNode(compile_expr(expr.operand))
        case ast.Negate():
            return Binary("-", arithmetic.subtract, Const(0), compile_expr(expr.operand))
        case ast.Conditional():
            return Cond(compile_expr(expr.condition), compile_expr(expr.then), compile_expr(expr.otherwise))
        case ast.BinOp():
            left, right = compile_expr(expr.left), compile_expr(expr.right)
            if expr.op == "and":
                return And(left, right)
            if expr.op == "or":
                return Or(left, right)
            if expr.op in ("in", "notin") and isinstance(right, Const) and isinstance(right.value, int):
                right = Const((right.value,))
            if expr.op in ("in", "notin") and isinstance(right, Const) and isinstance(right.value, tuple):
                right = Const(frozenset(right.value))
            return Binary(expr.op, _BINARY[expr.op], left, right)
        case ast.Record():
            return Const({e.key: compile_expr(e.value) for e in expr.entries})
    assert_never(expr)


def literal_value(expr: ast.Expr) -> Any:
    """The Python value of a constant expression (settings, example expectations)."""
    match expr:
        case ast.Int() | ast.Bool() | ast.Str():
            return expr.value
        case ast.Negate():
            return -literal_value(expr.operand)
        case ast.Tiles():
            return tuple(parse_tiles(expr.text))
        case ast.Name():
            return expr.id
        case ast.ListLit():
            return [literal_value(i) for i in expr.items]
        case ast.Record():
            return {e.key: literal_value(e.value) for e in expr.entries}
    return None


def compile_rulebook(resolved: ResolvedRulebook, *, checked: bool = False, like: Rulebook | None = None) -> Rulebook:
    """The rule objects of a resolved rulebook; ``RulebookError`` when the checker finds an error.

    ``checked`` says the caller knows the checker finds none (``load`` asks the shipped verdicts of
    ``ruledsl.parsed_cache``), so the checker is neither imported nor run: most of a one-hand command's start-up.
    ``like``: a rulebook compiled before from mostly the same items (``riichi diff`` compiles A with one item of B
    in place, once per change); a rule whose item and exceptions are the very objects ``like`` compiled is taken
    from it as it is, since compiling them again gives an equal rule.
    """
    if not checked:
        from ruledsl.check import check

        errors = [d for d in check(resolved, reuse=like is not None) if d.is_error]
        if errors:
            raise RulebookError(errors)
    settings = _settings(resolved)
    exceptions = _exceptions(resolved)
    compiled_before = _compiled_rules(like) if like is not None else {}
    rules: dict[str, list[Rule]] = {}
    for item in resolved.items.values():
        if item.target is not None or item.kind == "settings":
            continue
        own = exceptions.get(item.key, ())
        before = compiled_before.get(item.key)
        if before is not None and before[0] is item and _same_objects(before[1], own):
            rule = before[2]
        else:
            rule = _rule(item, tuple(_variant(e, resolved) for e in own))
        rules.setdefault(item.kind, []).append(rule)
    return Rulebook(
        name=resolved.name,
        title=resolved.title or resolved.name,
        settings=settings,
        rules={k: tuple(v) for k, v in rules.items()},
        resolved=resolved,
    )


def compile_settings(resolved: ResolvedRulebook) -> Rulebook:
    """The rulebook with its settings compiled and no rule: what a scorer reads to tell whether it can use the
    rulebook at all, for a file checked clean that has no example of its own to score (compiling and preparing
    thousands of rules would only be thrown away). The caller knows the checker finds no error in it."""
    return Rulebook(name=resolved.name, title=resolved.title or resolved.name, settings=_settings(resolved), rules={}, resolved=resolved)


def _settings(resolved: ResolvedRulebook) -> dict[str, dict[str, Any]]:
    settings: dict[str, dict[str, Any]] = {}
    for item in resolved.of_kind("settings"):
        group = V.SETTINGS.get(item.name, {})
        settings[item.name] = {
            name: _setting_value(literal_value(f.value), group[name].type if name in group else V.ANY)
            for name, f in item.fields.items()
        }
    return settings


def _exceptions(resolved: ResolvedRulebook) -> dict[tuple[str, str], tuple[ResolvedItem, ...]]:
    """The exception items of each refined item, in the rulebook's order (the order of the rule's variants)."""
    out: dict[tuple[str, str], list[ResolvedItem]] = {}
    for item in resolved.items.values():
        if item.target is not None:
            out.setdefault(item.target, []).append(item)
    return {key: tuple(items) for key, items in out.items()}


def _compiled_rules(rulebook: Rulebook) -> dict[tuple[str, str], tuple[ResolvedItem, tuple[ResolvedItem, ...], Rule]]:
    """(item, its exceptions, the rule compiled from them) of each hand and round rule of a compiled rulebook."""
    exceptions = _exceptions(rulebook.resolved)
    out = {}
    for kind_rules in rulebook.rules.values():
        for rule in kind_rules:
            item = rulebook.resolved.items.get((rule.kind, rule.name))
            if item is not None:
                out[item.key] = (item, exceptions.get(item.key, ()), rule)
    return out


def _same_objects(these: tuple[ResolvedItem, ...], those: tuple[ResolvedItem, ...]) -> bool:
    return len(these) == len(those) and all(x is y for x, y in zip(these, those, strict=True))


def _setting_value(value: Any, type_name: str) -> Any:
    """Settings as plain Python: tile lists become flat tuples of tile codes."""
    if type_name == V.TILES:
        return tuple(_flat_codes(value))
    if type_name == V.list_of(V.TILES):
        return tuple(tuple(_flat_codes(v)) for v in value)
    if isinstance(value, list):
        return tuple(value)
    return value


def _flat_codes(value: Any) -> Iterator[Any]:
    if isinstance(value, (list, tuple)):
        for v in value:
            yield from _flat_codes(v)
    else:
        yield value


def _compile_fields(item: ResolvedItem, kind: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, f in item.fields.items():
        if name == "when":
            continue
        if name in ("excludes", "affects"):
            items = f.value.items if isinstance(f.value, ast.ListLit) else ()  # the checker let only a list through
            out[name] = tuple(e.id for e in items if isinstance(e, ast.Name))
        elif name == "han" and kind == "yaku":
            out[name] = _han(f.value)
        else:
            out[name] = compile_expr(f.value)
    return out


def _han(value: ast.Expr) -> tuple[int, int | None]:
    """(closed han, open han or None when closed only)."""
    if isinstance(value, ast.Int):
        return (value.value, value.value)
    assert isinstance(value, ast.Record)
    closed, opened = value.get("closed"), value.get("open")
    return (
        closed.value if isinstance(closed, ast.Int) else 0,
        opened.value if isinstance(opened, ast.Int) else None,
    )


def _when(item: ResolvedItem) -> Any:
    f = item.fields.get("when")
    return compile_expr(f.value) if f is not None else TRUE


def _rule(item: ResolvedItem, variants: tuple[Variant, ...]) -> Rule:
    return Rule(item.kind, item.name, item.title or item.name, item.clause, _when(item), _compile_fields(item, item.kind), variants)


def _variant(item: ResolvedItem, resolved: ResolvedRulebook) -> Variant:
    return Variant(item.name, item.title, item.clause, _when(item), _compile_fields(item, item_kind(item, resolved)))


def load(ref: str, text: str | None = None, file: str | None = None, *, shipped: bool = True) -> Rulebook:
    """Load, resolve, check and compile a rulebook by bundled name or path.

    A bundled rulebook named by its name is taken as ``ruledsl.compiled_cache`` ships it compiled, when the texts
    of its chain are those it was compiled from (its resolved chain is made only when read); ``shipped=False``:
    the caller found the shipped file does not hold it. A chain whose every file is one the shipped cache recorded
    as checking clean, under the same file names and the same checker sources, is not checked again
    (``parsed_cache.checked_clean``).
    """
    if shipped and text is None and is_bundled_name(ref):
        from ruledsl import compiled_cache

        found = compiled_cache.load_bundled(ref)
        if found is not None:
            return found
    resolved = resolve(ref, text, file)
    return compile_rulebook(resolved, checked=parsed_cache.checked_clean(resolved.texts))


__all__ = [
    "Rulebook", "ShippedRulebook", "Rule", "Variant", "compile_rulebook", "compile_settings", "compile_expr", "load", "literal_value",
    "item_kind", "RulebookError", "Env", "Const", "Ref", "Apply", "And", "Or", "NotNode", "Binary", "Cond", "ListNode", "RangeNode",
    "Quant", "TRUE",
]
