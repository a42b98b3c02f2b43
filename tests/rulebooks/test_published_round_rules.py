"""The bundled rulebooks' round-level values that an audit against the published rules corrected, played through
the round engine.

Each test plays one short scenario (``tests/round/scenario.py``) under the bundled rulebook and under the same
rulebook with the value it had before that audit put back, and asserts the published outcome, which the old value does
not give. The scenarios name plain fives only, so rulebooks with red fives are played without them (a one-line table
variant that changes nothing else).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.api import scorer
from engine.core import tiles as T
from engine.round.rules import RoundRules
from ruledsl.render import render_expr
from tests.round.scenario import make_round, play, rules
from tests.round.test_every_name_executes import closed_kan_robbed, kan_dora, pao, voluntary_noten

NO_RED = "override settings table {\n  red_fives = []\n}"


def bundled(name: str, *old: str) -> RoundRules:
    """The bundled rulebook without red fives, with ``old`` items put back."""
    return rules(name, "\n".join((NO_RED, *old)))


# ---- kan dora at once for every kan: WRC 2025, and mahjchina that inherits it -------------------------------------------

@pytest.mark.parametrize("name", ["wrc2025", "mahjchina", "mleague"])
def test_an_open_kan_shows_its_indicator_before_the_discard(name: str) -> None:
    assert kan_dora(bundled(name)) == 2  # the first indicator and the kan's, before the kan-maker discards
    assert kan_dora(bundled(name, 'override settings calls {\n  kan_dora = "after_discard"\n}')) == 1


def test_house_and_tenhou_still_wait_for_the_discard() -> None:
    assert kan_dora(bundled("house")) == 1
    assert kan_dora(bundled("tenhou")) == 1


# ---- tenhou: thirteen orphans may not rob a closed kan --------------------------------------------------------------

@pytest.mark.parametrize("name", ["tenhou", "tenhou_east", "tenhou_nored", "tenhou_nokuitan"])
def test_tenhou_thirteen_orphans_cannot_rob_a_closed_kan(name: str) -> None:
    assert "hora" not in closed_kan_robbed(bundled(name))
    assert "hora" in closed_kan_robbed(bundled(name, "override settings calls {\n  thirteen_orphans_robs_closed_kan = true\n}"))


# ---- tenhou: nagashi mangan with the player's own calls --------------------------------------------------------------

OWN_CALL_HANDS = {0: "123m456p789s2355s", 1: "2345m2345p23s9s22z", 2: "2468m2468p2468s3z", 3: "3467m3467p3467s4z"}


def nagashi_after_own_pon(R: RoundRules) -> tuple:
    """The dealer draws and discards West; seat 1 pons it, discards 9s, then draws only terminals and honours and
    discards each; nobody calls seat 1's discards. The dealer is tenpai at the draw."""
    seat1 = list(T.tile_codes("999m1111p9999p111s555z"))
    live: list[int | None] = [T.tile_codes("2z")[0], None, None]  # seat 1's pon takes its first turn's draw
    while len(live) < 70:
        for seat in range(4):
            if len(live) < 70:
                live.append(seat1.pop(0) if seat == 1 and seat1 else None)
    r = play(make_round(R, OWN_CALL_HANDS, order=live), "1 pon 2z", "1 dahai 9s")
    s = r.settlement
    assert s is not None and s["kind"] == "exhaustive"
    return (tuple(s["nagashi"]), tuple(s["deltas"]))


@pytest.mark.parametrize("name", ["tenhou", "tenhou_east_nored", "tenhou_nored_nokuitan"])
def test_tenhou_nagashi_mangan_allows_the_players_own_calls(name: str) -> None:
    assert nagashi_after_own_pon(bundled(name)) == ((1,), (-4000, 8000, -2000, -2000))
    old = "override draw nagashi_mangan {\n  when = all_discards_yaochuu and not discards_called and not made_calls\n}"
    assert nagashi_after_own_pon(bundled(name, old)) == ((), (3000, -1000, -1000, -1000))


def test_house_nagashi_mangan_still_needs_no_calls_of_ones_own() -> None:
    assert nagashi_after_own_pon(bundled("house"))[0] == ()


# ---- the liable player pays the honba of a pao win: tenhou and mleague -----------------------------------------------

@pytest.mark.parametrize("name", ["tenhou", "mleague"])
def test_the_liable_player_pays_the_honba_of_a_pao_ron(name: str) -> None:
    liable = pao(bundled(name), honba=1)
    discarder = pao(bundled(name, 'override liability pao {\n  honba_payer = "discarder"\n}'), honba=1)
    assert liable != discarder
    # seat 3 fed the last dragon: the 300 of the honba moves from the discarder (the dealer, seat 0) to seat 3
    assert liable[0] - discarder[0] == 300 and liable[3] - discarder[3] == -300


# ---- mleague: a tenpai player may declare noten -----------------------------------------------------------------------

def test_mleague_lets_a_tenpai_player_declare_noten() -> None:
    assert voluntary_noten(bundled("mleague")) == (0, 0, 0, 0)
    assert voluntary_noten(bundled("mleague", "override settings game {\n  voluntary_noten = false\n}")) == (3000, -1000, -1000, -1000)


# ---- the whole Tenhou family (four- and three-player, every rule-flag variant) carries the three values ------------

TENHOU_FAMILY = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "rulebooks").glob("tenhou*.rulebook"))


@pytest.mark.parametrize("name", TENHOU_FAMILY)
def test_every_tenhou_rulebook_carries_the_corrected_values(name: str) -> None:
    resolved = scorer(name).prepared.rulebook.resolved
    [nagashi] = [i for i in resolved.of_kind("draw") if i.name == "nagashi_mangan"]
    [liability] = [i for i in resolved.of_kind("liability") if i.name == "pao"]
    assert "made_calls" not in render_expr(nagashi.fields["when"].value)
    assert render_expr(liability.fields["honba_payer"].value) == '"liable"'
    assert scorer(name).prepared.rulebook.setting("calls", "thirteen_orphans_robs_closed_kan") is False
