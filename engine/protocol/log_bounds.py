"""Bounds on the shape of a game log, checked on its text before a parser builds objects from it.

The byte bounds of ``engine.replay.mjlog`` (16 MB read, 32 MB after gunzip) bound what is read, not what parsing
it costs: 32 MB of ``[{},{},...]`` is eleven million Python dicts, more than a gigabyte. So every log reader first
counts, with ``str.count`` (linear, in C, no objects made), an upper bound of the values the text can hold, and
refuses a text past these bounds as ``limit_exceeded``, naming the file and the bound. A real game log is far
inside them: a hanchan is about a thousand events of a few dozen values, nested three deep.
"""

from __future__ import annotations

import re

from engine.core.errors import LimitExceeded

MAX_EVENTS = 100_000  # events (mjai lines, mjlog tags, tenhou.net/6 lines) in one log file
MAX_VALUES = 1_000_000  # JSON values, or XML attributes, in one log file
MAX_EVENT_VALUES = 4_096  # JSON values in one event (one mjai line)
MAX_DEPTH = 32  # JSON nesting of one event or one tenhou.net/6 object

_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def json_values(text: str) -> int:
    """An upper bound of the values (objects, lists, scalars, keys) a JSON text holds: each value opens a
    container, follows a comma, or is the first of the text."""
    return text.count("{") + text.count("[") + text.count(",") + 1


def json_depth(text: str) -> int:
    """How deep a JSON text's containers nest (brackets inside strings do not count)."""
    depth = deepest = 0
    for match in _JSON_TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def check_json(text: str, source: str, *, values: int = MAX_VALUES, depth: int = MAX_DEPTH) -> None:
    """Refuse a JSON text that could hold more than ``values`` values or nests deeper than ``depth``."""
    count = json_values(text)
    if count > values:
        raise LimitExceeded(f"{source}: holds more than {values:,} JSON values, the bound of a game log")
    openers = text.count("{") + text.count("[")
    if openers > depth and json_depth(text) > depth:  # the scan only where the count leaves it possible
        raise LimitExceeded(f"{source}: nested more than {depth} deep, the bound of a game log")


def check_events(count: int, source: str, what: str = "events") -> None:
    """Refuse a log of more than ``MAX_EVENTS`` events (lines or tags)."""
    if count > MAX_EVENTS:
        raise LimitExceeded(f"{source}: more than {MAX_EVENTS:,} {what}, the bound of a game log")


def check_xml(text: str, source: str) -> None:
    """Refuse an XML log with more than ``MAX_EVENTS`` tags or ``MAX_VALUES`` attributes."""
    check_events(text.count("<"), source, "XML tags")
    if text.count("=") > MAX_VALUES:
        raise LimitExceeded(f"{source}: more than {MAX_VALUES:,} XML attributes, the bound of a game log")


__all__ = [
    "MAX_DEPTH",
    "MAX_EVENTS",
    "MAX_EVENT_VALUES",
    "MAX_VALUES",
    "check_events",
    "check_json",
    "check_xml",
    "json_depth",
    "json_values",
]
