"""Immutable moves and melds are built once and shared: the call or ron a replay plays for a logged chi, pon, open
kan or ron (``legal.claim_action``), the riichi or tsumo it plays (``legal.own_move``), and the meld each call makes
(``calls._MELDS``). Each is the value its constructor builds, and a game played with a meld memo that keeps one
meld at most (nearly nothing shared) is the same game."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.game import Game
from engine.replay.compare import rulebook_for
from engine.replay.rounds import read_events, split_rounds
from engine.replay.through_round import replay_round
from engine.round import calls
from engine.round.actions import Action, held_sorted
from engine.round.legal import claim_action, own_move
from engine.round.rules import round_rules
from engine.round.state import MeldRecord
from engine.scoring import library
from engine.scoring.library import rulebook
from ruledsl.memo import BoundedCache

MJLOG = Path(__file__).resolve().parents[1] / "data" / "tenhou" / "mjlog"


def test_shared_moves_are_their_constructors_values() -> None:
    for kind, seat, tile, consumed, target in [("pon", 1, 5, (4, 5), 0), ("chi", 2, 14, (12, 13), 1), ("daiminkan", 0, 31, (31, 31, 31), 3)]:
        assert claim_action(kind, seat, tile, consumed, target) == Action(kind, seat, tile, consumed=consumed, target=target)
        assert claim_action(kind, seat, tile, consumed, target) is claim_action(kind, seat, tile, consumed, target)
    for seat in range(4):
        for open_ in (False, True):
            assert own_move("reach", seat, None, open_) == Action("reach", seat, open=open_)
        assert own_move("hora", seat, 17, False) == Action("hora", seat, 17, target=seat)  # a replayed tsumo
        assert claim_action("hora", seat, 17, (), 2) == Action("hora", seat, 17, target=2)  # a replayed ron


def test_every_shared_meld_is_the_record_its_call_builds() -> None:
    for path in sorted(MJLOG.iterdir())[:6]:
        events = read_events(path)
        start, parts, _ = split_rounds(events)
        rules = round_rules(library.scorer(rulebook_for(start)))
        for index, round_start, body in parts:
            replay_round(rules, round_start, body, index + 1)
    for name in ("tenhou", "ema2012", "tenhou_sanma"):
        Game(rulebook(name), 1, "random").play()
    assert len(calls._MELDS) > 50
    for (kind, consumed, tile, source), meld in calls._MELDS.items():
        assert meld == MeldRecord(kind, held_sorted((*consumed, tile)), tile, source)


@pytest.mark.parametrize("name", ["tenhou", "house", "tenhou_sanma"])
def test_a_game_without_shared_melds_is_the_same_game(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    shared = [Game(rulebook(name), seed, "random").play() for seed in range(3)]
    monkeypatch.setattr(calls, "_MELDS", BoundedCache(1))  # one meld kept at most: nearly nothing shared
    assert [Game(rulebook(name), seed, "random").play() for seed in range(3)] == shared
