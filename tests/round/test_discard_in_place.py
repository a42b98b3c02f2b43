"""``turns.own_dahai`` takes the discarded tile off the end of the hand's list when it is the list's last tile and
the one tile of its kind, and a discard's window is a tuple built once (``calls._DISCARD_WINDOWS``): the hand after
every discard of a sample of the vendored logs is the one ``list.remove`` leaves, and every kept window is the
tuple a discard would build."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.situation import WINDS
from engine.core.tiles import KIND_OF
from engine.replay.compare import rulebook_for
from engine.replay.rounds import read_events, split_rounds
from engine.replay.through_round import replay_round
from engine.round import calls, turns
from engine.round.actions import Action
from engine.round.rules import round_rules
from engine.round.state import RoundState
from engine.scoring import library

MJLOG = Path(__file__).resolve().parents[1] / "data" / "tenhou" / "mjlog"


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
    for path in sorted(MJLOG.iterdir())[:12]:
        start_game, parts, _end = split_rounds(read_events(path))
        rules = round_rules(library.scorer(rulebook_for(start_game)))
        for k, (index, start, body) in enumerate(parts):
            assert not replay_round(rules, start, body, index + 1, k == 0).mismatches
    assert seen["discards"] > 5000 and seen["popped"] > 1000


def test_the_kept_discard_windows_are_the_tuples_a_discard_builds() -> None:
    for source in range(len(WINDS)):
        for tile in range(len(KIND_OF)):
            assert calls._DISCARD_WINDOWS[source][tile] == ("dahai", tile, source)
