"""A drawn wait is scored when asked (``engine.round.scoring.tsumo_offer``), with the answer the draw would have found.

A draw that completes the hand marks the tsumo ``UNSCORED``; the listing, a checked tsumo and a refusal ask it
later in the turn. Here every draw of a wait is scored at once beside the mark (the eager reference, as the round
did before), and every later answer is compared with it: over the vendored Tenhou logs replayed with full legality
(their riichi declared before a tsumo, their tsumo let go, their rinshan) and self-played games of players that take
every riichi, kan and call.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.game import Game
from engine.replay.compare import rulebook_for
from engine.replay.rounds import ReplayReport, game_start, read_events, replay_events
from engine.round import scoring, turns
from engine.round.actions import Action
from engine.round.rules import round_rules
from engine.round.state import UNSCORED, RoundState
from engine.scoring import library
from engine.scoring.library import rulebook

MJLOG = Path(__file__).resolve().parent.parent / "data" / "tenhou" / "mjlog"


class _BoldAgent:
    """Random, but wins, declares riichi, kans and calls whenever offered: the moves around a drawn wait."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, rnd: Any, seat: int, legal_moves: Sequence[Action]) -> Action:
        bold = [a for a in legal_moves if a.type in ("hora", "reach", "ankan", "kakan", "pon", "chi", "daiminkan")]
        return self.rng.choice(bold or list(legal_moves))


def _eager_reference(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Score every drawn wait at the draw (the reference) and hold each later answer of ``tsumo_offer`` equal to it."""
    eager: dict[int, Any] = {}
    seen = {"draws": 0, "asked": 0}
    live_draw, draw, offer = turns.live_draw, turns.draw, scoring.tsumo_offer

    def reference(r: RoundState) -> None:
        if r.tsumo_result is UNSCORED:
            assert r.drawn is not None
            eager[id(r)] = scoring.score(r, r.actor, r.drawn, r.actor, "tsumo")
            seen["draws"] += 1
        else:
            eager.pop(id(r), None)

    def checked_live_draw(r: RoundState, seat: int) -> None:
        live_draw(r, seat)
        reference(r)

    def checked_draw(r: RoundState, seat: int, replacement: bool = False, rinshan: bool = False) -> None:
        draw(r, seat, replacement, rinshan)
        if replacement:  # a live draw went through ``checked_live_draw``
            reference(r)

    def checked_offer(r: RoundState) -> Any:
        unscored = r.tsumo_result is UNSCORED
        got = offer(r)
        if unscored:
            assert got == eager[id(r)]
            seen["asked"] += 1
        return got

    monkeypatch.setattr(turns, "live_draw", checked_live_draw)
    monkeypatch.setattr(turns, "draw", checked_draw)
    monkeypatch.setattr(scoring, "tsumo_offer", checked_offer)
    return seen


def test_a_replayed_tsumo_scores_as_the_draw_would_have(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _eager_reference(monkeypatch)
    report = ReplayReport()
    for path in sorted(MJLOG.iterdir())[:40]:
        events = read_events(path)
        replay_events(events, round_rules(library.scorer(rulebook_for(game_start(events)))), path.name, report)
    assert report.rounds_matched == report.rounds > 300
    assert seen["asked"] > 0 and seen["draws"] > seen["asked"]  # some drawn waits never asked: the saving


@pytest.mark.parametrize("name", ["tenhou", "tenhou_sanma", "house"])
def test_a_self_played_tsumo_scores_as_the_draw_would_have(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _eager_reference(monkeypatch)
    rb = rulebook(name)
    players = round_rules(library.scorer(name)).players
    for seed in range(4):
        Game(rb, seed, [_BoldAgent(seed * 10 + k) for k in range(players)]).play()  # type: ignore[list-item]
    assert seen["asked"] >= 1  # random hands seldom wait: the replay above holds the bulk of the cases
