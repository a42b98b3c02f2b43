"""Three-player Tenhou plays as its own records show: the values `tenhou_sanma` took from ten public
Phoenix three-player games (the log ids are in the rulebook's clauses), each played or scored under the bundled
rulebook and under the site's `sanma` value it replaced, which the records contradict.

- a ron pays 200 per honba, not 300 (a tsumo still 100 from each payer);
- the noten players pay 2,000 in all at an exhaustive draw, not 3,000;
- any hand waiting on North may ron a North set aside, not only thirteen orphans;
- a tsumo on the tile drawn after a kita is rinshan kaihou.
"""

from __future__ import annotations

import pytest

from engine.api import scorer
from engine.round.rules import RoundRules
from tests.round.scenario import make_round, play, rules
from tests.round.test_every_name_executes import kita_replacement_win, kita_ron

NO_RED = "override settings table {\n  red_fives = []\n}"
RON = {"hand": "123p456p789s11z555z", "win": "5z", "tsumo": False, "seat_wind": "S", "riichi": True}


def bundled(name: str, *old: str) -> RoundRules:
    """The bundled rulebook without red fives (the scenarios name plain fives), with ``old`` items put back."""
    return rules(name, "\n".join((NO_RED, *old)))


def total(name: str, **extra: object) -> int:
    return int(scorer(name).score({**RON, **extra})["total"])


# ---- honba: 200 per honba on a ron ---------------------------------------------------------------------------------

def test_a_ron_pays_200_per_honba() -> None:
    assert total("tenhou_sanma", honba=1) - total("tenhou_sanma") == 200  # b5a02c99 S2-1: 12,000 + 200
    assert total("tenhou_sanma", honba=2) - total("tenhou_sanma") == 400  # f91fb013 E1-2: 8,000 + 400
    assert total("tenhou_sanma", honba=1, seat_wind="E") - total("tenhou_sanma", seat_wind="E") == 200  # bea67528 S3-1
    assert total("sanma", honba=1) - total("sanma") == 300  # the site's rule, which Tenhou does not follow


def test_a_tsumo_pays_100_per_honba_from_each_payer() -> None:
    # 5f46d99c E2-3: a dealer tsumo of 1,300 all with 3 honba took 1,600 from each of the two others
    tsumo = {**RON, "tsumo": True, "seat_wind": "E"}
    assert scorer("tenhou_sanma").score({**tsumo, "honba": 3})["total"] - scorer("tenhou_sanma").score(tsumo)["total"] == 600


# ---- noten payments: 2,000 in all ----------------------------------------------------------------------------------

LONE_TENPAI = {0: "123p456p789s2355s", 1: "1357p2468s19m123z", 2: "2468p1357s19m567z"}
TWO_TENPAI = {0: "123p456p789s2355s", 1: "1199p1199s1177z4z", 2: "2468p1357s19m567z"}


def draw_deltas(R: RoundRules, hands: dict[int, str]) -> tuple[int, ...]:
    """Everybody discards what they draw to the end of the wall; the deltas of the exhaustive draw."""
    r = play(make_round(R, hands))
    s = r.settlement
    assert s is not None and s["kind"] == "exhaustive"
    return tuple(s["deltas"])


def test_the_noten_players_pay_2000_in_all() -> None:
    assert draw_deltas(bundled("tenhou_sanma"), LONE_TENPAI) == (2000, -1000, -1000)  # f91fb013 E1-0
    assert draw_deltas(bundled("tenhou_sanma"), TWO_TENPAI) == (1000, 1000, -2000)  # 5f46d99c E2-2
    assert draw_deltas(bundled("sanma"), LONE_TENPAI) == (3000, -1500, -1500)


# ---- kita: ron on a set-aside North, rinshan on its replacement ----------------------------------------------------

def test_seven_pairs_waiting_on_north_may_ron_a_kita() -> None:
    # 79ddbd9d S3-0: seven pairs in riichi waiting on North ron a North set aside
    assert "hora" in kita_ron(bundled("tenhou_sanma"))
    assert "hora" not in kita_ron(bundled("sanma"))


@pytest.mark.parametrize("name", ["tenhou_sanma", "tenhou_sanma_east_nored_nokuitan"])
def test_a_win_on_the_tile_drawn_after_a_kita_is_rinshan(name: str) -> None:
    # 79ddbd9d E1-1, 5f46d99c E2-4 and E2-8: the yaku list has rinshan kaihou
    assert "rinshan" in kita_replacement_win(bundled(name))
    assert "rinshan" not in kita_replacement_win(bundled("sanma"))


# ---- each value names the records it comes from --------------------------------------------------------------------

@pytest.mark.parametrize(
    ("name", "kind", "item", "field", "words"),
    [
        ("tenhou_sanma", "payment", "non_dealer_ron", "amount", "2025021522gm-00b9-0000-b5a02c99"),
        ("tenhou_sanma", "payment", "dealer_ron", "amount", "2025020203gm-00b9-0000-bea67528"),
        ("tenhou_sanma", "draw", "noten_payment", "total", "2025021501gm-00b9-0000-f91fb013"),
        ("tenhou_sanma", "settings", "table", "kita_ron", "2025020508gm-00b9-0000-79ddbd9d"),
        ("tenhou_sanma", "settings", "table", "kita_rinshan", "2025040519gm-00b9-0000-5f46d99c"),
        ("tenhou_sanma", "settings", "game", "uma", "2025020203gm-00b9-0000-bea67528"),
        ("tenhou", "liability", "pao", "honba_payer", "積み棒は包"),
        ("tenhou_sanma", "liability", "pao", "honba_payer", "積み棒は包"),
    ],
)
def test_each_value_cites_its_source(name: str, kind: str, item: str, field: str, words: str) -> None:
    [found] = [i for i in scorer(name).prepared.rulebook.resolved.of_kind(kind) if i.name == item]
    assert words in (found.field_clauses.get(field) or "")
