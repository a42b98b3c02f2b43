"""Pao's ``_rebalance`` held equal to the winner's gain summed over the other seats."""

from __future__ import annotations

import random

from engine.scoring.pao import _rebalance


def test_rebalance_sums_the_others() -> None:
    draw = random.Random(7)
    for _ in range(500):
        players = draw.choice((3, 4))
        winner = draw.randrange(players)
        deltas = [0 if seat == winner else -draw.randrange(0, 50000) for seat in range(players)]
        expected = list(deltas)
        expected[winner] = -sum(d for i, d in enumerate(deltas) if i != winner)
        assert _rebalance(list(deltas), winner) == expected
