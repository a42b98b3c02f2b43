"""A finished hand's settlement as typed records: the wins, the point changes and the next hand's counters.

The round writes a ``Settlement`` when the hand ends (``engine.round.endings.finish``); the game reads its
counters from it (``engine.game.progression``) without going through JSON. The contract's settlement object
(contract.md, "Round and game") is written from it by ``as_json``, once, when ``Round.settlement`` is first read.
"""

from __future__ import annotations

from typing import Any

from engine.core import tiles as T
from engine.scoring.result import ScoreResult
from ruledsl.record import record


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


class _SettlementFilling:
    """A ``Settlement`` being filled in by ``settlement``: the very slots of ``Settlement``, without its frozen
    ``__setattr__`` (as ``engine.round.events._StartKyokuFilling``)."""

    __slots__ = Settlement.__dict__.get("__slots__", ())


# None where the record has no slots (``RIICHI_RECORD`` makes records dataclasses, for a test of the two)
_SETTLEMENT_FILLING = _SettlementFilling if "__slots__" in Settlement.__dict__ else None


def settlement(
    kind: str, abortive: str | None, wins: tuple[Win, ...], deltas: tuple[int, ...], next: NextHand, scores: tuple[int, ...],  # noqa: A002
    clauses: tuple[str, ...], tenpai: tuple[bool, ...] | None, nagashi: tuple[int, ...] | None,
) -> Settlement:
    """``Settlement(kind, abortive, ...)``, one per hand ended, its fields set by plain assignments on a
    ``_SettlementFilling`` that then becomes a ``Settlement`` (as ``engine.round.events.start_kyoku``).
    ``tests/round/test_filled_records.py`` holds the two equal."""
    if _SETTLEMENT_FILLING is None:
        return Settlement(kind, abortive, wins, deltas, next, scores, clauses, tenpai, nagashi)
    filling: Any = _SETTLEMENT_FILLING()
    filling.kind, filling.abortive, filling.wins, filling.deltas, filling.next = kind, abortive, wins, deltas, next
    filling.scores, filling.clauses, filling.tenpai, filling.nagashi = scores, clauses, tenpai, nagashi
    filling.__class__ = Settlement
    return filling


class _NextHandFilling:
    """A ``NextHand`` being filled in by ``next_hand`` (as ``_SettlementFilling``)."""

    __slots__ = NextHand.__dict__.get("__slots__", ())


_NEXT_HAND_FILLING = _NextHandFilling if "__slots__" in NextHand.__dict__ else None


def next_hand(honba_next: int, sticks_next: int, dealer_next: int, renchan: bool) -> NextHand:
    """``NextHand(honba_next, sticks_next, dealer_next, renchan)``, one per hand ended, filled as ``settlement``
    is. ``tests/round/test_filled_records.py`` holds the two equal."""
    if _NEXT_HAND_FILLING is None:
        return NextHand(honba_next, sticks_next, dealer_next, renchan)
    filling: Any = _NEXT_HAND_FILLING()
    filling.honba_next, filling.sticks_next, filling.dealer_next, filling.renchan = honba_next, sticks_next, dealer_next, renchan
    filling.__class__ = NextHand
    return filling
