"""Every way to read a complete hand as groups, and the wait the winning tile completed in each reading.

Pure mechanics: a reading is a list of sets and a pair (or seven pairs, or the thirteen orphans shape); which
readings score what is the rulebook's business. Readings depend only on the 34 concealed kind counts, so they
are cached on that tuple; the scorer asks for the same counts once per win-tile interpretation.

A group is a tuple ``(shape, kind)``: ``(SEQ, k)`` is the run k, k+1, k+2; ``(TRIP, k)`` three of k;
``(PAIR, k)`` two of k; ``(SINGLE, k)`` one lone k (only in the thirteen orphans shape). Standard and seven
pairs readings are sorted tuples of groups, so equal readings compare equal; the thirteen orphans reading lists
its groups in kind order, the way players write it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from engine.tiles import YAOCHUU_KINDS

SEQ = 0
TRIP = 1
PAIR = 2
SINGLE = 3

Group = tuple[int, int]
Groups = tuple[Group, ...]

STANDARD = "standard"
SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"

RYANMEN = "ryanmen"
KANCHAN = "kanchan"
PENCHAN = "penchan"
SHANPON = "shanpon"
TANKI = "tanki"

_CACHE_SIZE = 65536


@dataclass(frozen=True)
class Reading:
    """One way to see a complete hand: its shape and its groups."""

    shape: str
    groups: Groups


def standard_readings(counts: Sequence[int]) -> tuple[Groups, ...]:
    """Every distinct split of 3n+2 concealed tiles into n sets and one pair (empty when there is none)."""
    return _standard_readings(counts if type(counts) is tuple else tuple(counts))


@lru_cache(maxsize=_CACHE_SIZE)
def _standard_readings(counts: tuple[int, ...]) -> tuple[Groups, ...]:
    parts: list[tuple[Groups, ...]] = []
    pairs = 0
    for base in (0, 9, 18):
        vec = counts[base : base + 9]
        total = sum(vec)
        if not total:
            continue
        rest = total % 3
        if rest == 1:
            return ()
        if rest == 2:
            pairs += 1
            if pairs > 1:
                return ()
        splits = _suit_splits(base, vec, rest == 2)
        if not splits:
            return ()
        parts.append(splits)
    honours = _honour_groups(counts)
    if honours is None:
        return ()
    pairs += sum(1 for shape, _ in honours if shape == PAIR)
    if pairs != 1:
        return ()
    if honours:
        parts.append((honours,))
    if all(len(splits) == 1 for splits in parts):  # the common case: each suit splits one way
        return (tuple(sorted([g for splits in parts for g in splits[0]])),)
    readings = {tuple(sorted(g for groups in combo for g in groups)) for combo in product(*parts)}
    return tuple(sorted(readings))


@lru_cache(maxsize=_CACHE_SIZE)
def _suit_splits(base: int, vec: tuple[int, ...], with_pair: bool) -> tuple[Groups, ...]:
    """Every split of one suit's tiles into runs and triplets, plus exactly one pair when ``with_pair``."""
    splits = _relative_splits(vec, with_pair)
    if not base:
        return splits
    return tuple(tuple((shape, base + i) for shape, i in split) for split in splits)


@lru_cache(maxsize=_CACHE_SIZE)
def _relative_splits(vec: tuple[int, ...], with_pair: bool) -> tuple[Groups, ...]:
    """``_suit_splits`` with kinds counted from the suit's 1, so the three suits share one cache."""
    counts = list(vec)
    found: set[Groups] = set()
    groups: list[Group] = []

    def walk(i: int, pair_left: bool) -> None:
        while i < 9 and not counts[i]:
            i += 1
        if i == 9:
            if not pair_left:
                found.add(tuple(sorted(groups)))
            return
        here = counts[i]
        if pair_left and here >= 2:
            counts[i] -= 2
            groups.append((PAIR, i))
            walk(i, False)
            groups.pop()
            counts[i] += 2
        if here >= 3:
            counts[i] -= 3
            groups.append((TRIP, i))
            walk(i, pair_left)
            groups.pop()
            counts[i] += 3
        if i <= 6 and counts[i + 1] and counts[i + 2]:
            counts[i] -= 1
            counts[i + 1] -= 1
            counts[i + 2] -= 1
            groups.append((SEQ, i))
            walk(i, pair_left)
            groups.pop()
            counts[i] += 1
            counts[i + 1] += 1
            counts[i + 2] += 1

    walk(0, with_pair)
    return tuple(sorted(found))


