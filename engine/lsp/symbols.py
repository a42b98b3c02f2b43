"""Document symbols: the items written in the open file, as an editor's outline lists them."""

from __future__ import annotations

import re

from engine.lsp.context import line_depths
from engine.lsp.documents import Document
from engine.lsp.shapes import DocumentSymbol, Range

CLASS, STRUCT, EVENT, OBJECT = 5, 23, 24, 19
ITEM_LINE = re.compile(r"^[ \t]*((?:override|remove)[ \t]+(\w+)[ \t]+(\w+)|examples[ \t]+for[ \t]+(\w+)[ \t]+(\w+)|exception[ \t]+(\w+)[ \t]+to[ \t]+(\w+)[ \t]+(\w+)|(\w+)[ \t]+(\w+))", re.M)
NOT_KINDS = {"rulebook", "source", "example", "extends"}
PREFIXES = {"override": OBJECT, "remove": EVENT, "examples": STRUCT, "exception": CLASS}


def symbols(document: Document) -> list[DocumentSymbol]:
    """Every item header at the top level of the text (read from the text itself, so that the outline follows
    typing even while the file does not parse)."""
    text = document.text
    depths = line_depths(text)
    out: list[DocumentSymbol] = []
    for match in ITEM_LINE.finditer(text):
        line = text.count("\n", 0, match.start(1))
        label = match.group(1).split()[0]
        if depths[min(line, len(depths) - 1)] != 0 or (match.group(9) is not None and label in NOT_KINDS | set(PREFIXES)):
            continue
        words = [w for w in match.groups()[1:] if w]
        name, detail = _naming(label, words)
        start = match.start(1) - (text.rfind("\n", 0, match.start(1)) + 1)
        end_offset = _block_end(text, match.end(1))
        end_line = text.count("\n", 0, end_offset)
        end_char = end_offset - (text.rfind("\n", 0, end_offset) + 1)
        full: Range = {"start": {"line": line, "character": start}, "end": {"line": end_line, "character": end_char}}
        pick: Range = {"start": {"line": line, "character": start}, "end": {"line": line, "character": start + len(match.group(1))}}
        kind = PREFIXES.get(label, CLASS)
        out.append({"name": name, "detail": detail, "kind": kind, "range": full, "selectionRange": pick})
    return out


def _naming(label: str, words: list[str]) -> tuple[str, str]:
    """(name, detail) of an item header's words."""
    if label == "exception":
        return words[0], f"exception to {words[1]} {words[2]}"
    if label in PREFIXES:
        return words[-1], f"{label} {words[0]}"
    return words[1], words[0]


def _block_end(text: str, start: int) -> int:
    """The offset just after the block that follows an item's header (the header's end when it has none)."""
    brace = text.find("{", start)
    newline = text.find("\n", start)
    if brace < 0 or (0 <= newline < brace and text[start:brace].strip()):
        return start
    depth, index = 0, brace
    while index < len(text):
        if text[index] == "{":
            depth += 1
        elif text[index] == "}":
            depth -= 1
            if depth == 0:
                return index + 1
        elif text[index] == '"':
            close = text.find('"', index + 1)
            index = close if close > 0 else len(text)
        index += 1
    return len(text)
