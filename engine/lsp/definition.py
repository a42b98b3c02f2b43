"""Go to definition across ``extends``: an overridden, removed or extended item (or one named in an expression)
jumps to where it was first defined, in whichever file of the chain that is; the ``extends`` name jumps to the
base rulebook."""

from __future__ import annotations

import re

from engine.lsp.documents import Document
from engine.lsp.shapes import Location
from engine.lsp.text import file_uri, lines_of, span_range, word_at
from ruledsl.ast import Span
from ruledsl.resolve import ResolvedItem, ResolvedRulebook

REFERS = re.compile(r"^\s*(?:override|remove|examples\s+for|exception\s+\w+\s+to)\s+(\w+)\s+(\w+)")


def definition(document: Document, line: int, character: int) -> list[Location]:
    resolved = document.resolved
    lines = document.lines
    found = word_at(lines, line, character)
    if resolved is None or found is None:
        return []
    word = found[0]
    text = lines[line]
    if re.match(r"^\s*rulebook\b.*\bextends\s+" + re.escape(word) + r"\b", text):
        bases = [rb for rb in resolved.chain if rb.name == word and rb.file != document.path]
        return [_location(document, resolved, Span(bases[-1].file, 1, 1, 1, 1))] if bases else []
    header = REFERS.match(text)
    if header is not None and word == header.group(2):
        spans = _definitions(resolved, (header.group(1), word))
    else:
        spans = [span for (kind, name) in resolved.items if name == word for span in _definitions(resolved, (kind, name))]
    return [_location(document, resolved, span) for span in spans]


def _definitions(resolved: ResolvedRulebook, key: tuple[str, str]) -> list[Span]:
    """Where an item was first written: its definition, or for a removed item the removed one's."""
    item = resolved.items.get(key)
    if item is not None:
        return [_name_span(item)]
    return [_name_span(r.previous) for r in resolved.removed if r.key == key]


def _name_span(item: ResolvedItem) -> Span:
    """The name of the item as first written (where an editor should put the cursor), else its first span."""
    if item.definition is not None and item.definition.name_span.line > 0 and item.definition.name_span.file:
        return item.definition.name_span
    return item.history[0].span


def _location(document: Document, resolved: ResolvedRulebook, span: Span) -> Location:
    text = document.text if span.file == document.path else resolved.texts.get(span.file, "")
    return {"uri": file_uri(span.file, document.path, document.uri), "range": span_range(span, lines_of(text))}
