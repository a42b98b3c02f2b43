"""Karaten (`settings tenpai karaten`) and the riichi wall count, through the round engine under the bundled rulebooks.

A wait whose four copies the player holds: Tenhou counts only the concealed hand's copies (a pon of 9m plus a single
9m waiting on 9m is tenpai at the exhaustive draw; four 9m concealed waiting on a fifth is not), the site rules
(`house`, decision D14) also the player's own melds. Riichi follows the same definition. Three-player Tenhou lets a
player declare riichi with 3 tiles left in the live wall after his draw; four-player Tenhou needs 4.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.round import Round
from engine.round.rules import RoundRules
from tests.round.scenario import make_round, play, rules

NO_RED = "override settings table {\n red_fives = []\n}"  # the scenarios name plain fives only

# four players: East holds 999m and pons South's 9m (the fourth), leaving a single 9m waiting on 9m
PON_HANDS = {0: "999m234p567p789s1z", 1: "9m2468m2468p1357s", 2: "357m1357p2468s22z", 3: "2468m3579p3579s3z"}
# four players: East holds all four 9m and waits only on a fifth
CONCEALED_HANDS = {0: "9999m234p567p789s", 1: "1357m2468p1357s1z", 2: "357m1357p2468s22z", 3: "2468m3579p3579s3z"}
# three players (no 2m-8m): the same two hands of East
PON_HANDS3 = {0: "999m234p567p789s1z", 1: "9m2468p13579s135z", 2: "3579p2468s9s2267z"}
CONCEALED_HANDS3 = {0: "9999m234p567p789s", 1: "1m2468p13579s135z", 2: "3579p2468s9s2267z"}


def _rules(name: str) -> RoundRules:
    return rules(name, NO_RED)


def pon_then_draw(R: RoundRules) -> Round:
    hands = PON_HANDS if R.players == 4 else PON_HANDS3
    return play(make_round(R, hands), "1 dahai 9m", "0 pon 9m", "0 dahai 1z")


def concealed_then_draw(R: RoundRules) -> Round:
    return play(make_round(R, CONCEALED_HANDS if R.players == 4 else CONCEALED_HANDS3))


def _east(r: Round) -> tuple[bool, int]:
    """East's tenpai at the exhaustive draw and his point change."""
    s = r.settlement
    assert s is not None and s["kind"] == "exhaustive"
    return s["tenpai"][0], s["deltas"][0]


@pytest.mark.parametrize("name", ["tenhou", "tenhou_sanma"])
def test_tenhou_a_pon_of_the_waited_tile_leaves_the_hand_tenpai(name: str) -> None:
    r = pon_then_draw(_rules(name))
    assert r.seats[0].melds and r.seats[0].melds[0].type == "pon"
    tenpai, delta = _east(r)
    assert tenpai and delta > 0  # the lone tenpai player collects the noten payments
    assert r.settlement["renchan"]  # type: ignore[index]  # and the dealer keeps his seat


@pytest.mark.parametrize("name", ["tenhou", "tenhou_sanma"])
def test_tenhou_four_concealed_copies_leave_the_hand_noten(name: str) -> None:
    tenpai, delta = _east(concealed_then_draw(_rules(name)))
    assert not tenpai and delta == 0  # nobody tenpai: no payments


@pytest.mark.parametrize("scenario", [pon_then_draw, concealed_then_draw])
def test_house_d14_counts_the_melds_too(scenario: Callable[[RoundRules], Round]) -> None:
    r = scenario(_rules("house"))
    tenpai, delta = _east(r)
    assert not tenpai and delta == 0
    assert not r.settlement["renchan"]  # type: ignore[index]


def test_never_counts_a_wait_on_a_fifth_copy() -> None:
    R = rules("house", NO_RED + '\noverride settings tenpai {\n karaten = "never"\n}')
    assert _east(concealed_then_draw(R))[0]


# ---- riichi on a wait whose copies are the player's own closed kan ----------------------------------------------------

KAN_HANDS = {0: "2222m13m567p789s4z", 1: "1357m2468p1357s1z", 2: "357m1357p2468s22z", 3: "3579m3579p3579s3z"}


def riichi_after_closed_kan(R: RoundRules) -> list[str]:
    """East draws a second 4z, declares a closed kan of 2m and draws 7z from the dead wall: with 13m beside three
    sets and a 4z pair he waits on 2m alone. May he declare riichi?"""
    r = make_round(R, KAN_HANDS, {0: "4z"}, replacements="7z")
    play(r, "0 ankan 2m", until=lambda r: r.actor == 0 and bool(r.seats[0].melds) and len(r.seats[0].hand) == 11)
    return sorted({a.type for a in r.legal_actions(0)})


def test_riichi_on_a_closed_kan_wait_follows_the_karaten_rule() -> None:
    assert "reach" in riichi_after_closed_kan(_rules("tenhou"))  # as Mortal's libriichi offers it
    assert "reach" not in riichi_after_closed_kan(_rules("house"))  # D14: the wait's copies are all his


def test_riichi_on_four_concealed_copies_only_where_karaten_never() -> None:
    """Four 9s, East, South: whatever East discards, he waits on nothing but a fifth copy."""
    hands = {0: "78s9999s1111z222z", 1: "1357m2468p1357s3z", 2: "357m1357p2468s44z", 3: "2468m3579p3568s5z"}
    draw = {0: "2z"}
    tenhou = make_round(_rules("tenhou"), hands, draw)
    never = make_round(rules("tenhou", NO_RED + '\noverride settings tenpai {\n karaten = "never"\n}'), hands, draw)
    assert "reach" not in {a.type for a in tenhou.legal_actions(0)}  # libriichi refuses it too
    assert "reach" in {a.type for a in never.legal_actions(0)}


# ---- riichi with 3 tiles left ----------------------------------------------------------------------------------------

TENPAI = "123m456p789s2355s"  # waiting on 1s-4s


def _turn_with(r: Round, left: int) -> int:
    """Play quietly until a seat has drawn and ``left`` live tiles remain; that seat."""
    play(r, until=lambda r: r.phase == "own" and r.wall.remaining == left)
    return r.actor


def test_tenhou_sanma_riichi_with_three_tiles_left() -> None:
    R = _rules("tenhou_sanma")
    hands = {0: "123p456p789s2355s", 1: "19m2468p1357s135z", 2: "3579p2468s9s2267z"}
    r = make_round(R, hands)
    seat = _turn_with(r, 3)
    assert seat == 0
    assert "reach" in {a.type for a in r.legal_actions(0)}
    play(r, "0 reach", finish=False)
    discard = next(a for a in r.legal_actions(0) if a.type == "dahai" and a.tsumogiri)
    r.apply(discard)
    play(r, until=lambda r: r.actor != 0)
    assert r.seats[0].riichi  # the declaration stood: its discard passed
    assert r.wall.remaining == 2


def test_tenhou_four_players_refuses_riichi_with_three_tiles_left() -> None:
    R = _rules("tenhou")
    hands = {0: "1357m2468p1357s1z", 1: "2468m1357p2468s2z", 2: TENPAI, 3: "3579m3579p3579s3z"}
    r = make_round(R, hands)
    seat = _turn_with(r, 3)
    assert seat == 2
    assert "reach" not in {a.type for a in r.legal_actions(2)}
    r4 = make_round(R, {**hands, 1: TENPAI, 2: hands[1]})
    assert _turn_with(r4, 4) == 1 and "reach" in {a.type for a in r4.legal_actions(1)}
