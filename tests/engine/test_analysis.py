"""Shanten and waits: exact by brute force, and in agreement with the mahjong package on random hands."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from mahjong.shanten import Shanten

from engine.core.analysis import analyze, clear_caches, is_complete, shanten, waits, waits_of_keys
from engine.core.decompose import decompose
from engine.core.errors import InvalidHand
from engine.core.tiles import NotationError, parse_tiles
from engine.round.shanten_floor import suit_keys
from tests.strategies import complete_hands, counts_of, hand_counts

ORACLE = Shanten()


def counts(text: str) -> tuple[int, ...]:
    return counts_of(parse_tiles(text))


def plus(held: tuple[int, ...], kind: int) -> tuple[int, ...]:
    return held[:kind] + (held[kind] + 1,) + held[kind + 1 :]


def completes(held: tuple[int, ...]) -> bool:
    """Completeness by reading the hand, independent of the shanten tables."""
    return bool(decompose(held))


def random_counts(rng: random.Random, size: int, kinds: int = 34) -> tuple[int, ...]:
    """A random hand; with few ``kinds`` it is full of triplets and quads, where the four-copy limit bites."""
    chosen = rng.sample(range(34), kinds)
    wall = [kind for kind in chosen for _ in range(4)]
    held = [0] * 34
    for kind in rng.sample(wall, size):
        held[kind] += 1
    return tuple(held)


@settings(max_examples=300)
@given(hand_counts(sizes=(13, 10, 7, 4, 1)))
def test_waits_are_exactly_the_tiles_that_complete_the_hand(held):
    brute = tuple(k for k in range(34) if held[k] < 4 and completes(plus(held, k)))
    assert waits(held) == brute
    assert (shanten(held) == 0) == bool(brute)


def keyed_waits(held: tuple[int, ...], n_melds: int) -> tuple[int, ...]:
    """The waits read suit by suit, as a round asks them: by the hand's four octal suit keys and its melds."""
    return tuple(waits_of_keys((*suit_keys(held), n_melds)))


@settings(max_examples=300)
@given(hand_counts(sizes=(13, 10, 7, 4, 1)))
def test_the_waits_read_suit_by_suit_are_the_full_search(held):
    melds = (13 - sum(held)) // 3
    assert keyed_waits(held, melds) == waits(held, melds)


