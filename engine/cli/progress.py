"""Progress bars for the long runs of the command line (diff searches, replays of folders, self-play, impact).

A bar is drawn on stderr only when stderr is a terminal, so that piped output, ``--json`` runs and tests stay
byte-for-byte quiet. ``tqdm`` is imported only when a bar is really drawn: a pipeline pays nothing for it. It is
the optional ``cli`` extra: without it a terminal gets a plain counter (``label 12/40``) rewritten in place.

Two shapes, for the two ways a long run is written::

    for path in progress(paths, label="replay"):           # a loop the command owns
        ...

    with ticker(total=2000, label="witness search") as tick:  # work done inside a library call
        search(..., on_progress=tick)                       # tick() or tick(n) after each step
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sized
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")

# Set to "0" to silence every bar even on a terminal, "1" to force them (a test of the bar itself).
ENV_SWITCH = "RIICHI_PROGRESS"

Tick = Callable[..., None]


def wanted(enabled: bool | None = None) -> bool:
    """Whether to draw a bar: the caller's explicit choice (False for ``--json``), else the environment switch,
    else only when stderr is an interactive terminal."""
    if enabled is not None:
        return enabled
    switch = os.environ.get(ENV_SWITCH)
    if switch in ("0", "1"):
        return switch == "1"
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stderr
        return False


def progress(
    iterable: Iterable[T], total: int | None = None, label: str = "", enabled: bool | None = None
) -> Iterator[T]:
    """Yield the items of ``iterable`` unchanged, with a bar on a terminal (``total`` defaults to ``len``)."""
    if not wanted(enabled):
        yield from iterable
        return
    if total is None and isinstance(iterable, Sized):
        total = len(iterable)
    with ticker(total=total, label=label, enabled=True) as tick:
        for item in iterable:
            yield item
            tick()


@contextmanager
def ticker(total: int | None = None, label: str = "", enabled: bool | None = None) -> Iterator[Tick]:
    """A callable ``tick(n=1)`` that advances a bar by ``n`` steps; a no-op when no bar is wanted. The optional
    keyword ``total=`` re-sets the bar's length (a search that learns its size as it goes)."""
    if not wanted(enabled):
        yield _no_tick
        return
    bar = _bar(total, label)

    def tick(n: int = 1, total: int | None = None) -> None:
        if total is not None and total != bar.total:
            bar.total = total
            bar.refresh()
        if n:
            bar.update(n)

    try:
        yield tick
    finally:
        bar.close()


def _bar(total: int | None, label: str) -> Any:
    """A ``tqdm`` bar, or a ``PlainBar`` when ``tqdm`` (the ``cli`` extra) is not installed."""
    try:
        from tqdm import tqdm  # only on a terminal: keeps the start-up of piped commands short
    except ImportError:
        return PlainBar(total, label)
    return tqdm(total=total, desc=label or None, file=sys.stderr, leave=False, dynamic_ncols=True, unit="")


class PlainBar:
    """The counter drawn without ``tqdm``: ``label n/total`` on one line of stderr, at most five times a second,
    erased when done (as a ``tqdm`` bar with ``leave=False`` is)."""

    def __init__(self, total: int | None, label: str) -> None:
        self.total, self.label, self.n, self.shown = total, label, 0, 0.0

    def update(self, n: int = 1) -> None:
        self.n += n
        now = time.monotonic()
        if now - self.shown >= 0.2 or self.n == self.total:  # the last step is always shown
            self.shown = now
            self.refresh()

    def refresh(self) -> None:
        count = f"{self.n}/{self.total}" if self.total else str(self.n)
        sys.stderr.write(f"\r{self.label} {count}".lstrip() + " ")
        sys.stderr.flush()

    def close(self) -> None:
        sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()


def _no_tick(n: int = 1, total: int | None = None) -> None:
    """The tick of a quiet run: does nothing."""
