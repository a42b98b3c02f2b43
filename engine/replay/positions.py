"""Where in its file a log writes an event, so that a replay mismatch names a place a user can open.

An event's index among the parsed events (a mismatch's ``event``) counts events the reader made, not lines: an mjai
log has ``end_kyoku`` and ``start_game`` lines that make no event, an mjlog is one line of tags. Each reader
therefore gives, beside the events, the position each came from, in the file's own terms:

- mjai (JSON lines): ``line``, the 1-based line of the event's JSON object.
- mjlog (XML): ``line`` and ``column`` (1-based) of the tag's ``<``, and ``offset``, its 0-based byte offset in
  the XML text (after gunzip for a compressed file); an mjlog is usually one line, so the column is what moves.
- tenhou.net/6 (JSON): ``path``, the entry of the ``log`` arrays the event was read from, e.g. ``log[2][6][7]``
  (round 2's, 0-based, seat 0's discards, the eighth); a file of one object per line adds that object's ``line``.
  Its kan indicators have no place of their own: they point at the round's list of indicators, ``log[r][2][k]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ruledsl.record import record


@record
class Position:
    """An event's place in its log file; the fields the format has are set, the others are None."""

    line: int | None = None
    column: int | None = None
    offset: int | None = None
    path: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "column": self.column, "offset": self.offset, "path": self.path}

    def text(self) -> str:
        """``line 57``, ``line 1, column 3457``, ``log[2][6][7]``, ``line 3, log[0][6][7]``: how a mismatch names it."""
        parts = []
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.column is not None:
            parts.append(f"column {self.column}")
        if self.path is not None:
            parts.append(self.path)
        return ", ".join(parts)


NOWHERE: dict[str, Any] = Position().to_json()


class Places:
    """Where each event of one parsed log is written, kept as the reader found it (a line number, a byte offset, a
    path) and made a ``Position`` only when asked: a log has a thousand events and a mismatch names a few.

    ``Places.of_lines``: mjai, the line per event. ``Places.of_offsets``: mjlog, where each event's tag starts in
    ``text`` (an index into the string), from which line, column and byte offset follow. ``Places.of_paths``:
    tenhou.net/6, the path and, for a file of one object per line, that line."""

    __slots__ = ("_lines", "_offsets", "_paths", "_text")

    def __init__(
        self, lines: Sequence[int | None] = (), offsets: Sequence[int | None] = (), text: str = "",
        paths: Sequence[tuple[int | None, str] | None] = (),
    ) -> None:
        self._lines = lines
        self._offsets = offsets
        self._text = text
        self._paths = paths

    @classmethod
    def of_lines(cls, lines: Sequence[int | None]) -> Places:
        return cls(lines=lines)

    @classmethod
    def of_offsets(cls, text: str, offsets: Sequence[int | None]) -> Places:
        return cls(offsets=offsets, text=text)

    @classmethod
    def of_paths(cls, paths: Sequence[tuple[int | None, str] | None]) -> Places:
        return cls(paths=paths)

    def __len__(self) -> int:
        return max(len(self._lines), len(self._offsets), len(self._paths))

    def at(self, index: int) -> Position | None:
        """The place of event ``index``; None past the end or for an event the reader made up (a game start)."""
        if not 0 <= index < len(self):
            return None
        if self._lines:
            line = self._lines[index]
            return Position(line=line) if line is not None else None
        if self._offsets:
            offset = self._offsets[index]
            return _in_text(self._text, offset) if offset is not None else None
        path = self._paths[index]
        return Position(line=path[0], path=path[1]) if path is not None else None


def _in_text(text: str, index: int) -> Position:
    """Line and column (1-based, in characters) of ``text[index]``, and its byte offset in the UTF-8 file."""
    start = text.rfind("\n", 0, index) + 1
    offset = len(text[:index].encode("utf-8", errors="replace"))
    return Position(line=text.count("\n", 0, index) + 1, column=index - start + 1, offset=offset)
