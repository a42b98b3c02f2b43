"""The honours' split, picked from a table of each honour's group by count, is the split worked out honour by
honour: every count of up to five of each of the seven honours (five: what the waits' search may try)."""

from __future__ import annotations

from itertools import product

from engine.core.decompose import CANNOT_SPLIT, PAIR, TRIP, honour_split


def _reference(honours: tuple[int, ...]) -> object:
    if 1 in honours or 4 in honours:
        return CANNOT_SPLIT
    groups = tuple((TRIP if count == 3 else PAIR, 27 + i) for i, count in enumerate(honours) if count)
    return honours.count(2), groups


def test_every_honour_count_splits_as_honour_by_honour() -> None:
    for honours in product(range(6), repeat=7):
        assert honour_split(honours) == _reference(honours), honours
