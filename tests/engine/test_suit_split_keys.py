"""A suit's split is the same whether its counts come as the scorer's bytes or as decompose's tuple: every suit a
hand can hold (up to four of each kind, fourteen tiles in all), and a hand's reading facts read either way."""

from __future__ import annotations

from itertools import product

from engine.core.decompose import RELATIVE_SPLITS, _relative_splits
from engine.scoring import facts as F


def test_every_suit_splits_alike_from_bytes_and_from_a_tuple() -> None:
    checked = 0
    for vec in product(range(5), repeat=9):
        total = sum(vec)
        if total <= 14 and total % 3 != 1:
            assert _relative_splits(bytes(vec)) == _relative_splits(vec), vec
            checked += 1
    assert checked == 273_005


def test_a_suit_part_from_bytes_is_the_part_from_a_tuple() -> None:
    RELATIVE_SPLITS.clear()
    for vec in [(1, 1, 1, 0, 0, 0, 0, 0, 0), (3, 1, 1, 1, 1, 1, 1, 1, 3), (0, 0, 2, 2, 2, 0, 0, 0, 2), (2, 2, 2, 2, 2, 2, 2, 0, 0)]:
        for start in (0, 9, 18):
            assert F._suit_part(start, bytes(vec)) == F._suit_part(start, vec), (start, vec)
