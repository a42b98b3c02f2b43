"""The random player's pick is ``randrange`` over its legal actions, drawn without randrange's argument checks."""

from __future__ import annotations

import random

import pytest

from engine.game.agents import RandomAgent


def test_the_pick_is_randrange() -> None:
    for seed in range(50):
        agent, reference = RandomAgent(seed), random.Random(seed)
        for n in (1, 2, 3, 7, 14, 15, 16, 17, 33, 64, 65, 200):
            legal = list(range(n))
            assert agent.act(None, 0, legal) == legal[reference.randrange(n)]  # type: ignore[arg-type]


def test_nothing_to_pick_is_randranges_error() -> None:
    with pytest.raises(ValueError):
        RandomAgent(1).act(None, 0, [])
