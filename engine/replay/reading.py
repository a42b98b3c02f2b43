"""Reading one log, a file or content held in memory, with its format told from the content, never from a name.

A file is only its bytes: a log renamed, gzipped or given an unusual suffix reads as it would uploaded. Whatever
reads a log of a format not known beforehand goes through here (``engine.replay.rounds.read_events_at``, and
``engine.replay.batch`` for ``riichi replay`` and ``engine.api.replay``), so a file reads the same wherever it is
read.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.errors import InvalidRequest, LimitExceeded
from engine.protocol.mjai import is_mjai_line
from engine.replay.mjai_log import parse_mjai_text_at
from engine.replay.mjlog import MAX_LOG_BYTES, decode_log, parse_guarded, parse_mjlog_at, read_log_bytes
from engine.replay.tenhou6 import parse_tenhou6_at

if TYPE_CHECKING:
    from engine.replay.events import Event
    from engine.replay.positions import Places

FORMATS = ("mjlog", "tenhou6", "mjai")
# each format's name in messages, as a file's reader has always worded it
_WHAT = {"mjlog": "mjlog", "tenhou6": "tenhou.net/6 log", "mjai": "mjai log"}
_PARSERS = {"mjlog": parse_mjlog_at, "tenhou6": parse_tenhou6_at, "mjai": parse_mjai_text_at}

Held = bytes | bytearray | memoryview | str
# a log to replay: its name in messages, and its content or the file holding it (read where it is replayed, so
# that only the name crosses to a worker process)
Source = tuple[str, Held | Path]


def detect_format(text: str, name: str = "<log>") -> str:
    """``mjlog`` (XML), ``mjai`` (a JSON event per line) or ``tenhou6`` (one JSON object, or one per line),
    from the content; ``invalid_request`` for anything else."""
    body = text.lstrip("\ufeff \t\r\n")
    if body.startswith("<"):
        return "mjlog"
    if body.startswith("{"):
        end = body.find("\n")  # the first line alone, without copying the rest of the log
        return "mjai" if is_mjai_line(body if end < 0 else body[:end]) else "tenhou6"
    if not body:  # an empty download or a file cut before its first byte: said so, not taken for another format
        raise InvalidRequest(f"{name}: not a game log: the log is empty")
    raise InvalidRequest(f"{name}: not a game log: neither mjlog XML, tenhou.net/6 JSON nor mjai JSON lines")


def log_text(data: Held, name: str) -> str:
    """The text of a log given as bytes (gunzipped when gzip, UTF-8 required) or text, within the bounds of a log
    file (``engine.replay.mjlog``)."""
    if isinstance(data, str):
        if len(data) > MAX_LOG_BYTES:
            raise LimitExceeded(f"{name}: larger than {MAX_LOG_BYTES:,} bytes, the bound of a game log")
        return data
    raw = bytes(data[: MAX_LOG_BYTES + 1])
    if len(raw) > MAX_LOG_BYTES:
        raise LimitExceeded(f"{name}: larger than {MAX_LOG_BYTES:,} bytes, the bound of a game log")
    return decode_log(raw, name, "log")


def parse_log(data: Held, name: str = "<log>") -> tuple[list[Event], Places, str]:
    """A log's events, where each is written, and its format; bad input is an ``EngineError`` naming ``name``."""
    text = log_text(data, name)
    kind = detect_format(text, name)
    events, places = parse_guarded(_PARSERS[kind], text, name, _WHAT[kind])
    return events, places, kind


def read_source(name: str, content: Held | Path) -> tuple[list[Event], Places, str]:
    """``parse_log`` of a log's content, or of a file's bytes (a regular file within the bound of a log)."""
    return parse_log(read_log_bytes(content) if isinstance(content, Path) else content, name)


__all__ = ["FORMATS", "Held", "Source", "detect_format", "log_text", "parse_log", "read_source"]
