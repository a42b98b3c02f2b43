"""``first_discards_same_wind`` stops at the first seat that settles it, and ``steady_key`` reads the facts an
abortive check computed in one pass over the dict: both give what the plain computation gives (the abortive
shortcut as a whole is checked against full evaluations in ``test_abortive_shortcut``)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

from engine.core import tiles as T
from engine.game import Game
from engine.round import legal
from engine.round.facts import FACTS, GIVEN, SEAT_FACTS, STEADY_FACTS, RoundFacts, steady_key
from engine.scoring.library import rulebook


def _plain_same_wind(seats: list[Any]) -> bool:
    first = [s.discards[0] if s.discards else None for s in seats]
    if None in first:
        return False
    kinds = {T.KIND_OF[c] for c in first if c is not None}
    return len(kinds) == 1 and T.is_wind(next(iter(kinds)))


def _plain_key(env: RoundFacts) -> Any:
    seat_scoped = False
    for name in env:
        if name in GIVEN:
            continue
        if name not in STEADY_FACTS:
            return None
        if name in SEAT_FACTS:
            seat_scoped = True
    reads = tuple((name, value) for name, value in env.items() if name not in GIVEN)
    return (env.round.steady_changes, env.seat if seat_scoped else None, reads)


def test_first_discards_same_wind_as_computed_plainly() -> None:
    rng = random.Random(7)
    winds = [c for c in range(len(T.KIND_OF)) if T.is_wind(T.KIND_OF[c])]
    codes = list(range(len(T.KIND_OF))) + winds * 3  # every tile code, the winds more often
    for _ in range(20_000):
        players = rng.choice((0, 3, 4))
        seats = [SimpleNamespace(discards=[rng.choice(codes)] if rng.random() < 0.9 else []) for _ in range(players)]
        if rng.random() < 0.3 and seats:  # the same wind everywhere, sometimes one seat off
            kind_code = rng.choice(winds)
            for s in seats:
                s.discards = [kind_code]
            if rng.random() < 0.5:
                rng.choice(seats).discards = [rng.choice(codes)]
        r = SimpleNamespace(seats=seats)
        assert FACTS["first_discards_same_wind"](r, 0) == _plain_same_wind(seats)  # type: ignore[arg-type]


def test_steady_key_as_computed_plainly(monkeypatch: Any) -> None:
    """Every key the player-choice check leaves in self-play (several rulebooks) is the plain computation's."""
    seen: list[int] = []

    def checking(env: RoundFacts) -> Any:
        got = steady_key(env)
        assert got == _plain_key(env)
        seen.append(got is None)
        return got

    monkeypatch.setattr(legal, "steady_key", checking)
    for name in ("tenhou", "house", "ema2012", "tenhou_sanma"):
        for seed in range(3):
            Game(rulebook(name), seed, "random").play()
    assert len(seen) > 100
