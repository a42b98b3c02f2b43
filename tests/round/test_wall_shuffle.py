"""The wall's inline shuffle deals the very walls ``random.shuffle`` deals from the same seed."""

from __future__ import annotations

import random

from engine.round import wall as wall_module
from engine.round.rules import round_rules
from engine.round.wall import Wall, _shuffle, _shuffle_inline, tile_set
from engine.scoring.library import rulebook


def test_inline_shuffle_is_random_shuffle() -> None:
    for size in (1, 2, 3, 108, 136, 137):
        for seed in [*range(200), "0/0", "7/11", "123/4"]:
            ours, theirs = list(range(size)), list(range(size))
            _shuffle_inline(random.Random(seed), ours)
            random.Random(seed).shuffle(theirs)
            assert ours == theirs, (size, seed)


def test_the_wall_is_the_shuffled_tile_set() -> None:
    for name in ("tenhou", "tenhou_sanma"):
        rules = round_rules(rulebook(name))
        for seed in ("1/0", "1/1", "42/9", 5):
            tiles = tile_set(rules)
            random.Random(seed).shuffle(tiles)
            assert Wall.shuffled(rules, seed).tiles == tuple(tiles)


def test_the_inline_shuffle_is_chosen_only_when_it_matches() -> None:
    assert wall_module._CHOSEN == [] or wall_module._CHOSEN[0] in (_shuffle_inline, random.Random.shuffle)
    _shuffle(random.Random(0), list(range(10)))
    assert wall_module._CHOSEN[0] is _shuffle_inline  # this Python's shuffle draws as the inline loop does
