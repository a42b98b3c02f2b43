"""mjlog replay: meld decoding, clear errors, and every real Tenhou win reconstructed and cross-checked.

The cross-check uses the log as the referee: Tenhou's own yaku list says when it scored ippatsu, haitei, a robbed
kan and so on, and its win tag shows the hand, the melds and the dora indicators. Our replay derives all of those
from the order of play; any disagreement is a bug in the replay (or an explained quirk of the log).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache, partial
from pathlib import Path

import pytest

from engine.core.errors import InvalidRequest
from engine.core.tiles import counts_of, parse_tile, parse_tiles
from engine.replay import mjlog as mjlog_module
from engine.replay.events import (
    AbortiveDraw,
    Call,
    Dahai,
    GameEnd,
    GameStart,
    RoundStart,
    Tsumo,
    Win,
)
from engine.replay.mjlog import decode_meld, parse_mjlog, parse_mjlog_at, read_mjlog, tile_code
from engine.replay.win_situations import WinCase, iter_wins, tenhou_yaku_ids
from tests.spec_files import TENHOU

ROOT = Path(__file__).resolve().parents[2]
DATA = TENHOU  # vendored: tests/data/tenhou
MJLOG = DATA / "mjlog"
PARTIAL = DATA / "partial" / "upd-aft-ron3.mjlog"

CONTRACT_YAKU_IDS = set(
    """riichi double_riichi ippatsu menzen_tsumo tanyao pinfu iipeikou ryanpeikou yakuhai_haku yakuhai_hatsu
    yakuhai_chun jikaze bakaze haitei houtei rinshan chankan chiitoitsu toitoi sanankou sankantsu sanshoku
    sanshoku_doukou ittsu chanta junchan honroutou shousangen honitsu chinitsu renhou kokushi kokushi_13 suuankou
    suuankou_tanki daisangen shousuushii daisuushii tsuuiisou ryuuiisou chinroutou suukantsu chuuren
    junsei_chuuren tenhou chiihou dora aka_dora ura_dora kita""".split()
)
# request flag -> the contract yaku id that Tenhou lists when it scored that situation
SITUATION_FLAGS = (
    "riichi",
    "double_riichi",
    "ippatsu",
    "haitei",
    "houtei",
    "rinshan",
    "chankan",
    "tenhou",
    "chiihou",
)
YAKUMAN_FLAGS = ("tenhou", "chiihou")


@cache
def all_games() -> tuple[tuple[str, tuple], ...]:
    """Every complete log parsed once per session: (file name, events)."""
    return tuple((p.name, tuple(read_mjlog(p))) for p in sorted(MJLOG.iterdir()) if p.is_file())


@cache
def all_wins() -> tuple[WinCase, ...]:
    return tuple(case for p in sorted(MJLOG.iterdir()) if p.is_file() for case in iter_wins(p))


def _yaku_ids(case: WinCase) -> set[str]:
    return {item["id"] for item in case.expected["yaku"]}


def _where(case: WinCase) -> str:
    return f"{Path(case.file).name} {case.round_label} seat {case.win.who}"


# ---------------------------------------------------------------- meld decoding, checked by hand


@pytest.mark.parametrize(
    ("m", "who", "kind", "tiles", "called", "from_seat"),
    [
        # East discards North (id 120); seat 3 pons it: t = 46185 >> 9 = 90 -> kind 30, copy 3 unused
        (46185, 3, "pon", "444z", "4z", 0),
        # seat 0 discards 3m (id 11); seat 1 chis 3-4-5m: t = 6 -> r 0, base 2 (3m); copies 3, 2, 1
        (6367, 1, "chi", "345m", "3m", 0),
        # seat 2 discards 6s (id 93); seat 3 chis 4-0-6s: base 21 (4s), copies 3, 0 (id 88 = red 5s), 1; r 2
        (54431, 3, "chi", "406s", "6s", 2),
        # seat 3 discards red 5p (id 52); seat 2 pons it with 5p 5p: kind 13, copy 3 unused, r 0 -> id 52
        (20073, 2, "pon", "055p", "0p", 3),
        # seat 1 drew the 4th 3p (id 45) and adds it to its pon (called from seat 0): unused copy 1 = id 45
        (16947, 1, "kakan", "3333p", "3p", 0),
        # seat 2 discards 9s (id 106); seat 3 calls the open kan: m >> 8 = 106 (kind 26), m & 3 = 3 (left)
        (27139, 3, "daiminkan", "9999s", "9s", 2),
        # seat 1 closes a kan of 2m: m >> 8 = 4 -> kind 1, m & 3 = 0
        (1024, 1, "ankan", "2222m", "2m", 1),
        # closed kan of 5m including the red one (ids 16..19)
        (4608, 0, "ankan", "0555m", "5m", 0),
    ],
)
def test_decode_meld_hand_checked(
    m: int, who: int, kind: str, tiles: str, called: str, from_seat: int
) -> None:
    call = decode_meld(m, who)
    assert call.seat == who
    assert (call.kind, sorted(call.tiles), call.called_tile, call.from_seat) == (
        kind,
        sorted(parse_tiles(tiles)),
        parse_tile(called),
        from_seat,
    )


def test_decode_meld_without_red_fives() -> None:
    """With red fives off (GO bit 0x02), id 88 is a plain 5s."""
    call = decode_meld(54431, 3, red_fives=False)
    assert sorted(call.tiles) == sorted(parse_tiles("456s"))


def test_tile_code() -> None:
    assert [tile_code(i, True) for i in (0, 16, 17, 52, 88, 135)] == [0, 34, 4, 35, 36, 33]
    assert tile_code(16, False) == 4


def test_every_logged_call_decodes_consistently() -> None:
    """Chi is always from the left, pon/kan tiles share a kind, kans have four tiles."""
    for name, events in all_games():
        for e in events:
            if isinstance(e, Call):
                kinds = {t if t < 34 else (4, 13, 22)[t - 34] for t in e.tiles}
                if e.kind == "chi":
                    assert e.from_seat == (e.seat + 3) % 4, name
                    assert len(kinds) == 3, name
                else:
                    assert len(kinds) == 1, name
                assert len(e.tiles) == (4 if e.is_kan else 3), name


# ---------------------------------------------------------------- clear errors


MINIMAL = (
    '<mjloggm ver="2.3"><GO type="169" lobby="0"/><TAIKYOKU oya="0"/>'
    '<INIT seed="0,0,0,3,3,20" ten="250,250,250,250" oya="0" '
    'hai0="34,11,120,19,83,79,69,12,1,99,128,85,73" hai1="57,27,17,119,14,134,126,44,117,68,114,82,109" '
    'hai2="78,93,90,48,100,41,40,81,60,53,92,75,98" hai3="6,104,127,88,87,35,65,135,97,122,25,5,121"/>'
    "<T77/><D77/><U74/><E74/></mjloggm>"
)


def test_minimal_log_parses() -> None:
    events = parse_mjlog(MINIMAL)
    assert isinstance(events[0], GameStart)
    assert events[0].red_fives and events[0].kuitan and events[0].hanchan and events[0].players == 4
    start = events[1]
    assert isinstance(start, RoundStart)
    assert (start.round_index, start.dealer, start.scores, start.label) == (0, 0, (25000,) * 4, "E1-0")
    assert events[2:] == [Tsumo(0, 19), Dahai(0, 19, True), Tsumo(1, 18), Dahai(1, 18, True)]
    assert start.hands[3].count(36) == 1  # id 88 is the red 5s


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (MINIMAL[: len(MINIMAL) // 2], "not well-formed"),
        ("\x00garbage\xff not xml", "not well-formed"),
        ("", "not well-formed"),
        ("<html><body/></html>", "root tag is <html>"),
        ("<mjloggm><INIT/></mjloggm>", "before the <GO> tag"),
        ('<mjloggm><GO type="169"/><T5/></mjloggm>', "outside a round"),
        (MINIMAL.replace('seed="0,0,0,3,3,20" ', ""), "missing attribute 'seed'"),
        (MINIMAL.replace("<T77/>", "<T999/>"), "tile id 999"),
        (MINIMAL.replace("<T77/>", "<X77/>"), "unknown tag"),
        (MINIMAL.replace("<T77/>", '<N who="7" m="46185"/>'), "seat 7"),
        (MINIMAL.replace("<T77/>", '<N who="1" m="abc"/>'), "bad value"),
        (MINIMAL.replace('hai0="34,', 'hai0="'), "12 tiles"),
        (
            MINIMAL.replace(
                "</mjloggm>",
                '<AGARI ba="0,0" hai="1,2" machi="40" ten="30,1000,0" yaku="8,1" '
                'doraHai="20" who="1" fromWho="0" sc="250,0,250,0,250,0,250,0"/></mjloggm>',
            ),
            "machi",
        ),
    ],
)
def test_malformed_log_is_a_clear_error(text: str, reason: str) -> None:
    with pytest.raises(InvalidRequest) as info:
        parse_mjlog(text, source="broken.mjlog")
    assert info.value.message.startswith("broken.mjlog: ")
    assert reason in info.value.message


def _general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every draw and discard tag read by parsing its name, as before the table of ``_MOVES`` (through ElementTree:
    the plain reader, compared with it below, reads them by a table of its own)."""
    monkeypatch.setattr(mjlog_module, "_MOVES", {})
    monkeypatch.setattr(mjlog_module, "_read_plain", lambda text: None)


