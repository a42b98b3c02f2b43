"""Readings of complete hands and the waits a winning tile can have completed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from mahjong.hand_calculating.divider import HandDivider

from engine.core.analysis import waits
from engine.core.decompose import (
    KANCHAN,
    PAIR,
    PENCHAN,
    RYANMEN,
    SEQ,
    SEVEN_PAIRS,
    SHANPON,
    SINGLE,
    STANDARD,
    TANKI,
    THIRTEEN_ORPHANS,
    TRIP,
    Reading,
    decompose,
    is_seven_pairs,
    is_thirteen_orphans,
    standard_readings,
    wait_of,
)
from engine.core.tiles import format_tiles, parse_tile, parse_tiles
from tests.engine.placements_reference import placements_of
from tests.strategies import complete_hands, counts_of, group_kinds, hand_counts


def counts(text: str) -> tuple[int, ...]:
    return counts_of(parse_tiles(text))


def reassemble(groups) -> tuple[int, ...]:
    return counts_of([kind for group in groups for kind in group_kinds(group)])


@settings(max_examples=300)
@given(complete_hands())
def test_every_reading_reassembles_its_hand(complete):
    readings = decompose(complete.counts)
    assert readings, "a hand built from sets and a pair has a reading"
    assert complete.groups in standard_readings(complete.counts)
    for reading in readings:
        assert reassemble(reading.groups) == complete.counts


@settings(max_examples=200)
@given(hand_counts(sizes=(14, 11, 8)))
def test_readings_of_random_hands_reassemble_and_are_distinct(hand):
    readings = standard_readings(hand)
    assert len(set(readings)) == len(readings)
    for groups in readings:
        assert list(groups) == sorted(groups)
        assert reassemble(groups) == hand
        assert sum(1 for shape, _ in groups if shape == PAIR) == 1


@settings(max_examples=200)
@given(complete_hands(n_sets=4))
def test_standard_readings_match_the_mahjong_package(complete):
    theirs = set()
    for blocks in HandDivider.divide_hand(list(complete.counts)):
        if len(blocks) == 7:
            continue  # its seven pairs reading
        groups = []
        for block in blocks:
            if len(block) == 2:
                groups.append((PAIR, block[0]))
            elif block[0] == block[1]:
                groups.append((TRIP, block[0]))
            else:
                groups.append((SEQ, block[0]))
        theirs.add(tuple(sorted(groups)))
    assert set(standard_readings(complete.counts)) == theirs


def test_a_hand_with_several_readings():
    assert standard_readings(counts("111222333m789p55s")) == (
        ((SEQ, 0), (SEQ, 0), (SEQ, 0), (SEQ, 15), (PAIR, 22)),
        ((SEQ, 15), (TRIP, 0), (TRIP, 1), (TRIP, 2), (PAIR, 22)),
    )


def test_seven_pairs_and_standard_readings_together():
    readings = decompose(counts("11223344556677m"))
    assert [r.shape for r in readings] == [STANDARD, STANDARD, STANDARD, SEVEN_PAIRS]
    assert readings[-1] == Reading(SEVEN_PAIRS, tuple((PAIR, k) for k in range(7)))


def test_thirteen_orphans_reading():
    (reading,) = decompose(counts("19m19p19s12345677z"))
    assert reading.shape == THIRTEEN_ORPHANS
    assert reading.groups[-1] == (PAIR, 33)
    assert all(shape == SINGLE for shape, _ in reading.groups[:-1])


@pytest.mark.parametrize("text", ["", "1m", "123m", "12345678m", "123m456p789s1234z", "1112223334445m"])
def test_hands_without_readings(text):
    assert standard_readings(counts(text)) == ()
    assert decompose(counts(text)) == ()


def test_seven_pairs_needs_seven_different_pairs():
    assert is_seven_pairs(counts("11223344556677m"))
    assert not is_seven_pairs(counts("1111m223344556p"))
    assert not is_seven_pairs(counts("112233m"))
    assert decompose(counts("1111m2233445566p")) == ()


def test_thirteen_orphans_shape():
    assert is_thirteen_orphans(counts("19m19p19s11234567z"))
    assert not is_thirteen_orphans(counts("19m19p19s1234567z"))
    assert not is_thirteen_orphans(counts("19m19p29s11234567z"))


def test_readings_take_lists_too():
    assert standard_readings(list(counts("123m55p"))) == standard_readings(counts("123m55p"))


# --- waits --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("2333m", "124m"),
        ("23456m11z", "147m"),  # 23456m is five tiles; a lone pair beside it makes the 3n+1 hand
        ("2345666m", "12457m"),
        ("1112345678999m", "123456789m"),
        ("19m19p19s1234567z", "19m19p19s1234567z"),
    ],
)
def test_seed_waits(hand, expected):
    held = counts(hand)
    assert waits(held) == tuple(parse_tiles(expected))
    by_readings = tuple(
        k for k in range(34) if held[k] < 4 and decompose(held[:k] + (held[k] + 1,) + held[k + 1 :])
    )
    assert by_readings == tuple(parse_tiles(expected))


@pytest.mark.parametrize(
    ("group", "win", "wait"),
    [
        ((SEQ, 0), "1m", RYANMEN),  # 23m waited on 1m and 4m
        ((SEQ, 0), "2m", KANCHAN),
        ((SEQ, 0), "3m", PENCHAN),
        ((SEQ, 6), "7m", PENCHAN),
        ((SEQ, 6), "9m", RYANMEN),
        ((SEQ, 9 + 3), "4p", RYANMEN),
        ((SEQ, 9 + 3), "6p", RYANMEN),
        ((SEQ, 9 + 3), "5p", KANCHAN),
        ((SEQ, 18 + 6), "7s", PENCHAN),
        ((SEQ, 18 + 0), "3s", PENCHAN),
        ((SEQ, 0), "4m", None),
        ((SEQ, 0), "1p", None),
        ((TRIP, 27), "1z", SHANPON),
        ((TRIP, 27), "2z", None),
        ((PAIR, 33), "7z", TANKI),
        ((SINGLE, 0), "1m", TANKI),
    ],
)
def test_wait_of_each_group(group, win, wait):
    assert wait_of(group, parse_tile(win)) == wait


def test_placements_list_every_group_the_tile_can_complete():
    (reading,) = standard_readings(counts("123345m567p11z888s"))
    assert placements_of(reading, parse_tile("3m")) == ((0, PENCHAN), (1, RYANMEN))
    assert placements_of(reading, parse_tile("6p")) == ((2, KANCHAN),)
    assert placements_of(reading, parse_tile("8s")) == ((3, SHANPON),)
    assert placements_of(reading, parse_tile("1z")) == ((4, TANKI),)
    assert placements_of(reading, parse_tile("9p")) == ()


def test_identical_groups_are_one_placement():
    reading = standard_readings(counts("112233m456p789s11z"))[0]
    assert reading.count((SEQ, 0)) == 2
    assert placements_of(reading, parse_tile("1m")) == ((0, RYANMEN),)


@settings(max_examples=200)
@given(complete_hands(n_sets=4))
def test_placements_agree_with_wait_of(complete):
    for groups in standard_readings(complete.counts):
        for win in {kind for group in groups for kind in group_kinds(group)}:
            placements = placements_of(groups, win)
            assert placements
            for index, wait in placements:
                assert wait_of(groups[index], win) == wait
            assert {groups[i] for i, _ in placements} == {g for g in groups if wait_of(g, win)}
            indices = [i for i, _ in placements]
            assert indices == sorted(set(indices)) and all(groups.index(groups[i]) == i for i in indices)


def test_group_text_of_a_reading_round_trips():
    (reading,) = standard_readings(counts("123m456m789m111z55p"))
    rebuilt = [kind for group in reading for kind in group_kinds(group)]
    assert format_tiles(rebuilt) == "123456789m55p111z"


def test_every_suit_of_up_to_fourteen_tiles_splits_as_every_way_tried_splits_it():
    """The forced split (one triplet or runs at the lowest kind left, the pair only where its kind can be) lists
    exactly the splits that trying every group at every kind finds, in the same order, for every suit a hand can
    hold: up to four of each kind and fourteen tiles in all."""
    from itertools import product

    from engine.core.decompose import _relative_splits, reference_relative_splits

    checked = 0
    for vec in product(range(5), repeat=9):
        total = sum(vec)
        if total <= 14 and total % 3 != 1:
            assert _relative_splits(vec) == reference_relative_splits(vec), vec
            checked += 1
    assert checked == 273_005
