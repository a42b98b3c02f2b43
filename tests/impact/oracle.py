"""An independent count of what a rule change should do, read straight from the logs' recorded han, fu and points.

Nothing here scores a hand: the log parser gives each win's recorded han (per Tenhou yaku number), fu, value and
the dealer; a ten-line point formula (the standard table every ruleset shares below the limits) gives the value of
a han/fu pair. The impact engine must agree with these counts item by item.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.replay.events import RoundStart, Win
from engine.replay.rounds import log_files, read_events
from tests.spec_files import TENHOU

AKA_DORA = 54  # Tenhou's yaku number of red fives
KIRIAGE = {(4, 30), (3, 60)}  # the han/fu pairs whose base points are 1,920


@dataclass(frozen=True)
class LoggedWin:
    file: str
    dealer: bool
    tsumo: bool
    han: int
    fu: int | None
    points: int  # the value, without honba and sticks
    aka: int  # han from red fives
    yakuman: bool


def corpus() -> list[Path]:
    """The shipped real games: every mjlog game and every tenhou.net/6 JSON game."""
    return log_files([str(TENHOU / "mjlog"), str(TENHOU / "json")])


@cache
def logged_wins(paths: tuple[Path, ...] | None = None) -> tuple[LoggedWin, ...]:
    """Every win of ``paths`` (default: the whole corpus) as the logs recorded it."""
    return tuple(_wins(paths or tuple(corpus())))


def _wins(paths: tuple[Path, ...]) -> Iterator[LoggedWin]:
    for path in paths:
        dealer = 0
        for event in read_events(path):
            if isinstance(event, RoundStart):
                dealer = event.dealer
            elif isinstance(event, Win):
                yield LoggedWin(
                    str(path),
                    event.who == dealer,
                    event.tsumo,
                    sum(han for _, han in event.yaku),
                    event.fu,
                    event.points,
                    sum(han for n, han in event.yaku if n == AKA_DORA),
                    bool(event.yakuman),
                )


def _up(x: float) -> int:
    return -(-int(x) // 100) * 100


def value(han: int, fu: int, dealer: bool, tsumo: bool, kiriage: bool = False) -> int:
    """A 4-player hand's value from han and fu: base = fu x 2^(han+2), limits at 5/6/8/11/13 han or 2,000."""
    base = fu * 2 ** (han + 2)
    for least, limit in ((13, 8000), (11, 6000), (8, 4000), (6, 3000), (5, 2000)):
        if han >= least:
            base = limit
            break
    else:
        if base > 2000 or (kiriage and base == 1920):
            base = 2000
    if not tsumo:
        return _up(base * (6 if dealer else 4))
    if dealer:
        return 3 * _up(2 * base)
    return 2 * _up(base) + _up(2 * base)


def red_five_loss(win: LoggedWin) -> int | None:
    """What a win loses when red fives are plain fives (no kiriage): None when the log's missing fu leave it open."""
    if win.yakuman or not win.aka:
        return 0
    han = win.han - win.aka
    if win.fu is None and han < 5:
        return None
    return value(han, win.fu or 30, win.dealer, win.tsumo) - win.points


def kiriage_gain(win: LoggedWin) -> int:
    """What kiriage adds to a recorded 4 han 30 fu or 3 han 60 fu win: the mangan minus the recorded value."""
    return value(5, 30, win.dealer, win.tsumo) - win.points
