"""Every stated example of each variant rulebook in examples.md, scored under that rulebook."""

from __future__ import annotations

import pytest

from engine.core.errors import EngineError
from engine.scoring.example_notation import request_from_example
from engine.scoring.library import scorer


def score(rulebook: str, text: str) -> dict:
    return scorer(rulebook).score(request_from_example(text))


KIRIAGE = ("wrc2025", "mleague", "mahjchina")
FOUR_HAN_30 = "234p456p678s234s55p win 4s ron seat {seat} riichi dora 3s"  # riichi pinfu tanyao dora: 4 han 30 fu
THREE_HAN_60 = "234s678s11s win 1s ron seat {seat} pon 777z ankan 9999s"  # open honitsu + red dragon: 3 han 60 fu


@pytest.mark.parametrize("rulebook", ("house", "sanma", "tenhou", *KIRIAGE))
@pytest.mark.parametrize(("seat", "house_value", "kiriage_value"), [("S", 7700, 8000), ("E", 11600, 12000)])
@pytest.mark.parametrize("hand", [FOUR_HAN_30, THREE_HAN_60])
def test_ex_000_03_kiriage_cells(rulebook, seat, house_value, kiriage_value, hand):
    text = hand.format(seat=seat)
    result = score(rulebook, text)
    expected = kiriage_value if rulebook in KIRIAGE else house_value
    assert result["total"] == expected
    assert result["limit"] == ("mangan" if rulebook in KIRIAGE else None)


@pytest.mark.parametrize("seat", ["S", "E"])
def test_kiriage_tsumo_splits(seat):
    # 4 han 30 fu tsumo under kiriage: non-dealer 2,000/4,000, dealer 4,000 all (fu-and-payments §3.2 notes)
    got = scorer("wrc2025").settle(4, 30, dealer=seat == "E", tsumo=True)
    assert got["payments"] == ({"non_dealer": 4000} if seat == "E" else {"dealer": 4000, "non_dealer": 2000})


@pytest.mark.parametrize(("rulebook", "fu"), [("house", 40), ("sanma", 40), ("tenhou", 40), ("wrc2025", 30), ("mleague", 30), ("mahjchina", 30)])
def test_double_wind_pair_fu(rulebook, fu):
    result = score(rulebook, "222p456p123s789s11z win 2s tsumo seat E round E riichi")
    assert result["fu"] == fu
    pair = next(f for f in result["fu_items"] if f["id"] == "value_pair")
    assert pair["fu"] == (4 if fu == 40 else 2)


@pytest.mark.parametrize(
    ("text", "house_id"),
    [
        ("19m19p19s1234567z1m win 1m ron seat S", "kokushi_13"),
        ("111m333p555s777z22z win 2z ron seat S", "suuankou_tanki"),
        ("1112345678999m5m win 5m ron seat S", "junsei_chuuren"),
        ("111222333z55m win 5m ron seat S pon 444z", "daisuushii"),
    ],
)
@pytest.mark.parametrize(("rulebook", "multiple"), [("house", 2), ("sanma", 2), ("tenhou", 1), ("wrc2025", 1), ("mleague", 1), ("mahjchina", 1)])
def test_double_yakuman_on_or_off(text, house_id, rulebook, multiple):
    if rulebook == "sanma" and "m" in text.replace("win", "") and any(d in text for d in "2345678" if f"{d}m" in text):
        pytest.skip("the three-player set has no 2m-8m")
    result = score(rulebook, text)
    assert result["yakuman"] == multiple
    assert result["total"] == 32000 * multiple


def test_tenhou_keeps_the_13_sided_id_but_single():
    result = score("tenhou", "19m19p19s1234567z1m win 1m ron seat S")
    assert [y["id"] for y in result["yaku"]] == ["kokushi_13"]
    assert result["yakuman"] == 1


def test_yakuman_still_stack_under_tenhou():
    result = score("tenhou", "111222333z444z55z win 5z ron seat S")
    assert result["yakuman"] == 3  # daisuushii + suuankou tanki + tsuuiisou, each single


@pytest.mark.parametrize(("rulebook", "limit", "total"), [("house", "yakuman", 32000), ("wrc2025", "sanbaiman", 24000), ("mleague", "sanbaiman", 24000)])
def test_counted_yakuman(rulebook, limit, total):
    result = score(rulebook, "112233p456p789p55p win 9p tsumo seat S riichi ippatsu")
    assert result["han"] == 13
    assert (result["limit"], result["total"]) == (limit, total)


def test_mleague_thirteen_han_reports_no_yakuman():
    result = score("mleague", "112233p456p789p55p win 9p tsumo seat S riichi ippatsu")
    assert result["yakuman"] == 0


