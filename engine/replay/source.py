"""Replaying logs an embedder holds in memory: bytes or text, the format read from the content itself.

A service validating uploaded logs has bytes, not files, and no say in their names: so the format (mjlog XML,
plain or gzip; tenhou.net/6 JSON; mjai JSON lines) is detected from the content, never from a suffix, and every
message names the log by the ``name`` the caller gives (never a temporary path). Each log is replayed under its
own rules (``engine.replay.compare.rulebook_for``) or the rulebook named, loaded through ``engine.scoring.library``.
The reading and the loop are ``engine.replay.reading``'s and ``engine.replay.batch``'s, shared with ``riichi
replay``: here is the API's face of them (what a caller may hand in, and how contents are named).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from engine.core.errors import InvalidRequest
from engine.replay.batch import replay_into, replay_sources
from engine.replay.reading import FORMATS, Source, detect_format, log_text, parse_log
from engine.replay.rounds import ReplayReport, RoundObserver, log_files

if TYPE_CHECKING:
    from engine.replay.through_round import RoundReplay
    from engine.scoring.score import Scorer

# what a log may be handed as: its bytes (gzip too) or text, or the path of a file
LogSource = bytes | bytearray | memoryview | str | os.PathLike[str]


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
    replay_into(report, name, data, rulebook, _scorer(scorer_of), log_id, on_round)
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
    watching = _Watching(on_round) if on_round is not None else None
    return replay_sources(sources, rulebook, _scorer(scorer_of), report, progress, watching, workers=workers)


class _Watching:
    """``on_round`` as the driver's narrator: it sees every round and tells nothing."""

    def __init__(self, on_round: RoundObserver) -> None:
        self.on_round = on_round

    def __call__(self, source: str, played: RoundReplay) -> None:
        self.on_round(source, played)

    def told(self) -> str:
        return ""


def _sources(items: list[LogSource], report: ReplayReport) -> list[Source]:
    """Each log as (its name in messages, its content or its file)."""
    sources: list[Source] = []
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


def _scorer(scorer_of: Callable[[str], Scorer] | None) -> Callable[[str], Scorer]:
    """``scorer_of``, or the bundled rulebooks' (imported here, when a log is replayed)."""
    if scorer_of is not None:
        return scorer_of
    from engine.scoring import library

    return library.scorer


__all__ = ["FORMATS", "LogSource", "detect_format", "log_text", "parse_log", "replay", "replay_log"]
