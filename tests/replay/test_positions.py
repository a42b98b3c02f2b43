"""Each reader gives, beside its events, where in the file each one is written: what a replay mismatch names so
that a user can open the log there (``engine.replay.positions``)."""

from __future__ import annotations

import json

from engine.replay.events import Dahai, GameEnd, GameStart, NewDoraIndicator, RoundStart, Tsumo, Win
from engine.replay.mjai_log import parse_mjai_at
from engine.replay.mjlog import parse_mjlog_at, read_mjlog_at
from engine.replay.positions import Position
from engine.replay.rounds import read_events_at
from engine.replay.tenhou6 import read_tenhou6_at
from tests.replay.test_kan_dora_order import MJLOG, selfplay_log
from tests.spec_files import TENHOU


def test_an_mjai_event_is_placed_on_its_own_line_whatever_makes_no_event() -> None:
    """``start_game``, ``end_kyoku`` and blank lines make no event: the line still counts them."""
    lines = ["", *selfplay_log("house")[0]]
    events, places = parse_mjai_at(lines)
    assert len(places) == len(events) and places.at(0) is None  # the game start the reader adds
    for index, event in enumerate(events[1:], 1):
        at = places.at(index)
        assert at is not None and at.line is not None
        written = json.loads(lines[at.line - 1])
        if isinstance(event, Tsumo):
            assert written["type"] == "tsumo" and written["actor"] == event.actor
        elif isinstance(event, RoundStart):
            assert written["type"] == "start_kyoku"
        elif isinstance(event, NewDoraIndicator):
            assert written["type"] == "dora"
    assert places.at(len(events)) is None


def test_an_mjlog_tag_is_placed_by_line_column_and_byte_offset() -> None:
    events, places = read_mjlog_at(MJLOG)
    text = MJLOG.read_text(encoding="utf-8")
    first_draw = next(i for i, e in enumerate(events) if isinstance(e, Tsumo))
    at = places.at(first_draw)
    assert at is not None and at.line == 1 and at.column == at.offset + 1  # one line of ASCII
    assert text[at.offset] == "<" and text[at.offset + 1] in "TUVW"
    init = next(i for i, e in enumerate(events) if isinstance(e, RoundStart))
    assert text[places.at(init).offset :].startswith("<INIT")  # type: ignore[union-attr]
    end = next(i for i, e in enumerate(events) if isinstance(e, GameEnd))
    assert places.at(end) == places.at(end - 1)  # the final table rides on the last result tag


def test_an_mjlog_on_several_lines_counts_lines_and_columns() -> None:
    text = '<mjloggm ver="2.3">\n<GO type="169" lobby="0"/>\n  <TAIKYOKU oya="0"/>\n</mjloggm>'
    events, places = parse_mjlog_at(text)
    assert isinstance(events[0], GameStart)
    assert places.at(0) == Position(line=2, column=1, offset=text.index("<GO"))


def test_a_tenhou6_event_is_placed_by_its_entry_of_the_log_arrays() -> None:
    path = TENHOU / "excerpts" / "double_ron.json"
    events, places = read_tenhou6_at(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert places.at(0) == Position(path="rule")
    for index, event in enumerate(events[1:], 1):
        at = places.at(index)
        assert at is not None and at.path is not None and at.path.startswith("log[0]")
        steps = [int(k) for k in at.path[len("log") :].strip("[]").split("][")]
        entry = data["log"][steps[0]]
        for k in steps[1:]:
            entry = entry[k]
        if isinstance(event, Tsumo):
            assert steps[1] == 5 + 3 * event.actor and isinstance(entry, int)
        elif isinstance(event, Dahai):
            assert steps[1] == 6 + 3 * event.actor
        elif isinstance(event, Win):
            assert at.path == "log[0][16]"


def test_a_tenhou6_file_of_one_round_a_line_adds_the_line() -> None:
    one = sorted((TENHOU / "json").iterdir())[0]
    events, places = read_events_at(one)
    lines = [p.line for p in (places.at(i) for i in range(len(events))) if p is not None]
    assert lines[0] == 1 and lines[-1] == len(one.read_text(encoding="utf-8").splitlines())


def test_every_tenhou6_event_has_its_round_entry_even_after_the_reader_backtracked() -> None:
    """The reader tries several orders of a round's calls (``confusing_nakis``): the places are the kept order's."""
    for path in sorted((TENHOU / "excerpts").iterdir()):
        events, places = read_tenhou6_at(path)
        for index in range(1, len(events)):
            at = places.at(index)
            assert at is not None and at.path is not None, (path.name, index)
            assert at.path.startswith("log[") or at.path == "sc", (path.name, at.path)
