"""Where a log reveals each kan's new dora indicator, against where the rulebook's round reveals it.

The place of a ``dora`` event is a rule (``settings calls kan_dora``), not a detail of the writer: a ron on the
kan-maker's discard counts an indicator revealed before that discard, a win on the replacement tile one revealed
before the replacement draw. A place is the number of moves (draws, discards, calls, kans, Norths set aside) made
before the indicator, counted the same way in the log and in the round's own events; riichi declarations and
other bookkeeping may sit on either side of an indicator without changing when it was revealed.

The log is complete when this is asked, the round only as far as it was played: an indicator the round has not
revealed yet may still come before its next move, so only what both sides have settled is compared.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.tiles import format_tiles
from engine.replay.events import Call, Event, NewDoraIndicator
from engine.round.events import Ankan, Dahai, Dora, Kakan, Meld, Nukidora, RoundEvent, Tsumo
from ruledsl.record import record

ROUND_MOVES = (Tsumo, Dahai, Meld, Kakan, Ankan, Nukidora)  # the round's records of a move
RULE_WORDS = {
    "after_discard": "a closed kan's indicator right after the kan, an open or added kan's after the replacement "
    "draw, before the kan-maker's discard, and never for a win on the replacement tile",
    "immediately": "every kan's indicator right after the kan, before the replacement draw",
}


@record
class Misplaced:
    """The first indicator the log and the round place differently: the log event to name, and both places."""

    index: int
    expected: str
    got: str


def misplaced(body: Sequence[Event], upto: int, records: Sequence[RoundEvent], finished: bool) -> Misplaced | None:
    """The first indicator placed differently by the log (``body[:upto]``, the events the round was given) and the
    round (``records``, its own ``Round.log``); None when they agree as far as both go. ``finished``: the round was given the
    whole log and ended, so nothing more can be revealed on either side. A log that lists its indicators with no
    place (tenhou.net/6) is held to the number it lists, once the round is over."""
    moves: list[int] = []  # body index of each log move, in order
    shown: list[tuple[int, int, int]] = []  # per log indicator: moves before it, body index, tile
    ordered = True
    for index in range(upto):
        event = body[index]
        kind = type(event)
        if kind is Tsumo or kind is Dahai or kind is Call:
            moves.append(index)
        elif isinstance(event, NewDoraIndicator):
            shown.append((len(moves), index, event.tile))
            ordered = ordered and event.ordered
    revealed: list[tuple[int, str]] = []  # per round indicator: moves before it, tile
    played = 0
    for e in records:
        if isinstance(e, ROUND_MOVES):
            played += 1
        elif isinstance(e, Dora):
            revealed.append((played, _tile(e.marker)))
    if not ordered:
        return _count(body, moves, shown, revealed, upto) if finished else None
    for j in range(max(len(shown), len(revealed))):
        log = shown[j] if j < len(shown) else None
        mine = revealed[j] if j < len(revealed) else None
        if log is not None and mine is not None:
            if log[0] != mine[0]:
                return Misplaced(log[1], _place(body, moves, log[0], _tile(log[2])), _place(body, moves, mine[0], mine[1]))
        elif log is not None:  # shown by the log, not (yet) by the round
            if log[0] < played or finished:
                return Misplaced(log[1], _place(body, moves, log[0], _tile(log[2])), "no indicator there")
            return None
        elif mine is not None:  # revealed by the round, not shown by the log
            return _missing(body, moves, mine, upto) if mine[0] < len(moves) or finished else None
    return None


def _missing(body: Sequence[Event], moves: list[int], mine: tuple[int, str], upto: int) -> Misplaced:
    """An indicator the round reveals and the log does not: named at the log's move the round reveals it before."""
    at = moves[mine[0]] if mine[0] < len(moves) else max(upto - 1, 0)
    return Misplaced(at, "no indicator", _place(body, moves, mine[0], mine[1]))


def _count(
    body: Sequence[Event], moves: list[int], shown: list[tuple[int, int, int]], revealed: list[tuple[int, str]], upto: int
) -> Misplaced | None:
    """A log without places: as many indicators as the round revealed, or the first one too many on either side."""
    j = min(len(shown), len(revealed))
    if len(shown) > j:
        return Misplaced(shown[j][1], f"{_tile(shown[j][2])} (listed with no place)", "no indicator")
    if len(revealed) > j:
        return _missing(body, moves, revealed[j], upto)
    return None


def _tile(code: int) -> str:
    return format_tiles([code])


def _place(body: Sequence[Event], moves: list[int], before: int, tile: str) -> str:
    """``4s after seat 1 draws 9p``: an indicator and the move it follows (the log's: both sides made the same)."""
    if before == 0:
        return f"{tile} before the first move"
    if before > len(moves):
        return f"{tile} after move {before}"
    return f"{tile} after {describe(body[moves[before - 1]])}"


def describe(event: Event) -> str:
    """A move in words, as a mismatch names it."""
    if isinstance(event, Tsumo):
        return f"seat {event.actor} draws {_tile(event.pai)}"
    if isinstance(event, Dahai):
        return f"seat {event.actor} discards {_tile(event.pai)}"
    if isinstance(event, Call):
        if event.kind == "kita":
            return f"seat {event.seat} sets aside {_tile(event.called_tile)}"
        return f"seat {event.seat} {event.kind} {_tile(event.called_tile)}"
    return type(event).__name__
