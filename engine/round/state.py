"""What each seat holds and has done during a hand, and the waits of its resting hand.

A hand is kept both as tile codes (red fives matter for scoring) and as 34-bin kind counts (for shanten and
calls). ``waits`` are recomputed whenever the hand rests at 3n+1 tiles, once per change, so that every later
question (may this seat ron? is it tenpai? furiten?) is a set lookup.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import tiles as T
from engine.analysis import shanten, waits


@dataclass(frozen=True, slots=True)
class MeldRecord:
    """A meld as the round keeps it: its type, tiles, the called tile and the seat it came from (None: own)."""

    type: str
    tiles: tuple[int, ...]
    called: int | None = None
    source: int | None = None


@dataclass(slots=True)
class Seat:
    """One seat's state during the hand."""

    hand: list[int] = field(default_factory=list)
    counts: list[int] = field(default_factory=lambda: [0] * T.KINDS)
    melds: list[MeldRecord] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    discard_kinds: set[int] = field(default_factory=set)
    discards_called: bool = False  # another player called one of this seat's discards
    made_calls: bool = False  # chi, pon or open kan made by this seat
    riichi: bool = False  # established
    riichi_declared: bool = False  # declared (its discard may still be ronned)
    double_riichi: bool = False
    ippatsu: bool = False
    furiten_temporary: bool = False
    furiten_riichi: bool = False
    draws: int = 0  # live draws
    kita: int = 0
    waits: frozenset[int] = frozenset()  # kinds completing the resting hand, within the tile set
    shanten: int = 8  # of the resting hand: one draw lowers it by one at most, so it bounds what a turn can do
    tenpai: bool = False
    # the seat that fed the call completing each meld, and how: ``[(meld index, call type, source)]``
    calls: list[tuple[int, str, int]] = field(default_factory=list)

    def add(self, code: int) -> None:
        self.hand.append(code)
        self.counts[T.KIND_OF[code]] += 1

    def remove(self, code: int) -> None:
        self.hand.remove(code)
        self.counts[T.KIND_OF[code]] -= 1

    @property
    def closed(self) -> bool:
        return all(m.type == "ankan" for m in self.melds)

    @property
    def furiten_permanent(self) -> bool:
        return not self.discard_kinds.isdisjoint(self.waits)

    @property
    def furiten(self) -> bool:
        return self.furiten_temporary or self.furiten_riichi or self.furiten_permanent

    def rest(self, kinds: frozenset[int]) -> None:
        """Recompute the waits of the resting (3n+1) hand, keeping only kinds of the tile set. Tenpai needs a
        wait with a copy outside the player's own hand and melds (decision D14)."""
        counts = tuple(self.counts)
        self.shanten = shanten(counts, len(self.melds))
        found = waits(counts, len(self.melds)) if self.shanten == 0 else ()
        self.waits = frozenset(k for k in found if k in kinds)
        if self.melds and self.waits:
            in_melds = [T.KIND_OF[c] for m in self.melds for c in m.tiles]
            self.tenpai = any(counts[k] + in_melds.count(k) < 4 for k in self.waits)
        else:
            self.tenpai = bool(self.waits)


def waits_of(counts: list[int] | tuple[int, ...], n_melds: int, kinds: frozenset[int]) -> frozenset[int]:
    """Kinds completing a 3n+1 hand, within the tile set."""
    return frozenset(k for k in waits(tuple(counts), n_melds) if k in kinds)


def formally_tenpai(counts: list[int], n_melds: int) -> bool:
    """Tenpai counting a wait on a kind whose four copies the player holds (a fifth copy would complete it)."""
    if shanten(tuple(counts), n_melds) == 0:
        return True
    held = list(counts)
    for kind in range(T.KINDS):
        if held[kind] == 4:
            held[kind] += 1
            if _complete_any(held, 4 - n_melds):
                return True
            held[kind] -= 1
    return False


def _complete_any(counts: list[int], sets: int) -> bool:
    """Four sets (or fewer after melds) and a pair, copies unbounded (only asked of a hand with a fifth copy)."""
    for kind in range(T.KINDS):
        if counts[kind] >= 2:
            counts[kind] -= 2
            ok = _sets_only(counts, sets)
            counts[kind] += 2
            if ok:
                return True
    return False


def _sets_only(counts: list[int], sets: int) -> bool:
    first = next((k for k in range(T.KINDS) if counts[k]), None)
    if first is None:
        return sets == 0
    if counts[first] >= 3:
        counts[first] -= 3
        ok = _sets_only(counts, sets - 1)
        counts[first] += 3
        if ok:
            return True
    if first < 27 and first % 9 <= 6 and counts[first + 1] and counts[first + 2]:
        for k in (first, first + 1, first + 2):
            counts[k] -= 1
        ok = _sets_only(counts, sets - 1)
        for k in (first, first + 1, first + 2):
            counts[k] += 1
        return ok
    return False