def test_the_waits_read_suit_by_suit_are_the_full_search_on_crowded_and_special_hands():
    """Hands of few kinds (four copies held, shanpon and nobetan shapes), seven pairs and thirteen orphans: every
    tenpai one among 20,000, with the per-suit answers cold and then kept."""
    rng = random.Random(2026)
    hands = [random_counts(rng, size, rng.choice((4, 6, 9, 14))) for size in rng.choices((13, 10, 7, 4, 1), k=20_000)]
    hands += [counts(text) for text in ("1122m3344p5566s7z", "1133557799m11p1z", "19m19p19s1234567z", "19m19p19s1234566z", "1112345678999m")]
    tenpai = [held for held in hands if shanten(held) == 0]
    assert len(tenpai) > 1000
    clear_caches()
    for _ in range(2):
        for held in tenpai:
            assert keyed_waits(held, (13 - sum(held)) // 3) == waits(held), held


@settings(max_examples=300)
@given(hand_counts(sizes=(14, 11, 8, 5, 2)))
def test_shanten_is_minus_one_exactly_for_complete_hands(held):
    assert (shanten(held) == -1) == completes(held)
    assert is_complete(held) == completes(held)


@settings(max_examples=300)
@given(complete_hands())
def test_complete_hands_are_minus_one_and_one_tile_less_is_tenpai(complete):
    held = complete.counts
    assert shanten(held) == -1
    for kind in {k for k in range(34) if held[k]}:
        fewer = held[:kind] + (held[kind] - 1,) + held[kind + 1 :]
        assert shanten(fewer) == 0
        assert kind in waits(fewer)


@settings(max_examples=100)
@given(hand_counts(sizes=(14,)))
def test_a_fourteen_tile_hand_is_as_far_as_its_best_discard(held):
    if completes(held):
        return
    best = min(shanten(held[:k] + (held[k] - 1,) + held[k + 1 :]) for k in range(34) if held[k])
    assert shanten(held) == best


@settings(max_examples=500)
@given(hand_counts(sizes=(1, 2, 4, 5, 7, 8, 10, 11, 13, 14)))
def test_shanten_agrees_with_the_mahjong_package(held):
    assert shanten(held) == ORACLE.calculate_shanten(list(held))


def test_shanten_agrees_with_the_mahjong_package_on_thousands_of_hands():
    rng = random.Random(20260301)
    for i in range(4000):
        held = random_counts(rng, 13 + i % 2, kinds=34 if i % 4 else rng.randint(4, 8))
        assert shanten(held) == ORACLE.calculate_shanten(list(held)), held


@pytest.mark.slow
def test_shanten_and_waits_at_scale():
    rng = random.Random(7)
    for i in range(100_000):
        size = rng.choice((1, 2, 4, 5, 7, 8, 10, 11, 13, 14))
        held = random_counts(rng, size, kinds=34 if i % 3 else rng.randint(max(1, (size + 3) // 4), 8))
        assert shanten(held) == ORACLE.calculate_shanten(list(held)), held
        if size % 3 == 1 and i % 10 == 0:
            brute = tuple(k for k in range(34) if held[k] < 4 and completes(plus(held, k)))
            assert waits(held) == brute, held


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("123m456p789s1122z", 0),
        ("123m456p789s11222z", -1),
        ("11223344556677m", -1),
        ("1122334455667m", 0),
        ("19m19p19s1234567z", 0),
        ("19m19p19s12345677z", -1),
        ("19m19p19s1234566z", 0),
        ("19m19p19s1234555z", 1),
        ("13579m13579p135s", 4),
        ("2333m", 0),
        ("3333m", 1),  # every wait would be a fifth 3m
        ("1111m234p567p789s", 1),
        ("1111m234m", 0),
        ("11112222333344m", -1),
    ],
)
def test_known_shanten(hand, expected):
    held = counts(hand)
    assert shanten(held) == expected
    assert shanten(list(held)) == expected


def test_a_kind_held_four_times_is_never_a_wait():
    held = counts("1111m234m")
    assert waits(held) == (3,)  # 4m; a fifth 1m would also read as complete
    assert completes(plus(held, 0))
    assert waits(counts("3333m")) == ()


def test_melds_given_or_inferred():
    held = counts("2333m")
    assert shanten(held, 3) == shanten(held) == 0
    assert waits(held, 3) == (0, 1, 3)
    with pytest.raises(InvalidHand):
        shanten(held, 0)
    with pytest.raises(InvalidHand):
        shanten(counts("123m"))
    with pytest.raises(InvalidHand):
        waits(counts("23m"))


def test_the_listed_tile_counts_are_those_that_fit_with_their_sets():
    """``_SETS_OF`` (what ``shanten`` and the keyed count look up) lists every count that fits a hand with
    ``_sets_and_melds``'s sets, and nothing that does not fit (there the function raises)."""
    from engine.core.analysis import _SETS_OF, _sets_and_melds

    for total in range(-3, 20):
        for n_melds in (None, -1, 0, 1, 2, 3, 4, 5):
            try:
                expected = _sets_and_melds(total, n_melds)
            except InvalidHand:
                assert (total, n_melds) not in _SETS_OF
            else:
                assert _SETS_OF.get((total, n_melds), expected) == expected
    assert len(_SETS_OF) == 20  # 1..14 tiles of 3n+1 or 3n+2 without melds given, and each with its melds
    with pytest.raises(InvalidHand):
        keyed_waits(counts("2333m"), 0)


# --- the analyze answer -------------------------------------------------------------------------------------------


def test_analyze_a_tenpai_hand():
    assert analyze("3332m") == {
        "tiles": "2333m",
        "shanten": 0,
        "waits": ["1m", "2m", "4m"],
        "complete": False,
        "decompositions": [],
    }


def test_analyze_a_complete_hand():
    result = analyze("123m 456m 789m 111z 55p")
    assert result["tiles"] == "123456789m55p111z"
    assert result["complete"] is True
    assert result["shanten"] == -1
    assert result["waits"] == []
    assert result["decompositions"] == [
        {"shape": "standard", "groups": ["123m", "456m", "789m", "111z", "55p"]}
    ]


def test_analyze_lists_every_reading():
    shapes = [d["shape"] for d in analyze("11223344556677p")["decompositions"]]
    assert shapes == ["standard", "standard", "standard", "seven_pairs"]
    (orphans,) = analyze("19m19p19s12345677z")["decompositions"]
    assert orphans == {
        "shape": "thirteen_orphans",
        "groups": ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "77z"],
    }


def test_analyze_an_incomplete_fourteen():
    result = analyze("13579m13579p1357s")
    assert result["complete"] is False and result["decompositions"] == [] and result["shanten"] == 4


def test_analyze_keeps_red_fives_in_tiles_and_reads_them_as_fives():
    result = analyze("6m340m")
    assert result["tiles"] == "3406m"
    assert result["waits"] == ["3m", "6m"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no tiles given"),
        ("123m", "3 tiles given; a hand to analyse holds 3n+1 tiles"),
        ("123m456p789s1234z12m", "15 tiles given; a hand holds at most 14"),
        ("11111m", "`1m` appears 5 times; there are only 4 copies of each tile"),
        ("00m55m", "red five `0m` appears 2 times; there is only one"),
    ],
)
def test_analyze_refuses_impossible_hands(text, message):
    with pytest.raises(InvalidHand) as info:
        analyze(text)
    assert info.value.code == "invalid_hand"
    assert info.value.message.startswith(message)


def test_analyze_bad_notation():
    with pytest.raises(NotationError) as info:
        analyze("123m4")
    assert info.value.position == 4
