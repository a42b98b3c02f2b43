"""A finished hand's settlement as typed records: the wins, the point changes and the next hand's counters.

The round writes a ``Settlement`` when the hand ends (``engine.round.endings.finish``); the game reads its
counters from it (``engine.game.progression``) without going through JSON. The contract's settlement object
(contract.md, "Round and game") is written from it by ``as_json``, once, when ``Round.settlement`` is first read.
"""

from __future__ import annotations

from typing import Any

from engine.core import tiles as T
from engine.scoring.result import ScoreResult
from ruledsl.record import filling, record


@record
class NextHand:
    """The counters the next hand starts with: honba, riichi sticks on the table, its dealer, and whether the
    dealer kept the seat (renchan)."""

    honba_next: int
    sticks_next: int
    dealer_next: int
    renchan: bool


@record
class Win:
    """One winner's part of a settlement: who won off whom, on which tile, the scored win and its point changes
    (riichi sticks excluded: the settlement's ``deltas`` add them)."""

    seat: int
    source: int
    tile: int
    result: ScoreResult
    deltas: tuple[int, ...]

    def as_json(self) -> dict[str, Any]:
        """The contract's object of this win: the score response with ``seat``, ``from``, the tile and deltas."""
        return {**self.result.as_json(), "seat": self.seat, "from": self.source, "win_tile": T.format_tiles([self.tile]), "deltas": list(self.deltas)}


@record
class Settlement:
    """How a hand ended (``kind``: win, exhaustive or abortive; the abortive item's id), its wins, each seat's
    points net of the riichi deposits paid this hand, the next hand's counters, the scores after it, the clauses
    that decided it, and at an exhaustive draw the tenpai flags and the seats that made nagashi."""

    kind: str
    abortive: str | None
    wins: tuple[Win, ...]
    deltas: tuple[int, ...]
    next: NextHand
    scores: tuple[int, ...]
    clauses: tuple[str, ...]
    tenpai: tuple[bool, ...] | None = None
    nagashi: tuple[int, ...] | None = None

    def as_json(self) -> dict[str, Any]:
        """The contract's settlement object (its keys in the order the contract lists them)."""
        n = self.next
        out: dict[str, Any] = {
            "kind": self.kind,
            "abortive": self.abortive,
            "wins": [w.as_json() for w in self.wins],
            "deltas": list(self.deltas),
            "honba_next": n.honba_next,
            "sticks_next": n.sticks_next,
            "dealer_next": n.dealer_next,
            "renchan": n.renchan,
            "scores": list(self.scores),
            "clauses": list(self.clauses),
        }
        if self.tenpai is not None:
            out["tenpai"] = list(self.tenpai)
        if self.nagashi is not None:
            out["nagashi"] = list(self.nagashi)
        return out


# the twins ``settlement`` and ``next_hand`` fill (``ruledsl.record.filling``)
_SETTLEMENT_FILLING = filling(Settlement)
_NEXT_HAND_FILLING = filling(NextHand)


def settlement(
    kind: str, abortive: str | None, wins: tuple[Win, ...], deltas: tuple[int, ...], next: NextHand, scores: tuple[int, ...],  # noqa: A002
    clauses: tuple[str, ...], tenpai: tuple[bool, ...] | None, nagashi: tuple[int, ...] | None,
) -> Settlement:
    """``Settlement(kind, abortive, ...)``, one per hand ended, its fields set by plain assignments on a
    twin of ``Settlement`` that then becomes one (as ``engine.round.events.start_kyoku``).
    ``tests/round/test_filled_records.py`` holds the two equal."""
    if _SETTLEMENT_FILLING is None:
        return Settlement(kind, abortive, wins, deltas, next, scores, clauses, tenpai, nagashi)
    made: Any = _SETTLEMENT_FILLING()
    made.kind, made.abortive, made.wins, made.deltas, made.next = kind, abortive, wins, deltas, next
    made.scores, made.clauses, made.tenpai, made.nagashi = scores, clauses, tenpai, nagashi
    made.__class__ = Settlement
    return made


def next_hand(honba_next: int, sticks_next: int, dealer_next: int, renchan: bool) -> NextHand:
    """``NextHand(honba_next, sticks_next, dealer_next, renchan)``, one per hand ended, filled as ``settlement``
    is. ``tests/round/test_filled_records.py`` holds the two equal."""
    if _NEXT_HAND_FILLING is None:
        return NextHand(honba_next, sticks_next, dealer_next, renchan)
    made: Any = _NEXT_HAND_FILLING()
    made.honba_next, made.sticks_next, made.dealer_next, made.renchan = honba_next, sticks_next, dealer_next, renchan
    made.__class__ = NextHand
    return made
