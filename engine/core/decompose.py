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
from functools import partial
from itertools import compress, product
from operator import getitem

from engine.core.memo import Memo, clear_all
from engine.core.tiles import YAOCHUU_KINDS
from ruledsl.record import record
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

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


@record(slots=False)
class Reading:
    """One way to see a complete hand: its shape and its groups."""

    shape: str
    groups: Groups


def standard_readings(counts: Sequence[int]) -> tuple[Groups, ...]:
    """Every distinct split of 3n+2 concealed tiles into n sets and one pair (empty when there is none)."""
    return _STANDARD_READINGS[counts if type(counts) is tuple else tuple(counts)]


def _split_standard(counts: tuple[int, ...]) -> tuple[Groups, ...]:
    """``standard_readings`` uncached: each suit and the honours split on their own (kept per content)."""
    found = _HONOUR_SPLITS[counts[27:]]
    if found is CANNOT_SPLIT:
        return ()
    pairs, groups = found
    several = None
    for start, known in _SUITS:
        found = known[counts[start : start + 9]]
        if found is NO_TILES:
            continue
        if found is CANNOT_SPLIT:
            return ()
        with_pair, splits = found
        pairs += with_pair
        if len(splits) == 1:
            groups += splits[0]
        elif several is None:
            several = [splits]
        else:
            several.append(splits)
    if pairs != 1:
        return ()
    if several is None:  # the common case: each suit splits one way
        return (tuple(sorted(groups)),)
    readings = {tuple(sorted(groups + sum(combo, ()))) for combo in product(*several)}
    return tuple(sorted(readings))


def honour_split(honours: tuple[int, ...]) -> Any:
    """Honours only form triplets and pairs, so they split in at most one way: (pairs, groups), or
    ``CANNOT_SPLIT``."""
    if 1 in honours or 4 in honours:  # a lone honour, or four of one (no kan), belongs to no set or pair
        return CANNOT_SPLIT
    try:  # each held honour's group picked from a table by its count, one C-level pass
        groups = tuple(map(getitem, compress(_HONOUR_GROUPS, honours), compress(honours, honours)))
    except IndexError:  # more than four of an honour (a count the waits' search may try): a pair, as below
        groups = tuple((TRIP if count == 3 else PAIR, 27 + i) for i, count in enumerate(honours) if count)
    return honours.count(2), groups


# per honour (counted from the east wind), its group by count (up to four): a triplet of three, else a pair
_HONOUR_GROUPS = tuple(tuple((TRIP if count == 3 else PAIR, 27 + i) for count in range(5)) for i in range(7))
NO_TILES: Any = ("no tiles",)
CANNOT_SPLIT: Any = ("cannot split",)  # kept like any other answer, so a hand that is no win is not split again


def suit_splits(base: int, vec: tuple[int, ...]) -> Any:
    """(1 if the suit must hold the pair else 0, every split of its tiles into runs and triplets plus that pair),
    kinds counted from ``base``; ``NO_TILES`` for a suit with no tiles, ``CANNOT_SPLIT`` for one that cannot."""
    total = sum(vec)
    if not total:
        return NO_TILES
    rest = total % 3
    if rest == 1:
        return CANNOT_SPLIT
    splits = _RELATIVE_SPLITS[vec]
    if not splits:
        return CANNOT_SPLIT
    if base:
        splits = tuple(tuple((shape, base + i) for shape, i in split) for split in splits)
    return (1 if rest == 2 else 0), splits


def _relative_splits(vec: bytes | tuple[int, ...]) -> tuple[Groups, ...]:
    """``suit_splits`` with kinds counted from the suit's 1 (so the three suits share ``_RELATIVE_SPLITS``); a
    suit whose count leaves two over holds the pair.

    Every new hand of a stream brings suits not met before, so this runs on most first passes: the tiles of the
    lowest kind left can only go to one triplet of that kind and to runs starting there, so the split is forced
    but where that kind has three or four tiles and runs could take them all. Only the kinds that can hold the
    pair are tried as the pair: a run's kinds and a triplet's add up to a multiple of 3, so the pair's kind ``p``
    satisfies ``2 * p == sum(k * count[k]) (mod 3)``. ``reference_relative_splits`` tries every way, and the
    tests hold the two equal on every suit of up to 14 tiles. The scorer keys its look-ups by the suit's bytes,
    decompose by a tuple: either splits alike."""
    total = sum(vec)
    if total % 3 == 0:
        found: list[Groups] = []
        _sets(list(vec), 0, (), (), (), found)
    else:
        weight = vec[1] + 2 * vec[2] + 4 * vec[4] + 5 * vec[5] + 7 * vec[7] + 8 * vec[8]  # sum(k * count) mod 3
        # (written out: ``sum(map(mul, vec, weights))`` runs fewer bytecodes but more instructions, by callgrind)
        found = []
        for p in range((2 * weight) % 3, 9, 3):
            if vec[p] >= 2:
                rest = list(vec)
                rest[p] -= 2
                _sets(rest, 0, (), (), ((PAIR, p),), found)
    if len(found) > 1:
        return tuple(sorted(set(found)))
    return tuple(found)