def _places(places: object) -> list[object]:
    return [places.at(i) for i in range(len(places))]  # type: ignore[attr-defined]


@pytest.mark.parametrize("every", [3, pytest.param(1, marks=pytest.mark.slow)], ids=["every-third-log", "every-log"])
def test_the_plain_reader_gives_the_tree_readers_events_and_places(every: int) -> None:
    """Every vendored log is written as Tenhou writes it, so the plain reader (regular expressions, no element tree)
    reads it, and gives ElementTree's events, in the same order, at the same places (offsets, lines, columns)."""
    for i, path in enumerate(sorted(MJLOG.iterdir())):
        if i % every and "-00a9-" in path.name:
            continue
        text = path.read_text(encoding="utf-8")
        plain = mjlog_module._read_plain(text)
        assert plain is not None, path.name
        events, places = mjlog_module.parse_tree_at(text)
        assert plain[0] == events, path.name
        assert plain[1]._offsets == places._offsets, path.name
        assert _places(plain[1]) == _places(places), path.name


ODD_TEXTS = [
    MINIMAL,
    MINIMAL + "\n",
    MINIMAL + " \r\n\t",
    MINIMAL + "x",
    MINIMAL + "<!-- after -->",
    "\ufeff" + MINIMAL,
    '<?xml version="1.0" encoding="UTF-8"?>' + MINIMAL,
    " " + MINIMAL,
    MINIMAL.replace("<T77/>", "<T77 />"),
    MINIMAL.replace("<T77/>", '<T77 x="1"/>'),
    MINIMAL.replace("<T77/>", '<T77 x="1" x="2"/>'),
    MINIMAL.replace("<T77/>", "\n<T77/>"),
    MINIMAL.replace("<T77/>", "<T77></T77>"),
    MINIMAL.replace("<T77/>", "<T77/><!-- a comment -->"),
    MINIMAL.replace("<T77/>", "<T77/><![CDATA[<D77/>]]>"),
    MINIMAL.replace("<T77/>", "<T77/>text"),
    MINIMAL.replace('lobby="0"', 'lobby="0" lobby="1"'),
    MINIMAL.replace('lobby="0"', 'lobby="&#48;"'),
    MINIMAL.replace('lobby="0"', 'lobby="0&amp;"'),
    MINIMAL.replace('lobby="0"', "lobby='0'"),
    MINIMAL.replace('lobby="0"', 'lobby = "0"'),
    MINIMAL.replace('lobby="0"', 'lobby="\t0"'),
    MINIMAL.replace('lobby="0"', 'lobby="0>"'),
    MINIMAL.replace('lobby="0"', 'lobby="\u00e9"'),
    MINIMAL.replace('lobby="0"', 'xmlns="urn:x"'),
    MINIMAL.replace('lobby="0"', 'xmlns:a="urn:x" a:lobby="0"'),
    MINIMAL.replace('lobby="0"', 'xml:lang="ja"'),
    MINIMAL.replace('<TAIKYOKU oya="0"/>', '<TAIKYOKU\toya="0"/>'),
    MINIMAL.replace('<TAIKYOKU oya="0"/>', "<XMLTAG/>"),
    MINIMAL.replace('<mjloggm ver="2.3">', '<mjloggm ver="2.3" ver="2.4">'),
    MINIMAL.replace('<mjloggm ver="2.3">', "<mjloggm>"),
    MINIMAL.replace('<mjloggm ver="2.3">', "<mjloggm >"),
    MINIMAL.replace("</mjloggm>", "</mjloggm >"),
    MINIMAL.replace("</mjloggm>", ""),
    MINIMAL.replace('<GO type="169" lobby="0"/>', ""),
    MINIMAL.replace("<T77/>", "<T77/><INIT/>"),
    MINIMAL.replace("<T77/>", '<T77/><UN n0="%E3%81%82" dan="0,0,0,0"/><BYE who="1"/>'),
    MINIMAL.replace('hai0="34,', 'hai0="abc,999,'),
    MINIMAL.replace('hai0="34,', 'hai0="999,abc,'),
    MINIMAL.replace('hai0="34,', 'hai0="-1,'),
    MINIMAL.replace('hai0="34,', 'hai0=" 34 ,'),
    MINIMAL.replace("<U74/><E74/>", "<W74/>").replace('type="169"', 'type="185"'),
    MINIMAL.replace('lobby="0"', 'lobby="a/><b"'),
    MINIMAL.replace('lobby="0"', 'lobby="/"'),
    MINIMAL.replace("<T77/>", "<T77//>"),
    MINIMAL.replace("<T77/>", "<T77/ >"),
    MINIMAL.replace("<T77/>", "<T77/><>"),
    MINIMAL.replace("<T77/>", "<T77/></>"),
    MINIMAL.replace("<T77/>", "<T77/><T77"),
    MINIMAL.replace("<D77/>", "<D77/><DORA hai=\"5\"/>"),
    '<mjloggm ver="2.3"></mjloggm>',
    '<mjloggm ver="2.3"><GO type="169"/></mjloggm>',
    "<mjloggm/>",
    "<mjloggm",
    "",
]


