"""Independent counts of the rounds whose course a flow rule changes, read straight from the logs' events."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from engine.replay.events import AbortiveDraw, RoundStart, Win
from engine.replay.rounds import read_events


def round_shapes(paths: tuple[Path, ...]) -> Counter[str]:
    """How many rounds end with two or more wins (``multiple_ron``), and with each kind of abortive draw."""
    out: Counter[str] = Counter()
    for path in paths:
        wins = 0
        for event in read_events(path):
            if isinstance(event, RoundStart):
                out["multiple_ron"] += int(wins >= 2)
                wins = 0
            elif isinstance(event, Win):
                wins += 1
            elif isinstance(event, AbortiveDraw):
                out[event.kind] += 1
        out["multiple_ron"] += int(wins >= 2)
    return out
