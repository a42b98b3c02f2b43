"""The shipped table of every suit (``engine.core.suit_tables``) and the numbered suits of ``shanten``: current,
equal to the counted tables, and the shanten count read through them equal to the plain merge of the tables."""

from __future__ import annotations

import binascii
import itertools
import json
import random
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from engine.core import analysis, suit_tables
from engine.core.analysis import _computed_suit_table, _shanten_by_tables, shanten
from engine.core.analysis_tables import SUIT_LIMIT, index_of
from tests.shipped_file import ship


def test_the_shipped_file_is_current() -> None:
    """Its fingerprint is the hash of today's code of the count (what ``regenerate --check`` compares)."""
    shipped = json.loads(suit_tables.PATH.read_text(encoding="utf-8"))
    assert shipped["fingerprint"] == suit_tables.fingerprint(), "regenerate it with `python -m ruledsl.regenerate`"
    assert suit_tables.render() == suit_tables.PATH.read_text(encoding="utf-8")


def _some_suits(rng: random.Random) -> list[tuple[int, ...]]:
    """Every suit of at most 5 tiles, and 6,000 random ones of up to ``SUIT_LIMIT`` tiles (four copies among them)."""
    small = [vec for vec in itertools.product(range(5), repeat=9) if sum(vec) <= 5]
    large: list[tuple[int, ...]] = []
    while len(large) < 6000:
        vec = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(vec) <= SUIT_LIMIT:
            large.append(vec)
    return small + large


def test_every_shipped_table_is_the_counted_one() -> None:
    for vec in _some_suits(random.Random(20261202)):
        assert suit_tables.table_of(vec) == _computed_suit_table(vec), vec


@pytest.mark.slow
def test_every_shipped_table_of_every_suit_is_the_counted_one() -> None:
    numbers, listed = suit_tables.compute()
    shipped = suit_tables.tables()
    assert shipped is not None
    assert _expanded(shipped) == numbers
    assert shipped[2] == suit_tables.by_byte(listed)