@pytest.mark.parametrize("text", ODD_TEXTS, ids=range(len(ODD_TEXTS)))
def test_an_odd_text_reads_as_the_tree_reader_reads_it(text: str) -> None:
    """The plain reader takes only texts it reads exactly as ElementTree does: on any other (XML it would have to
    decode, whitespace, comments, a refusal) it declines, and the reader's answer, events and places or the words
    of the refusal, is the tree reader's."""

    def outcome(parse: object) -> object:
        try:
            events, places = parse(text, "odd.mjlog")  # type: ignore[operator]
        except InvalidRequest as exc:
            return exc.message
        return events, _places(places)

    assert outcome(mjlog_module.parse_mjlog_at) == outcome(mjlog_module.parse_tree_at)
    plain = mjlog_module._read_plain(text)
    if plain is not None:
        events, places = mjlog_module.parse_tree_at(text, "odd.mjlog")
        assert (plain[0], _places(plain[1])) == (events, _places(places))


@pytest.mark.parametrize("value", ["34,11,120", "135", "0,999", "999,abc", "abc,999", "-1,5", " 3 , 4", "", "7,"])
def test_tile_ids_are_read_at_c_level_as_one_by_one(value: str) -> None:
    """``_Parser._tiles`` looks the ids up in the table at once; the answer, or the error of the first id that
    fails, is that of reading them one by one with ``tile_code``."""

    def outcome(read: object) -> object:
        try:
            return read()  # type: ignore[operator]
        except (mjlog_module._TagError, ValueError) as exc:
            return type(exc), str(exc)

    def one_by_one(red: bool) -> tuple[int, ...]:
        return tuple(tile_code(int(v), red) for v in value.split(",")) if value else ()

    for red in (False, True):
        parser = mjlog_module._Parser()
        parser.game = GameStart(red_fives=red, kuitan=True, hanchan=True, players=4, raw_type=0)
        assert outcome(partial(parser._tiles, value)) == outcome(partial(one_by_one, red))