def _sets(counts: list[int], start: int, runs: tuple[Group, ...], trips: tuple[Group, ...], pair: Groups, found: list[Groups]) -> None:
    """Split ``counts`` from kind ``start`` on into runs and triplets, adding each split (after ``runs``, ``trips`` and
    ``pair`` taken before) to ``found`` as the sorted groups ``_walk`` would give: runs, then triplets, then the
    pair, each by kind. Recurses only where the lowest kind left could go either way.

    A ``for`` over the kinds, and the 8 and 9 unrolled: most of a suit's kinds are empty, and a ``for`` step over
    one costs fewer bytecodes than a ``while`` test and increment."""
    for i in range(start, 7):
        here = counts[i]
        if here:
            if here >= 3 and counts[i + 1] >= here and counts[i + 2] >= here:  # all of them as runs, or one triplet
                other = list(counts)
                other[i + 1] -= here
                other[i + 2] -= here
                _sets(other, i + 1, runs + ((SEQ, i),) * here, trips, pair, found)
            take = here - 3 if here >= 3 else here
            if take:
                if counts[i + 1] < take or counts[i + 2] < take:
                    return
                counts[i + 1] -= take
                counts[i + 2] -= take
                runs += ((SEQ, i),) * take
            if here >= 3:
                trips += ((TRIP, i),)
    if counts[7]:
        if counts[7] != 3:
            return
        trips += _TRIP_7
    if counts[8]:
        if counts[8] != 3:
            return
        trips += _TRIP_8
    found.append(runs + trips + pair)


_TRIP_7, _TRIP_8 = ((TRIP, 7),), ((TRIP, 8),)  # the triplets ``_sets`` ends on


def reference_relative_splits(vec: tuple[int, ...]) -> tuple[Groups, ...]:
    """``_relative_splits`` by trying every group at every kind (``_walk``): the plain computation the tests hold
    the fast one equal to."""
    found: set[Groups] = set()
    _walk(list(vec), 0, sum(vec) % 3 == 2, [], found)
    return tuple(sorted(found))



def is_seven_pairs(counts: Sequence[int]) -> bool:
    """Fourteen tiles as seven different pairs (two pairs of one kind do not count as two)."""
    counts = counts if type(counts) is tuple else tuple(counts)
    return counts.count(2) == 7 and sum(counts) == 14


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """One of each terminal and honour, plus a second of one of them: fourteen tiles, nothing else."""
    return (
        all(counts[27:34])  # most hands fail here, cheaply
        and sum(counts) == 14
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
    return READINGS[counts if type(counts) is tuple else tuple(counts)]


def read_counts(key: tuple[int, ...]) -> tuple[tuple[str, Groups], ...]:
    """``readings_of`` uncached, for callers that keep what they build from it."""
    standard = _split_standard(key)
    if len(standard) == 1:
        readings: tuple[tuple[str, Groups], ...] = ((STANDARD, standard[0]),)
    else:
        readings = tuple([(STANDARD, groups) for groups in standard])
    if key.count(2) == 7 and is_seven_pairs(key):
        readings += ((SEVEN_PAIRS, tuple((PAIR, k) for k in range(34) if key[k] == 2)),)
    if is_thirteen_orphans(key):
        readings += ((THIRTEEN_ORPHANS, tuple((PAIR if key[k] == 2 else SINGLE, k) for k in YAOCHUU_KINDS)),)
    return readings


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


def _holders(win_kind: int) -> tuple[tuple[Group, str], ...]:
    """Every group that can hold a kind, with the wait it had if the kind completed it, in reading order (groups
    sort by shape, then kind), so that a reading's groups that hold the winning kind are found in turn, identical
    groups once (``engine.scoring.facts._placed``). A run in a reading never crosses a suit, so the runs listed need
    no suit check."""
    holders: list[tuple[Group, str]] = []
    if win_kind < 27:
        number = win_kind % 9
        if number >= 2:
            holders.append(((SEQ, win_kind - 2), PENCHAN if number == 2 else RYANMEN))
        if 1 <= number <= 7:
            holders.append(((SEQ, win_kind - 1), KANCHAN))
        if number <= 6:
            holders.append(((SEQ, win_kind), PENCHAN if number == 6 else RYANMEN))
    holders += [((TRIP, win_kind), SHANPON), ((PAIR, win_kind), TANKI), ((SINGLE, win_kind), TANKI)]
    return tuple(holders)


HOLDERS = tuple(_holders(kind) for kind in range(34))


def _walk(counts: list[int], i: int, pair_left: bool, groups: list[Group], found: set[Groups]) -> None:
    """Take a pair, a triplet or a run at the first kind left, in turn, and go on with the rest.

    A plain function rather than a closure over ``counts``: a recursive closure refers to itself, a cycle that
    only the garbage collector can free, once per suit read.
    """
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
        _walk(counts, i, False, groups, found)
        groups.pop()
        counts[i] += 2
    if here >= 3:
        counts[i] -= 3
        groups.append((TRIP, i))
        _walk(counts, i, pair_left, groups, found)
        groups.pop()
        counts[i] += 3
    if i <= 6 and counts[i + 1] and counts[i + 2]:
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        groups.append((SEQ, i))
        _walk(counts, i, pair_left, groups, found)
        groups.pop()
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1


# What the scorer looks up for every hand: readings by kind counts, and each suit's and the honours' splits.
_RELATIVE_SPLITS = Memo(_relative_splits, _CACHE_SIZE)
RELATIVE_SPLITS = _RELATIVE_SPLITS  # for the scorer's per-suit parts (``engine.scoring.facts``)
_HONOUR_SPLITS = Memo(honour_split, _CACHE_SIZE)  # the honours' 7 counts -> ``honour_split``
# Per suit (by its first kind), its 9 counts -> ``suit_splits``.
_SUITS = tuple((start, Memo(partial(suit_splits, start), _CACHE_SIZE)) for start in (0, 9, 18))
_STANDARD_READINGS = Memo(_split_standard, _CACHE_SIZE)
READINGS = Memo(read_counts, _CACHE_SIZE)


def clear_caches() -> None:
    """Forget every cached reading, here and in the tables built from them (for cold-start figures)."""
    clear_all()