def test_blocks_give_back_every_byte() -> None:
    """``blocked`` keeps each distinct block once and ``_expanded`` puts every byte back in its place (a suit's
    byte is read at its block's number times ``BLOCK`` plus its place in the block)."""
    rng = random.Random(20261204)
    pieces = [bytes(suit_tables.BLOCK), bytes(range(1, suit_tables.BLOCK + 1)), bytes([3]) * suit_tables.BLOCK]
    numbers = b"".join(rng.choice(pieces) for _ in range(5**9 // suit_tables.BLOCK))
    block_of, blocks = suit_tables.blocked(numbers)
    assert len(blocks) == len(set(pieces)) * suit_tables.BLOCK
    data = {"numbers": _numbers(block_of + blocks), "tables": []}
    assert _expanded(suit_tables.decode(data)) == numbers
    assert suit_tables.decode({"numbers": suit_tables.encode(numbers), "tables": []})[1] == blocks


def test_the_index_in_range_is_the_index_of_every_suit_of_at_most_five_tiles_and_random_ones() -> None:
    """``index_in_range`` (counts read as base-5 digits) against ``index_of`` (the sum of products)."""
    for vec in _some_suits(random.Random(20261204)):
        assert suit_tables.index_in_range(vec) == index_of(vec), vec


@pytest.mark.slow
def test_the_index_in_range_is_the_index_of_every_nine_counts() -> None:
    for vec in itertools.product(range(5), repeat=9):
        assert suit_tables.index_in_range(vec) == index_of(vec), vec


@pytest.mark.parametrize("count", [-1, 5, 9, 48, 120, 255, 256, 1000])
def test_a_count_outside_the_shipped_range_has_no_index(count: int) -> None:
    for place in range(9):
        vec = tuple(count if kind == place else 1 for kind in range(9))
        assert suit_tables.index_in_range(vec) is None, vec
        assert suit_tables.table_of(vec) is None, vec
        assert suit_tables.with_one_more(vec) is None, vec


def test_a_suit_outside_the_shipped_range_has_no_shipped_table() -> None:
    assert suit_tables.table_of((4, 4, 4, 3, 0, 0, 0, 0, 0)) is None  # 15 tiles
    assert suit_tables.table_of((5, 0, 0, 0, 0, 0, 0, 0, 0)) is None  # a fifth copy
    assert suit_tables.table_of((-1, 1, 0, 0, 0, 0, 0, 0, 0)) is None
    assert suit_tables.table_of((1, 1, 1, 0, 0, 0, 0)) is None  # the honours: seven kinds


def _shipped(**changes: object) -> str:
    data = json.loads(suit_tables.PATH.read_text(encoding="utf-8"))
    data.update(changes)
    return json.dumps(data)


def _expanded(read: tuple) -> bytes:
    """Every suit's byte again, from the block numbers and the blocks (what ``suit_tables.blocked`` split): the
    reference the look-ups' arithmetic is held to."""
    block_of, blocks = read[0], read[1]
    return b"".join(blocks[number * suit_tables.BLOCK : (number + 1) * suit_tables.BLOCK] for number in block_of)


def _numbers(raw: bytes) -> list[str]:
    return [binascii.b2a_base64(zlib.compress(raw), newline=False).decode("ascii")]


# every block's number (two bytes each), for a stream that is only the numbers
_BLOCK_NUMBERS = 2 * 5**9 // suit_tables.BLOCK


@pytest.mark.parametrize(
    "text",
    [
        None,
        "{not json",
        "[1, 2]",
        _shipped(format=-1),
        _shipped(suit_limit=SUIT_LIMIT + 1),
        _shipped(numbers=["bm90IGx6bWE="]),  # base64 of bytes that are no zlib stream
        _shipped(numbers=_numbers(bytes(100))),  # too few suits
        _shipped(numbers=_numbers(bytes(_BLOCK_NUMBERS + suit_tables.BLOCK - 1))),  # a block cut short
        _shipped(tables=["012"]),
    ],
    ids=["missing", "not-json", "a-list", "other-format", "other-limit", "not-zlib", "short", "short-block", "short-table"],
)
def test_an_unusable_file_is_no_table_and_every_suit_is_counted(monkeypatch: pytest.MonkeyPatch, text: str | None) -> None:
    """A file that cannot be read, is not JSON, was written for another layout or suit limit, or whose numbers
    and tables do not fit together gives no table, so every suit is counted (never read wrong): the same
    shanten counts."""
    rng = random.Random(8)
    hands = [tuple(_random_hand(rng, 13)) for _ in range(200)]
    analysis.clear_caches()
    expected = [shanten(held) for held in hands]
    with _shipping(monkeypatch, text):
        assert suit_tables.tables() is None
        assert suit_tables.table_of((1, 1, 1, 0, 0, 0, 0, 0, 0)) is None
        assert [shanten(held) for held in hands] == expected


@contextmanager
def _shipping(monkeypatch: pytest.MonkeyPatch, text: str | None) -> Iterator[None]:
    """The suit tables' file replaced by ``text`` (None: no file) inside the block, every cache emptied on the way
    in and out, so that no table read from one file answers under another."""
    ship(monkeypatch, suit_tables.FILE_NAME, text)
    suit_tables.tables.cache_clear()
    analysis.clear_caches()
    try:
        yield
    finally:
        suit_tables.tables.cache_clear()
        analysis.clear_caches()


def _damaged_file_counts_its_suits(monkeypatch: pytest.MonkeyPatch, text: str, seed: int) -> None:
    """A damaged file that is still read: a suit it names no table for gets none (nor do the suits one more copy
    makes of it), and 100 random hands get the shanten counts and waits the shipped file gives."""
    rng = random.Random(seed)
    hands = [tuple(_random_hand(rng, 13)) for _ in range(100)]
    analysis.clear_caches()
    expected = [(shanten(held), analysis.waits(held)) for held in hands]
    with _shipping(monkeypatch, text):
        assert suit_tables.tables() is not None
        assert suit_tables.table_of((1, 1, 1, 0, 0, 0, 0, 0, 0)) is None
        assert suit_tables.with_one_more((1, 1, 1, 0, 0, 0, 0, 0, 0)) is None
        assert [(shanten(held), analysis.waits(held)) for held in hands] == expected


def test_a_byte_naming_no_table_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """A byte past the shipped tables (a damaged file) names no table: the file is read without checking every
    suit's byte, and such a suit is counted (``by_byte``), never read wrong: the same shanten counts and waits."""
    _damaged_file_counts_its_suits(monkeypatch, _shipped(numbers=suit_tables.encode(bytes([200]) * 5**9)), 9)


def test_a_block_number_past_the_blocks_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """A block number past the blocks (a damaged file) is no table either: the look-up's IndexError makes the
    suit counted, with the same shanten counts and waits."""
    raw = bytes([255]) * _BLOCK_NUMBERS + bytes(suit_tables.BLOCK)
    _damaged_file_counts_its_suits(monkeypatch, _shipped(numbers=_numbers(raw)), 10)


def test_by_byte_names_every_table_by_its_byte() -> None:
    listed = ((1,) * 10, (2,) * 10)
    of_byte = suit_tables.by_byte(listed)
    assert len(of_byte) == 256
    assert of_byte[0] is None and of_byte[1] == listed[0] and of_byte[2] == listed[1]
    assert all(table is None for table in of_byte[3:])


def test_a_stale_fingerprint_computes_the_tables_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the committed file's fingerprint out of date, ``render`` computes the suits' tables from the count
    (here of a few suits, the whole run being the slow test's) and writes them with the new fingerprint; the file
    it writes reads back as the tables counted, and a suit not computed as none."""
    few = _some_suits(random.Random(3))[::5]
    monkeypatch.setattr(suit_tables, "suits", lambda: few)
    monkeypatch.setattr(suit_tables, "fingerprint", lambda: "stale-test")
    data = json.loads(suit_tables.render())
    assert data["fingerprint"] == "stale-test"
    decoded = suit_tables.decode(data)
    numbers, listed = _expanded(decoded), decoded[2]
    for vec in few:
        assert listed[numbers[index_of(vec)] - 1] == _computed_suit_table(vec), vec
    assert numbers[index_of((4, 4, 4, 2, 0, 0, 0, 0, 0))] == 0


def _random_hand(rng: random.Random, tiles: int) -> list[int]:
    held = [0] * 34
    for kind in rng.sample([k for k in range(34) for _ in range(4)], tiles):
        held[kind] += 1
    return held


def test_shanten_by_numbered_suits_equals_the_merged_tables() -> None:
    """``shanten`` reads each suit as a number and its seven-pairs and orphans counts packed beside it; the plain
    count merges the tables and counts the 34 kinds. Random hands of every size, hands of pairs (seven pairs),
    of terminals and honours (thirteen orphans), crowded in one suit, and after calls."""
    rng = random.Random(20261202)
    hands: list[tuple[list[int], int | None]] = []
    for _ in range(6000):
        size = rng.choice((13, 14, 10, 11, 7, 8, 4, 5, 1, 2))
        hands.append((_random_hand(rng, size), None))
    for _ in range(1500):
        pairs = [0] * 34
        for kind in rng.sample(range(34), 7):
            pairs[kind] = rng.choice((1, 2, 2, 3, 4))
        while sum(pairs) > 14:
            pairs[max(range(34), key=pairs.__getitem__)] -= 1
        if sum(pairs) % 3:
            hands.append((pairs, None))
        orphans = [0] * 34
        for kind in rng.choices([0, 8, 9, 17, 18, 26, *range(27, 34), rng.randrange(34)], k=rng.choice((13, 14))):
            orphans[kind] += 1
        if max(orphans) <= 4:
            hands.append((orphans, None))
        suit = rng.randrange(4)
        crowded = [0] * 34
        for kind in rng.choices(range(9 * suit, min(9 * suit + 9, 34)), k=rng.choice((13, 14))):
            crowded[kind] += 1
        if max(crowded) <= 4:
            hands.append((crowded, None))
        melds = rng.randint(1, 4)
        hands.append((_random_hand(rng, 13 - 3 * melds + rng.randint(0, 1)), melds))
    for held, melds in hands:
        assert shanten(held, melds) == _shanten_by_tables(held, melds), (held, melds)


def test_the_table_numbers_are_shared_by_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Threads meeting new tables at once never give two tables one number (a numbering of the test's own)."""
    import threading

    monkeypatch.setattr(analysis, "_NUMBERED", {})
    monkeypatch.setattr(analysis, "_BY_NUMBER", [])
    tables = list(itertools.product(range(3), repeat=10))[:400]
    start = threading.Barrier(4)

    def number_all() -> None:
        start.wait()
        for table in tables:
            analysis._number_of(table)

    threads = [threading.Thread(target=number_all) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(analysis._BY_NUMBER) == len(tables)
    for table in tables:
        assert analysis._BY_NUMBER[analysis._number_of(table)] == table


def _few_suits(rng: random.Random, count: int) -> list[tuple[int, ...]]:
    """``count`` random suits of up to ``SUIT_LIMIT`` tiles, four copies among them (``_some_suits``'s random part
    alone: enumerating the small suits reads two million tuples, a second of a test's time)."""
    found: list[tuple[int, ...]] = []
    while len(found) < count:
        vec = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(vec) <= SUIT_LIMIT:
            found.append(vec)
    return found


def _waits_by_building(vec: tuple[int, ...], table_of: Callable[[tuple[int, ...]], object] = _computed_suit_table) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Reference for ``analysis._suit_waits``: each suit with one more copy built and its table counted (or read
    by ``table_of``), then whether it splits into sets and a pair, or sets alone, using every tile."""
    with_pair: list[int] = []
    without: list[int] = []
    for index, count in enumerate(vec):
        if count < 4:
            more = vec[:index] + (count + 1,) + vec[index + 1 :]
            total = sum(more)
            table: Any = analysis._honour_table(more) if len(vec) == 7 else table_of(more)
            if total % 3 == 2 and table[2 * (total // 3) + 1] == total:
                with_pair.append(index)
            elif total % 3 == 0 and table[2 * (total // 3)] == total:
                without.append(index)
    return tuple(with_pair), tuple(without)


def test_the_one_more_tables_are_the_shipped_tables_of_each_one_more_suit() -> None:
    """``with_one_more`` reads the nine one-more suits' tables by index arithmetic: each is the table of the suit
    built with that copy (None for a kind held four times); none at all where a one-more suit would pass the
    shipped range."""
    for vec in _few_suits(random.Random(5), 500):
        found = suit_tables.with_one_more(vec)
        if sum(vec) >= SUIT_LIMIT:
            assert found is None
            continue
        assert found is not None
        for index, count in enumerate(vec):
            more = vec[:index] + (count + 1,) + vec[index + 1 :]
            assert found[index] == (None if count == 4 else _computed_suit_table(more)), (vec, index)
    assert suit_tables.with_one_more((1, 1, 1, 0, 0, 0, 0)) is None  # the honours: counted instead


def test_the_waits_of_a_suit_are_those_of_each_suit_built_with_one_more_tile(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_suit_waits`` (one cell of each shipped one-more table) against building each one-more suit and counting
    its table: random suits up to 13 tiles, the honours; then some of them in a process
    without the file (every one-more suit counted then)."""
    rng = random.Random(20261203)
    suits = [vec for vec in _few_suits(rng, 300) if sum(vec) < SUIT_LIMIT]
    honours = [vec for vec in itertools.product(range(5), repeat=7) if sum(vec) <= 13][::23]
    analysis.clear_caches()
    for vec in suits + honours:
        assert analysis._suit_waits(vec) == _waits_by_building(vec), vec
    monkeypatch.setattr(suit_tables, "tables", lambda: None)
    analysis.clear_caches()
    try:
        for vec in suits[::20]:
            assert suit_tables.with_one_more(vec) is None
            assert analysis._suit_waits(vec) == _waits_by_building(vec), vec
    finally:
        analysis.clear_caches()


@pytest.mark.slow
def test_the_waits_of_every_suit_are_those_of_each_suit_built_with_one_more_tile() -> None:
    """Every suit a hand of 13 tiles can hold, the one-more suits' tables read one by one from the shipped file
    (``test_every_shipped_table_of_every_suit_is_the_counted_one`` holds those to the count)."""
    analysis.clear_caches()
    for vec in itertools.product(range(5), repeat=9):
        if sum(vec) < SUIT_LIMIT:
            assert analysis._suit_waits(vec) == _waits_by_building(vec, suit_tables.table_of), vec
    analysis.clear_caches()


def _splits(vec: tuple[int, ...], pairs: int, runs: bool) -> bool:
    """Reference: whether ``vec`` splits into sets (triplets, and runs when ``runs``) and exactly ``pairs`` pairs
    using every tile, by taking the lowest tile's group every way."""
    first = next((i for i, count in enumerate(vec) if count), None)
    if first is None:
        return pairs == 0
    held = list(vec)
    options = []
    if held[first] >= 3:
        options.append(((first, 3),))
    if pairs and held[first] >= 2:
        options.append(((first, 2),))
    if runs and first + 2 < len(vec) and held[first + 1] and held[first + 2]:
        options.append(((first, 1), (first + 1, 1), (first + 2, 1)))
    for option in options:
        after = list(held)
        for kind, taken in option:
            after[kind] -= taken
        if _splits(tuple(after), pairs - (len(option) == 1 and option[0][1] == 2), runs):
            return True
    return False


def test_the_split_bits_of_a_suit_key_are_whether_the_suit_splits_into_sets_and_a_pair() -> None:
    """The bits the waits (``analysis._waits_of_suits``) read from a suit's key: not splitting into sets and at most
    one pair using every tile, or splitting so with the pair; against a plain split search, random suits and
    honours."""
    rng = random.Random(41)
    suits = _few_suits(rng, 1000)
    honours = [vec for vec in itertools.product(range(5), repeat=7) if sum(vec) <= 14][::17]
    for vec in suits + honours:
        key = analysis._suit_key(vec) if len(vec) == 9 else analysis._honour_key(vec)
        runs = len(vec) == 9
        with_pair, without = _splits(vec, 1, runs), _splits(vec, 0, runs)
        assert key >> analysis._BROKEN_SHIFT & 1 == (not with_pair and not without), vec
        assert key >> analysis._PAIRED_SHIFT & 1 == with_pair, vec


def test_merging_the_shipped_tables_is_commutative_and_associative() -> None:
    """``_used_by_numbers`` merges the three suits in the order of their numbers, not their places: the same
    table whatever the order, over random triples of shipped tables (the honours' among them)."""
    shipped = suit_tables.tables()
    assert shipped is not None
    listed = [table for table in shipped[2] if table is not None] + [analysis._honour_table(vec) for vec in ((3, 3, 2, 0, 0, 0, 0), (1, 1, 1, 1, 1, 1, 1), (4, 0, 2, 0, 0, 0, 0))]
    rng = random.Random(12)
    merge = analysis._merge.__wrapped__  # uncached: each order is counted afresh
    for _ in range(300):
        a, b, c = rng.choice(listed), rng.choice(listed), rng.choice(listed)
        merged = merge(merge(a, b), c)
        assert merge(b, a) == merge(a, b)
        for x, y, z in itertools.permutations((a, b, c)):
            assert merge(merge(x, y), z) == merged == merge(x, merge(y, z)), (a, b, c)


# per cell ``2 * s + p`` of a merged table, the cells (of a, of b) of each way to split s sets and p pairs
_SPLITS = tuple(
    tuple((2 * s1 + p1, 2 * (s - s1) + p - p1) for s1 in range(s + 1) for p1 in range(p + 1))
    for s in range(analysis.MAX_SETS + 1)
    for p in range(2)
)


def test_the_merge_written_out_is_the_best_over_every_split() -> None:
    """``_merge`` (one expression) against the loop over every split of each cell (``_SPLITS``): random tables
    of values 0..14 and every pair of a sample of shipped ones."""
    merge = analysis._merge.__wrapped__
    rng = random.Random(77)
    tables = [tuple(rng.randrange(15) for _ in range(10)) for _ in range(400)]
    shipped = suit_tables.tables()
    assert shipped is not None
    listed = [table for table in shipped[2] if table is not None]
    pairs = list(zip(tables, tables[1:], strict=False)) + [(a, b) for a in listed[::4] for b in listed[::5]]
    for a, b in pairs:
        assert merge(a, b) == tuple(max(a[i] + b[j] for i, j in splits) for splits in _SPLITS), (a, b)


def test_a_suit_keys_counts_are_those_of_its_nine_counts() -> None:
    """``_suit_key``'s low fields (pairs, kinds, terminals held once and twice or more), read by ``_special_shanten``,
    against counting them over the nine counts: the pairs of a shipped suit are its kinds held less those held once."""
    for vec in _some_suits(random.Random(20261205)):
        pairs = sum(1 for count in vec if count >= 2)
        kinds = sum(1 for count in vec if count)
        ends = sum(1 for count in (vec[0], vec[8]) if count)
        end_pairs = sum(1 for count in (vec[0], vec[8]) if count >= 2)
        assert analysis._suit_key(vec) & 0xFFFF == end_pairs << 13 | ends << 9 | kinds << 4 | pairs, vec
