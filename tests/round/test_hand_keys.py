"""A hand's shanten and waits read by its suits' octal keys (``analysis.SHANTEN_OF_KEYS``, ``analysis.waits_of_keys``,
``state.WAITS_WITHIN``, what ``Seat.rest``, ``Seat.rest_after_discard`` and the riichi check read) equal the full
computation from the 34 counts (``analysis.shanten``, ``analysis.waits``, and ``tests.round.reference.waits_of``
within a tile set).

Checked on random hands of every size a hand rests or draws at (1 to 14 tiles, every number of melds), dealt from
the 136 tiles with their red fives (a seat keys a red five by its kind), on hands near tenpai (a complete hand with
a tile taken out, so that many are tenpai and have waits to compare), on the suits themselves (the suit's key read
off its octal key against ``_suit_key`` of its counts, counts above 4 included), and on every hand of self-played
games, at every rest and every drawn hand.
"""

from __future__ import annotations

import random

import pytest

from engine.core import analysis
from engine.core.analysis import SHANTEN_OF_KEYS, shanten, waits, waits_of_keys
from engine.core.errors import InvalidHand
from engine.core.tiles import KINDS
from engine.game import Game
from engine.round import legal
from engine.round import state as round_state
from engine.round.shanten_floor import suit_keys
from engine.round.state import WAITS_WITHIN, Seat, hand_key
from engine.scoring.library import rulebook
from tests.round.reference import waits_of
from tests.strategies import WALL_SIZE, code_of_index

ALL_KINDS = frozenset(range(KINDS))
SANMA_KINDS = frozenset(k for k in range(KINDS) if not 1 <= k <= 7)  # no 2m-8m


def _seat_of(codes: list[int]) -> Seat:
    """A seat holding these tile codes, its counts and suit keys kept tile by tile as a round keeps them."""
    seat = Seat.empty()
    for code in codes:
        seat.add(code)
    return seat


def _check(seat: Seat, n_melds: int) -> None:
    counts = tuple(seat.counts)
    hand = hand_key(seat.suit_keys, n_melds)
    assert hand == (*suit_keys(counts), n_melds)
    assert SHANTEN_OF_KEYS[hand] == shanten(counts, n_melds), (counts, n_melds)
    if sum(counts) % 3 == 1:
        assert tuple(waits_of_keys(hand)) == waits(counts, n_melds), (counts, n_melds)
        for kinds in (ALL_KINDS, SANMA_KINDS):
            assert WAITS_WITHIN[hand, kinds] == waits_of(counts, n_melds, kinds), (counts, n_melds)


def test_random_hands_of_every_size_and_meld_count() -> None:
    rng = random.Random(2024)
    for _ in range(6000):
        n_melds = rng.randrange(5)
        size = 3 * (4 - n_melds) + rng.choice((1, 2))  # 1, 4, 7, 10, 13 tiles resting; one more drawn
        _check(_seat_of([code_of_index(i) for i in rng.sample(range(WALL_SIZE), size)]), n_melds)


def test_hands_near_tenpai() -> None:
    """Complete hands (sets and a pair, or seven pairs, or thirteen orphans) with a tile taken out: tenpai, or
    nearly, so their waits are asked and compared."""
    rng = random.Random(7)
    for _ in range(4000):
        n_melds = rng.randrange(5)
        kinds: list[int] = []
        shape = rng.random()
        if n_melds == 0 and shape < 0.15:
            kinds = [k for k in rng.sample(range(KINDS), 7) for _ in range(2)]
        elif n_melds == 0 and shape < 0.2:
            kinds = [0, 8, 9, 17, 18, 26, *range(27, 34), rng.choice((0, 8, 9, 17, 18, 26, *range(27, 34)))]
        else:
            for _ in range(4 - n_melds):
                start = rng.randrange(KINDS)
                if start < 27 and start % 9 < 7 and rng.random() < 0.6:
                    kinds += [start, start + 1, start + 2]
                else:
                    kinds += [start] * 3
            kinds += [rng.randrange(KINDS)] * 2
        if any(kinds.count(k) > 4 for k in kinds):
            continue
        kinds.pop(rng.randrange(len(kinds)))
        if rng.random() < 0.3:  # a tile more in: a drawn hand
            extra = rng.randrange(KINDS)
            if kinds.count(extra) < 4:
                kinds.append(extra)
        _check(_seat_of(kinds), n_melds)


