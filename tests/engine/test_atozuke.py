"""Atozuke off as data: under `settings scoring atozuke = false` a win needs a yaku whichever
tile of its wait completes it, won the same way (rulebooks/examples/atozuke_nashi.rulebook). The scorer checks
every other wait; the round engine, which asks the scorer, then neither offers nor accepts such a ron or tsumo,
and its refusal quotes the setting and its clause."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.api import load_rulebook_text, scorer
from engine.core import tiles as T
from engine.core.errors import EngineError, NoYaku
from engine.round import Action, IllegalAction
from engine.scoring.facts import other_wait_kinds
from tests.round.scenario import make_round, rules

EXAMPLE = Path(__file__).resolve().parents[2] / "rulebooks" / "examples" / "atozuke_nashi.rulebook"
OFF = 'rulebook v "v" extends house\n@clause("club rule 5: no atozuke")\noverride settings scoring {\n  atozuke = false\n}\n'
OPEN = [{"type": "chi", "tiles": "234p"}, {"type": "chi", "tiles": "567s"}]
# an open shanpon on White and 2m: White gives a yaku, 2m none
SHANPON_ON_WHITE = {"hand": "678m22m555z", "win": "5z", "melds": OPEN, "seat_wind": "S"}


@pytest.fixture(scope="module")
def off():
    return load_rulebook_text(OFF)


def outcome(s, request: dict) -> object:
    try:
        return s.score(request)["total"]
    except EngineError as exc:
        return exc.code


def test_a_one_sided_yaku_wins_with_atozuke_and_not_without(off) -> None:
    assert scorer("house").score(SHANPON_ON_WHITE)["total"] == 1000
    with pytest.raises(NoYaku, match=r"2m.*atozuke = false.*club rule 5"):
        off.score(SHANPON_ON_WHITE)


def test_the_example_rulebook_states_it() -> None:
    assert outcome(scorer(str(EXAMPLE)), SHANPON_ON_WHITE) == "no_yaku"


def test_a_yaku_on_every_wait_wins(off) -> None:
    both_simple = {"hand": "345m77p567m56m4m", "win": "4m", "melds": [{"type": "chi", "tiles": "234p"}], "seat_wind": "S"}
    assert off.score(both_simple)["total"] == scorer("house").score(both_simple)["total"]


def test_tanyao_on_one_side_only_is_refused(off) -> None:
    # closed, no riichi: 666s and 55s with 23s wait on 1s-4s; only 4s makes all simples, and the triplet rules out pinfu
    on_4s = {"hand": "234m567p666s2355s4s", "win": "4s", "seat_wind": "S"}
    assert outcome(scorer("house"), on_4s) == 1300
    assert outcome(off, on_4s) == "no_yaku"


def test_a_yaku_of_the_situation_covers_every_wait(off) -> None:
    on_4s = {"hand": "234m567p666s2355s4s", "win": "4s", "seat_wind": "S"}
    assert outcome(off, {**on_4s, "riichi": True}) == outcome(scorer("house"), {**on_4s, "riichi": True})
    assert outcome(off, {**on_4s, "tsumo": True}) == outcome(scorer("house"), {**on_4s, "tsumo": True})  # menzen tsumo


def test_a_wait_whose_every_copy_is_held_is_no_wait() -> None:
    s = scorer("house")
    fours_held = s.hand("23332m", win="2m", melds=[("ankan", "4444m"), ("pon", "555z"), ("pon", "666z")])
    assert other_wait_kinds(fours_held, 4, s.prepared.allowed_kinds) == [0]  # 1m only: all four 4m are in the kan
    elsewhere = s.hand("23332m", win="2m", melds=[("ankan", "7777p"), ("pon", "555z"), ("pon", "666z")])
    assert other_wait_kinds(elsewhere, 4, s.prepared.allowed_kinds) == [0, 3]  # 1m and 4m


# ---- the round engine --------------------------------------------------------------------------------------------

FOUR_S = T.tile_codes("4s")[0]
PLAIN = "override settings table {\n  red_fives = []\n}"
HANDS = {
    0: "4s19m19p19s1234z56z",  # the dealer discards 4s at once
    1: "234m567p666s2355s",  # tanyao on 4s, nothing on 1s
    2: "56m345p678p567s22s",
    3: "2468m2468p1357s1z",
}


def test_the_round_neither_offers_nor_accepts_the_ron() -> None:
    with_atozuke = make_round(rules("house", PLAIN), HANDS)
    with_atozuke.apply(next(a for a in with_atozuke.legal_actions(0) if a.type == "dahai" and a.pai == FOUR_S))
    assert "hora" in {a.type for a in with_atozuke.legal_actions(1)}

    R = rules("house", PLAIN + '\n@clause("club rule 5: no atozuke")\noverride settings scoring {\n  atozuke = false\n}')
    r = make_round(R, HANDS)
    r.apply(next(a for a in r.legal_actions(0) if a.type == "dahai" and a.pai == FOUR_S))
    assert "hora" not in {a.type for a in r.legal_actions(1)}
    with pytest.raises(IllegalAction, match=r"atozuke = false.*club rule 5"):
        r.apply(Action("hora", 1, FOUR_S, target=0))
