"""The log readers write each draw and discard as the round's own shared event (``engine.round.events.tsumo_event``,
``dahai_event``: the objects of ``TSUMO`` and ``DAHAI``, which a round appends), so that a replay matches a logged
draw with the round's by identity: every draw and discard of logs of the three formats is that object, equal to
the record built afresh; a seat or code outside the tables gets a new record, as before."""

from __future__ import annotations

import json
from pathlib import Path

from engine.replay.events import Dahai, Tsumo
from engine.replay.mjai_log import parse_mjai
from engine.replay.rounds import read_events
from engine.round.events import DAHAI, TSUMO, dahai_event, tsumo_event
from tests.oracle.corpus import read_games

DATA = Path(__file__).resolve().parents[1] / "data"


def _moves_are_shared(events: list[object]) -> int:
    moves = 0
    for event in events:
        if type(event) is Tsumo:
            assert event is TSUMO[event.actor][event.pai] and event == Tsumo(event.actor, event.pai)
            moves += 1
        elif type(event) is Dahai:
            assert event is DAHAI[event.actor][event.pai][event.tsumogiri]
            assert event == Dahai(event.actor, event.pai, event.tsumogiri)
            moves += 1
    return moves


def test_every_logged_draw_and_discard_is_the_rounds_shared_event() -> None:
    moves = 0
    for folder in ("mjlog", "json"):
        for path in sorted((DATA / "tenhou" / folder).iterdir())[:5]:
            moves += _moves_are_shared(read_events(path))
    for game in read_games(DATA / "riichienv" / "tenhou4p.jsonl.gz", limit=3):
        moves += _moves_are_shared(parse_mjai([json.dumps(e) for e in game["events"]]))
    assert moves > 10_000


def test_a_move_outside_the_tables_is_a_record_of_its_own() -> None:
    assert tsumo_event(1, 5) is TSUMO[1][5] and dahai_event(2, 36, True) is DAHAI[2][36][True]
    for seat, code in ((4, 5), (-1, 5), (0, 37), (0, -1), (True, 5)):
        assert tsumo_event(seat, code) == Tsumo(seat, code)
        assert dahai_event(seat, code, False) == Dahai(seat, code, False)
    assert dahai_event(0, 5, 1) == Dahai(0, 5, 1) and dahai_event(0, 5, 1) is not DAHAI[0][5][True]  # type: ignore[arg-type]
