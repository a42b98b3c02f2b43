"""How far a hand is from winning (shanten), what it waits on, and the ``analyze`` answer of the contract.

Shanten is counted exactly: the hand is compared with every complete hand that can still be built (never more
than four copies of a kind, counting the tiles already held), and the shanten number is the fewest tiles to
draw to reach one, minus one. So a hand is tenpai (0) exactly when some tile still in the wall completes it, and
a hand that would need a fifth copy of a tile is not.

Speed comes from splitting the work by suit. For each suit (and for the honours) a small table records, for
every number of sets ``s`` (0..4) and pair ``p`` (0 or 1) built in that suit, the most held tiles such groups
can use; tables are cached on the suit's nine counts, and tables are merged with cached max-plus products, so a
typical hand costs a handful of dictionary look-ups. The table of every suit a hand can hold is shipped
(``engine.core.suit_tables``: 126 distinct tables over 405,350 suits), so a suit not seen before is a byte looked
up rather than counted, and ``shanten`` reads each suit as the number of its table: a hand not seen before is
four look-ups and one more of the four numbers, the merge of their tables kept by number.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from operator import itemgetter

from engine.core import analysis_tables, suit_tables
from engine.core.decompose import PAIR, SEQ, SINGLE, TRIP, Group, Reading, decompose
from engine.core.errors import InvalidHand
from engine.core.tiles import (
    KINDS,
    YAOCHUU_KINDS,
    format_kind,
    format_tiles,
    is_red,
    number_of,
    parse_tiles,
    suit_of,
)
from ruledsl.caches import lru, register
from ruledsl.memo import Memo
from ruledsl.typing_names import TypeVar

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")

MAX_SETS = 4
_CACHE_SIZE = 65536

# A table is a tuple of 10 ints, index ``2 * s + p``: the most held tiles usable by s sets and p pairs.
Table = tuple[int, ...]
_ZERO: Table = (0,) * 10


def _sets_and_melds(total: int, n_melds: int | None) -> int:
    """The number of sets still to build in the concealed tiles; checks the tile count fits the melds."""
    if total % 3 == 0 or total > 14:
        raise InvalidHand(f"{total} tiles cannot be a hand; a hand holds 3n+1 or 3n+2 tiles, at most 14")
    if n_melds is None:
        return total // 3
    sets = MAX_SETS - n_melds
    if not 0 <= n_melds <= MAX_SETS or total // 3 != sets:
        raise InvalidHand(
            f"{total} concealed tiles do not fit {n_melds} melds; expected {3 * sets + 1} or {3 * sets + 2}"
        )
    return sets


def _fitting() -> dict[tuple[int, int | None], int]:
    """Every tile count and number of melds (or None) that fits a hand, with its sets (``_sets_and_melds``)."""
    fitting: dict[tuple[int, int | None], int] = {}
    for total in range(15):
        for n_melds in (None, *range(MAX_SETS + 1)):
            try:
                fitting[(total, n_melds)] = _sets_and_melds(total, n_melds)
            except InvalidHand:
                pass
    return fitting


# ``_sets_and_melds`` of every count that fits, read by ``shanten`` and the waits (``waits_of_keys``) as one dict look-up (a hand
# not seen before asks it every time); a count that does not fit is not listed, and ``_sets_and_melds`` says why
_SETS_OF = _fitting()


def shanten(counts: Sequence[int], n_melds: int | None = None) -> int:
    """Tiles away from tenpai: -1 complete, 0 tenpai, 1 one tile from tenpai, and so on.

    ``counts`` are the 34 concealed kind counts; ``n_melds`` the called melds, inferred from the tile count when
    omitted (13 or 14 tiles: none; 2333m: three). Seven pairs and thirteen orphans count only with no melds.

    Each suit is read as one small integer (``_suit_key``: its table's number and its seven-pairs and orphans
    counts), so a hand not seen before costs four look-ups and one more of the four numbers merged
    (``_used_by_numbers``), instead of merging the suits' tables (``_shanten_by_tables``, the reference it is
    tested against)."""
    total = sum(counts)
    sets = _SETS_OF.get((total, n_melds))
    if sets is None:
        sets = _sets_and_melds(total, n_melds)
    if type(counts) is not tuple:
        counts = tuple(counts)
    m = _SUIT_KEYS[counts[0:9]]
    p = _SUIT_KEYS[counts[9:18]]
    s = _SUIT_KEYS[counts[18:27]]
    h = _HONOUR_KEYS[counts[27:34]]
    best = 3 * sets + 1 - _used_by_numbers(((((m >> _NUMBER_SHIFT) << 10 | p >> _NUMBER_SHIFT) << 10 | s >> _NUMBER_SHIFT) << 10 | h >> _NUMBER_SHIFT) << 3 | sets)
    if sets == MAX_SETS and best > -1:
        special = _special_shanten(m + p + s + h)
        if special < best:
            best = special
    return best


def _special_shanten(keys: int) -> int:
    """Shanten towards seven pairs or thirteen orphans, the nearer, from the four suits' keys added in one sum
    (no field overflows, a hand holding at most 14 tiles): ``_seven_pairs_shanten`` and ``_orphans_shanten`` of
    the 34 counts, read from the counts the keys carry."""
    kinds = keys >> 4 & 31
    seven = 6 - (keys & 15) + (7 - kinds if kinds < 7 else 0)
    orphans = 13 - (keys >> 9 & 15) - (1 if keys >> 13 & 7 else 0)
    return seven if seven < orphans else orphans


def _shanten_by_tables(counts: Sequence[int], n_melds: int | None = None) -> int:
    """``shanten`` counted by merging the suits' tables and counting seven pairs and thirteen orphans over the 34
    counts: the plain count the numbered suits must agree with."""
    total = sum(counts)
    sets = _sets_and_melds(total, n_melds)
    if type(counts) is not tuple:
        counts = tuple(counts)
    suits = _merge(_merge(_suit_table(counts[0:9]), _suit_table(counts[9:18])), _suit_table(counts[18:27]))
    best = 3 * sets + 1 - _used(suits, _honour_table(counts[27:34]), sets)
    if sets == MAX_SETS and best > -1:
        best = min(best, _seven_pairs_shanten(counts), _orphans_shanten(counts))
    return best


# A suit read as one integer (``_suit_key``): its table's number from bit 22 up, and below it six counts that add
# up over the suits without spilling into each other (a hand of at most 14 tiles): pairs (a kind held two or more
# times, 4 bits), kinds held (5 bits), terminal and honour kinds held (4 bits), those held twice or more (3 bits),
# for seven pairs and thirteen orphans (``_special_shanten``); then for the waits (``_waits_of_suits``), whether the suit does not
# split into sets and at most one pair using every tile (3 bits: the suits that do not, once added), and whether it
# splits so with its pair (3 bits).
_BROKEN_SHIFT = 16
_PAIRED_SHIFT = 19
_NUMBER_SHIFT = 22
# every distinct table by number, suits' and honours' alike: 126 and 55 of them over every suit a hand can hold,
# so a number fits the 10 bits ``shanten`` gives it in the merged key
_NUMBERED: dict[Table, int] = {}
_BY_NUMBER: list[Table] = []


_NUMBERING = threading.Lock()


def _number_of(table: Table) -> int:
    """The table's number, given on first sight (under a lock: two threads never give one number twice)."""
    number = _NUMBERED.get(table)
    if number is None:
        with _NUMBERING:
            number = _NUMBERED.get(table)
            if number is None:
                _BY_NUMBER.append(table)  # before the number is known: a reader never finds it unset
                number = _NUMBERED[table] = len(_BY_NUMBER) - 1
    return number


