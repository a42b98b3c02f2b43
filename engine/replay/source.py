"""Replaying logs an embedder holds in memory: bytes or text, the format read from the content itself.

A service validating uploaded logs has bytes, not files, and no say in their names: so the format (mjlog XML,
plain or gzip; tenhou.net/6 JSON; mjai JSON lines) is detected from the content, never from a suffix, and every
message names the log by the ``name`` the caller gives (never a temporary path). Each log is replayed under its
own rules (``engine.replay.compare.rulebook_for``) or the rulebook named, loaded through ``engine.scoring.library``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.errors import EngineError, InvalidRequest, LimitExceeded
from engine.core.pool import in_order
from engine.protocol.mjai import is_mjai_line
from engine.replay.compare import rulebook_for
from engine.replay.mjai_log import parse_mjai_text_at
from engine.replay.mjlog import MAX_LOG_BYTES, decode_log, parse_guarded, parse_mjlog_at, read_log_bytes
from engine.replay.rounds import (
    ReplayReport,
    RoundObserver,
    _rules_named,
    log_files,
    replay_events,
    split_rounds,
)
from engine.replay.tenhou6 import parse_tenhou6_at

if TYPE_CHECKING:
    from engine.replay.events import Event, GameStart
    from engine.replay.positions import Places
    from engine.round import RoundRules
    from engine.scoring.score import Scorer

FORMATS = ("mjlog", "tenhou6", "mjai")
# what a log may be handed as: its bytes (gzip too) or text, or the path of a file
LogSource = bytes | bytearray | memoryview | str | os.PathLike[str]


def detect_format(text: str, name: str = "<log>") -> str:
    """``mjlog`` (XML), ``mjai`` (a JSON event per line) or ``tenhou6`` (one JSON object, or one per line),
    from the content; ``invalid_request`` for anything else."""
    body = text.lstrip("\ufeff \t\r\n")
    if body.startswith("<"):
        return "mjlog"
    if body.startswith("{"):
        return "mjai" if is_mjai_line(body.split("\n", 1)[0]) else "tenhou6"
    raise InvalidRequest(f"{name}: not a game log: neither mjlog XML, tenhou.net/6 JSON nor mjai JSON lines")


def log_text(data: bytes | bytearray | memoryview | str, name: str) -> str:
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


def parse_log(data: bytes | bytearray | memoryview | str, name: str = "<log>") -> tuple[list[Event], Places, str]:
    """A log's events, where each is written, and its format; bad input is an ``EngineError`` naming ``name``."""
    text = log_text(data, name)
    kind = detect_format(text, name)
    parse = {"mjlog": parse_mjlog_at, "tenhou6": parse_tenhou6_at, "mjai": parse_mjai_text_at}[kind]
    events, places = parse_guarded(parse, text, name, f"{kind} log")
    return events, places, kind


def replay_log(
    data: bytes | bytearray | memoryview | str,
    *,
    rulebook: str | None = None,
    name: str = "<log>",
    log_id: str | None = None,
    scorer_of: Callable[[str], Scorer] | None = None,
    on_round: RoundObserver | None = None,
    report: ReplayReport | None = None,
) -> ReplayReport:
    """Replay one log held in memory (see ``replay``); its mismatches and errors name it ``name``. ``log_id``:
    the Tenhou log id when known (its date picks the rules Tenhou played then; the file name serves for files)."""
    report = report if report is not None else ReplayReport()
    try:
        events, places, kind = parse_log(data, name)
        start, _, _ = split_rounds(events)
        replay_events(events, _rules(rulebook, start, None if kind == "mjai" else log_id, scorer_of), name, report, places, on_round)
    except EngineError as exc:
        report.errors.append({"file": name, "code": exc.code, "message": exc.message})
    return report


