"""The mechanics every rulebook shares, on arranged walls: first-turn wins, riichi bonuses and their breaking,
robbing a kan, replacement draws, the last tile, furiten, kan dora timing, determinism and the output shapes."""

from __future__ import annotations

import json

from engine.core import tiles as T
from engine.round import Round, RoundSetup
from tests.round.scenario import make_round, play, rules
from tests.round.test_every_name_executes import RIICHI_HANDS, plain

HOUSE = rules("house", plain())
OTHERS = {1: "2468m2468p1357s1z", 2: "3579m1357p2468s2z", 3: "2468m3579p3579s3z"}


def yaku(r: Round, index: int = 0) -> set[str]:
    assert r.settlement is not None and r.settlement["kind"] == "win", r.settlement
    return {line["id"] for line in r.settlement["wins"][index]["yaku"]}


def test_a_complete_deal_is_a_dealer_first_draw_win() -> None:
    r = play(make_round(HOUSE, {0: "123m456p789s2355s", **OTHERS}, {0: "1s"}), "0 hora")
    assert "tenhou" in yaku(r)


def test_a_non_dealer_complete_on_his_first_draw() -> None:
    hands = {0: "2468m2468p1357s1z", 1: "123m456p789s2355s", 2: OTHERS[2], 3: OTHERS[3]}
    r = play(make_round(HOUSE, hands, {0: "9m", 1: "1s"}), "1 hora")
    assert "chiihou" in yaku(r)


def test_double_riichi_and_ippatsu_on_the_next_draw() -> None:
    r = play(make_round(HOUSE, RIICHI_HANDS, {0: "7z1s", 1: "7z", 2: "6z", 3: "6z"}), "0 reach", "0 dahai 7z", "0 hora")
    assert {"double_riichi", "ippatsu", "menzen_tsumo"} <= yaku(r)
    assert "riichi" not in yaku(r)


def test_a_call_breaks_ippatsu() -> None:
    """Seat 2 pons seat 1's Green after the dealer's double riichi: the dealer's tsumo next has no ippatsu."""
    hands = {0: "123m456p789s2355s", 1: "2468m2468p1357s6z", 2: "3579m1357p246s66z", 3: OTHERS[3]}
    r = make_round(HOUSE, hands, order=[T.tile_codes(t)[0] for t in ("7z", "6z", "9m", "1s")])
    play(r, "0 reach", "0 dahai 7z", "1 dahai 6z", "2 pon 6z", "2 dahai 9m", "0 hora")
    assert "double_riichi" in yaku(r) and "ippatsu" not in yaku(r)


def test_an_added_kan_is_robbed() -> None:
    """Seat 1 pons 4m, later adds the fourth 4m: seat 2, waiting on 4m, robs it."""
    hands = {0: "4m19m19p19s1234z56z", 1: "44m2468p1357s134z", 2: "56m345p678p567s22s", 3: "2368m3579p3579s3z"}
    order = [T.tile_codes(t)[0] for t in ("7z", "8m", "8m", "8m", "4m")]
    r = make_round(HOUSE, hands, order=order)
    play(r, "0 dahai 4m", "1 pon 4m", "1 dahai 1z", "1 kakan 4m", "2 hora")
    assert "chankan" in yaku(r) and r.settlement["wins"][0]["from"] == 1  # type: ignore[index]


def test_a_closed_kan_replacement_win_is_rinshan() -> None:
    hands = {0: "1111m456p789s235s", **OTHERS}
    hands[1] = "2468m2468p357s1z4z"
    r = play(make_round(HOUSE, hands, {0: "5s"}, replacements="1s"), "0 ankan 1m", "0 hora")
    assert "rinshan" in yaku(r)


def test_the_last_tile_and_the_last_discard() -> None:
    hands = {0: "2468m2468p1357s1z", 1: "123m456p789s2355s", 2: OTHERS[2], 3: OTHERS[3]}
    r = play(make_round(HOUSE, hands, tail="1s"), until=lambda r: r.wall.remaining == 0)
    play(r, "1 hora")
    assert "haitei" in yaku(r)
    hands = {0: "44s2468m2468p123z", 1: "3579m1357p2568s2z", 2: "123m456p789s555z4s", 3: "2468m3579p3579s3z"}
    r = play(make_round(HOUSE, hands, tail="4s"), until=lambda r: r.wall.remaining == 0)
    play(r, "2 hora")
    assert "houtei" in yaku(r) and r.settlement["wins"][0]["from"] == 1  # type: ignore[index]


def test_an_open_kan_replacement_win_does_not_see_the_new_indicator() -> None:
    """Decision D13: the open kan's indicator comes after the kan-maker's discard, so a rinshan win misses it."""
    hands = {0: "4m19m19p19s1234z56z", 1: "444m123p789s55s67s", 2: "3579m1357p2468s2z", 3: "2368m3579p3579s3z"}
    r = play(make_round(HOUSE, hands, replacements="8s"), "0 dahai 4m", "1 daiminkan 4m", "1 hora")
    assert "rinshan" in yaku(r) and len(r.wall.dora_indicators()) == 1
    assert not any(e["type"] == "dora" for e in r.events)


