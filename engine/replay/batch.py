"""Replaying many logs: one task per log and one driver over them, for ``riichi replay`` and ``engine.api.replay``.

A log is a file (named by its path) or content held in memory (bytes, gzip too, or text, named as the caller
says), read alike (``engine.replay.reading``: the format told from the content, never from a name). Every log is
replayed under the rulebook named or its own rules (``engine.replay.compare.rulebook_for``), into a part of the
report of its own; the driver merges the parts in the order of the logs, in this process or in workers
(``engine.core.pool``), so the report is the same for any number of workers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.errors import EngineError
from engine.core.pool import in_order
from engine.replay.compare import rulebook_for
from engine.replay.reading import Held, Source, read_source
from engine.replay.rounds import (
    FileReplay,
    Narrator,
    ReplayReport,
    RoundObserver,
    _rules_named,
    game_start,
    replay_events,
)

if TYPE_CHECKING:
    from engine.scoring.score import Scorer


def replay_into(
    part: ReplayReport, name: str, content: Held | Path, rulebook: str | None, scorer_of: Callable[[str], Scorer],
    log_id: str | None = None, on_round: RoundObserver | None = None,
) -> None:
    """Replay one log into ``part``: a log that cannot be read, or whose rules cannot be loaded, is an entry of
    its ``errors``; an engine failure raises ``InternalError``, naming the round. ``log_id``: the Tenhou log id
    when known (its date picks the rules Tenhou played then); an mjai log, written by no site, has none."""
    try:
        events, places, kind = read_source(name, content)
        log_rules = rulebook or rulebook_for(game_start(events), log_id=None if kind == "mjai" else log_id)
        rules = _rules_named(log_rules, scorer_of)
    except EngineError as exc:
        part.errors.append({"file": name, "code": exc.code, "message": exc.message})
        return
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:  # the log's, before any round is played
        message = f"cannot read the log: {exc.__class__.__name__}: {exc}"
        part.errors.append({"file": name, "code": "invalid_request", "message": message})
        return
    try:  # a ValueError here is the engine's, never the log's: it goes on as an internal error
        replay_events(events, rules, name, part, places, on_round)
    except EngineError as exc:
        part.errors.append({"file": name, "code": exc.code, "message": exc.message})


def replay_source(
    source: Source, rulebook: str | None, scorer_of: Callable[[str], Scorer], narrator: Narrator | None = None,
) -> FileReplay:
    """One log's share of a replay (in this process or a worker's): its part of the report and, when narrated, its
    story. A file's name is its log id; a log held in memory has none."""
    name, content = source
    part = ReplayReport()
    replay_into(part, name, content, rulebook, scorer_of, Path(name).name if isinstance(content, Path) else None, narrator)
    return FileReplay(name, part, narrator.told() if narrator is not None else "")


def replay_sources(
    sources: Sequence[Source],
    rulebook: str | None,
    scorer_of: Callable[[str], Scorer],
    report: ReplayReport,
    progress: Callable[[int, int, str], None] | None = None,
    narrator: Narrator | None = None,
    on_story: Callable[[str], None] | None = None,
    workers: int | None = 1,
) -> ReplayReport:
    """Replay every log into ``report``, each log's part merged in the order of ``sources``; ``workers`` above 1
    (None: all cores) replays them in that many processes (never more than there are logs), so ``scorer_of`` and
    ``narrator`` must then pickle. ``progress`` is called as each log is done (logs done, logs in all, its name);
    ``on_story`` receives each log's story, in the order of the logs."""
    task = partial(replay_source, rulebook=rulebook, scorer_of=scorer_of, narrator=narrator)
    for number, done in enumerate(in_order(task, list(sources), workers), 1):
        report.merge(done.part)
        if on_story is not None and done.story:
            on_story(done.story)
        if progress is not None:
            progress(number, len(sources), done.path)
    return report


__all__ = ["replay_into", "replay_source", "replay_sources"]