register("engine.core.analysis.table_numbers", lambda: None, _NUMBERED.__len__, 1 << 10, pinned=True)


def _suit_key(vec: tuple[int, ...]) -> int:
    """A number suit's nine counts as ``shanten`` and the waits (``_waits_of_suits``) read them: its table's number, its counts
    of pairs, kinds, and terminals held (once, and twice or more), and how it splits (``_split_bits``)."""
    ends = (vec[0] != 0) + (vec[8] != 0)
    end_pairs = (vec[0] > 1) + (vec[8] > 1)
    held = 9 - vec.count(0)
    table = suit_tables.table_of(vec)
    if table is None:
        table = _computed_suit_table(vec)
        pairs = vec.count(2) + vec.count(3) + vec.count(4)
    else:  # a shipped suit's counts are 0..4: the kinds held twice or more are those held, less those held once
        pairs = held - vec.count(1)
    counts = end_pairs << 13 | ends << 9 | held << 4 | pairs
    return _number_of(table) << _NUMBER_SHIFT | _split_bits(table, sum(vec)) | counts


def _honour_key(vec: tuple[int, ...]) -> int:
    """``_suit_key`` of the honours (every kind a terminal or honour)."""
    held = 7 - vec.count(0)
    held_twice = sum(1 for count in vec if count > 1)
    pairs = vec.count(2) + vec.count(3) + vec.count(4)
    table = _honour_table(vec)
    counts = held_twice << 13 | held << 9 | held << 4 | pairs
    return _number_of(table) << _NUMBER_SHIFT | _split_bits(table, sum(vec)) | counts


def _split_bits(table: Table, total: int) -> int:
    """A suit's key bits for the waits (``_waits_of_suits``): 1 at ``_BROKEN_SHIFT`` when its ``total`` tiles do not split into
    sets and at most one pair using every tile, else 1 at ``_PAIRED_SHIFT`` when they split so with the pair."""
    cell, pair = _SPLIT_CELLS[total]
    if cell < 0 or table[cell] != total:
        return 1 << _BROKEN_SHIFT
    return pair << _PAIRED_SHIFT


@lru(_CACHE_SIZE)
def _used_by_numbers(key: int) -> int:
    """``_used`` of the four suits' tables merged, by their numbers and the sets (packed as ``shanten`` packs
    them): the same few thousand combinations come back across hands never seen before."""
    sets = key & 7
    # the three suits merged in the order of their numbers: merging is commutative and associative, and hands that
    # hold the same suits in other places then share their merges (a replay's first pass: 1,107 merges, not 1,723)
    first, second, third = sorted((key >> 33 & 1023, key >> 23 & 1023, key >> 13 & 1023))
    return _used(_merge(_merge(_BY_NUMBER[first], _BY_NUMBER[second]), _BY_NUMBER[third]), _BY_NUMBER[key >> 3 & 1023], sets)


