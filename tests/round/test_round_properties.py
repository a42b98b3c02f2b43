"""Random legal play of whole rounds under every bundled rulebook: what must hold whatever the players do.

Tiles are conserved (hands + melds + discards + kita + wall == the set), points plus riichi sticks are conserved,
every offered action is accepted, the round always ends, and the settlement has the contract's shape.
"""

from __future__ import annotations

import random

import pytest

from engine.api import rulebook
from engine.core.analysis import shanten
from engine.round import Action, Round, RoundSetup, tile_set
from engine.round.rules import round_rules
from ruledsl.resolve import bundled_names

DISTINCT = ["ema2012", "ema2016", "house", "mahjchina", "mleague", "sanma", "tenhou", "tenhou_sanma", "wrc2025"]
SETTLEMENT_KEYS = {"kind", "abortive", "wins", "deltas", "honba_next", "sticks_next", "dealer_next", "renchan", "clauses", "scores"}


def choose(r: Round, seat: int, rng: random.Random) -> Action:
    """A player that wins when it can, often declares riichi and calls, and otherwise discards toward tenpai."""
    actions = r.legal_actions(seat)
    by_type: dict[str, list[Action]] = {}
    for a in actions:
        by_type.setdefault(a.type, []).append(a)
    for wanted, chance in (("hora", 0.95), ("reach", 0.7), ("ryukyoku", 0.5), ("nukidora", 0.8), ("ankan", 0.5), ("kakan", 0.5), ("pon", 0.3), ("chi", 0.2), ("daiminkan", 0.3), ("noten", 0.3)):
        if wanted in by_type and rng.random() < chance:
            return rng.choice(by_type[wanted])
    discards = by_type.get("dahai")
    if discards:
        if rng.random() < 0.2:
            return rng.choice(discards)
        counts = r.seats[seat].counts
        best, best_value = discards[0], 99
        for a in discards:
            kind = a.pai if a.pai is not None and a.pai < 34 else None
            kind = kind if kind is not None else (4, 13, 22)[a.pai - 34]  # type: ignore[operator]
            counts[kind] -= 1
            value = shanten(tuple(counts), len(r.seats[seat].melds))
            counts[kind] += 1
            if value < best_value:
                best, best_value = a, value
        return best
    for fallback in ("none", "tenpai"):
        if fallback in by_type:
            return by_type[fallback][0]
    return rng.choice(actions)


def play_round(name: str, seed: int) -> Round:
    rules = round_rules(rulebook(name))
    rng = random.Random(seed)
    dealer = seed % rules.players
    setup = RoundSetup(round_wind="ES"[seed % 2], dealer=dealer, honba=seed % 3, sticks=seed % 2)
    r = Round(rules, setup, seed=seed)
    expected = sorted(tile_set(rules))
    steps = 0
    while not r.finished:
        waiting = r.waiting()
        assert waiting, "an unfinished round waits for somebody"
        seat = waiting[rng.randrange(len(waiting))]
        actions = r.legal_actions(seat)
        assert actions, f"seat {seat} is waited for but has no legal action"
        r.apply(choose(r, seat, rng))
        steps += 1
        assert steps < 1000, "the round does not end"
        if steps % 7 == 0:
            assert sorted(r.tiles_in_play()) == expected
    check_settlement(r, expected)
    return r


def check_settlement(r: Round, expected: list[int]) -> None:
    s = r.settlement
    assert s is not None and SETTLEMENT_KEYS <= set(s)
    assert s["kind"] in ("win", "exhaustive", "abortive")
    assert (s["abortive"] is not None) <= (s["kind"] == "abortive")
    assert len(s["deltas"]) == r.rules.players
    deposit = r.rules.riichi_deposit
    assert sum(s["deltas"]) + (s["sticks_next"] - r.setup.sticks) * deposit == 0
    assert [a + d for a, d in zip(r.start_scores, s["deltas"], strict=True)] == s["scores"]
    assert 0 <= s["dealer_next"] < r.rules.players
    assert s["renchan"] == (s["dealer_next"] == r.setup.dealer)
    if s["kind"] == "win":
        assert s["wins"] and all({"seat", "from", "total", "payments"} <= set(w) for w in s["wins"])
        assert s["sticks_next"] == 0
    assert sorted(r.tiles_in_play()) == expected
    assert r.events[0]["type"] == "start_kyoku" and r.events[-1]["type"] == "end_kyoku"


@pytest.mark.parametrize("name", DISTINCT)
def test_random_rounds_keep_every_invariant(name: str) -> None:
    kinds = set()
    for seed in range(100):
        kinds.add(play_round(name, seed).settlement["kind"])  # type: ignore[index]
    assert "win" in kinds and "exhaustive" in kinds


@pytest.mark.slow
@pytest.mark.parametrize("name", bundled_names())
def test_many_random_rounds_keep_every_invariant(name: str) -> None:
    for seed in range(500):
        play_round(name, 1000 + seed)
