"""``turns.own_dahai`` takes the discarded tile off the end of the hand's list when it is the list's last tile and
the one tile of its kind, and a discard's window is a tuple built once (``calls._DISCARD_WINDOWS``): the hand after
every discard of a sample of the vendored logs is the one ``list.remove`` leaves, and every kept window is the
tuple a discard would build.

``calls.discard_window`` writes neither the window's dicts nor the window itself when nobody is asked: at every
discard of replayed logs and of self-play, the dicts are empty and the window None before it (as the turn's
opening left them), and the window is the discard's whenever a seat is asked."""

from __future__ import annotations

import pytest

from engine.core.situation import WINDS
from engine.core.tiles import KIND_OF
from engine.game import Game
from engine.round import calls, turns
from engine.round.actions import Action
from engine.round.state import RoundState
from engine.scoring.library import rulebook
from tests.round.replayed import replay_vendored_logs


def test_a_discard_leaves_the_hand_list_remove_leaves(monkeypatch: pytest.MonkeyPatch) -> None:
    original = turns.own_dahai
    seen = {"discards": 0, "popped": 0}

    def own_dahai(r: RoundState, a: Action) -> None:
        hand = r.seats[a.actor].hand
        want = list(hand)
        want.remove(a.pai)  # type: ignore[arg-type]
        seen["popped"] += hand[-1] == a.pai and hand.count(a.pai) == 1
        original(r, a)
        assert r.seats[a.actor].hand == want
        seen["discards"] += 1

    monkeypatch.setattr(turns, "own_dahai", own_dahai)
    replay_vendored_logs(12)
    assert seen["discards"] > 5000 and seen["popped"] > 1000


def test_the_kept_discard_windows_are_the_tuples_a_discard_builds() -> None:
    for source in range(len(WINDS)):
        for tile in range(len(KIND_OF)):
            assert calls._DISCARD_WINDOWS[source][tile] == ("dahai", tile, source)


def test_a_discard_finds_the_window_closed_and_opens_it_only_to_ask(monkeypatch: pytest.MonkeyPatch) -> None:
    original = calls.discard_window
    seen = {"discards": 0, "asked": 0}

    def discard_window(r: RoundState, tile: int, source: int) -> None:
        assert r.pending == {} and r.answers == {} and r.window is None
        original(r, tile, source)
        if r.phase == "respond":
            assert r.window == ("dahai", tile, source)
            seen["asked"] += 1
        seen["discards"] += 1

    monkeypatch.setattr(calls, "discard_window", discard_window)
    replay_vendored_logs(6)
    for name in ("tenhou", "tenhou_sanma", "house"):
        for seed in range(2):
            Game(rulebook(name), seed, "random").play()
    assert seen["discards"] > 5000 and seen["asked"] > 500