# The per-suit answers ``shanten`` reads on every hand not seen before, as memos: a hit is one C-level subscript
# (``memo[key]``), where an ``lru_cache`` function is a call that builds its key and moves its entry to the front;
# a miss costs one Python frame more (``Memo.__missing__``). Suits repeat (a replay's first pass misses 7% of its
# suit look-ups), their merged numbers much less (30%): ``_used_by_numbers`` stays an ``lru_cache``, whose miss
# calls the function from C (fewer instructions on the replay's first pass and on a small one).
_SUIT_KEYS: Memo[tuple[int, ...], int] = Memo(_suit_key, _CACHE_SIZE)
_HONOUR_KEYS: Memo[tuple[int, ...], int] = Memo(_honour_key, _CACHE_SIZE)


def waits(counts: Sequence[int], n_melds: int | None = None) -> tuple[int, ...]:
    """Kinds that complete a 3n+1 hand, in kind order; a kind whose four copies are all held is never one."""
    total = sum(counts)
    if total % 3 != 1:
        raise InvalidHand(f"{total} tiles: waits are asked of a hand of 3n+1 tiles (13, 10, 7, 4 or 1)")
    if shanten(counts, n_melds) != 0:
        return ()
    held = list(counts)
    found = []
    for kind in _candidates(held):
        if held[kind] < 4:
            held[kind] += 1
            if shanten(held, n_melds) == -1:
                found.append(kind)
            held[kind] -= 1
    return tuple(found)


def _candidates(held: list[int]) -> list[int]:
    """Kinds that could complete the hand: held honours, number tiles within two of a held one, and the
    terminals and honours when thirteen orphans is in reach (its wait can be a tile not held at all)."""
    near: set[int] = set()
    for kind in range(27):
        if held[kind]:
            base = kind - kind % 9
            near.update(range(max(base, kind - 2), min(base + 8, kind + 2) + 1))
    near.update(kind for kind in range(27, 34) if held[kind])
    if sum(held) == 13:
        near.update(YAOCHUU_KINDS)
    return sorted(near)


def is_complete(counts: Sequence[int], n_melds: int | None = None) -> bool:
    return sum(counts) % 3 == 2 and shanten(counts, n_melds) == -1


# --- per-suit tables -------------------------------------------------------------------------------------------


def _suit_table(vec: tuple[int, ...]) -> Table:
    """The table of one suit's nine counts: shipped for every suit a hand can hold (``engine.core.suit_tables``,
    a byte looked up), else counted. Not cached itself: ``shanten`` keeps each suit's key (``_SUIT_KEYS``), which
    is what it reads, and a second cache under it cost a C-level miss per suit not seen before."""
    shipped = suit_tables.table_of(vec)
    return shipped if shipped is not None else _computed_suit_table(vec)


def _computed_suit_table(vec: tuple[int, ...]) -> Table:
    """The table of one suit's nine counts, counted.

    Without four copies of a kind in the suit no useful target ever needs a fifth copy, and ``_runs_table`` (the
    suit cut into runs, each looked up by its shape) is exact. With four copies the exact per-kind count matters:
    ``_four_copies_table``.
    """
    if 4 in vec:
        return _four_copies_table(vec)
    return _runs_table(vec)


def _four_copies_table(vec: tuple[int, ...]) -> Table:
    """The exact table of a suit holding four copies of some kind, without the slow count where it can.

    ``_runs_table`` is right for nearly every such suit (about 98%); the suits where it is not, among every suit
    of at most ``SUIT_LIMIT`` tiles (every suit a hand can hold), are shipped with their exact tables
    (``engine.core.analysis_tables``). A suit outside that range, or a process without the file, counts exactly.
    """
    listed = analysis_tables.exceptions()
    if listed is None or sum(vec) > analysis_tables.SUIT_LIMIT:
        return _exact_suit_table(vec)
    table = listed.get(analysis_tables.index_of(vec))
    return table if table is not None else _runs_table(vec)


def _runs_table(vec: tuple[int, ...]) -> Table:
    """The suit cut into runs of tiles no group can bridge (two empty kinds apart), each looked up by its shape
    alone (``_pattern_table``) and merged: exact for a suit without four copies of a kind."""
    table = _ZERO
    start = -1
    gap = 0
    for i, count in enumerate(vec):
        if count:
            if start < 0:
                start = i
            gap = 0
        elif start >= 0:
            gap += 1
            if gap == 2:
                table = _merge(table, _pattern_table(vec[start : i - 1]))
                start = -1
    if start >= 0:
        end = 9 - gap
        table = _merge(table, _pattern_table(vec[start:end]))
    return table


