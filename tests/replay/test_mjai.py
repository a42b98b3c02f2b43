"""mjai: tile names, every producer's spelling, events to and from ``Action``s, and mjai logs as replay events."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.errors import InvalidRequest
from engine.core.tiles import format_tiles, parse_tile
from engine.protocol import mjai
from engine.replay.events import AbortiveDraw, Call, Dahai, ExhaustiveDraw, GameStart, RoundStart, Tsumo, Win
from engine.replay.mjai_log import parse_mjai, parse_mjai_events
from engine.round.actions import Action

ALL_CODES = list(range(37))


@pytest.mark.parametrize(
    ("name", "mpsz"),
    [("1m", "1m"), ("9s", "9s"), ("5mr", "0m"), ("5pr", "0p"), ("5sr", "0s"), ("E", "1z"), ("N", "4z"), ("P", "5z"), ("F", "6z"), ("C", "7z")],
)
def test_tile_names(name: str, mpsz: str) -> None:
    assert mjai.tile_from_mjai(name) == parse_tile(mpsz)
    assert mjai.tile_to_mjai(parse_tile(mpsz)) == name
    assert mjai.mpsz_to_mjai(mpsz) == name


@given(st.sampled_from(ALL_CODES))
def test_every_tile_round_trips(code: int) -> None:
    assert mjai.tile_from_mjai(mjai.tile_to_mjai(code)) == code


@pytest.mark.parametrize("bad", ["0m", "5zr", "6mr", "Z", "", "10m", 5, None, "5m "])
def test_bad_tile_names_are_clear_errors(bad: object) -> None:
    with pytest.raises(InvalidRequest, match="mjai tile name"):
        mjai.tile_from_mjai(bad)


@pytest.mark.parametrize(
    ("reason", "kind"),
    [
        ("kyushukyuhai", "nine_terminals"), ("kyushu_kyuhai", "nine_terminals"), ("sufonrenda", "four_winds"),
        ("sufuurenta", "four_winds"), ("suchareach", "four_riichi"), ("sukaikan", "four_kans"),
        ("sanchaho", "triple_ron"), ("suukansansen", "four_kans"), ("exhaustive_draw", "exhaustive"), ("fanpai", "exhaustive"),
        ("nagashimangan", "nagashi_mangan"), (None, "exhaustive"), ("Kyushu-Kyuhai", "nine_terminals"),
    ],
)
def test_every_producers_ryukyoku_reason(reason: str | None, kind: str) -> None:
    event = {"type": "ryukyoku"} if reason is None else {"type": "ryukyoku", "reason": reason}
    assert mjai.normalize(event)["kind"] == kind


def test_unknown_reason_and_type_are_refused_with_their_names() -> None:
    with pytest.raises(InvalidRequest, match="unknown ryukyoku reason `tobi`"):
        mjai.normalize({"type": "ryukyoku", "reason": "tobi"})
    with pytest.raises(InvalidRequest, match="unknown mjai event type `hello`"):
        mjai.normalize({"type": "hello"})


def test_producer_field_and_type_variants_are_folded() -> None:
    assert mjai.normalize({"type": "kita", "actor": 0, "pai": "N"})["type"] == "nukidora"
    hora = mjai.normalize({"type": "hora", "actor": 1, "target": 0, "ura_markers": ["1m"]})
    assert hora["uradora_markers"] == ["1m"] and "ura_markers" not in hora


@pytest.mark.parametrize(
    "event",
    [
        {"type": "dahai", "actor": 2, "pai": "5pr", "tsumogiri": True},
        {"type": "dahai", "actor": 0, "pai": "E", "tsumogiri": False},
        {"type": "chi", "actor": 1, "target": 0, "pai": "3m", "consumed": ["4m", "5mr"]},
        {"type": "pon", "actor": 3, "target": 1, "pai": "C", "consumed": ["C", "C"]},
        {"type": "daiminkan", "actor": 0, "target": 2, "pai": "5s", "consumed": ["5sr", "5s", "5s"]},
        {"type": "kakan", "actor": 1, "pai": "9p", "consumed": ["9p", "9p", "9p"]},
        {"type": "ankan", "actor": 2, "consumed": ["5mr", "5m", "5m", "5m"]},
        {"type": "nukidora", "actor": 0, "pai": "N"},
        {"type": "reach", "actor": 3},
        {"type": "hora", "actor": 1, "target": 3, "pai": "7s"},
        {"type": "none", "actor": 2},
    ],
)
def test_actions_round_trip(event: dict) -> None:
    action = mjai.action_from_event(event)
    assert isinstance(action, Action)
    assert mjai.event_from_action(action) == event


def test_a_tsumo_is_a_hora_on_oneself() -> None:
    action = mjai.action_from_event({"type": "hora", "actor": 2, "target": 2, "pai": "E"})
    assert (action.actor, action.target) == (2, 2)


def test_round_records_become_mjai_tile_names() -> None:
    from engine.round.events import Hora, ReachAccepted, Ryukyoku, StartKyoku

    start = StartKyoku("E", 1, 0, 1, 0, 13, (25000,) * 4, ((0, 36, 27),) * 4)
    hora = Hora(2, 0, 34, (-8000, 0, 8000, 0), "0p1z")
    first, accepted, won = mjai.round_to_mjai([start, ReachAccepted(1, (0, -1000, 0, 0), (25000,) * 4), hora], 1000)
    assert first["dora_marker"] == "5p" and first["tehais"][0] == ["1m", "5sr", "E"]
    assert won["pai"] == "5mr" and won["uradora_markers"] == ["5pr", "E"]
    assert won["deltas"] == [-8000, 0, 10000, 0]  # the stick on the table and the one just paid go to the winner
    assert mjai.round_to_mjai([Ryukyoku("suufon_renda", (0,) * 4)], 1000)[0]["reason"] == "sufonrenda"
    out = io.StringIO()
    assert mjai.write_lines([{"type": "start_game"}, {"type": "end_game"}], out) == 2
    assert out.getvalue() == '{"type":"start_game"}\n{"type":"end_game"}\n'


def test_first_line_sniffing() -> None:
    assert mjai.is_mjai_line('{"type":"start_game","names":["a","b","c","d"]}')
    assert not mjai.is_mjai_line('{"title": ["", ""], "log": []}')
    assert not mjai.is_mjai_line("<mjloggm ver=\"2.3\">")


# ---------------------------------------------------------------- mjai logs as replay events

DEAL = [
    ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "E"],
    ["1s", "1s", "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "9s", "9s"],
    ["1p", "1p", "2p", "2p", "3p", "3p", "4p", "4p", "5pr", "6p", "7p", "8p", "9p"],
    ["E", "E", "S", "S", "W", "W", "N", "N", "P", "P", "F", "F", "C"],
]


def _log(*body: dict) -> list[str]:
    start = {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
             "dora_marker": "1m", "scores": [25000] * 4, "tehais": DEAL}
    return [json.dumps(e) for e in ({"type": "start_game"}, start, *body, {"type": "end_kyoku"}, {"type": "end_game"})]


def test_an_mjai_log_reads_as_replay_events() -> None:
    events = parse_mjai(
        _log(
            {"type": "tsumo", "actor": 0, "pai": "E"},
            {"type": "dahai", "actor": 0, "pai": "1m", "tsumogiri": False},
            {"type": "tsumo", "actor": 1, "pai": "C"},
            {"type": "dahai", "actor": 1, "pai": "C", "tsumogiri": True},
            {"type": "tsumo", "actor": 2, "pai": "5p"},
            {"type": "hora", "actor": 2, "target": 2, "pai": "5p", "deltas": [-4000, -2000, 8000, -2000], "ura_markers": []},
        )
    )
    kinds = [type(e).__name__ for e in events]
    assert kinds == ["GameStart", "RoundStart", "Tsumo", "Dahai", "Tsumo", "Dahai", "Tsumo", "Win", "GameEnd"]
    assert isinstance(events[0], GameStart) and events[0].red_fives and events[0].players == 4
    assert isinstance(events[1], RoundStart) and events[1].dealer == 0 and events[1].label == "E1-0"
    assert events[2] == Tsumo(0, parse_tile("1z")) and events[3] == Dahai(0, parse_tile("1m"), False)
    win = events[7]
    assert isinstance(win, Win) and win.tsumo and win.who == 2 and win.deltas == (-4000, -2000, 8000, -2000)
    assert format_tiles(win.hand) == "11223344056789p"


def test_calls_keep_their_tiles_and_the_kakan_its_pon() -> None:
    events = parse_mjai(
        _log(
            {"type": "tsumo", "actor": 0, "pai": "2s"},
            {"type": "dahai", "actor": 0, "pai": "E", "tsumogiri": False},
            {"type": "pon", "actor": 3, "target": 0, "pai": "E", "consumed": ["E", "E"]},
            {"type": "dahai", "actor": 3, "pai": "C", "tsumogiri": False},
            {"type": "tsumo", "actor": 0, "pai": "E"},
            {"type": "dahai", "actor": 0, "pai": "E", "tsumogiri": True},
            {"type": "tsumo", "actor": 1, "pai": "9p"},
            {"type": "dahai", "actor": 1, "pai": "9p", "tsumogiri": True},
            {"type": "tsumo", "actor": 2, "pai": "1s"},
            {"type": "dahai", "actor": 2, "pai": "1s", "tsumogiri": True},
            {"type": "tsumo", "actor": 3, "pai": "E"},
            {"type": "kakan", "actor": 3, "pai": "E", "consumed": ["E", "E", "E"]},
            {"type": "dora", "dora_marker": "9m"},
            {"type": "tsumo", "actor": 3, "pai": "C"},
            {"type": "ryukyoku", "reason": "kyushukyuhai", "deltas": [0, 0, 0, 0]},
        )
    )
    calls = [e for e in events if isinstance(e, Call)]
    assert [(c.kind, c.seat, c.from_seat, format_tiles(c.tiles)) for c in calls] == [
        ("pon", 3, 0, "111z"), ("kakan", 3, 0, "1111z"),
    ]
    assert isinstance(events[-2], AbortiveDraw) and events[-2].kind == "nine_terminals"


def test_exhaustive_draw_tenpai_from_the_tenpais_field_or_the_payments() -> None:
    with_field = parse_mjai(_log({"type": "ryukyoku", "reason": "fanpai", "tenpais": [True, False, False, True], "deltas": [1500, -1500, -1500, 1500]}))
    draw = next(e for e in with_field if isinstance(e, ExhaustiveDraw))
    assert draw.tenpai == (0, 3)
    without = parse_mjai(_log({"type": "ryukyoku", "reason": "exhaustive_draw", "deltas": [-1000, 3000, -1000, -1000]}))
    assert next(e for e in without if isinstance(e, ExhaustiveDraw)).tenpai == (1,)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"type": "start_game"}', "not json"], r"<mjai>:2: not a JSON object"),
        (['{"type": "start_game"}'], "no start_kyoku event"),
        (_log({"type": "dahai", "actor": 0, "pai": "C", "tsumogiri": False}), r"<mjai>:3: seat 0 plays C, which is not in its hand"),
        (_log({"type": "tsumo", "actor": 7, "pai": "C"}), "a seat must be 0..3"),
        (_log({"type": "tsumo", "actor": 0}), "missing or has a bad field"),
    ],
)
def test_bad_logs_are_clear_errors(lines: list[str], message: str) -> None:
    with pytest.raises(InvalidRequest, match=message):
        parse_mjai(lines)


def test_a_log_seen_from_one_seat_is_refused() -> None:
    lines = _log()
    start = json.loads(lines[1])
    start["tehais"][1] = ["?"] * 13
    lines[1] = json.dumps(start)
    with pytest.raises(InvalidRequest, match="mjai tile name|13 tiles"):
        parse_mjai(lines)


def test_origins_line_up_replay_events_with_mjai_events() -> None:
    raw = [json.loads(line) for line in _log({"type": "tsumo", "actor": 0, "pai": "E"}, {"type": "reach", "actor": 0})]
    events, origins = parse_mjai_events(raw)
    assert len(events) == len(origins)
    assert origins == [-1, 1, 2, 3, 5]  # game start, start_kyoku, tsumo, reach, end_game (end_kyoku makes none)


# ---------------------------------------------------------------- our own rounds, written as mjai and replayed


def _played_round(seed: int, rulebook: str = "tenhou"):
    """One round of the game engine's shanten agents (they win, declare riichi and call), from a seeded wall."""
    from engine.game.agents import ShantenAgent
    from engine.round.round import Round, RoundSetup
    from engine.round.rules import round_rules
    from engine.scoring import library

    rules = round_rules(library.scorer(rulebook))
    rnd = Round(rules, RoundSetup(dealer=seed % rules.players, scores=(35_000,) * rules.players), seed=seed)
    agents = [ShantenAgent(seed * 10 + seat) for seat in range(rules.players)]
    while not rnd.finished:
        seat = rnd.waiting()[0]
        rnd.apply(agents[seat].act(rnd, seat, rnd.legal_actions(seat)))
    return rnd