@pytest.mark.parametrize("every", [4, pytest.param(1, marks=pytest.mark.slow)], ids=["every-fourth-log", "every-log"])
def test_draw_and_discard_tags_read_from_the_table_as_by_their_name(monkeypatch: pytest.MonkeyPatch, every: int) -> None:
    """The table of draw and discard tags is a shortcut: the vendored logs (red fives or not, abortive draws of every
    kind; in the default run every fourth of the common game type and each of the others, all with ``-m slow``)
    give the same events and places through it as through the general path."""
    paths = sorted(MJLOG.iterdir())
    texts = [path.read_text(encoding="utf-8") for i, path in enumerate(paths) if i % every == 0 or "-00a9-" not in path.name]
    fast = [parse_mjlog_at(text) for text in texts]
    _general_path(monkeypatch)
    for text, (events, places) in zip(texts, fast, strict=True):
        slow_events, slow_places = parse_mjlog_at(text)
        assert events == slow_events
        assert [places.at(i) for i in range(len(places))] == [slow_places.at(i) for i in range(len(slow_places))]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('<mjloggm><GO type="169"/><T5/></mjloggm>', "outside a round"),
        ('<mjloggm><T5/></mjloggm>', "before the <GO> tag"),
        (MINIMAL.replace('<GO type="169"', '<GO type="185"').replace("<U74/><E74/>", "<W74/>"), "seat 3 does not"),
        (MINIMAL.replace("<U74/><E74/>", "<G74/>"), ""),
        (MINIMAL.replace("<T77/>", "<T077/>"), ""),
        (MINIMAL.replace("<T77/>", "<T136/>"), "tile id 136"),
    ],
)
def test_odd_draw_and_discard_tags_read_alike_both_ways(monkeypatch: pytest.MonkeyPatch, text: str, reason: str) -> None:
    def outcome() -> object:
        try:
            return parse_mjlog(text, source="odd.mjlog")
        except InvalidRequest as exc:
            return exc.message

    fast = outcome()
    _general_path(monkeypatch)
    assert fast == outcome()
    assert reason in fast if reason else isinstance(fast, list)


