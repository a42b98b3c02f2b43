"""A logged round seen through another rulebook's tile set: A's tiles that B lacks played as B's nearest tile.

A log from a site with red fives cannot be dealt under a rulebook without them: the wall would hold a tile B's set
does not have, and every round would "diverge" at the deal. The only tiles one four-player set has and another
lacks are red fives, and a red five is physically a five: under B it plays as a plain five (it loses its dora
value and nothing else). The same mapping turns a witness hand into B's tiles (``engine.diff.witness.plain_fives``), so
a win re-scored and a round re-played under B see the same tiles. The report says so once, in words
(``mapping_note``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.core import tiles as T
from engine.diff.witness import plain_fives
from engine.replay.events import (
    AbortiveDraw,
    Call,
    Dahai,
    Event,
    ExhaustiveDraw,
    NewDoraIndicator,
    RoundStart,
    Tsumo,
    Win,
)
from ruledsl.record import replace


def lacks(reds: Iterable[int], held: Iterable[int]) -> tuple[int, ...]:
    """The red fives of ``reds`` that a tile set holding only ``held`` lacks, in code order."""
    have = set(held)
    return tuple(sorted(c for c in set(reds) if c not in have))


def mapping_note(a_reds: Iterable[int], b_reds: Iterable[int]) -> str | None:
    """The report's sentence on the mapping, or None when B holds every tile of A."""
    missing = lacks(a_reds, b_reds)
    if not missing:
        return None
    names = ", ".join(T.format_tiles([c]) for c in missing)
    return (
        f"red fives play as plain fives under B: B's tile set has no {names}, so a red five of the log counts under B "
        "as a plain five (no dora from it) and every other tile plays as logged"
    )


def fit_round(start: RoundStart, body: Sequence[Event], red_fives: Iterable[int]) -> tuple[RoundStart, Sequence[Event]]:
    """The round's deal and moves with every red five outside ``red_fives`` as a plain five; the same objects when
    no tile changes (nearly always, and every time under a rulebook with the log's red fives)."""
    keep = frozenset(red_fives)
    if not _has_foreign(start, body, keep):
        return start, body
    hands = tuple(tuple(sorted(plain_fives(h, keep))) for h in start.hands)
    start = replace(start, hands=hands, dora_indicator=_one(start.dora_indicator, keep))
    return start, [_event(e, keep) for e in body]


def _one(code: int, keep: frozenset[int]) -> int:
    return T.kind_of(code) if T.is_red(code) and code not in keep else code


def _foreign(codes: Iterable[int], keep: frozenset[int]) -> bool:
    return any(c >= T.RED_BASE and c not in keep for c in codes)


def _has_foreign(start: RoundStart, body: Sequence[Event], keep: frozenset[int]) -> bool:
    """Whether any tile dealt or drawn is a red five outside ``keep`` (every other tile of a round was dealt or drawn first)."""
    if any(_foreign(h, keep) for h in start.hands) or _foreign((start.dora_indicator,), keep):
        return True
    return any(
        _foreign((e.pai,), keep) if isinstance(e, Tsumo) else _foreign((e.tile,), keep)
        for e in body
        if isinstance(e, Tsumo | NewDoraIndicator)
    )


def _call(call: Call, keep: frozenset[int]) -> Call:
    return replace(call, tiles=tuple(sorted(plain_fives(call.tiles, keep))), called_tile=_one(call.called_tile, keep))


def _event(event: Event, keep: frozenset[int]) -> Event:
    """One event with its tiles mapped (seats, counters and points untouched)."""
    if isinstance(event, Tsumo | Dahai):
        return replace(event, pai=_one(event.pai, keep))
    if isinstance(event, NewDoraIndicator):
        return replace(event, tile=_one(event.tile, keep))
    if isinstance(event, Call):
        return _call(event, keep)
    if isinstance(event, Win):
        return replace(
            event,
            hand=plain_fives(event.hand, keep),
            melds=tuple(_call(m, keep) for m in event.melds),
            win_tile=_one(event.win_tile, keep),
            dora_indicators=plain_fives(event.dora_indicators, keep),
            ura_indicators=plain_fives(event.ura_indicators, keep),
        )
    if isinstance(event, ExhaustiveDraw | AbortiveDraw):
        return replace(event, hands=tuple((seat, plain_fives(h, keep)) for seat, h in event.hands))
    return event
