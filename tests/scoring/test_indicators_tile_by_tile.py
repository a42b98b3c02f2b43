"""Indicators written one plain tile after another are read two characters at a time (``_tile_by_tile``): the
codes ``indicator_codes`` reads of the same text, in the same order, and never more than five; any other text is
left to it."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import tiles as T
from engine.scoring.inputs import _ONE_INDICATOR, _tile_by_tile, indicator_codes


def _agrees(text: str) -> None:
    read = _tile_by_tile(text)
    if read is not None:
        assert read == indicator_codes(text) == T.tile_codes(text)
        assert 1 <= len(read) <= 5


def test_every_pair_of_plain_tiles_and_random_longer_ones() -> None:
    tiles = sorted(_ONE_INDICATOR)
    for first, second in itertools.product(tiles, repeat=2):
        assert _tile_by_tile(first + second) == _ONE_INDICATOR[first] + _ONE_INDICATOR[second]
        _agrees(first + second)
    rng = random.Random(20261205)
    for size in range(1, 8):
        for _ in range(300):
            text = "".join(rng.choice(tiles) for _ in range(size))
            _agrees(text)
            assert (_tile_by_tile(text) is None) == (size > 5)  # past five: left to ``indicator_codes``


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="0123456789mpszx \t,", min_size=1, max_size=14))
def test_any_text_is_read_alike_or_left_alone(text: str) -> None:
    _agrees(text)
