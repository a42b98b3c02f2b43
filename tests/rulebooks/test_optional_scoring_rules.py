"""Scoring-level optional rules that peer engines expose as flags, stated as rulebook data.

- Ryanhan shibari: `settings scoring shibari_han` / `shibari_honba` (a win needs that many han from yaku, bonus han
  not counted, once that many honba are on the table). Each value moves an outcome on its own.
- Renhou as a yakuman, a standalone mangan or a cumulative 5 han: the three example rulebooks
  `rulebooks/examples/renhou_*.rulebook`, scored on the same two hands.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.api import load_rulebook_text, scorer
from engine.core.errors import NoYaku
from engine.round.rules import RoundRules
from engine.scoring.example_notation import request_from_example
from engine.scoring.score import Scorer
from tests.round.scenario import make_round, play, rules

ROOT = Path(__file__).resolve().parents[2]
PINFU_ONLY = "123m456m789p123s99p win 1s ron seat S"  # 1 han from yaku
PINFU_DORA = "123m456m789p123s99p win 1s ron seat S dora 8p"  # 1 han from yaku + 3 dora (9p)
RIICHI_PINFU = "123m456m789p123s99p win 1s ron seat S riichi"  # 2 han from yaku
KOKUSHI = "19m19p19s1234567z1m win 1m ron seat S"  # a yakuman


def shibari(han: int | None = 2, honba: int | None = 5, base: str = "house") -> Scorer:
    lines = [f"  shibari_han = {han}" if han is not None else "", f"  shibari_honba = {honba}" if honba is not None else ""]
    return load_rulebook_text(f'rulebook shibari "ryanhan shibari" extends {base}\noverride settings scoring {{\n' + "\n".join(lines) + "\n}\n")


def score(s: Scorer, text: str, honba: int = 0) -> dict:
    return s.score(request_from_example(f"{text} honba {honba}" if honba else text))


# ---- ryanhan shibari ---------------------------------------------------------------------------------------------

def test_one_han_wins_below_the_honba_and_not_from_it() -> None:
    s = shibari()
    assert score(s, PINFU_ONLY, honba=4)["total"] == 1000 + 4 * 300
    with pytest.raises(NoYaku, match="5 honba.*2 han from yaku"):
        score(s, PINFU_ONLY, honba=5)


def test_shibari_honba_moves_the_outcome() -> None:
    assert score(shibari(honba=5), PINFU_ONLY, honba=4)["total"] == 2200
    with pytest.raises(NoYaku):
        score(shibari(honba=4), PINFU_ONLY, honba=4)


def test_shibari_han_moves_the_outcome() -> None:
    assert score(shibari(han=2), RIICHI_PINFU, honba=5)["han"] == 2
    with pytest.raises(NoYaku):
        score(shibari(han=3), RIICHI_PINFU, honba=5)


def test_dora_do_not_count_toward_the_shibari() -> None:
    s = shibari()
    assert score(s, PINFU_DORA, honba=4)["han"] == 4
    with pytest.raises(NoYaku):
        score(s, PINFU_DORA, honba=5)


def test_a_yakuman_always_meets_the_shibari() -> None:
    assert score(shibari(han=20), KOKUSHI, honba=9)["yakuman"] >= 1


def test_a_standalone_yaku_counts_its_own_han() -> None:
    # mahjchina's renhou (standalone 5 han) meets a 2 han shibari where the ordinary pinfu reading does not
    s = shibari(base="mahjchina")
    result = score(s, PINFU_ONLY + " renhou", honba=5)
    assert [y["id"] for y in result["yaku"]] == ["renhou"]


def test_shibari_from_zero_honba_is_a_constant_minimum() -> None:
    with pytest.raises(NoYaku):
        score(shibari(han=2, honba=None), PINFU_ONLY)


def test_defaults_ask_for_one_yaku_only() -> None:
    assert score(shibari(han=None, honba=None), PINFU_ONLY, honba=30)["han"] == 1
    assert score(scorer("house"), PINFU_ONLY, honba=30)["han"] == 1


@settings(max_examples=25, deadline=None)
@given(han=st.integers(1, 4), honba=st.integers(0, 8), at=st.integers(0, 8))
def test_shibari_property(han: int, honba: int, at: int) -> None:
    """Riichi pinfu (2 han from yaku) wins exactly when the shibari is off at this honba or asks at most 2 han."""
    s = shibari(han=han, honba=honba)
    wins = at < honba or han <= 2
    try:
        score(s, RIICHI_PINFU, honba=at)
    except NoYaku:
        assert not wins
    else:
        assert wins


def test_the_shibari_reaches_the_round_engine() -> None:
    """A 1 han ron is offered at 4 honba and refused at 5 under the shibari."""
    def ron_offered(R: RoundRules, honba: int) -> bool:
        hands = {0: "4m19m19p19s1234z56z", 1: "23m456p678s234s99p", 2: "3579m1357p2467s2z", 3: "2368m3579p358s34z"}  # seat 1: pinfu only
        r = play(make_round(R, hands, honba=honba), "0 dahai 4m", finish=False)
        return any(a.type == "hora" for a in r.legal_actions(1))

    R = rules("house", "override settings table {\n  red_fives = []\n}\noverride settings scoring {\n  shibari_han = 2\n  shibari_honba = 5\n}")
    assert ron_offered(R, honba=4)
    assert not ron_offered(R, honba=5)


# ---- renhou as yakuman, mangan or 5 han ----------------------------------------------------------------------------

CHEAP = "123m456m789p123s99p win 1s ron seat S renhou"  # ordinarily pinfu only
RICH = "234m234m234p66p234s win 4s ron seat S renhou dora 1m"  # ordinarily 7 han


@pytest.mark.parametrize(
    ("variant", "cheap", "rich"),
    [("renhou_yakuman", 32000, 32000), ("renhou_mangan", 8000, 12000), ("renhou_5han", 12000, 24000)],
)
def test_renhou_variants(variant: str, cheap: int, rich: int) -> None:
    path = ROOT / "rulebooks" / "examples" / f"{variant}.rulebook"
    s = load_rulebook_text(path.read_text(encoding="utf-8"), str(path))
    assert (score(s, CHEAP)["total"], score(s, RICH)["total"]) == (cheap, rich)
    assert score(s, CHEAP.replace(" renhou", ""))["total"] == 1000  # no renhou without the situation
