"""Completion: what may be written where the cursor is. At the top level, item kinds and the keywords that start
an item; after `override`/`remove`/`examples for`/`exception ... to`, the kinds and then the inherited items of
that kind; in a `settings GROUP` block its keys, and after `KEY =` the values it allows; in another block the
kind's fields, and after `=` the facts, functions, constants and item names an expression may read."""

from __future__ import annotations

import re

from engine.lsp.context import Context, context_at, offset_of
from engine.lsp.documents import Document
from engine.lsp.hover import KEYWORDS
from engine.lsp.shapes import CompletionItem, CompletionList
from engine.lsp.text import from_utf16
from ruledsl import vocabulary as V
from ruledsl.check import FIELD_SCOPES, HAND_SCOPE, KIND_SCOPES
from ruledsl.resolve import ResolvedRulebook

FIELD, FUNCTION, VARIABLE, CLASS, MODULE, PROPERTY, VALUE, KEYWORD, REFERENCE, CONSTANT = 5, 3, 6, 7, 9, 10, 12, 14, 18, 21
STARTERS = ("override", "remove", "exception", "examples", "clauses")
TOP_LEVEL_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^\s*(?:override|remove)\s+\w*$"), "kinds"),
    (re.compile(r"^\s*(?:override|remove)\s+(\w+)\s+\w*$"), "names"),
    (re.compile(r"^\s*examples\s+\w*$"), "for"),
    (re.compile(r"^\s*examples\s+for\s+\w*$"), "kinds"),
    (re.compile(r"^\s*examples\s+for\s+(\w+)\s+\w*$"), "names"),
    (re.compile(r"^\s*exception\s+\w+\s+\w*$"), "to"),
    (re.compile(r"^\s*exception\s+\w+\s+to\s+\w*$"), "kinds"),
    (re.compile(r"^\s*exception\s+\w+\s+to\s+(\w+)\s+\w*$"), "names"),
    (re.compile(r"^\s*settings\s+\w*$"), "groups"),
    (re.compile(r"^\s*clauses\s+\w*$"), "from"),
    (re.compile(r"^\s*clauses\s+from\s+\w*$"), "bases"),
    (re.compile(r"^\s*(?:@\w+\([^)]*\)\s*)*\w*$"), "start"),
)
ASSIGNED = re.compile(r"^\s*(\w+)\s*=")


def complete(document: Document, line: int, character: int) -> CompletionList:
    lines = document.lines
    column = from_utf16(lines[line], character) if 0 <= line < len(lines) else 0
    context = context_at(document.text, offset_of(document.text, line, column))
    items = completions(context, document.resolved)
    return {"isIncomplete": False, "items": items}


def completions(context: Context, resolved: ResolvedRulebook | None) -> list[CompletionItem]:
    if context.depth == 0:
        return _top_level(context.before, resolved)
    kind = context.kind
    if kind == "settings":
        return _settings(context.name, context.before)
    if kind not in V.ITEM_KINDS:
        return []
    if context.depth == 1 and re.match(r"^\s*\w*$", context.before):
        spec = V.ITEM_KINDS[kind]
        fields = [_item(name, FIELD, f"{f.type}{', required' if f.required else ''}", f.meaning) for name, f in spec.fields.items()]
        return [*fields, _item("example", KEYWORD, "a case", KEYWORDS["example"])]
    assigned = ASSIGNED.match(context.before)  # else a condition's later line: any name may follow
    return _expression_names(resolved, kind, assigned.group(1) if assigned else None)


def _top_level(before: str, resolved: ResolvedRulebook | None) -> list[CompletionItem]:
    for pattern, what in TOP_LEVEL_RULES:
        match = pattern.match(before)
        if match is None:
            continue
        if what == "kinds":
            return _kinds()
        if what == "names":
            return _names(resolved, match.group(1))
        if what == "groups":
            return [_item(group, MODULE, "settings group", ", ".join(keys)) for group, keys in V.SETTINGS.items()]
        if what == "bases":  # `clauses from BASE`: the rulebooks this file extends, nearest first
            bases = [rb.name for rb in reversed(resolved.chain[:-1])] if resolved is not None else []
            return [_item(name, MODULE, "a rulebook this file extends", "") for name in bases]
        if what in ("for", "to", "from"):
            return [_item(what, KEYWORD, "", "")]
        return [*_kinds(), *(_item(word, KEYWORD, "", KEYWORDS[word]) for word in STARTERS)]
    return []