@lru(_CACHE_SIZE)
def _pattern_table(pattern: tuple[int, ...]) -> Table:
    """Table of a run of number tiles, by taking the lowest tile's group every possible way.

    The lowest tile is dropped, or starts one group: a set missing 2, 1 or 0 tiles (alone, with its twin, with
    either neighbour, as a triplet or as a run), or the pair missing 1 or 0 tiles. The groups' other tiles come
    from the wall and need not be tracked: without four copies there is always one left.
    """
    if not pattern:
        return _ZERO
    first = pattern[0]
    length = len(pattern)
    rest = _pattern_table(_strip((first - 1,) + pattern[1:]))
    # (sub-table, sets added, pair added, tiles used)
    options: list[tuple[Table, int, int, int]] = [(rest, 0, 0, 0), (rest, 1, 0, 1), (rest, 0, 1, 1)]
    if first >= 2:
        twin = _pattern_table(_strip((first - 2,) + pattern[1:]))
        options.append((twin, 0, 1, 2))
        options.append((twin, 1, 0, 2))
        if first >= 3:
            options.append((_pattern_table(_strip((first - 3,) + pattern[1:])), 1, 0, 3))
    if length > 1 and pattern[1]:
        options.append((_pattern_table(_strip((first - 1, pattern[1] - 1) + pattern[2:])), 1, 0, 2))
    if length > 2 and pattern[2]:
        options.append(
            (_pattern_table(_strip((first - 1, pattern[1], pattern[2] - 1) + pattern[3:])), 1, 0, 2)
        )
        if pattern[1]:
            options.append(
                (_pattern_table(_strip((first - 1, pattern[1] - 1, pattern[2] - 1) + pattern[3:])), 1, 0, 3)
            )
    best = [0] * 10
    for table, add_sets, add_pair, used in options:
        for s in range(add_sets, MAX_SETS + 1):
            for p in range(add_pair, 2):
                value = table[2 * (s - add_sets) + p - add_pair] + used
                if value > best[2 * s + p]:
                    best[2 * s + p] = value
    return tuple(best)


def _strip(pattern: tuple[int, ...]) -> tuple[int, ...]:
    start = 0
    while start < len(pattern) and not pattern[start]:
        start += 1
    end = len(pattern)
    while end > start and not pattern[end - 1]:
        end -= 1
    return pattern[start:end]


def _exact_suit_table(vec: tuple[int, ...]) -> Table:
    """Table of a suit holding four copies of some kind: every target is built kind by kind with its exact
    count, so a target needing a fifth copy is never counted.

    State before kind i: runs started at i-2 and at i-1 (both still need i); for each, the most held tiles used
    per sets and pair so far (a table, -1 where unreachable). Grouping the sets and pair in one table per state
    lets each choice at a kind (new runs, a triplet, a pair) shift a whole table at once: this is the slow path
    of the shanten count (a wait search meets it on every candidate that makes a fourth copy).
    """
    states: dict[tuple[int, int], list[int]] = {(0, 0): [0] + [-1] * 9}
    for i in range(9):
        held = vec[i]
        following: dict[tuple[int, int], list[int]] = {}
        choices_of = _CHOICES if i <= 6 else _CHOICES_NO_RUNS
        for (older, newer), table in states.items():
            passing = older + newer
            for runs, extra, cells in choices_of[4 - passing]:
                need = passing + extra
                gain = need if need < held else held
                target = following.get((newer, runs))
                if target is None:
                    target = following[(newer, runs)] = [-1] * 10
                for src, dst in cells:
                    value = table[src]
                    if value >= 0:
                        value += gain
                        if value > target[dst]:
                            target[dst] = value
        states = following
    best = [0] * 10
    for table in states.values():
        for j in range(10):
            if table[j] > best[j]:
                best[j] = table[j]
    return _monotone(best)


def _cells(add_sets: int, add_pair: int) -> tuple[tuple[int, int], ...]:
    """(from, to) cells of a table when a choice adds ``add_sets`` sets and ``add_pair`` pairs (within 4 and 1)."""
    return tuple(
        (2 * s + p, 2 * (s + add_sets) + p + add_pair) for s in range(MAX_SETS + 1 - add_sets) for p in range(2 - add_pair)
    )


_ChoiceTable = dict[int, tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...]]


def _choices() -> tuple[_ChoiceTable, _ChoiceTable]:
    """Per copies still free at a kind (4 less the runs passing through it): each choice of new runs, a triplet
    and a pair that fits, as (new runs, copies it needs, cells it shifts); then the same without new runs (kinds 8
    and 9, where no run starts)."""
    choices: _ChoiceTable = {
        free: tuple(
            (runs, runs + 3 * triplet + 2 * pair, _cells(runs + triplet, pair))
            for runs in range(free + 1)
            for triplet in (0, 1)
            for pair in (0, 1)
            if runs + 3 * triplet + 2 * pair <= free
        )
        for free in range(5)
    }
    return choices, {free: tuple(c for c in options if c[0] == 0) for free, options in choices.items()}


_CHOICES, _CHOICES_NO_RUNS = _choices()


def _monotone(best: list[int]) -> Table:
    """Allow groups built entirely from the wall: more sets or a pair never use fewer held tiles."""
    for s in range(MAX_SETS + 1):
        for p in range(2):
            i = 2 * s + p
            if s and best[i - 2] > best[i]:
                best[i] = best[i - 2]
            if p and best[i - 1] > best[i]:
                best[i] = best[i - 1]
    return tuple(best)


@lru(_CACHE_SIZE)
def _honour_table(vec: tuple[int, ...]) -> Table:
    """Honours form only triplets and pairs, one group per kind at most (a triplet and a pair would be five)."""
    best = [0] * 10
    for count in vec:
        if not count:
            continue
        as_triplet = 3 if count > 3 else count
        as_pair = 2 if count > 2 else count
        following = list(best)
        for s in range(MAX_SETS + 1):
            for p in range(2):
                i = 2 * s + p
                if s and best[i - 2] + as_triplet > following[i]:
                    following[i] = best[i - 2] + as_triplet
                if p and best[i - 1] + as_pair > following[i]:
                    following[i] = best[i - 1] + as_pair
        best = following
    return tuple(best)


