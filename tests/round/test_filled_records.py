"""The records built once per hand by filling their slots (``events.start_kyoku``, ``settlement.settlement`` and
``next_hand``, ``engine.game.progression._next_state``: a twin class with the same slots, then the record's own
class) are the records their constructors build: the same class, fields, equality, hash and repr, on real games and
in self-play."""

from __future__ import annotations

from pathlib import Path

from engine.game import Game, progression
from engine.game.progression import GameState
from engine.replay.compare import rulebook_for
from engine.replay.rounds import read_events, split_rounds
from engine.replay.through_round import replay_round
from engine.round.events import StartKyoku, start_kyoku
from engine.round.rules import round_rules
from engine.round.settlement import NextHand, Settlement, next_hand, settlement
from engine.scoring import library
from engine.scoring.library import rulebook
from ruledsl.record import fields

MJLOG = Path(__file__).resolve().parents[1] / "data" / "tenhou" / "mjlog"


def _same(filled: object, built: object) -> None:
    assert type(filled) is type(built)
    assert filled == built and repr(filled) == repr(built)
    if all(isinstance(getattr(built, f.name), (int, str, tuple, type(None))) for f in fields(built)):  # type: ignore[arg-type]
        assert hash(filled) == hash(built)  # a settlement holds scored wins, whose dicts hash not
    for f in fields(built):  # type: ignore[arg-type]
        assert getattr(filled, f.name) is getattr(built, f.name)


def _values(record: object) -> list[object]:
    return [getattr(record, f.name) for f in fields(record)]  # type: ignore[arg-type]


def test_filled_records_are_their_constructors_records() -> None:
    starts: list[StartKyoku] = []
    settled: list[Settlement] = []
    for path in sorted(MJLOG.iterdir())[:4]:
        events = read_events(path)
        start, parts, _ = split_rounds(events)
        rules = round_rules(library.scorer(rulebook_for(start)))
        for index, round_start, body in parts:
            rnd = replay_round(rules, round_start, body, index + 1).round
            assert rnd is not None and rnd.settled is not None
            starts.append(rnd.log[0])  # type: ignore[arg-type]
            settled.append(rnd.settled)
    states: list[GameState] = []
    for name in ("tenhou", "ema2012", "tenhou_sanma"):  # draws with tenpai flags and nagashi, three seats
        game = Game(rulebook(name), 2, "random")
        while not game.state.finished:
            game.play_round()
            states.append(game.state)
        for log in game.round_logs():
            starts.append(log[0])  # type: ignore[arg-type]
    assert len(starts) > 40 and len(settled) > 20
    for made in starts:
        _same(made, StartKyoku(*_values(made)))
        _same(start_kyoku(*_values(made)), made)  # type: ignore[arg-type]
    for made in settled:
        _same(made, Settlement(*_values(made)))
        _same(settlement(*_values(made)), made)  # type: ignore[arg-type]
        _same(made.next, NextHand(*_values(made.next)))
        _same(next_hand(*_values(made.next)), made.next)  # type: ignore[arg-type]
    assert len(states) > 10
    for state in states:
        _same(state, GameState(*_values(state)))
        _same(progression._next_state(*_values(state)), state)  # type: ignore[arg-type]
