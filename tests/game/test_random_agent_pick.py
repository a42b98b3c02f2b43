"""The random player's pick is ``randrange`` over its legal actions, drawn without a call to it."""

from __future__ import annotations

import random

import pytest

from engine.game import agents
from engine.game.agents import RandomAgent


def test_the_pick_is_randrange() -> None:
    for seed in range(50):
        agent, reference = RandomAgent(seed), random.Random(seed)
        for n in (1, 2, 3, 7, 14, 15, 16, 17, 33, 64, 65, 200):
            legal = list(range(n))
            assert agent.act(None, 0, legal) == legal[reference.randrange(n)]  # type: ignore[arg-type]


def test_this_python_draws_inline() -> None:
    assert agents._draws_inline()
    assert RandomAgent(3)._bits is not None


def test_nothing_to_pick_is_randranges_error() -> None:
    with pytest.raises(ValueError):
        RandomAgent(1).act(None, 0, [])