@lru(_CACHE_SIZE)
def _merge(a: Table, b: Table) -> Table:
    """Two groups of kinds side by side: the best split of s sets and p pairs between them (every table value is
    at least 0, so the best is at least 0 too).

    Cell ``2 * s + p`` is the best of a's cell ``2 * s1 + p1`` plus b's cell ``2 * (s - s1) + p - p1`` over every
    split, written out sum by sum: 45 sums, each compared with the best so far by an int comparison, where ``max``
    is a call comparing its arguments through the generic rich comparison (21 k instructions a merge with 9
    ``max`` calls, about 6 k without; a cold replay merges hundreds of pairs of tables, and a suit not shipped
    merges its runs; tests/engine/test_suit_tables.py compares it with the loop over the splits)."""
    a0, a1, a2, a3, a4, a5, a6, a7, a8, a9 = a
    b0, b1, b2, b3, b4, b5, b6, b7, b8, b9 = b
    c0 = a0 + b0
    c1 = a0 + b1
    c1 = v if (v := a1 + b0) > c1 else c1
    c2 = a0 + b2
    c2 = v if (v := a2 + b0) > c2 else c2
    c3 = a0 + b3
    c3 = v if (v := a1 + b2) > c3 else c3
    c3 = v if (v := a2 + b1) > c3 else c3
    c3 = v if (v := a3 + b0) > c3 else c3
    c4 = a0 + b4
    c4 = v if (v := a2 + b2) > c4 else c4
    c4 = v if (v := a4 + b0) > c4 else c4
    c5 = a0 + b5
    c5 = v if (v := a1 + b4) > c5 else c5
    c5 = v if (v := a2 + b3) > c5 else c5
    c5 = v if (v := a3 + b2) > c5 else c5
    c5 = v if (v := a4 + b1) > c5 else c5
    c5 = v if (v := a5 + b0) > c5 else c5
    c6 = a0 + b6
    c6 = v if (v := a2 + b4) > c6 else c6
    c6 = v if (v := a4 + b2) > c6 else c6
    c6 = v if (v := a6 + b0) > c6 else c6
    c7 = a0 + b7
    c7 = v if (v := a1 + b6) > c7 else c7
    c7 = v if (v := a2 + b5) > c7 else c7
    c7 = v if (v := a3 + b4) > c7 else c7
    c7 = v if (v := a4 + b3) > c7 else c7
    c7 = v if (v := a5 + b2) > c7 else c7
    c7 = v if (v := a6 + b1) > c7 else c7
    c7 = v if (v := a7 + b0) > c7 else c7
    c8 = a0 + b8
    c8 = v if (v := a2 + b6) > c8 else c8
    c8 = v if (v := a4 + b4) > c8 else c8
    c8 = v if (v := a6 + b2) > c8 else c8
    c8 = v if (v := a8 + b0) > c8 else c8
    c9 = a0 + b9
    c9 = v if (v := a1 + b8) > c9 else c9
    c9 = v if (v := a2 + b7) > c9 else c9
    c9 = v if (v := a3 + b6) > c9 else c9
    c9 = v if (v := a4 + b5) > c9 else c9
    c9 = v if (v := a5 + b4) > c9 else c9
    c9 = v if (v := a6 + b3) > c9 else c9
    c9 = v if (v := a7 + b2) > c9 else c9
    c9 = v if (v := a8 + b1) > c9 else c9
    c9 = v if (v := a9 + b0) > c9 else c9
    return (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9)


@lru(_CACHE_SIZE)
def _used(suits: Table, honours: Table, sets: int) -> int:
    """Most held tiles a complete hand of ``sets`` sets and one pair can use. Compared by ``>``, not ``max``: a
    ``max`` call is about a thousand instructions, five of them a hand of four sets not counted before."""
    best = 0
    for s1 in range(sets + 1):
        other = 2 * (sets - s1)
        value = suits[2 * s1] + honours[other + 1]  # the pair among the honours
        if (with_pair := suits[2 * s1 + 1] + honours[other]) > value:  # the pair among the number suits
            value = with_pair
        if value > best:
            best = value
    return best


# --- the contract's analyze answer -----------------------------------------------------------------------------


def analyze(text: str) -> dict:
    """Shanten and waits of 3n+1 tiles, or completeness and every reading of 3n+2 tiles, as the contract's dict."""
    codes = parse_tiles(text)
    total = len(codes)
    if total == 0:
        raise InvalidHand("no tiles given")
    if total > 14:
        raise InvalidHand(f"{total} tiles given; a hand holds at most 14")
    if total % 3 == 0:
        raise InvalidHand(
            f"{total} tiles given; a hand to analyse holds 3n+1 tiles (13: shanten and waits) "
            f"or 3n+2 tiles (14: complete or not)"
        )
    counts = [0] * KINDS
    for code in codes:
        counts[code if code < KINDS else (4, 13, 22)[code - KINDS]] += 1
    for kind, count in enumerate(counts):
        if count > 4:
            raise InvalidHand(
                f"`{format_kind(kind)}` appears {count} times; there are only 4 copies of each tile"
            )
    reds = [code for code in codes if is_red(code)]
    for code in set(reds):
        if reds.count(code) > 1:
            raise InvalidHand(
                f"red five `{format_tiles([code])}` appears {reds.count(code)} times; there is only one"
            )
    key = tuple(counts)
    number = shanten(key)
    result: dict = {
        "tiles": format_tiles(codes),
        "shanten": number,
        "waits": [],
        "complete": False,
        "decompositions": [],
    }
    if total % 3 == 1:
        result["waits"] = [format_kind(kind) for kind in waits(key)]
    else:
        result["complete"] = number == -1
        result["decompositions"] = [reading_json(reading) for reading in decompose(key)]
    return result


