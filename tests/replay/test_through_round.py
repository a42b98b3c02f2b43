"""The wall a replay builds from a log, and the mismatches a replay reports."""

from __future__ import annotations

from engine.core.tiles import parse_tiles
from engine.replay.events import Call, RoundStart, Tsumo
from engine.replay.positions import Position
from engine.replay.through_round import Mismatch, replay_round, wall_of
from engine.round.rules import round_rules
from engine.round.wall import WallState
from engine.scoring import library


def test_replacement_draws_past_the_dead_walls_own_come_from_the_end_of_the_live_wall() -> None:
    """Six replacement draws (set-aside Norths): four replacements lie in the dead wall, the next two were moved in from the live wall."""
    rules = round_rules(library.scorer("tenhou_sanma"))
    replacements = parse_tiles("6s7s8s9s1z2z")
    body = []
    for tile in replacements:
        body += [Call(0, "kita", (parse_tiles("4z")[0],), parse_tiles("4z")[0], 0), Tsumo(0, tile)]
    start = RoundStart(
        round_index=0, honba=0, sticks=0, dora_indicator=parse_tiles("9p")[0], scores=(35_000,) * 3, dealer=0,
        hands=(tuple(parse_tiles("1112223334445p")), tuple(parse_tiles("1112223334445s")), tuple(parse_tiles("111999m1235677z"))),
    )
    wall = wall_of(rules, start, [Tsumo(0, parse_tiles("6p")[0]), *body])  # the calls' own tiles are not drawn here
    state = WallState(wall, rules)
    assert state.draw() == parse_tiles("6p")[0]
    assert [state.replacement() for _ in replacements] == replacements
    assert state.dora_indicators() == (parse_tiles("9p")[0],)


def test_a_log_with_a_tile_the_set_does_not_hold_is_a_mismatch_not_a_crash() -> None:
    rules = round_rules(library.scorer("tenhou"))
    start = RoundStart(
        round_index=0, honba=0, sticks=0, dora_indicator=parse_tiles("1z")[0], scores=(25_000,) * 4, dealer=0,
        hands=tuple(tuple(parse_tiles(h)) for h in ("1111222233334m", "5555666677778p", "1111s" * 3 + "2s", "1111222233334z")),
    )
    played = replay_round(rules, start, [])
    assert played.round is None
    assert [m.what for m in played.mismatches] == ["the deal"]
    text = played.mismatches[0].text()
    assert "the deal: the log has tiles dealt and drawn, the rulebook gives a tile set that cannot hold them (" in text
    assert "more than the rulebook's tile set holds" in played.mismatches[0].note


def test_a_mismatch_reads_as_a_sentence_and_as_json() -> None:
    m = Mismatch("E1-0", 12, "illegal move", "pon seat 2 5m", ["dahai seat 2 5m", "none seat 2"])
    assert m.text() == "E1-0, event 12: illegal move: the log has pon seat 2 5m, the rulebook gives dahai seat 2 5m, none seat 2"
    nowhere = {"line": None, "column": None, "offset": None, "path": None}  # not read from a file: no place in one
    assert m.to_json() == {"round": "E1-0", "event": 12, **nowhere, "what": "illegal move", "expected": "pon seat 2 5m", "got": ["dahai seat 2 5m", "none seat 2"]}


def test_a_mismatch_names_its_place_in_the_file_when_the_reader_knows_it() -> None:
    m = Mismatch("E1-0", 12, "illegal move", "pon seat 2 5m", "none seat 2", at=Position(line=40))
    assert m.text() == "E1-0, line 40: illegal move: the log has pon seat 2 5m, the rulebook gives none seat 2"
    assert m.to_json()["event"] == 12 and m.to_json()["line"] == 40
    xml = Mismatch("E1-0", 12, "draw", "a", "b", at=Position(line=1, column=3457, offset=3456))
    assert xml.text().startswith("E1-0, line 1, column 3457: draw") and xml.to_json()["offset"] == 3456
    json6 = Mismatch("E1-0", 12, "draw", "a", "b", at=Position(path="log[0][6][7]"))
    assert json6.text().startswith("E1-0, log[0][6][7]: draw") and json6.to_json()["path"] == "log[0][6][7]"