class TestMahjchinaRenhou:
    def test_renhou_alone_beats_a_cheap_hand(self):
        result = score("mahjchina", "123m456m789p123s99p win 1s ron seat S renhou")
        assert [y["id"] for y in result["yaku"]] == ["renhou"]
        assert (result["han"], result["limit"], result["total"]) == (5, "mangan", 8000)

    def test_the_normal_value_wins_when_higher(self):
        result = score("mahjchina", "112233p456p789p55p win 9p ron seat S renhou")
        assert "renhou" not in {y["id"] for y in result["yaku"]}
        assert result["total"] == 16000  # pinfu chinitsu iipeikou ittsu: 10 han, baiman

    def test_a_yakuman_hand_stays_yakuman(self):
        result = score("mahjchina", "19m19p19s1234567z1m win 1m ron seat S renhou")
        assert result["yakuman"] == 1 and result["total"] == 32000

    def test_other_rulebooks_have_no_renhou(self):  # wrc2025 has it too; house and mleague do not
        result = score("mleague", "123m456m789p123s99p win 1s ron seat S renhou")
        assert [y["id"] for y in result["yaku"]] == ["pinfu"]
        assert result["total"] == 1000


class TestSanma:
    def test_ex_000_16_non_dealer_mangan_tsumo_is_6000(self):
        result = score("sanma", "123p456p789s11z555z win 5z tsumo seat S riichi dora 4z")
        assert result["limit"] == "mangan"
        assert result["payments"] == {"dealer": 4000, "non_dealer": 2000}
        assert result["total"] == 6000

    def test_ex_000_16_dealer_mangan_tsumo_is_8000(self):
        result = score("sanma", "123p456p789s11z555z win 5z tsumo seat E riichi dora 4z")
        assert result["payments"] == {"non_dealer": 4000}
        assert result["total"] == 8000

    def test_ex_000_16_ron_is_unchanged(self):
        assert score("sanma", "123p456p789s11z555z win 5z ron seat S riichi dora 4z")["total"] == 8000

    def test_ex_000_17_honba_from_each_of_two_payers(self):
        result = score("sanma", "123p456p789s11z555z win 5z tsumo seat S riichi dora 4z honba 1")
        assert result["payments"] == {"dealer": 4100, "non_dealer": 2100}
        assert result["total"] == 6200

    @pytest.mark.parametrize(("indicator", "dora"), [("1", "9"), ("9", "1")])
    def test_ex_000_09_man_indicators_wrap_between_1_and_9(self, indicator, dora):
        # riichi + tsumo + white dragon, and two dora on the man pair
        result = score("sanma", f"{dora}{dora}m123p456p789s555z win 5z tsumo seat S riichi dora {indicator}m")
        assert next(y for y in result["yaku"] if y["id"] == "dora")["han"] == 2

    def test_kita_adds_han_and_counts_as_dora_under_a_west_indicator(self):
        result = score("sanma", "123p456p789s11z555z win 5z tsumo seat S riichi dora 3z kita 2")
        han = {y["id"]: y["han"] for y in result["yaku"]}
        assert han["kita"] == 2 and han["dora"] == 2

    def test_a_2m_is_not_in_the_tile_set(self):
        with pytest.raises(EngineError) as info:
            score("sanma", "234m456p789s11z555z win 5z ron seat S")
        assert info.value.code == "invalid_hand"
        assert "2m" in info.value.message

    def test_only_two_red_fives(self):
        with pytest.raises(EngineError) as info:
            score("sanma", "19m406p789s11z555z99m win 5z ron seat S")
        assert info.value.code in ("invalid_hand", "invalid_notation")

    def test_four_player_rulebooks_reject_kita(self):
        with pytest.raises(EngineError) as info:
            score("house", "123p456p789s11z555z win 5z tsumo seat S riichi kita 1")
        assert info.value.code == "invalid_situation"


def test_wrc2025_rejects_red_fives():
    with pytest.raises(EngineError) as info:
        score("wrc2025", "123m406m789p123s99p win 1s ron seat S riichi")
    assert info.value.code == "invalid_hand"


def test_tenhou_variants():
    assert score("tenhou_nored", "123m456m789p123s99p win 1s ron seat S riichi")["total"] == 2000
    with pytest.raises(EngineError) as info:
        score("tenhou_nokuitan", "234m567p678s55p win 5p ron seat S chi 234m")
    assert info.value.code == "no_yaku"
    assert score("tenhou", "234m567p678s55p win 5p ron seat S chi 234m")["total"] == 1000
