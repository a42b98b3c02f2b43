"""Hover: ``riichi explain`` of the item or setting under the cursor, or the vocabulary's entry for a fact,
function, constant, kind, field or keyword (the same words as ``docs/language.md``)."""

from __future__ import annotations

from engine.lsp.context import context_at, offset_of
from engine.lsp.documents import Document
from engine.lsp.shapes import Hover, Range
from engine.lsp.text import from_utf16, to_utf16, word_at
from ruledsl import vocabulary as V
from ruledsl.explain import UnknownItem, explain_query
from ruledsl.resolve import ResolvedRulebook

KEYWORDS = {
    "rulebook": "starts a rulebook: `rulebook NAME \"title\" [extends BASE]`",
    "extends": "this rulebook starts from another one (bundled, or a `.rulebook` file next to this one) and changes it",
    "source": "the document this rulebook encodes",
    "override": "`override KIND NAME { ... }`: change fields of an inherited item",
    "remove": "`remove KIND NAME`: drop an inherited item",
    "exception": "`exception NAME to KIND TARGET { ... }`: a narrower case of an item, with its own fields",
    "examples": "`examples for KIND NAME { example ... }`: add cases to an item without changing it",
    "example": "`example \"HAND\" => {han: 1, ...}`: a hand and what it must score; `riichi check` runs it",
    "clauses": "`clauses from BASE = \"WORDS\"`: players read WORDS before every clause inherited from BASE (and the rulebooks it extends)",
}


def hover(document: Document, line: int, character: int) -> Hover | None:
    lines = document.lines
    found = word_at(lines, line, character)
    if found is None:
        return None
    word, start, end = found
    context = context_at(document.text, offset_of(document.text, line, from_utf16(lines[line], character)))
    text = explain(document.resolved, word, context.kind, lines[line][:start])
    if text is None:
        return None
    rng: Range = {"start": {"line": line, "character": to_utf16(lines[line], start)}, "end": {"line": line, "character": to_utf16(lines[line], end)}}
    return {"contents": {"kind": "markdown", "value": text}, "range": rng}


def explain(resolved: ResolvedRulebook | None, word: str, kind: str | None, before: str) -> str | None:
    """Markdown for a word: a field of the block's kind when it is written as one, else an item or setting of
    the rulebook, else the vocabulary."""
    if kind is not None and not before.strip():
        spec = _field(kind, word)
        if spec is not None:
            return spec
    if "=" in before or "(" in before:  # an expression: a fact or function before an item of the same name
        entry = vocabulary_entry(word)
        if entry is not None:
            return entry
    if resolved is not None:
        try:
            return _fenced(explain_query(resolved, word))
        except UnknownItem:
            pass
    return vocabulary_entry(word, kind)


def _field(kind: str, word: str) -> str | None:
    if kind == "settings":
        return None
    spec = V.ITEM_KINDS.get(kind)
    field = spec.fields.get(word) if spec is not None else None
    if field is None:
        return None
    return f"**field `{word}`** of `{kind}` ({field.type}{', required' if field.required else ''}) — {field.meaning}"


def vocabulary_entry(word: str, kind: str | None = None) -> str | None:
    """The vocabulary's words for a name, or None when the language does not know it."""
    if word in V.FACTS:
        fact = V.FACTS[word]
        return f"**fact `{word}`**: {fact.type} ({fact.scope}) — {fact.meaning}\n\nexample: `{fact.example}`"
    if word in V.FUNCTIONS:
        fn = V.FUNCTIONS[word]
        return f"**function `{word}({', '.join(fn.params)})`** → {fn.returns} — {fn.meaning}\n\nexample: `{fn.example}`"
    if word in V.CONSTANTS:
        constant = V.CONSTANTS[word]
        return f"**constant `{word}`**: {constant.type} — {constant.meaning}"
    if word in V.QUANTIFIERS:
        return f"**quantifier `{word}(x in DOMAIN: BODY)`** — {V.QUANTIFIERS[word]}"
    if word in V.ITEM_KINDS:
        spec = V.ITEM_KINDS[word]
        fields = ", ".join(f"`{name}`" for name in spec.fields) or ", ".join(f"`{g}`" for g in V.SETTINGS)
        return f"**kind `{word}`** — {spec.meaning}\n\n{'fields' if spec.fields else 'groups'}: {fields}"
    if word in V.SETTINGS:
        keys = ", ".join(f"`{key}`" for key in V.SETTINGS[word])
        return f"**settings group `{word}`**\n\nkeys: {keys}"
    if word in V.DECORATORS:
        return f"**`@{word}(\"...\")`** — {V.DECORATORS[word]}"
    if word in KEYWORDS:
        return f"**`{word}`** — {KEYWORDS[word]}"
    if kind is not None:
        return _field(kind, word)
    return None


def _fenced(text: str) -> str:
    return f"```text\n{text}\n```"
