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