def replay(
    logs: LogSource | Iterable[LogSource],
    rulebook: str | None = None,
    scorer_of: Callable[[str], Scorer] | None = None,
    progress: Callable[[int, int, str], None] | None = None,
    on_round: RoundObserver | None = None,
    workers: int = 1,
) -> ReplayReport:
    """Replay logs given as bytes, text or paths (one, or several): ``bytes`` and text that starts like a log
    (``<`` or ``{``) are contents, named ``<log 1>``, ``<log 2>`` ...; any other string and ``Path`` objects are
    files or folders (searched for logs). ``rulebook`` None: each log's own rules; ``scorer_of`` (a bundled name
    to a scorer) defaults to ``engine.scoring.library.scorer``. Every log is replayed: one that cannot be read is in
    ``errors``.

    ``workers`` above 1 replays the logs in that many processes (``engine.core.pool``, as ``riichi replay
    --workers`` does; never more than there are logs), each log's part of the report merged in the order of the
    logs, so the report is the one a single process gives. The logs, ``scorer_of`` and the parts then cross
    process boundaries: ``scorer_of`` must pickle (a module-level function), and ``on_round``, which sees the
    rounds themselves as they are played, is for one process only. ``progress`` is called as each log is done
    (logs done, logs in all, the log's name)."""
    if type(workers) is not int or workers < 1:
        raise InvalidRequest(f"workers must be a whole number of processes, 1 or more; got {workers!r}")
    if workers > 1 and on_round is not None:
        raise InvalidRequest("on_round sees each round as it is played in this process: replay with workers=1 to use it")
    items = [logs] if isinstance(logs, bytes | bytearray | memoryview | str | os.PathLike) else list(logs)
    report = ReplayReport()
    sources = _sources(items, report)
    task = partial(_replay_source, rulebook=rulebook, scorer_of=scorer_of, on_round=on_round)
    for number, part in enumerate(in_order(task, sources, workers), 1):
        report.merge(part)
        if progress is not None:
            progress(number, len(sources), sources[number - 1][0])
    return report


def _replay_source(
    source: tuple[str, bytes | bytearray | memoryview | str | Path],
    rulebook: str | None,
    scorer_of: Callable[[str], Scorer] | None,
    on_round: RoundObserver | None,
) -> ReplayReport:
    """One log's part of ``replay``'s report (in this process or a worker's): a file is read here, where it is
    replayed, so that only its name crosses to a worker."""
    name, content = source
    part = ReplayReport()
    if isinstance(content, Path):
        try:
            content = read_log_bytes(content)
        except EngineError as exc:
            part.errors.append({"file": name, "code": exc.code, "message": exc.message})
            return part
        return replay_log(content, rulebook=rulebook, name=name, log_id=Path(name).name, scorer_of=scorer_of, on_round=on_round, report=part)
    return replay_log(content, rulebook=rulebook, name=name, scorer_of=scorer_of, on_round=on_round, report=part)


def _sources(items: list[LogSource], report: ReplayReport) -> list[tuple[str, bytes | bytearray | memoryview | str | Path]]:
    """Each log as (its name in messages, its content or its file)."""
    sources: list[tuple[str, bytes | bytearray | memoryview | str | Path]] = []
    held = 0
    for item in items:
        if isinstance(item, bytes | bytearray | memoryview) or (isinstance(item, str) and _looks_like_log(item)):
            held += 1
            sources.append((f"<log {held}>", item))
        else:
            sources.extend((str(path), path) for path in log_files([os.fspath(item)], report))
    return sources


def _looks_like_log(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n")[:1] in ("<", "{")


def _rules(rulebook: str | None, start: GameStart, log_id: str | None, scorer_of: Callable[[str], Scorer] | None) -> RoundRules:
    from engine.scoring import library

    return _rules_named(rulebook or rulebook_for(start, log_id=log_id), scorer_of or library.scorer)


__all__ = ["FORMATS", "LogSource", "detect_format", "log_text", "parse_log", "replay", "replay_log"]
