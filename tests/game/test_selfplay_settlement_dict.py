"""``Game.play`` settles each round from its typed settlement and never writes the contract's dict; ``play_round``
and ``apply`` return that dict. The three ways of playing a seed give the same game, and the dicts returned are the
rounds' ``Settlement.as_json``."""

from __future__ import annotations

import pytest

from engine.game import Game
from engine.scoring.library import rulebook


@pytest.mark.parametrize("name", ["tenhou", "sanma"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_play_play_round_and_apply_give_the_same_game(name: str, seed: int) -> None:
    rb = rulebook(name)
    whole = Game(rb, seed, "random")
    result = whole.play()
    assert all(rnd._settlement is None for rnd in [whole.last_round] if rnd is not None)  # never asked for

    by_round = Game(rb, seed, "random")
    returned = []
    while not by_round.state.finished:
        returned.append(by_round.play_round())
        assert by_round.last_round is not None and returned[-1] is by_round.last_round.settlement
    assert by_round.result() == result
    assert returned == [settled.as_json() for settled in by_round.settlements] == [s.as_json() for s in whole.settlements]

    by_move = Game(rb, seed, "random")
    applied = []
    while by_move.waiting():
        seat = by_move.waiting()[0]
        settlement = by_move.apply(by_move.choose(seat))
        if settlement is not None:
            applied.append(settlement)
    assert by_move.result() == result
    assert applied == [settled.as_json() for settled in by_move.settlements]
