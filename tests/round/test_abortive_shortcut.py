"""The abortive checks after a discard are skipped while none of the steady facts they last read has changed
(``calls.abortive_after``, ``engine.round.facts.steady_key``). These tests make every discard that passes also
evaluate every `at = "discard_passed"` item afresh and check the round ends exactly as that full check says: on
real games (a quarter of the vendored mjlog games) and in self-play under several rulebooks, with random players that
favour riichi, calls and kans (the moves that change the steady facts)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine.core.tiles import KIND_OF
from engine.game import Game
from engine.replay.compare import rulebook_for
from engine.replay.rounds import read_events, split_rounds
from engine.replay.through_round import replay_round
from engine.round import Round, calls, legal, turns
from engine.round.actions import Action
from engine.round.facts import round_facts
from engine.round.rules import round_rules
from engine.scoring import library
from engine.scoring.library import rulebook

MJLOG = Path(__file__).resolve().parents[1] / "data" / "tenhou" / "mjlog"


def _full_check(rnd: Round, source: int) -> str | None:
    """The first discard_passed item that holds now, every condition evaluated on fresh facts (no shortcut)."""
    env = round_facts(rnd, source)
    for item, when in rnd.rules.abortives_at.get("discard_passed", ()):
        if when(env):
            return str(item.name)
    return None


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """Wraps ``calls.discard_passed``: the full check first, then the round's own; both must agree. A discard's
    window that asked nobody skips ``discard_passed`` when its shortcut holds and draws at once
    (``calls.discard_window``): ``turns.live_draw`` is wrapped too, and after a discard the full check must find
    no item there."""
    original = calls.discard_passed
    original_draw = turns.live_draw
    seen: list[str | None] = []

    def drawing(self: Round, seat: int) -> None:
        if any(s.discards for s in self.seats):  # not the dealer's first draw: a discard passed just now
            expected = _full_check(self, (seat - 1) % len(self.seats))
            assert expected is None, f"seat {seat} draws where a full check ends the round with {expected!r}"
            seen.append(expected)
        original_draw(self, seat)

    def checking(self: Round, source: int) -> None:
        expected = _full_check(self, source)
        original(self, source)
        settlement: dict[str, Any] = self.settlement or {}
        got = settlement.get("abortive") if settlement.get("kind") == "abortive" else None
        assert got == expected, f"after the discard of seat {source}: the round ended with {got!r}, a full check says {expected!r}"
        seen.append(expected)

    monkeypatch.setattr(calls, "discard_passed", checking)
    monkeypatch.setattr(turns, "live_draw", drawing)
    return seen


def test_the_shortcut_agrees_with_a_full_check_on_real_games(checked: list[str | None]) -> None:
    for path in sorted(MJLOG.iterdir())[1::4]:  # this quarter holds a four-winds, a four-riichi and a four-kans draw
        events = read_events(path)
        start, parts, _ = split_rounds(events)
        rules = round_rules(library.scorer(rulebook_for(start)))
        for index, round_start, body in parts:
            replay_round(rules, round_start, body, index + 1)
    assert len(checked) > 10_000
    assert sum(1 for name in checked if name is not None) >= 3  # the aborts themselves are met, not only passes


class _BoldAgent:
    """A random player that picks riichi, calls and kans most of the time they are offered, and discards winds
    first (so that four winds and four riichi come up, and the facts they read change often)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, rnd: Round, seat: int, legal: tuple[Action, ...]) -> Action:
        special = [a for a in legal if a.type not in ("dahai", "none", "ryukyoku")]
        if special and self.rng.random() < 0.8:
            return self.rng.choice(special)
        winds = [a for a in legal if a.type == "dahai" and a.pai is not None and 27 <= KIND_OF[a.pai] <= 30]
        if winds and self.rng.random() < 0.9:
            return self.rng.choice(winds)
        return self.rng.choice(legal)


@pytest.mark.parametrize("name", ["tenhou", "house", "mleague", "tenhou_sanma", "wrc2025", "ema2012"])
def test_the_shortcut_agrees_with_a_full_check_in_self_play(name: str, checked: list[str | None]) -> None:
    rb = rulebook(name)
    players = round_rules(library.scorer(name)).players
    for seed in range(3):
        game = Game(rb, seed, [_BoldAgent(seed * 10 + k) for k in range(players)])  # type: ignore[list-item]
        game.play()
    assert checked


@pytest.fixture
def choice_checked(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Wraps ``legal.own_turn`` (which offers the abortive draws a player may declare at every turn after a draw,
    with the same steady-facts shortcut, tested before ``_player_choice_draws`` is called): every condition
    evaluated on fresh facts; the listing must offer the draw exactly when one holds."""
    original = legal.own_turn
    seen: list[bool] = []

    def checking(rnd: Round, seat: int) -> tuple[Action, ...]:
        got = original(rnd, seat)
        if rnd.reach_pending or rnd.after_call:  # no abortive draw is asked then
            return got
        env = round_facts(rnd, seat)
        expected = any(when(env) for _item, when in rnd.rules.abortives_at.get("player_choice", ()))
        offered = any(a.type == "ryukyoku" for a in got)
        assert offered == expected, f"seat {seat}: offered {offered}, a full check says {expected}"
        seen.append(expected)
        return got

    monkeypatch.setattr(legal, "own_turn", checking)
    return seen


@pytest.mark.parametrize("name", ["tenhou", "house", "ema2012"])
def test_the_player_choice_shortcut_agrees_with_a_full_check(name: str, choice_checked: list[bool]) -> None:
    rb = rulebook(name)
    players = round_rules(library.scorer(name)).players
    for seed in range(4):
        Game(rb, seed, [_BoldAgent(seed * 10 + k) for k in range(players)]).play()  # type: ignore[list-item]
        Game(rb, seed, "random").play()
    assert len(choice_checked) > 1000


def _list_own_turn(_index: int, rnd: Round) -> None:
    """Before each logged event, the moves of the seat whose turn it is are listed (a replay checks its discards,
    riichi and tsumo without the list, so it would rarely ask)."""
    if not rnd.finished and rnd.phase == "own":
        rnd.legal_actions(rnd.actor)


def test_the_player_choice_shortcut_agrees_on_real_games(choice_checked: list[bool]) -> None:
    for path in sorted(MJLOG.iterdir())[::8]:
        events = read_events(path)
        start, parts, _ = split_rounds(events)
        rules = round_rules(library.scorer(rulebook_for(start)))
        for index, round_start, body in parts:
            replay_round(rules, round_start, body, index + 1, observer=_list_own_turn)
    assert sum(choice_checked) >= 1 and len(choice_checked) > 100