def _honour_groups(counts: tuple[int, ...]) -> Groups | None:
    """Honours only form triplets and pairs, so they split in at most one way."""
    if not any(counts[27:34]):
        return ()
    groups: list[Group] = []
    for kind in range(27, 34):
        count = counts[kind]
        if count == 3:
            groups.append((TRIP, kind))
        elif count == 2:
            groups.append((PAIR, kind))
        elif count:
            return None
    return tuple(groups)


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """Fourteen tiles as seven different pairs (two pairs of one kind do not count as two)."""
    return sum(counts) == 14 and (counts if type(counts) is tuple else list(counts)).count(2) == 7


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """One of each terminal and honour, plus a second of one of them: fourteen tiles, nothing else."""
    return (
        sum(counts) == 14
        and all(map(counts.__getitem__, YAOCHUU_KINDS))
        and sum(map(counts.__getitem__, YAOCHUU_KINDS)) == 14
    )


def decompose(counts: Sequence[int]) -> tuple[Reading, ...]:
    """Every reading of a complete hand: standard ones first, then seven pairs, then thirteen orphans."""
    return tuple(Reading(shape, groups) for shape, groups in readings_of(counts))


def readings_of(counts: Sequence[int]) -> tuple[tuple[str, Groups], ...]:
    """``decompose`` as plain ``(shape, groups)`` tuples, cached: what the scorer walks for every hand.

    Plain tuples of ints hold no references the garbage collector must follow, so a large cache of them costs
    the collector nothing.
    """
    return _readings(counts if type(counts) is tuple else tuple(counts))


@lru_cache(maxsize=_CACHE_SIZE)
def _readings(key: tuple[int, ...]) -> tuple[tuple[str, Groups], ...]:
    readings = [(STANDARD, groups) for groups in _standard_readings.__wrapped__(key)]  # cached here, not twice
    if is_seven_pairs(key):
        readings.append((SEVEN_PAIRS, tuple((PAIR, k) for k in range(34) if key[k] == 2)))
    if is_thirteen_orphans(key):
        readings.append((THIRTEEN_ORPHANS, tuple((PAIR if key[k] == 2 else SINGLE, k) for k in YAOCHUU_KINDS)))
    return tuple(readings)


def wait_of(group: Group, win_kind: int) -> str | None:
    """The wait this group had if the winning tile completed it, else ``None``.

    A run waited on its middle tile is a kanchan; on the 3 of 123 or the 7 of 789 a penchan (the other side is
    off the end of the suit); on either end otherwise a ryanmen. A triplet completed by the win was a shanpon, a
    pair or a lone tile a tanki.
    """
    shape, kind = group
    if shape == SEQ:
        offset = win_kind - kind
        if offset == 1:
            return KANCHAN
        if offset == 0:
            return PENCHAN if kind % 9 == 6 else RYANMEN
        if offset == 2:
            return PENCHAN if kind % 9 == 0 else RYANMEN
        return None
    if kind != win_kind:
        return None
    return SHANPON if shape == TRIP else TANKI


def win_placements(reading: Groups, win_kind: int) -> tuple[tuple[int, str], ...]:
    """Each group the winning tile can have completed, as ``(group index, wait)``.

    Identical groups give the same interpretation, so only the first of them is listed (readings are sorted,
    which puts identical groups side by side).
    """
    return placements(reading if type(reading) is tuple else tuple(reading), win_kind)


@lru_cache(maxsize=_CACHE_SIZE)
def placements(reading: Groups, win_kind: int) -> tuple[tuple[int, str], ...]:
    """``win_placements`` of a reading (a tuple), cached: the scorer asks for it once per reading of every hand."""
    return _win_placements(reading, win_kind)


def _win_placements(reading: Groups, win_kind: int) -> tuple[tuple[int, str], ...]:
    found: list[tuple[int, str]] = []
    previous = None
    for index, group in enumerate(reading):
        if group == previous:
            continue
        previous = group
        shape, kind = group
        if shape == SEQ:
            offset = win_kind - kind
            if offset == 1:
                found.append((index, KANCHAN))
            elif offset == 0:
                found.append((index, PENCHAN if kind % 9 == 6 else RYANMEN))
            elif offset == 2:
                found.append((index, PENCHAN if kind % 9 == 0 else RYANMEN))
        elif kind == win_kind:
            found.append((index, SHANPON if shape == TRIP else TANKI))
    return tuple(found)


def clear_caches() -> None:
    """Forget every cached reading (for benchmarks that want cold-start figures)."""
    _standard_readings.cache_clear()
    _suit_splits.cache_clear()
    _relative_splits.cache_clear()
    _readings.cache_clear()
    placements.cache_clear()
