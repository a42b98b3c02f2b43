"""Three-player tenhou.net/6 JSON: the reader takes three seats, sets Norths aside and counts a 55-tile live wall.

The fragments are written by hand (a few tiles each), not copied from a record: a Tenhou three-player log keeps
four seats of arrays with the fourth empty, names callers' sources by a four-seat table (seat 2 sits "across"
from seat 0), and writes a North set aside as ``f44`` in the discards, followed by a replacement draw.
"""

from __future__ import annotations

import json

import pytest

from engine.core.errors import InvalidRequest
from engine.core.tiles import parse_tile
from engine.replay.events import Call, GameEnd, GameStart, RoundStart, Tsumo, Win
from engine.replay.tenhou6 import parse_call, parse_tenhou6
from engine.replay.through_round import replay_round
from engine.round.rules import round_rules
from engine.scoring import library

SANMA_RULE = {"disp": "三鳳南喰赤", "aka51": 1, "aka52": 1, "aka53": 1}

# East 1: the dealer draws a North, sets it aside, and wins on the replacement tile (123456789p 123s 55s):
# tsumo, rinshan (Tenhou), ittsu, and the North, which Tenhou's record counts under dora: 5 han, 4,000 all.
KITA_TSUMO = [
    [0, 0, 0],
    [35000, 35000, 35000, 0],
    [47],
    [],
    [21, 22, 23, 24, 25, 26, 27, 28, 29, 31, 32, 33, 35],
    [44, 35],
    ["f44"],
    [11, 11, 11, 19, 19, 19, 41, 41, 41, 42, 42, 42, 43],
    [],
    [],
    [31, 31, 31, 32, 32, 32, 36, 36, 36, 37, 37, 37, 38],
    [],
    [],
    [],
    [],
    [],
    ["和了", [8000, -4000, -4000, 0], [0, 0, 0, "満貫4000点∀", "門前清自摸和(1飜)", "嶺上開花(1飜)", "一気通貫(2飜)", "ドラ(1飜)"]],
]


def _log(*rounds: list, rule: dict | None = None, sc: list | None = None) -> str:
    doc: dict = {"rule": SANMA_RULE if rule is None else rule, "log": list(rounds)}
    if sc is not None:
        doc["sc"] = sc
    return json.dumps(doc, ensure_ascii=False)


def test_a_three_player_round_reads_as_three_seats_with_a_north_set_aside() -> None:
    events = parse_tenhou6(_log(KITA_TSUMO, sc=[43000, 43.0, 31000, -9.0, 31000, -34.0, 0, 0]), source="x.json")
    game, start = events[0], events[1]
    assert isinstance(game, GameStart) and game.players == 3
    assert isinstance(start, RoundStart) and start.scores == (35000,) * 3 and len(start.hands) == 3
    north, east_5s = parse_tile("4z"), parse_tile("5s")
    assert events[2:5] == [Tsumo(0, north), Call(0, "kita", (north,), north, 0), Tsumo(0, east_5s)]
    win = events[5]
    assert isinstance(win, Win) and win.who == 0 and win.from_who == 0 and win.win_tile == east_5s
    assert [m.kind for m in win.melds] == ["kita"] and win.deltas == (8000, -4000, -4000)
    end = events[-1]
    assert isinstance(end, GameEnd) and end.scores == (43000, 31000, 31000)


def test_the_round_engine_accepts_the_kita_and_settles_the_tsumo() -> None:
    events = parse_tenhou6(_log(KITA_TSUMO), source="x.json")
    start = events[1]
    assert isinstance(start, RoundStart)
    played = replay_round(round_rules(library.scorer("tenhou_sanma")), start, events[2:])
    assert played.mismatches == []
    assert played.round is not None and list(played.round.settlement["deltas"]) == [8000, -4000, -4000]


@pytest.mark.parametrize(
    ("text", "seat", "from_seat"),
    [
        ("45p4545", 0, 2),  # letter second ("across" on a four-seat table): seat 2, seat 0's left in three-player
        ("p414141", 1, 0),  # letter first (left): seat 0
        ("4545p45", 1, 2),  # letter last (right): seat 2
        ("m21212121", 1, 0),  # an open kan from the left
    ],
)
def test_call_sources_count_round_a_four_seat_table(text: str, seat: int, from_seat: int) -> None:
    assert parse_call(text, seat).from_seat == from_seat


def test_three_player_mistakes_are_clear_errors() -> None:
    fourth_seat = [*KITA_TSUMO[:13], [11] * 13, *KITA_TSUMO[14:]]
    with pytest.raises(InvalidRequest, match="seat 3 has tiles in a 3-player log"):
        parse_tenhou6(_log(fourth_seat), source="x.json")
    wrong_letter = [*KITA_TSUMO[:6], ["f45"], *KITA_TSUMO[7:]]
    with pytest.raises(InvalidRequest, match="no order of the seats' arrays fits"):
        parse_tenhou6(_log(wrong_letter), source="x.json")
    four_player = {"disp": "鳳南喰赤", "aka": 1}
    with pytest.raises(InvalidRequest, match="x.json: round #1"):
        parse_tenhou6(_log(KITA_TSUMO, rule=four_player), source="x.json")