def reading_json(reading: Reading) -> dict:
    return {"shape": reading.shape, "groups": [group_text(group) for group in reading.groups]}


def group_text(group: Group) -> str:
    """A group in mpsz: ``123m``, ``111z``, ``55p``, or ``9s`` for a lone tile."""
    shape, kind = group
    digit = number_of(kind)
    suit = suit_of(kind)
    if shape == SEQ:
        return f"{digit}{digit + 1}{digit + 2}{suit}"
    repeat = {TRIP: 3, PAIR: 2, SINGLE: 1}[shape]
    return f"{str(digit) * repeat}{suit}"


def clear_caches() -> None:
    """Forget every cached table (for benchmarks that want cold-start figures)."""
    for cached in (_pattern_table, _honour_table, _merge, _used, _used_by_numbers):
        cached.cache_clear()
    for memo in (_SUIT_KEYS, _HONOUR_KEYS):
        memo.clear()
    for keyed in (_OCTAL_SUITS, _OCTAL_HONOURS, _OCTAL_SUIT_WAITS, _OCTAL_HONOUR_WAITS, SHANTEN_OF_KEYS):
        keyed.clear()


# --- waits read suit by suit ----------------------------------------------------------------------------------------

_SUIT_STARTS = (0, 9, 18, 27)  # each suit's first kind


def _waits_of_suits(keys: tuple[int, int, int, int], added: int, hand: HandKey) -> list[int]:
    """The kinds that complete a tenpai 3n+1 hand into sets and a pair, in kind order, from its four suits' keys
    (each suit read by its octal key, and ``added`` their sum) and each suit's ``_suit_waits`` (kept by the suit's
    octal key in ``hand``, asked only of a suit the tile can go to): ``waits_of_keys``'s walk.

    A tile completes a hand exactly when its suit, with the tile, and every other suit split into sets and at
    most one pair using every held tile, with one pair in all (or the tile completes seven pairs or thirteen
    orphans, which the caller adds). Whether a suit splits so (in its key, ``_split_bits``) and which tiles make it
    split so (``_suit_waits``) depend on that suit's counts alone and are kept per suit, so a hand not seen before
    costs a few look-ups instead of a table merge per candidate tile."""
    broken = added >> _BROKEN_SHIFT & 7  # the suits not complete as they stand
    pairs = added >> _PAIRED_SHIFT & 7  # those complete as they stand with their pair
    found: list[int] = []
    if broken < 2:  # two suits not complete: no tile mends both
        for suit, key in enumerate(keys):
            if broken and not key >> _BROKEN_SHIFT & 1:
                continue  # one suit is not complete: the tile must go there
            # the pairs of the other suits: the tile's suit must bring the pair when they hold none, and must not
            # when they hold one
            others = pairs - (key >> _PAIRED_SHIFT & 1)
            if others <= 1:
                within = _OCTAL_WAITS_BY_SUIT[suit][hand[suit]][others]
                if within:  # placed by one C-level map (a generator is a frame per suit)
                    found.extend(map(_SUIT_STARTS[suit].__add__, within))
    return found


def _add_special_waits(found: list[int], held: list[int]) -> None:
    """Add to ``found`` (kept in kind order) the kinds completing seven pairs or thirteen orphans of the 34
    counts ``held`` (a hand with no melds, at shanten 0 towards one of them)."""
    for kind in sorted({k for k in range(KINDS) if held[k]}.union(YAOCHUU_KINDS)):
        if held[kind] < 4 and kind not in found:
            held[kind] += 1
            if _special_complete(held):
                found.append(kind)
            held[kind] -= 1
    found.sort()


def _split_cell(total: int) -> tuple[int, int]:
    """The table cell that says whether ``total`` tiles of one suit split into sets and at most one pair using
    every tile (they do when the cell holds ``total``), and whether that split has the pair; (-1, -1) when no
    split can (a total of 3n+1)."""
    sets, rest = divmod(total, 3)
    if rest == 1:
        return -1, -1
    pair = rest >> 1
    return 2 * sets + pair, pair


# ``_split_cell`` of every total one suit (with one tile more) can hold, read by index where a suit is first met;
# a larger total has none, as its table has no such cell
_SPLIT_CELLS = tuple(_split_cell(total) for total in range(3 * MAX_SETS + 4))


