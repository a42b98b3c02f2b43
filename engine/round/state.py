"""What each seat holds and has done during a hand, and the waits of its resting hand.

A hand is kept both as tile codes (red fives matter for scoring) and as 34-bin kind counts (for shanten and
calls). ``waits`` are recomputed whenever the hand rests at 3n+1 tiles, once per change, so that every later
question (may this seat ron? is it tenpai? furiten?) is a set lookup.
"""

from __future__ import annotations

from engine.core import tiles as T
from engine.core.analysis import cached_shanten, cached_waits, shanten
from engine.core.tiles import KIND_OF
from ruledsl.caches import lru
from ruledsl.record import field, record


@record
class MeldRecord:
    """A meld as the round keeps it: its type, tiles, the called tile and the seat it came from (None: own)."""

    type: str
    tiles: tuple[int, ...]
    called: int | None = None
    source: int | None = None


@record(frozen=False)
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
    open_riichi: bool = False  # the riichi was declared open (`settings riichi open_riichi`): the hand is shown
    ippatsu: bool = False
    furiten_temporary: bool = False
    furiten_riichi: bool = False
    draws: int = 0  # live draws
    kita: int = 0
    waits: frozenset[int] = frozenset()  # kinds completing the resting hand, within the tile set
    # of the resting hand, or a lower bound of it (see ``rest``): one draw lowers it by one at most, so it bounds
    # what a turn can do
    shanten: int = 8
    # the seat that fed the call completing each meld, and how: ``[(meld index, call type, source)]``
    calls: list[tuple[int, str, int]] = field(default_factory=list)
    # what ``rest`` last saw (concealed counts, melds, tile set): the same again needs no new count
    rested: tuple[tuple[int, ...], tuple[MeldRecord, ...], frozenset[int]] | None = None

    def add(self, code: int) -> None:
        self.hand.append(code)
        self.counts[KIND_OF[code]] += 1

    def remove(self, code: int) -> None:
        self.hand.remove(code)
        self.counts[KIND_OF[code]] -= 1

    @property
    def closed(self) -> bool:
        return all(m.type == "ankan" for m in self.melds)

    @property
    def furiten_permanent(self) -> bool:
        return not self.discard_kinds.isdisjoint(self.waits)

    @property
    def furiten(self) -> bool:
        return self.furiten_temporary or self.furiten_riichi or self.furiten_permanent

    def rest(self, kinds: frozenset[int], bound: int = -1) -> None:
        """Recompute the waits of the resting (3n+1) hand, keeping only kinds of the tile set (whether they make
        the hand tenpai is the rulebook's karaten rule: ``engine.round.karaten``).

        ``bound`` is a lower bound of the new hand's shanten the caller knows (a live draw and a discard since
        the last rest: the old value minus one). At 1 or more the hand cannot be tenpai, so the shanten count
        is skipped and ``shanten`` keeps the bound: its one reader only asks whether it exceeds 1. (The bound of
        the hand's isolated tiles, ``engine.round.shanten_floor``, is not asked here: the cached count is as
        cheap once warm, and replays, whose hands are near tenpai, paid for the bound on every discard.)

        A hand that rests as it rested last time (the drawn tile discarded again: every turn of a riichi, a third
        of all discards) keeps what was found then: the same tiles and melds have the same waits, and the kept
        shanten is a lower bound at least as high as ``bound``."""
        counts = tuple(self.counts)
        melds = tuple(self.melds)
        if self.rested is not None and self.rested[0] == counts and self.rested[1] == melds and self.rested[2] is kinds:
            return
        self.rested = (counts, melds, kinds)
        if bound >= 1:
            self.shanten = bound
            self.waits = frozenset()
            return
        self.shanten = cached_shanten(counts, len(self.melds))
        self.waits = waits_of(counts, len(self.melds), kinds) if self.shanten == 0 else frozenset()


def waits_of(counts: list[int] | tuple[int, ...], n_melds: int, kinds: frozenset[int]) -> frozenset[int]:
    """Kinds completing a 3n+1 hand, within the tile set. Cached per hand and tile set: the riichi check asks it
    of each candidate discard and the resting hand after the discard asks it again."""
    return _waits_in(tuple(counts), n_melds, kinds)


@lru(65536)
def _waits_in(counts: tuple[int, ...], n_melds: int, kinds: frozenset[int]) -> frozenset[int]:
    return frozenset(k for k in cached_waits(counts, n_melds) if k in kinds)


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