def _kinds() -> list[CompletionItem]:
    return [_item(kind, CLASS, "item kind", spec.meaning) for kind, spec in V.ITEM_KINDS.items()]


def _names(resolved: ResolvedRulebook | None, kind: str) -> list[CompletionItem]:
    """The items of a kind in the fold, each with the rulebook that defined it (inherited ones first)."""
    if resolved is None:
        return [_item(group, MODULE, "settings group", "") for group in V.SETTINGS] if kind == "settings" else []
    leaf = resolved.name
    names = sorted((item.defined_in == leaf, item.name, item) for (k, _), item in resolved.items.items() if k == kind)
    return [_item(name, REFERENCE, f"{kind} from {item.defined_in}", item.title or "", sort=f"{int(own)}{name}") for own, name, item in names]


def _settings(group: str | None, before: str) -> list[CompletionItem]:
    keys = V.SETTINGS.get(group or "", {})
    assigned = ASSIGNED.match(before)
    if assigned is None:
        if not re.match(r"^\s*\w*$", before):
            return []
        return [_item(key, PROPERTY, spec.type, f"{spec.meaning}\n\ndefault: {V.default_text(spec)}\n\n{spec.example}") for key, spec in keys.items()]
    spec = keys.get(assigned.group(1))
    if spec is None:
        return []
    if spec.choices:
        quoted = not spec.type.startswith("list of")
        return [_item(f'"{choice}"' if quoted else choice, VALUE, spec.type, spec.meaning, insert=_quote(choice, before) if quoted else f'"{choice}"') for choice in spec.choices]
    if spec.type == V.BOOL:
        return [_item(word, VALUE, spec.type, spec.meaning) for word in ("true", "false")]
    value = spec.example.split("=", 1)[1].strip()
    return [_item(value, VALUE, spec.type, f"example: {spec.example}")]


def _quote(choice: str, before: str) -> str:
    """The text to insert for a string choice: without its opening quote when the user typed one already."""
    return f'{choice}"' if before.rstrip().endswith('"') or re.search(r'"\w*$', before) else f'"{choice}"'


def _expression_names(resolved: ResolvedRulebook | None, kind: str, field: str | None) -> list[CompletionItem]:
    """What an expression of this field may read, as the checker scopes it (``ruledsl.check``): a list of items
    (`excludes`, `affects`) takes item names only; other fields the facts of their scope, the functions,
    constants and quantifiers, and item names where a yaku may be asked about."""
    spec = V.ITEM_KINDS[kind].fields.get(field or "")
    items = _item_names(resolved)
    if spec is not None and spec.type == V.ITEMS:
        return items
    scope = FIELD_SCOPES.get((kind, field or "")) or KIND_SCOPES.get(kind) or HAND_SCOPE
    out = [_item(name, VARIABLE, f"{fact.type} ({fact.scope})", fact.meaning) for name, fact in V.FACTS.items() if name in scope.facts]
    out += [_item(name, FUNCTION, f"({', '.join(fn.params)}) -> {fn.returns}", fn.meaning, insert=f"{name}(") for name, fn in V.FUNCTIONS.items()]
    out += [_item(name, CONSTANT, c.type, c.meaning) for name, c in V.CONSTANTS.items()]
    out += [_item(name, KEYWORD, "quantifier", meaning, insert=f"{name}(") for name, meaning in V.QUANTIFIERS.items()]
    out += [_item(word, KEYWORD, "", "") for word in ("true", "false", "not", "and", "or", "in", "if", "then", "else")]
    return out + items if scope.yaku_refs or field is None else out


def _item_names(resolved: ResolvedRulebook | None) -> list[CompletionItem]:
    if resolved is None:
        return []
    seen = set(V.FACTS) | set(V.FUNCTIONS) | set(V.CONSTANTS)
    return [_item(name, REFERENCE, kind, item.title or "") for (kind, name), item in resolved.items.items() if kind != "settings" and name not in seen]


def _item(label: str, kind: int, detail: str, documentation: str, *, insert: str | None = None, sort: str | None = None) -> CompletionItem:
    out: CompletionItem = {"label": label, "kind": kind}
    if detail:
        out["detail"] = detail
    if documentation:
        out["documentation"] = documentation
    if insert is not None:
        out["insertText"] = insert
    if sort is not None:
        out["sortText"] = sort
    return out