def test_truncated_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "cut.mjlog"
    path.write_text(MINIMAL[:300])
    with pytest.raises(InvalidRequest, match=r"cut\.mjlog: not well-formed mjlog XML at line 1"):
        read_mjlog(path)
    binary = tmp_path / "binary.mjlog"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(InvalidRequest, match="binary.mjlog"):
        read_mjlog(binary)
    with pytest.raises(InvalidRequest, match="cannot read"):
        read_mjlog(tmp_path / "missing.mjlog")


def test_replay_inconsistency_is_a_clear_error() -> None:
    """Discarding a tile the seat never held is caught by the tile tracking, with file and round."""
    text = MINIMAL.replace("<D77/>", "<D135/>")
    from engine.replay.win_situations import win_cases

    with pytest.raises(
        InvalidRequest, match=r"x\.mjlog: E1-0, event #4: seat 0 discards 7z but does not hold it"
    ):
        list(win_cases(parse_mjlog(text), source="x.mjlog"))


# ---------------------------------------------------------------- the yaku table


def test_yaku_table_maps_every_tenhou_number_to_a_contract_id() -> None:
    ids = tenhou_yaku_ids()
    assert sorted(ids) == list(range(55))
    assert set(ids.values()) <= CONTRACT_YAKU_IDS
    raw = json.loads((ROOT / "rulebooks" / "tenhou_yaku.json").read_text())
    assert len(raw["ids"]) == 55


def test_no_yaku_names_in_replay_code() -> None:
    """Project rule: engine/ is mechanics only; yaku names live in data (the situation flags are contract fields)."""
    allowed = set(SITUATION_FLAGS) | {"renhou", "dora", "kita"}
    pattern = re.compile("|".join(sorted(CONTRACT_YAKU_IDS - allowed, key=len, reverse=True)))
    for path in (ROOT / "engine" / "replay").glob("*.py"):
        found = pattern.findall(path.read_text())
        assert not found, f"{path.name} names yaku {sorted(set(found))}"


# ---------------------------------------------------------------- the real logs


def test_counts() -> None:
    games = all_games()
    assert len(games) == 165
    rounds = sum(isinstance(e, RoundStart) for _, ev in games for e in ev)
    wins = [e for _, ev in games for e in ev if isinstance(e, Win)]
    assert (rounds, len(wins), sum(w.tsumo for w in wins)) == (1734, 1458, 621)
    assert len(all_wins()) == len(wins)
    assert all(isinstance(ev[-1], GameEnd) for _, ev in games)
    rules = Counter(ev[0].raw_type for _, ev in games)
    assert rules == Counter({169: 163, 41: 1, 9: 1})


def test_partial_game_ends_in_triple_ron() -> None:
    events = read_mjlog(PARTIAL)
    assert not any(isinstance(e, GameEnd) for e in events)
    assert isinstance(events[-1], AbortiveDraw) and events[-1].kind == "triple_ron"
    assert events[-1].tenpai == (0, 1, 2)
    assert len(list(iter_wins(PARTIAL))) == 6