def test_a_hand_that_does_not_fit_its_melds_is_refused_alike() -> None:
    seat = _seat_of([0, 1, 2, 3])  # four tiles: no hand with no meld
    with pytest.raises(InvalidHand):
        shanten(tuple(seat.counts), 0)
    with pytest.raises(InvalidHand):
        SHANTEN_OF_KEYS[hand_key(seat.suit_keys, 0)]
    with pytest.raises(InvalidHand):
        waits_of_keys(hand_key(_seat_of([0, 1, 2, 3, 4]).suit_keys, 3))  # five tiles: no 3n+1 hand
    for n_melds in (0, 1, 2, 4):  # 3n+1 tiles, a meld count that does not fit them: refused by the shanten count
        with pytest.raises(InvalidHand):
            waits_of_keys(hand_key(seat.suit_keys, n_melds))
        with pytest.raises(InvalidHand):
            WAITS_WITHIN[hand_key(seat.suit_keys, n_melds), ALL_KINDS]
        with pytest.raises(InvalidHand):
            waits(tuple(seat.counts), n_melds)


def test_each_suit_read_off_its_octal_key_is_its_suit_key() -> None:
    """Every count of 0..4 in each of the nine kinds, and counts above 4 (no shipped suit: counted), at most 14 tiles."""
    rng = random.Random(5)
    checked = 0
    while checked < 30000:
        high = rng.random() < 0.05
        vec = tuple(rng.choice((0, 1, 2, 4, 5, 6, 7)) if high and rng.random() < 0.2 else rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(vec) > 14:
            continue
        key = sum(count << 3 * i for i, count in enumerate(vec))
        assert analysis._octal_suit_key(key) == analysis._octal_value(analysis._suit_key(vec), sum(vec)), vec
        assert analysis._octal_honour_key(key & 0o7777777) == analysis._octal_value(analysis._honour_key(vec[:7]), sum(vec[:7]))
        checked += 1


@pytest.mark.parametrize("name", ["tenhou", "tenhou_sanma", "house", "ema2012"])
def test_every_hand_of_self_play(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every resting hand (each rest, each discard) and every drawn hand (each riichi check) of self-played
    games: the keyed count and waits equal the full computation, whether or not the floor settled the hand; and
    the riichi check's verdict, where tenpai decides it, is that of every discard counted (``_riichi_ok_after``)."""
    seen: list[int] = []
    verdicts: list[bool] = []  # the riichi check's, where tenpai decided it
    rest, after_discard, reach_bar = Seat.rest, Seat.rest_after_discard, legal.reach_bar

    def checked_rest(self: Seat, kinds: frozenset[int], bound: int = -1) -> None:
        rest(self, kinds, bound)
        _check(self, len(self.melds))
        seen.append(shanten(tuple(self.counts), len(self.melds)))

    def checked_after_discard(self: Seat, kinds: frozenset[int], bound: int) -> None:
        after_discard(self, kinds, bound)
        _check(self, len(self.melds))
        seen.append(shanten(tuple(self.counts), len(self.melds)))

    def checked_reach_bar(r: round_state.RoundState, seat: int) -> legal.Bar | None:
        s = r.seats[seat]
        _check(s, len(s.melds))
        bar = reach_bar(r, seat)
        if legal.riichi_bar(r, seat) is None:  # tenpai decides: the same as every discard counted
            assert (bar is None) == any(legal._riichi_ok_after(r, seat, code) for code in set(s.hand)), s.hand
            verdicts.append(bar is None)
        return bar

    monkeypatch.setattr(Seat, "rest", checked_rest)
    monkeypatch.setattr(Seat, "rest_after_discard", checked_after_discard)
    monkeypatch.setattr(legal, "reach_bar", checked_reach_bar)
    for seed in (1, 2):
        Game(rulebook(name), seed, "random").play()
        Game(rulebook(name), seed, "shanten").play()
    assert 0 in seen and max(seen) >= 2
    assert True in verdicts and False in verdicts
