"""Where a cursor stands in a rulebook's text: at the top level or inside an item's block (whose header says
which kind and name), and the words typed before it on its line. Completion and hover read it.

A light scan, not a parse: the text being typed is usually not valid, and the scan only needs to skip strings and
comments while counting braces.
"""

from __future__ import annotations

import re

from ruledsl.record import record

STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
DECORATOR = re.compile(r"@\w+\([^)]*\)")


def without_decorators(head: str) -> str:
    """``head`` with its decorators removed, in time linear in its length.

    Every decorator ends at a ``)``, so nothing after the last one can match: the pattern runs only up to it. Run
    on the whole text, each ``@name(`` with no ``)`` after it scanned to the end of the line (quadratic on an
    editor line of ``@a(@a(...``).
    """
    cut = head.rfind(")") + 1
    return DECORATOR.sub("", head[:cut]) + head[cut:]


@record(slots=False)
class Context:
    depth: int  # braces open before the cursor (0: the top level)
    header: tuple[str, ...]  # the words before the item's opening brace (`override settings table`)
    before: str  # the text of the cursor's line before it

    @property
    def kind(self) -> str | None:
        """The kind whose fields the block holds (an exception's target kind)."""
        words = [w for w in self.header if not w.startswith('"')]
        if not words:
            return None
        if words[0] in ("override", "remove"):
            return words[1] if len(words) > 1 else None
        if words[0] == "examples":
            return words[2] if len(words) > 2 else None
        if words[0] == "exception":
            return words[3] if len(words) > 3 else None
        return words[0]

    @property
    def name(self) -> str | None:
        words = [w for w in self.header if not w.startswith('"')]
        index = {"override": 2, "remove": 2, "examples": 3, "exception": 1}.get(words[0] if words else "", 1)
        return words[index] if len(words) > index else None


def context_at(text: str, offset: int) -> Context:
    """The context of a cursor at ``offset`` characters into ``text``."""
    depth, opened_at = 0, 0
    index, end = 0, min(offset, len(text))
    while index < end:
        char = text[index]
        if char == '"':
            close = _string_end(text, index, end)
            index = close
            continue
        if char == "#":
            newline = text.find("\n", index)
            index = end if newline < 0 or newline > end else newline
            continue
        if char == "{":
            if depth == 0:
                opened_at = index
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        index += 1
    header: tuple[str, ...] = ()
    if depth > 0:
        head = text[text.rfind("\n", 0, opened_at) + 1 : opened_at]
        head = without_decorators(STRING.sub('""', head))
        header = tuple(re.findall(r'""|[A-Za-z_][A-Za-z0-9_]*', head))
    line_start = text.rfind("\n", 0, end) + 1
    return Context(depth, header, text[line_start:end])


def _string_end(text: str, start: int, end: int) -> int:
    index = start + 1
    while index < end:
        if text[index] == "\\":
            index += 2
            continue
        if text[index] in '"\n':
            return index + 1
        index += 1
    return end


def offset_of(text: str, line: int, column: int) -> int:
    """The character offset of a 0-based line and character index."""
    lines = text.split("\n")
    line = min(max(0, line), len(lines) - 1)
    return sum(len(ln) + 1 for ln in lines[:line]) + min(column, len(lines[line]))


def line_depths(text: str) -> list[int]:
    """The braces open at the start of each line, in one pass (strings and comments skipped)."""
    depths = [0]
    depth, index, end = 0, 0, len(text)
    while index < end:
        char = text[index]
        if char == '"':
            close = _string_end(text, index, end)
            depths.extend([depth] * text.count("\n", index, close))
            index = close
            continue
        if char == "#":
            newline = text.find("\n", index)
            index = end if newline < 0 else newline
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        elif char == "\n":
            depths.append(depth)
        index += 1
    return depths