@pytest.mark.parametrize(("rulebook", "seed"), [("tenhou", s) for s in range(16)] + [("tenhou_sanma", s) for s in range(8)])
def test_a_round_of_ours_written_as_mjai_replays_exactly(rulebook: str, seed: int) -> None:
    """Write: the round's events as mjai lines; read: back into replay events; replay: every move legal, the
    same settlement. A round trip through the protocol and the replay of the engine's own play."""
    from engine.replay.rounds import compare_settlement, split_rounds
    from engine.replay.through_round import replay_round
    from engine.round.rules import round_rules
    from engine.scoring import library

    rnd = _played_round(seed, rulebook)
    out = io.StringIO()
    lines = mjai.round_to_mjai(rnd.log, rnd.rules.riichi_deposit)
    mjai.write_lines([{"type": "start_game"}, *lines, {"type": "end_game"}], out)
    events = parse_mjai(out.getvalue().splitlines())
    _, rounds, _ = split_rounds(events)
    (index, start, body), = rounds
    played = replay_round(round_rules(library.scorer(rulebook)), start, body, index + 1)
    assert played.mismatches == []
    assert played.round is not None and played.round.settlement is not None
    assert compare_settlement(played, start, body, None, 0) == []
    assert played.round.settlement["deltas"] == rnd.settlement["deltas"]
