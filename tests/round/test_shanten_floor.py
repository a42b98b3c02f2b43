"""The isolated- and loose-tile bounds (``engine.round.shanten_floor``) never exceed the exact shanten count, so a
hand they settle as not tenpai is not tenpai, and ``Seat.rest`` finds the same waits with it as with the full count.

Checked on hypothesis hands (every size a hand rests or draws at, with its melds), on hands near tenpai (a
complete hand with tiles taken out and put in), on the thirteen-orphans shapes it bounds apart, and at every
discard of self-played games, where the waits of each resting hand are compared with the full computation.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.analysis import shanten
from engine.core.tiles import KINDS, YAOCHUU_KINDS
from engine.game import Game
from engine.round import state as round_state
from engine.round.shanten_floor import isolated_tiles, shanten_floor
from engine.scoring.library import rulebook
from tests.round.reference import waits_of
from tests.strategies import counts_of, hands


def _check(counts: list[int] | tuple[int, ...], n_melds: int) -> None:
    total = sum(counts)
    exact = shanten(tuple(counts), n_melds)
    assert shanten_floor(counts, n_melds, total % 3 == 1) <= exact, (counts, n_melds, exact)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 4).flatmap(lambda m: st.tuples(st.just(m), hands((3 * (4 - m) + 1, 3 * (4 - m) + 2)))))
def test_the_floor_never_exceeds_the_exact_count(drawn):
    n_melds, codes = drawn
    _check(counts_of(codes), n_melds)


def test_near_tenpai_hands_and_orphans_shapes():
    rng = random.Random(24)
    full = [k for k in range(KINDS) for _ in range(4)]
    for _ in range(20000):
        n_melds = rng.choice((0, 0, 1, 2, 3, 4))
        size = 3 * (4 - n_melds) + rng.choice((1, 2))
        pool = full if rng.random() < 0.4 else full[: rng.choice((20, 36, 44, 60))] + full[108:]
        counts = [0] * KINDS
        for kind in rng.sample(pool, size):
            counts[kind] += 1
        _check(counts, n_melds)
    for missing in range(len(YAOCHUU_KINDS)):  # thirteen orphans one or more tiles short: isolated, yet near
        counts = [1 if k in YAOCHUU_KINDS else 0 for k in range(KINDS)]
        counts[YAOCHUU_KINDS[missing]] = 0
        counts[YAOCHUU_KINDS[missing - 1]] += 1
        _check(counts, 0)
        counts[4] += 1
        _check(counts, 0)


def test_isolated_tiles_counts_lone_tiles_only():
    counts = [0] * KINDS
    for kind in (0, 4, 8, 9, 10, 27, 28, 28):  # 1m 5m 9m lone; 1p 2p neighbours; East lone; South a pair
        counts[kind] += 1
    assert isolated_tiles(counts) == 4


def test_rest_finds_the_waits_of_the_full_count_in_self_play(monkeypatch):
    """Every hand rested in self-play has the waits (and tenpai) the exact count gives it."""
    seen = []
    original = round_state.Seat.rest

    def rest(self, kinds, bound=-1):
        original(self, kinds, bound)
        counts = self.counts
        exact = shanten(tuple(counts), len(self.melds))
        assert self.shanten <= exact  # a lower bound, or the count itself
        assert self.waits == (waits_of(counts, len(self.melds), kinds) if exact == 0 else frozenset())
        seen.append(exact)

    monkeypatch.setattr(round_state.Seat, "rest", rest)
    for name in ("tenhou", "tenhou_sanma"):
        for seed in (1, 2):
            Game(rulebook(name), seed, "random").play()
            Game(rulebook(name), seed, "shanten").play()
    assert 0 in seen and max(seen) >= 2


def _blocks_hand(rng: random.Random, size: int) -> list[int] | None:
    """A hand of pairs, partial runs, sets and neighbours: no isolated tile, so the loose-tile bound decides."""
    counts = [0] * KINDS
    while sum(counts) < size:
        kind = rng.randrange(KINDS)
        shape = rng.choice(("pair", "two", "gap", "run", "triplet", "single"))
        step = {"two": (0, 1), "gap": (0, 2), "run": (0, 1, 2)}.get(shape)
        kinds = [kind + d for d in step] if step else [kind] * {"pair": 2, "triplet": 3, "single": 1}[shape]
        if step and (kind >= 27 or kind % 9 + step[-1] > 8):
            continue
        if sum(counts) + len(kinds) > size or any(counts[k] >= 4 for k in kinds):
            continue
        for k in kinds:
            counts[k] += 1
    return counts


def test_the_loose_tile_bound_never_exceeds_the_exact_count():
    """Hands with no lone tile (pairs, partial runs, a set or two), where the isolated tiles bound nothing: the
    loose-tile bound settles many of them and never claims more than the exact count."""
    rng = random.Random(7)
    settled = 0
    for _ in range(20000):
        n_melds = rng.choice((0, 0, 0, 1, 2, 3))
        size = 3 * (4 - n_melds) + rng.choice((1, 2))
        counts = _blocks_hand(rng, size)
        _check(counts, n_melds)
        settled += shanten_floor(counts, n_melds, size % 3 == 1) >= 1
    assert settled > 2000


def test_seven_pairs_and_orphans_are_not_bounded_by_loose_tiles():
    six_pairs = [0] * KINDS
    for kind in (0, 3, 6, 10, 13, 16):  # 1m 4m 7m 2p 5p 8p pairs: nothing in a set, yet tenpai on seven pairs
        six_pairs[kind] = 2
    six_pairs[30] = 1
    assert shanten(tuple(six_pairs), 0) == 0 and shanten_floor(six_pairs, 0, True) == 0
    six_pairs[31] = 1  # drawn: the single discarded leaves it tenpai
    assert shanten_floor(six_pairs, 0, False) <= shanten(tuple(six_pairs), 0) == 0
    orphans = [1 if k in YAOCHUU_KINDS else 0 for k in range(KINDS)]
    assert shanten_floor(orphans, 0, True) == shanten(tuple(orphans), 0) == 0


def _floor_written_out(counts: list[int], n_melds: int, resting: bool) -> int:
    """The bound as the module docstring states it, counted kind by kind: what the integer steps must give."""
    held = [c > 0 for c in counts]
    lone = 0
    for k in range(KINDS):
        if counts[k] != 1:
            continue
        base = k - k % 9 if k < 27 else k
        top = base + 8 if k < 27 else k
        if not any(held[j] for j in range(max(base, k - 2), min(top, k + 2) + 1) if j != k):
            lone += 1
    floor = lone // 2 if resting else (lone + 1) // 2 - 1
    if floor < 1 and n_melds < 4:
        covered = [counts[k] >= 3 for k in range(KINDS)]
        for k in range(27):
            if k % 9 <= 6 and held[k] and held[k + 1] and held[k + 2]:
                covered[k] = covered[k + 1] = covered[k + 2] = True
        loose = sum(counts[k] for k in range(KINDS) if not covered[k])
        if loose >= (5 if resting else 6) and (n_melds or sum(1 for c in counts if c >= 2) < 6):
            floor = 1
    if n_melds == 0 and floor > 0:
        orphans = 13 - sum(1 for k in YAOCHUU_KINDS if counts[k]) - (1 if any(counts[k] >= 2 for k in YAOCHUU_KINDS) else 0)
        floor = min(floor, orphans)
    return max(floor, 0 if resting else -1)


def test_the_integer_steps_give_the_bound_counted_kind_by_kind():
    """The count from the suits' shares (each counted once in packed integers, loose tiles added up by one product,
    then looked up by the suit's counts) against the same bound counted kind by kind, on random hands of every size
    a hand rests or draws at and on hands of pairs and partial runs."""
    rng = random.Random(11)
    full = [k for k in range(KINDS) for _ in range(4)]
    for _ in range(20000):
        n_melds = rng.choice((0, 0, 1, 2, 3, 4))
        size = 3 * (4 - n_melds) + rng.choice((1, 2))
        pool = full if rng.random() < 0.5 else full[: rng.choice((20, 36, 44, 60))]
        counts = [0] * KINDS
        for kind in rng.sample(pool, min(size, len(pool))):
            counts[kind] += 1
        resting = sum(counts) % 3 == 1
        assert shanten_floor(counts, n_melds, resting) == _floor_written_out(counts, n_melds, resting), (counts, n_melds)


def test_the_share_tables_stay_within_their_bound_and_answer_the_same(monkeypatch):
    """A share table that reaches ``SHARES_BOUND`` starts over: it never holds more, and a share counted again from
    its key is the same bound (here with a bound of 8, on a few hundred random hands)."""
    from engine.round import shanten_floor as module

    monkeypatch.setattr(module, "SHARES_BOUND", 8)  # the number suits' table reads the bound at each miss
    monkeypatch.setattr(module._HONOUR_SHARES, "bound", 8)  # the honours' ``KeyedMemo`` keeps its own
    module._SHARES.clear()  # a cache: emptied, it counts its shares again as asked
    module._HONOUR_SHARES.clear()
    rng = random.Random(5)
    full = [k for k in range(KINDS) for _ in range(4)]
    for _ in range(300):
        counts = [0] * KINDS
        for kind in rng.sample(full, rng.choice((13, 14))):
            counts[kind] += 1
        resting = sum(counts) % 3 == 1
        assert shanten_floor(counts, 0, resting) == _floor_written_out(counts, 0, resting), counts
        assert len(module._SHARES) <= 8 and len(module._HONOUR_SHARES) <= 8


def _share_written_out(counts: list[int], honours: bool) -> int:
    """One suit's share counted number by number from its counts: isolated and loose tiles, pairs, terminal kinds
    held and held twice, each in its byte (what ``_NumberShares`` and ``_honour_share`` read from the suit's key)."""
    size = len(counts)
    held = [c > 0 for c in counts]
    isolated = sum(
        1 for n in range(size)
        if counts[n] == 1 and (honours or not any(held[j] for j in range(max(0, n - 2), min(size, n + 3)) if j != n))
    )
    covered = [c >= 3 for c in counts]
    if not honours:
        for n in range(size - 2):
            if held[n] and held[n + 1] and held[n + 2]:
                covered[n] = covered[n + 1] = covered[n + 2] = True
    loose = sum(c for c, cov in zip(counts, covered, strict=True) if not cov)
    pairs = sum(1 for c in counts if c >= 2)
    ends = range(size) if honours else (0, size - 1)
    terminals = sum(1 for n in ends if held[n])
    terminal_pairs = sum(1 for n in ends if counts[n] >= 2)
    return isolated | loose << 8 | pairs << 16 | terminals << 24 | terminal_pairs << 32


def _key(counts: list[int] | tuple[int, ...]) -> int:
    return sum(c << 3 * n for n, c in enumerate(counts))


def test_a_suits_share_read_from_its_key_is_the_share_counted_number_by_number():
    """The number suits' table (``_NumberShares``, bit masks of the key's digits in its miss) and ``_honour_share``
    against the share counted number by number, on random suits of
    counts 0 to 7 (the counts a key's digit holds); every suit under ``-m slow``."""
    from engine.round.shanten_floor import _honour_share, _NumberShares

    rng = random.Random(3)
    for _ in range(3000):
        counts = [rng.choice((0, 0, 0, 1, 1, 2, 3, 4, 5, 6, 7)) for _ in range(9)]
        assert _NumberShares()[_key(counts)] == _share_written_out(counts, False), counts
        assert _honour_share(_key(counts[:7])) == _share_written_out(counts[:7], True), counts[:7]


def test_the_number_suits_table_reads_every_count_of_numbers_1_and_9():
    """``_NumberShares`` reads the terminal fields off the counts of numbers 1 and 9 (``_END_FIELDS``): every pair
    of those counts (0 to 7, what a key's digit holds), the numbers between random, against the share counted
    number by number."""
    from engine.round.shanten_floor import _NumberShares

    rng = random.Random(5)
    for one in range(8):
        for nine in range(8):
            for _ in range(20):
                counts = [one, *(rng.choice((0, 0, 1, 2, 3, 4)) for _ in range(7)), nine]
                assert _NumberShares()[_key(counts)] == _share_written_out(counts, False), counts


@pytest.mark.slow
def test_every_suits_share_read_from_its_key_is_the_share_counted_number_by_number():
    """The same for every number suit of counts 0 to 4 and every honour suit of counts 0 to 7."""
    import itertools

    from engine.round.shanten_floor import _honour_share, _NumberShares

    shares = _NumberShares()
    for counts in itertools.product(range(5), repeat=9):
        assert shares[_key(counts)] == _share_written_out(list(counts), False), counts
    for counts in itertools.product(range(8), repeat=7):
        assert _honour_share(_key(counts)) == _share_written_out(list(counts), True), counts
