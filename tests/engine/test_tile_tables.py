"""Tile functions that read tables (``ruledsl.tiles``) answer as their definitions: ``format_tiles`` reads each
tile's digit, suit and order from tables, the same text as its definition written through ``kind_of``, ``suit_of``
and ``number_of`` (``_format_each``), sorted or as given, codes no tile has still read by that definition; and
``make_kind`` the kind before a suit's 1, the kind ``SUITS.index`` gives (or its error)."""

from __future__ import annotations

import random

import pytest

from ruledsl import tiles as T


def _cases() -> list[tuple[list[int], bool]]:
    rng = random.Random(26)
    found: list[tuple[list[int], bool]] = [([], True), ([], False), ([34, 4, 4, 34], True), ([4, 34], False)]
    for _ in range(5_000):
        codes = [rng.randrange(len(T.KIND_OF)) for _ in range(rng.choice((1, 2, 4, 13, 14, 18)))]
        found.append((codes, rng.random() < 0.6))
    return found


def test_the_tables_give_the_definitions_text():
    for codes, sort in _cases():
        assert T.format_tiles(codes, sort) == T._format_each(list(codes), sort), (codes, sort)
        assert T.format_tiles(iter(codes), sort) == T.format_tiles(tuple(codes), sort)


def test_codes_no_tile_has_are_read_by_the_definition():
    assert T.format_tiles([-1, 0]) == T._format_each([-1, 0], True)
    assert T.format_tiles([True, 2]) == T._format_each([True, 2], True) == "23m"
    with pytest.raises(IndexError):
        T.format_tiles([40])
    with pytest.raises(TypeError):
        T.format_tiles([[1]])


def _make_kind_by_index(suit: str, number: int) -> int:
    if suit == "z":
        return 26 + number
    return T.SUITS.index(suit) * 9 + number - 1


def _outcome(function, *args):  # type: ignore[no-untyped-def]
    try:
        return function(*args)
    except (ValueError, TypeError) as exc:
        return type(exc), str(exc)


def test_make_kind_is_the_suits_index():
    for suit in (*T.SUITS, "", "mp", "x", "Z", 5):
        for number in range(-2, 12):
            assert _outcome(T.make_kind, suit, number) == _outcome(_make_kind_by_index, suit, number), (suit, number)
    assert dict(T._KIND_BEFORE) == {"m": -1, "p": 8, "s": 17, "z": 26}  # nothing else kept
    assert [T.make_kind(T.suit_of(kind), T.number_of(kind)) for kind in range(T.KINDS)] == list(range(T.KINDS))
