"""Positions and words: between the LSP's (0-based line, UTF-16 character) and the rulebook spans' (1-based line
and column, counted in characters), and the word under a cursor."""

from __future__ import annotations

import os
import re
from urllib.parse import quote, unquote, urlparse

from engine.lsp.shapes import Position, Range
from ruledsl.ast import Span
from ruledsl.package_files import bundled_dir

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def lines_of(text: str) -> list[str]:
    """Lines as the parser counts them (``\\n`` only, after ``\\r\\n`` is made ``\\n``)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def to_utf16(line: str, column: int) -> int:
    """A 0-based character index of ``line`` as the LSP counts it (UTF-16 code units)."""
    head = line[: max(0, column)]
    return len(head.encode("utf-16-le", "surrogatepass")) // 2


def from_utf16(line: str, character: int) -> int:
    """The 0-based character index of an LSP position on ``line``."""
    units = 0
    for index, char in enumerate(line):
        if units >= character:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(line)


def position(lines: list[str], line: int, column: int) -> Position:
    """The LSP position of a 1-based (line, column)."""
    text = lines[line - 1] if 1 <= line <= len(lines) else ""
    return {"line": max(0, line - 1), "character": to_utf16(text, column - 1)}


def span_range(span: Span, lines: list[str]) -> Range:
    """The LSP range of a span; an empty span covers the word it starts (or one character)."""
    start = position(lines, span.line, span.column)
    end_line, end_column = span.end_line, span.end_column
    if (end_line, end_column) <= (span.line, span.column):
        text = lines[span.line - 1] if 1 <= span.line <= len(lines) else ""
        match = WORD.match(text, max(0, span.column - 1))
        end_line, end_column = span.line, (match.end() + 1 if match else span.column + 1)
    return {"start": start, "end": position(lines, end_line, end_column)}


def word_at(lines: list[str], line: int, character: int) -> tuple[str, int, int] | None:
    """The name under an LSP position: (word, start, end) as 0-based character indexes of its line."""
    if not 0 <= line < len(lines):
        return None
    text = lines[line]
    at = from_utf16(text, character)
    for match in WORD.finditer(text):
        if match.start() <= at <= match.end():
            return match.group(), match.start(), match.end()
    return None


def uri_to_path(uri: str) -> str:
    """A file path for a ``file:`` URI; another scheme (an unsaved buffer) gets a name in the working folder, so
    that its ``extends`` still finds bundled rulebooks."""
    parsed = urlparse(uri)
    if parsed.scheme == "file":
        path = unquote(parsed.path)
        if os.name == "nt" and re.match(r"^/[A-Za-z]:", path):  # pragma: no cover - Windows only
            path = path[1:]
        return path
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.basename(parsed.path) or "untitled")
    return name if name.endswith(".rulebook") else f"{name}.rulebook"


def path_to_uri(path: str) -> str:
    return "file://" + quote(os.path.abspath(path).replace(os.sep, "/"))


def file_uri(file: str, document_path: str, document_uri: str) -> str:
    """The URI of a span's file: the open document itself, a bundled rulebook (shown as ``rulebooks/NAME``), or a
    file next to the document."""
    if file == document_path:
        return document_uri
    if file.startswith("rulebooks/") and not os.path.exists(file):
        return path_to_uri(os.path.join(bundled_dir(), os.path.basename(file)))
    return path_to_uri(file)