@pytest.mark.parametrize("flag", SITUATION_FLAGS + ("menzen_tsumo",))
def test_situation_flags_agree_with_tenhou(flag: str) -> None:
    """Each derived flag is set exactly when Tenhou scored the matching yaku.

    A yakuman hand lists only its yakuman, so there only the yakuman flags (and riichi, checked through the ura
    indicators Tenhou shows only for riichi hands) can be compared.
    """
    disagreements = []
    for case in all_wins():
        ids = _yaku_ids(case)
        if flag == "menzen_tsumo":
            ours = case.request["tsumo"] and all(m["type"] == "ankan" for m in case.request["melds"])
        else:
            ours = case.request[flag]
        if flag == "riichi":
            theirs = "riichi" in ids or "double_riichi" in ids
            if case.expected["yakuman"]:
                theirs = bool(case.win.ura_indicators)
        else:
            theirs = flag in ids
            if case.expected["yakuman"] and flag not in YAKUMAN_FLAGS:
                continue
        if ours != theirs:
            disagreements.append(f"{_where(case)}: ours {ours}, Tenhou {theirs}")
    assert not disagreements, "\n".join(disagreements)


def test_situation_flags_occur() -> None:
    """The data exercises every flag we can check (so the test above is not vacuous)."""
    seen = Counter(flag for case in all_wins() for flag in SITUATION_FLAGS if case.request[flag])
    assert seen == Counter(
        riichi=618, ippatsu=112, rinshan=8, houtei=8, haitei=6, double_riichi=5, chankan=4, tenhou=2
    )
    assert not any(case.request["renhou"] for case in all_wins())


def test_requests_are_legal_hands() -> None:
    for case in all_wins():
        request = case.request
        hand = parse_tiles(request["hand"])
        melds = [parse_tiles(m["tiles"]) for m in request["melds"]]
        kans = sum(len(m) == 4 for m in melds)
        every = hand + [t for m in melds for t in m]
        assert len(every) == 14 + kans, _where(case)
        assert len(hand) + 3 * len(melds) == 14, _where(case)
        assert max(counts_of(every)) <= 4, _where(case)
        assert all(every.count(red) <= 1 for red in (34, 35, 36)), _where(case)
        assert parse_tile(request["win"]) in hand, _where(case)
        assert request["seat_wind"] in "ESWN" and request["round_wind"] in "ESW"
        assert bool(request["ura_indicators"]) == request["riichi"], _where(case)


def test_dora_indicators_follow_kan_timing() -> None:
    """The indicators Tenhou counted equal the ones its DORA tags had revealed, and D13's timing predicts them."""
    for case in all_wins():
        shown = parse_tiles(case.request["dora_indicators"])
        assert tuple(shown) == case.tracked_dora, _where(case)
        assert case.rule_dora_count == len(shown), _where(case)


def test_honba_and_sticks_explain_the_winners_gain() -> None:
    """value + 300 per honba + 1000 per stick is what the winner got, so honba/riichi_sticks are right
    (in a double ron only the first winner collects them)."""
    for case in all_wins():
        r = case.request
        gain = case.expected["points"] + 300 * r["honba"] + 1000 * r["riichi_sticks"]
        assert case.expected["deltas"][case.win.who] == gain, _where(case)


def test_expected_results_are_consistent() -> None:
    for case in all_wins():
        e = case.expected
        if e["yakuman"]:
            assert e["limit"] == 5 and all("yakuman" in item for item in e["yaku"])
        else:
            assert e["han"] == sum(item["han"] for item in e["yaku"]), _where(case)
            assert e["han"] >= 1 and e["fu"] in (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)
        assert [item["id"] for item in e["yaku"]] == sorted(item["id"] for item in e["yaku"])


def test_wind_numbers_match_seat_and_round() -> None:
    """Tenhou 10-13 are the seat wind E/S/W/N and 14-17 the round wind: check them against the replayed seats."""
    for case in all_wins():
        for number, _han in case.win.yaku:
            if 10 <= number <= 13:
                assert case.request["seat_wind"] == "ESWN"[number - 10], _where(case)
            if 14 <= number <= 17:
                assert case.request["round_wind"] == "ESWN"[number - 14], _where(case)
