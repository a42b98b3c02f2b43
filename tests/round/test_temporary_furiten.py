"""When same-turn furiten ends, under each bundled rulebook that says so (`settings furiten temporary_release`).

A player passes a winning tile and, before his next draw, calls a tile and discards; the winning tile comes
again. Tenhou lifts same-turn furiten at the player's own discard, the one after a call included (riichi.wiki
'Furiten'; Mortal's libriichi, checked below with its own player state); WRC 2025 and M-League at his own draw or
call; the site's house rules only at his own draw; the EMA rules of 2008-2016 at any player's call as well.
"""

from __future__ import annotations

import json

import pytest

from tests.round.scenario import make_round, play, rules
from tests.round.test_every_name_executes import furiten_after_another_call, legal_types, order

# seat 1 waits on 3p (1-2p) with a Green triplet; chi 7s with 6s-8s and discard 8s keeps that wait
CHI_HANDS = {0: "7s2468m469p39s567z", 1: "12p6666s77s88s666z", 2: "33p19m19s1234z1p8p2s", 3: "1379m1379p1379s4z"}


def ron_after_chi(base: str) -> list[str]:
    """Seat 1 lets seat 2's 3p pass, chis the dealer's 7s and discards 8s; seat 2 gives up the other 3p."""
    r = make_round(rules(base), CHI_HANDS, order=order(None, "9m", None, None, None, None))
    play(r, "0 dahai 2m", "1 dahai 9m", "2 dahai 3p", "3 dahai 4z", "0 dahai 7s", "1 chi 7s 68s", "1 dahai 8s", "2 dahai 3p", finish=False)
    return legal_types(r, 1)


# three players: seat 1 waits on 2s with a Green triplet; pon 2p and discard 9m keeps that wait
PON_HANDS = {0: "2p1m468p4689s1237z", 1: "999m22p11233s666z", 2: "22s1379p79s123z77z"}


def ron_after_pon(base: str) -> list[str]:
    """Seat 1 lets seat 2's 2s pass, pons the dealer's 2p and discards 9m; seat 2 gives up the other 2s."""
    r = make_round(rules(base), PON_HANDS, order=order(None, "9p", None, None, None))
    play(r, "0 dahai 1m", "1 dahai 9p", "2 dahai 2s", "0 dahai 2p", "1 pon 2p", "1 dahai 9m", "2 dahai 2s", finish=False)
    return legal_types(r, 1)


@pytest.mark.parametrize(
    ("rulebook", "may_ron"),
    [
        ("tenhou", True),  # the own discard after the chi ends it
        ("tenhou_east_nored_nokuitan", True),  # the Tenhou family inherits it
        ("wrc2025", True),  # the own call ends it
        ("mleague", True),  # the own call (取牌) ends it
        ("ema2016", True),  # the own claim ends it
        ("house", False),  # only the own draw ends it
    ],
)
def test_ron_after_passing_then_chi_and_discard(rulebook: str, may_ron: bool) -> None:
    assert ("hora" in ron_after_chi(rulebook)) is may_ron


@pytest.mark.parametrize(("rulebook", "may_ron"), [("tenhou_sanma", True), ("tenhou_sanma_east_nored", True), ("sanma", False)])
def test_three_player_ron_after_passing_then_pon_and_discard(rulebook: str, may_ron: bool) -> None:
    assert ("hora" in ron_after_pon(rulebook)) is may_ron


@pytest.mark.parametrize(("rulebook", "may_ron"), [("ema2012", True), ("ema2016", False), ("tenhou", False), ("wrc2025", False)])
def test_another_players_call_ends_it_under_the_classic_ema_rules(rulebook: str, may_ron: bool) -> None:
    """Seat 2 passes the dealer's 1m; seat 3 pons seat 1's Red and discards 4m before seat 2 draws again."""
    assert ("hora" in furiten_after_another_call(rules(rulebook))) is may_ron


def test_mortals_libriichi_lifts_it_at_the_own_discard_after_a_chi() -> None:
    """The same story fed to libriichi's player state (mjai events, seat 1): furiten after the pass and after the
    chi, not after the discard that follows it."""
    state = pytest.importorskip("mjai.mlibriichi.state")
    unseen = ["?"] * 13
    mine = ["1p", "2p", "6s", "6s", "6s", "6s", "7s", "7s", "8s", "8s", "F", "F", "F"]
    ps = state.PlayerState(1)

    def feed(*events: dict) -> None:
        for e in events:
            ps.update(json.dumps(e))

    feed(
        {"type": "start_game", "names": ["a", "b", "c", "d"], "id": 0},
        {"type": "start_kyoku", "bakaze": "E", "dora_marker": "9p", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0, "scores": [25000] * 4, "tehais": [unseen, mine, unseen, unseen]},
        {"type": "tsumo", "actor": 0, "pai": "?"}, {"type": "dahai", "actor": 0, "pai": "2m", "tsumogiri": False},
        {"type": "tsumo", "actor": 1, "pai": "9m"}, {"type": "dahai", "actor": 1, "pai": "9m", "tsumogiri": True},
        {"type": "tsumo", "actor": 2, "pai": "?"}, {"type": "dahai", "actor": 2, "pai": "3p", "tsumogiri": False},
    )
    assert ps.last_cans.can_ron_agari  # the winning tile, let pass
    feed({"type": "tsumo", "actor": 3, "pai": "?"}, {"type": "dahai", "actor": 3, "pai": "N", "tsumogiri": False})
    assert ps.at_furiten
    feed({"type": "tsumo", "actor": 0, "pai": "?"}, {"type": "dahai", "actor": 0, "pai": "7s", "tsumogiri": False})
    feed({"type": "chi", "actor": 1, "target": 0, "pai": "7s", "consumed": ["6s", "8s"]})
    assert ps.at_furiten  # a call does not end it
    feed({"type": "dahai", "actor": 1, "pai": "8s", "tsumogiri": False})
    feed({"type": "tsumo", "actor": 2, "pai": "?"}, {"type": "dahai", "actor": 2, "pai": "3p", "tsumogiri": False})
    assert not ps.at_furiten and ps.last_cans.can_ron_agari  # the discard after the chi did