def _suit_waits(vec: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The kinds of one suit (index in the suit) whose one more copy makes it split into sets and a pair using
    every tile, then those that make it split into sets alone (a copy beyond the fourth never counts): indexed
    by the pairs the other suits hold.

    Every such suit holds the same number of tiles, so one cell of each one-more suit's table answers
    (``_split_cell``), and those tables come from the shipped ones by index (``suit_tables.with_one_more``)
    rather than by building and looking up nine suits."""
    total = sum(vec) + 1
    cell, pair = _SPLIT_CELLS[total]
    if cell < 0:
        return (), ()
    found = tuple(index for index, table in enumerate(_with_one_more(vec)) if table is not None and table[cell] == total)
    return (found, ()) if pair else ((), found)


def _with_one_more(vec: tuple[int, ...]) -> Sequence[Table | None]:
    """Per kind, the table of the suit (or the honours) with one more copy of it; None for a kind held four
    times. Read from the shipped tables where they cover the suit, else each one-more suit's table."""
    shipped = suit_tables.with_one_more(vec)
    if shipped is not None:
        return shipped
    table_of = _honour_table if len(vec) == 7 else _suit_table
    return [table_of(vec[:index] + (count + 1,) + vec[index + 1 :]) if count < 4 else None for index, count in enumerate(vec)]


def _special_complete(held: list[int]) -> bool:
    """Seven pairs or thirteen orphans complete (14 tiles, no melds), as ``shanten`` counts them."""
    return _seven_pairs_shanten(held) == -1 or _orphans_shanten(held) == -1


def _seven_pairs_shanten(counts: Sequence[int]) -> int:
    """Shanten towards seven pairs of distinct kinds (a kind held three or four times is one pair)."""
    pairs = counts.count(2) + counts.count(3) + counts.count(4)
    kinds = KINDS - counts.count(0)
    return 6 - pairs + (7 - kinds if kinds < 7 else 0)


def _orphans_shanten(counts: Sequence[int]) -> int:
    """Shanten towards thirteen orphans: one of each terminal and honour, one of them twice (13 less the
    terminal and honour kinds held, less one for a pair among them)."""
    held = _YAOCHUU_OF(counts)
    return held.count(0) - (1 if max(held) > 1 else 0)


# the counts of the thirteen terminal and honour kinds, in one C-level call
_YAOCHUU_OF = itemgetter(*YAOCHUU_KINDS)


# --- a hand read by its suits' octal keys -----------------------------------------------------------------------

# A round keeps each seat's hand as four integers, each suit's counts as octal digits (kind n of the suit: digit n,
# the lowest first; ``engine.round.shanten_floor``), changed by one addition per tile. Read by those keys and the
# melds (``HandKey``), a hand's shanten and waits need no 34-tuple built and hashed, and a suit not seen before is
# a look-up by a small int (``_OCTAL_SUITS``) rather than a slice of the counts hashed as a 9-tuple.
HandKey = tuple[int, int, int, int, int]  # the four octal suit keys (the honours last) and the number of melds

# A suit read by its octal key is ``_suit_key``'s fields below bit 22, its tile count from bit 22 (8 bits: four
# suits' counts add up there without spilling) and its table's number from bit 32, alone above the count, so
# that the four keys added carry the hand's tile count and a number is one shift, not a shift and a mask
_TOTAL_SHIFT = 22
_OCTAL_NUMBER_SHIFT = 32
_FIELDS = (1 << _NUMBER_SHIFT) - 1
_DIGIT_SHIFTS = tuple(range(0, 27, 3))
_DIGIT_ONES = int("1" * 9, 8)  # the low bit of each of a number suit's nine digits
_END_DIGITS = int("100000001", 8)  # numbers 1 and 9
# the most entries each cache read by octal keys holds before it starts over (as the seat's floor tables)
KEYED_BOUND = 1 << 16


class KeyedMemo(dict[_K, _V]):
    """``memo[key]`` is ``count(key)``, counted on first sight and kept; emptied at once when it holds ``bound``
    entries and registered by name (``ruledsl.caches.register``). A hit is one C-level subscript, and unlike a
    ``ruledsl.memo.Memo`` the bound is the owner's, not the batch's entry cap: a replay meets tens of thousands of
    distinct hands, and emptying at a few thousand made its every pass count them again."""

    __slots__ = ("count", "bound")

    def __init__(self, name: str, count: Callable[[_K], _V], bound: int = KEYED_BOUND) -> None:
        super().__init__()
        self.count = count
        self.bound = bound
        register(name, self.clear, self.__len__, bound)

    def __missing__(self, key: _K) -> _V:
        if len(self) >= self.bound:
            self.clear()
        value = self[key] = self.count(key)
        return value


def _digits(key: int, kinds: int) -> tuple[int, ...]:
    """The counts an octal suit key holds: ``kinds`` digits (nine, or the honours' seven), the lowest first."""
    return tuple([key >> shift & 7 for shift in _DIGIT_SHIFTS[:kinds]])


def _octal_suit_key(key: int) -> int:
    """``_suit_key`` of the number suit of this octal key, as ``_octal_value`` lays it out.

    Read off the key itself where the suit's table is shipped: each count's bits as masks of one bit a kind (as
    ``engine.round.shanten_floor`` reads them) give the kinds held, paired and at the ends and the tile count, and
    the key's octal digits read in base 5 are the suit's index among the shipped tables (``index_of``), so no
    nine counts are built. A count above 4 (no shipped suit holds one) or a suit past the shipped ones is read
    from its counts (``_suit_key``)."""
    b0 = key & _DIGIT_ONES
    b1 = key >> 1 & _DIGIT_ONES
    b2 = key >> 2 & _DIGIT_ONES
    table = None if b2 & (b0 | b1) else suit_tables.table_at_index(int(f"{key:o}", 5))
    if table is None:
        vec = _digits(key, 9)
        return _octal_value(_suit_key(vec), sum(vec))
    paired = b1 | b2
    held = b0 | paired
    total = b0.bit_count() + 2 * b1.bit_count() + 4 * b2.bit_count()
    counts = (paired & _END_DIGITS).bit_count() << 13 | (held & _END_DIGITS).bit_count() << 9 | held.bit_count() << 4 | paired.bit_count()
    return _number_of(table) << _OCTAL_NUMBER_SHIFT | total << _TOTAL_SHIFT | _split_bits(table, total) | counts


def _octal_honour_key(key: int) -> int:
    """``_honour_key`` of the honours of this octal key, as ``_octal_value`` lays it out."""
    vec = _digits(key, 7)
    return _octal_value(_honour_key(vec), sum(vec))


def _octal_value(suit_key: int, total: int) -> int:
    """A suit's key (``_suit_key``) of ``total`` tiles laid out as the suits read by octal keys are."""
    return suit_key >> _NUMBER_SHIFT << _OCTAL_NUMBER_SHIFT | total << _TOTAL_SHIFT | suit_key & _FIELDS


_OCTAL_SUITS: KeyedMemo[int, int] = KeyedMemo("engine.core.analysis.octal_suits", _octal_suit_key)
_OCTAL_HONOURS: KeyedMemo[int, int] = KeyedMemo("engine.core.analysis.octal_honours", _octal_honour_key)
_OCTAL_SUIT_WAITS: KeyedMemo[int, tuple[tuple[int, ...], tuple[int, ...]]] = KeyedMemo(
    "engine.core.analysis.octal_suit_waits", lambda key: _suit_waits(_digits(key, 9))
)
_OCTAL_HONOUR_WAITS: KeyedMemo[int, tuple[tuple[int, ...], tuple[int, ...]]] = KeyedMemo(
    "engine.core.analysis.octal_honour_waits", lambda key: _suit_waits(_digits(key, 7))
)
_OCTAL_WAITS_BY_SUIT = (_OCTAL_SUIT_WAITS, _OCTAL_SUIT_WAITS, _OCTAL_SUIT_WAITS, _OCTAL_HONOUR_WAITS)


class _ShantenOfKeys(dict[HandKey, int]):
    """``shanten(counts, n_melds)`` by the hand of four octal suit keys and its melds (``HandKey``), counted on
    first sight as ``shanten`` counts it, from the same four suit keys (each read by its octal key) and the same
    merged numbers; emptied at ``KEYED_BOUND`` entries, as a ``KeyedMemo``. The count is written out in the miss
    rather than called from it: a replay's first pass counts thousands of hands, one Python call fewer
    each."""

    __slots__ = ()

    def __missing__(self, hand: HandKey) -> int:
        if len(self) >= KEYED_BOUND:
            self.clear()
        m = _OCTAL_SUITS[hand[0]]
        p = _OCTAL_SUITS[hand[1]]
        s = _OCTAL_SUITS[hand[2]]
        h = _OCTAL_HONOURS[hand[3]]
        added = m + p + s + h
        total = added >> _TOTAL_SHIFT & 255
        sets = _SETS_OF.get((total, hand[4]))
        if sets is None:
            sets = _sets_and_melds(total, hand[4])
        # 32: _OCTAL_NUMBER_SHIFT, written out (a constant, where a module name is a look-up per use)
        best = 3 * sets + 1 - _used_by_numbers(((((m >> 32) << 10 | p >> 32) << 10 | s >> 32) << 10 | h >> 32) << 3 | sets)
        if sets == MAX_SETS and best > -1:
            special = _special_shanten(added)
            if special < best:
                best = special
        self[hand] = best
        return best


# ``shanten`` by the hand's octal suit keys and melds: a round asks it of the resting hand after a discard, of the
# drawn hand and of each riichi discard; a hit hashes five small ints, where a cache by the counts built and hashed
# the 34 counts
SHANTEN_OF_KEYS = _ShantenOfKeys()
register("engine.core.analysis.shanten_of_keys", SHANTEN_OF_KEYS.clear, SHANTEN_OF_KEYS.__len__, KEYED_BOUND)


def waits_of_keys(hand: HandKey) -> list[int]:
    """``waits(counts, n_melds)`` of the hand of four octal suit keys and its melds (a 3n+1 hand), in kind
    order, as a new list; not cached itself (a round keeps the waits within its tile set).

    A melds count that does not fit the tiles raises in the shanten count (``_sets_and_melds``), asked first: a
    3n+1 count fits exactly the melds its 3n+2 count fits, so the count with the winning tile needs no check."""
    n_melds = hand[4]
    keys = (_OCTAL_SUITS[hand[0]], _OCTAL_SUITS[hand[1]], _OCTAL_SUITS[hand[2]], _OCTAL_HONOURS[hand[3]])
    added = keys[0] + keys[1] + keys[2] + keys[3]
    total = added >> _TOTAL_SHIFT & 255
    if total % 3 != 1:
        raise InvalidHand(f"{total} tiles: waits are asked of a hand of 3n+1 tiles (13, 10, 7, 4 or 1)")
    if SHANTEN_OF_KEYS[hand] != 0:
        return []
    found = _waits_of_suits(keys, added, hand)
    if n_melds == 0 and _special_shanten(added) == 0:
        _add_special_waits(found, _counts_of_keys(hand))
    return found


def _counts_of_keys(hand: HandKey) -> list[int]:
    """The 34 kind counts of the hand of these octal suit keys."""
    return [*_digits(hand[0], 9), *_digits(hand[1], 9), *_digits(hand[2], 9), *_digits(hand[3], 7)]
