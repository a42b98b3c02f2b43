"""``legal.may_call`` (asked by a discard's window of a seat that holds a pair of the tile or, on the left, two
tiles of a run, and does not wait on it) says whether ``legal.responses`` offers a call without building the calls:
True or False must be the full listing's answer. Checked at every ask of replayed vendored logs and of self-play
under rulebooks with and without chi (three players), with random players and players that call whenever they can
(so that the hands run down to few tiles, where kuikae matters and ``may_call`` says None)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from engine.game import Game
from engine.round import legal
from engine.round.actions import Action
from engine.round.rules import round_rules
from engine.round.state import RoundState
from engine.scoring import library
from engine.scoring.library import rulebook
from tests.round.replayed import replay_vendored_logs


class _Caller:
    """Random, but calls whenever a call is offered."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, rnd: Any, seat: int, legal_moves: Sequence[Action]) -> Action:
        calls = [a for a in legal_moves if a.type in ("pon", "chi", "daiminkan")]
        return self.rng.choice(calls or list(legal_moves))


def test_may_call_is_the_listings_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    original = legal.may_call
    seen = {True: 0, False: 0, None: 0}

    def may_call(r: RoundState, seat: int, tile: int, source: int) -> bool | None:
        got = original(r, seat, tile, source)
        if got is not None:
            assert got == bool(legal.responses(r, seat, tile, source, "dahai")), (seat, tile, source)
        seen[got] += 1
        return got

    monkeypatch.setattr(legal, "may_call", may_call)
    replay_vendored_logs(6)
    for name in ("tenhou", "tenhou_sanma", "house", "ema2012"):
        players = round_rules(library.scorer(name)).players
        for seed in range(2):
            Game(rulebook(name), seed, "random").play()
            Game(rulebook(name), seed, [_Caller(seed * 10 + k) for k in range(players)]).play()  # type: ignore[list-item]
    assert seen[True] > 500 and seen[False] > 5 and seen[None] > 3