def test_own_discards_make_furiten_and_a_missed_ron_in_riichi_lasts() -> None:
    """The dealer (riichi) lets seat 1's 1s pass, draws, and may not ron seat 1's next 4s."""
    hands = {0: "123m456p789s2355s", 1: "1s4s2468m2468p13z5z", 2: OTHERS[2], 3: OTHERS[3]}
    r = make_round(HOUSE, hands, order=[T.tile_codes(t)[0] for t in ("7z", "9m", "9m", "9m", "7z")])
    play(r, "0 reach", "0 dahai 7z", "1 dahai 1s", until=lambda r: r.actor == 1 and r.wall.remaining < 66 and r.phase == "own")
    assert r.seats[0].furiten_riichi
    play(r, "1 dahai 4s", finish=False)
    assert r.legal_actions(0) == ()


def test_same_seed_same_round_and_json_outputs() -> None:
    a, b = Round(HOUSE, RoundSetup(), seed=11), Round(HOUSE, RoundSetup(), seed=11)
    play(a)
    play(b)
    assert a.events == b.events and a.settlement == b.settlement
    json.dumps(a.events)
    json.dumps(a.settlement)
    observation = a.observation(0)
    json.dumps(observation)
    assert {"hand", "discards", "melds", "dora_indicators", "scores", "legal_actions"} <= set(observation)


def test_kita_sets_a_north_aside_and_counts_for_the_winner() -> None:
    sanma = rules("sanma", "override settings table {\n red_fives = []\n}")
    hands = {0: "4z123p456p789s556s", 1: "2468p2468s123z56z", 2: "3579p3579s12z567z"}
    r = make_round(sanma, hands, {0: "4s"}, replacements="5s")
    play(r, "0 nukidora 4z", "0 hora")
    assert "kita" in yaku(r) and r.seats[0].kita == 1


def test_a_ron_before_the_first_draw_is_renhou_where_the_rulebook_scores_it() -> None:
    """Seat 1 rons the dealer's first discard before drawing: renhou under wrc2025, not a yaku under house."""
    hands = {0: "4m19m19p19s1234z56z", 1: "23m456p678s234s88p", 2: "2368m3579p3579s3z", 3: "3579m1357p2468s2z"}
    wrc = play(make_round(rules("wrc2025"), hands), "0 dahai 4m", "1 hora")
    assert "renhou" in yaku(wrc)
    house = play(make_round(HOUSE, hands), "0 dahai 4m", "1 hora")
    assert "renhou" not in yaku(house)


def test_robbing_a_kan_keeps_ippatsu() -> None:
    """Seat 2 declares riichi; within the same go-around seat 1 adds the fourth 4m to its pon and seat 2 robs it:
    the kan never happened, so it broke nothing."""
    hands = {0: "4m19m19p19s1234z56z", 1: "44m2468p1357s134z", 2: "56m345p678p567s22s", 3: "2368m3579p3579s3z"}
    order = [None, *(T.tile_codes(t)[0] for t in ("7z", "8m", "8m", "4m"))]
    r = make_round(HOUSE, hands, order=order)
    play(r, "0 dahai 4m", "1 pon 4m", "1 dahai 1z", "2 reach", "2 dahai 7z", "1 kakan 4m", "2 hora")
    assert {"chankan", "ippatsu", "riichi"} <= yaku(r)


def test_a_closed_kan_nobody_may_rob_makes_nobody_furiten() -> None:
    """Seat 1 waits on 1m-4m; the dealer's closed kan of 1m is no passed winning tile, so seat 1 rons his 4m."""
    hands = {0: "1111m4m2468p357s1z", 1: "23m456p789s123s55s", 2: "579m1357p2468s22z", 3: "268m3579p3579s34z"}
    r = play(make_round(HOUSE, hands, {0: "7z"}, replacements="6z"), "0 ankan 1m", "0 dahai 4m", "1 hora")
    assert r.settlement["wins"][0]["seat"] == 1  # type: ignore[index]


def test_a_kan_robbed_right_after_an_open_kan_never_turns_the_open_kans_indicator() -> None:
    """Seat 1 pons 4m, calls an open kan on 7s, draws the last 4m as its replacement and adds it to the pon; seat
    2 robs it. The open kan's indicator waited for seat 1's discard, which never came, and a robbed kan never
    happened: the ron counts the first indicator only (Tenhou's arena in Mortal's libriichi,
    libriichi/src/arena/board.rs, keeps the pending indicator until the replacement draw for the same reason)."""
    hands = {0: "4m19m19p19s1234z56z", 1: "44m2468p13777s13z", 2: "56m345p678p234s22s", 3: "2368m3579p3589s3z"}
    order = [T.tile_codes(t)[0] for t in ("7z", "8m", "8m", "7s")]
    r = make_round(HOUSE, hands, order=order, dora="1z4p", replacements="4m")
    play(r, "0 dahai 4m", "1 pon 4m", "1 dahai 1z", "0 dahai 7s", "1 daiminkan 7s", "1 kakan 4m", "2 hora")
    assert "chankan" in yaku(r) and "dora" not in yaku(r)
    assert r.wall.dora_indicators() == tuple(T.tile_codes("1z")) and not any(e["type"] == "dora" for e in r.events)
