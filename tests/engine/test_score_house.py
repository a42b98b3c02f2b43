"""Every house example of examples.md with a stated result, scored through real hands under `house`."""

from __future__ import annotations

import pytest

from engine.core.errors import EngineError
from engine.scoring.example_notation import request_from_example
from engine.scoring.library import scorer


def score(text: str, rulebook: str = "house") -> dict:
    return scorer(rulebook).score(request_from_example(text))


def ids(result: dict) -> set[str]:
    return {y["id"] for y in result["yaku"]}


def error_code(text: str, rulebook: str = "house") -> str:
    with pytest.raises(EngineError) as info:
        score(text, rulebook)
    return info.value.code


# EX-000-01 / EX-000-02 / EX-000-13: 1 han at 30, 40 and 70 fu; dealer and non-dealer
@pytest.mark.parametrize(
    ("text", "han", "fu", "total"),
    [
        ("123m456m789p123s99p win 1s ron seat S", 1, 30, 1000),  # pinfu ron
        ("123m456m789p123s99p win 1s ron seat E", 1, 30, 1500),
        ("111m456p789p99s win 9s ron seat S pon 555z", 1, 40, 1300),  # 20 + 4 open honour triplet + 8 + 2 tanki
    ],
)
def test_one_han_values(text, han, fu, total):
    result = score(text)
    assert (result["han"], result["total"]) == (han, total)


def test_ex_000_02_one_han_seventy_fu():
    # riichi only, ron, closed kan of terminals: 20 + 10 + 32 + 2 (kanchan) = 64 -> 70 fu, 2,300 (EX-000-11 ron variant)
    result = score("234p678p34s88m2s ankan 1111m win 2s ron seat S riichi")
    assert (result["han"], result["fu"], result["total"]) == (1, 70, 2300)


def test_ex_000_10_closed_ron_forty_fu():
    result = score("234m567m789p46s88p5s win 5s ron seat S riichi dora 4s")
    assert ids(result) == {"riichi", "dora"}
    assert (result["han"], result["fu"], result["total"]) == (2, 40, 2600)


def test_ex_000_10_red_five_variant():
    result = score("234m567m789p46s88p0s win 0s ron seat S riichi dora 4s")
    assert (result["han"], result["fu"], result["total"]) == (3, 40, 5200)


def test_ex_000_11_closed_kan_tsumo_sixty_fu():
    result = score("234p678p34s88m2s ankan 1111m win 2s tsumo seat S riichi")
    assert ids(result) == {"riichi", "menzen_tsumo"}
    assert (result["han"], result["fu"]) == (2, 60)
    assert result["payments"] == {"dealer": 2000, "non_dealer": 1000}
    assert result["total"] == 4000


def test_ex_000_03_house_has_no_kiriage():
    # 4 han 30 fu non-dealer ron = 7,700: riichi, pinfu... built as riichi + pinfu + tanyao + dora 1
    result = score("234m456m678p234s55p win 4s ron seat S riichi dora 3s")
    assert (result["han"], result["fu"], result["total"]) == (4, 30, 7700)
    dealer = score("234m456m678p234s55p win 4s ron seat E riichi dora 3s")
    assert dealer["total"] == 11600


def test_ex_000_03_three_han_sixty_fu_is_7700():
    # open honitsu 2 + red dragon 1 = 3 han; 20 + 4 (open honour pon) + 32 (closed terminal kan) + 2 (tanki) = 58 -> 60
    result = score("234s678s11s win 1s ron seat S pon 777z ankan 9999s")
    assert (result["han"], result["fu"], result["total"]) == (3, 60, 7700)


def test_ex_002_06_dealer_pinfu_tsumo():
    # menzen tsumo + pinfu + tanyao = 3 han 20 fu; dealer tsumo 1,300 all, total 3,900
    result = score("234678m345p678s22p win 8m tsumo seat E round E dora 9s")
    assert ids(result) == {"menzen_tsumo", "pinfu", "tanyao"}
    assert (result["han"], result["fu"], result["total"]) == (3, 20, 3900)
    assert result["payments"] == {"non_dealer": 1300}
    assert result["base_points"] == 640


def test_ex_002_03_open_tanyao_tsumo():
    result = score("345p678s678m2p2p win 2p tsumo seat E chi 234m dora 9s")
    assert ids(result) == {"tanyao"}
    assert (result["han"], result["fu"], result["total"]) == (1, 30, 1500)


def test_ex_002_05_open_tanyao_ron():
    result = score("345p678s678m2p2p win 2p ron seat E chi 234m")
    assert (result["han"], result["fu"], result["payments"]) == (1, 30, {"ron": 1500})


def test_ex_002_04_a_tile_short_is_invalid():
    assert error_code("345p678s678m2p win 2p tsumo chi 234m") == "invalid_hand"


def test_ex_000_05_no_yaku():
    assert error_code("45m789p33z678s6m win 6m ron seat S chi 123m") == "no_yaku"


def test_ex_002_02_dora_alone_is_not_a_yaku():
    assert error_code("123m456m789p45s55z3s win 3s ron seat S dora 4s") == "no_yaku"


def test_ex_003_29_shousangen_counts_the_dragon_triplets_too():
    result = score("777z666z55z123m999p win 9p ron seat S")
    assert {"shousangen", "yakuhai_hatsu", "yakuhai_chun"} <= ids(result)
    assert result["han"] >= 4


def test_ex_003_28_honroutou_with_toitoi():
    result = score("111m999p111z22z win 2z ron seat S pon 999s")
    assert {"honroutou", "toitoi"} <= ids(result)


def test_ex_003_21_sanshoku_open_is_one_han():
    result = score("123m123p456s99s win 9s ron seat S chi 123s")
    assert "sanshoku" in ids(result)
    assert next(y for y in result["yaku"] if y["id"] == "sanshoku")["han"] == 1


def test_ex_003_31_ryanpeikou_beats_seven_pairs():
    result = score("112233m778899p55s win 5s ron seat S")
    assert "ryanpeikou" in ids(result) and "chiitoitsu" not in ids(result) and "iipeikou" not in ids(result)


def test_chiitoitsu_is_25_fu_unrounded():
    result = score("1133m5577p22s4466z win 6z ron seat S")
    assert (result["han"], result["fu"], result["total"]) == (2, 25, 1600)


def test_four_of_a_kind_is_not_two_pairs():
    assert error_code("1111m5577p22s4466z win 6z ron seat S") == "not_a_win"


def test_double_riichi_replaces_riichi():
    result = score("123m456m789p123s99p win 1s ron seat S double_riichi")
    assert "double_riichi" in ids(result) and "riichi" not in ids(result)


def test_double_wind_pair_is_four_fu_in_house():
    result = score("123m456m789p234s11z win 4s ron seat E round E riichi")
    value_pair = next(f for f in result["fu_items"] if f["id"] == "value_pair")
    assert value_pair["fu"] == 4


@pytest.mark.parametrize(
    ("text", "name", "multiple"),
    [
        ("19m19p19s1234567z1m win 1m ron seat S", "kokushi_13", 2),
        ("119m19p19s123456z5z win 5z ron seat S", None, 0),
        ("119m19p19s1234567z win 9m ron seat S", "kokushi", 1),
        ("111m333p555s777z22z win 2z ron seat S", "suuankou_tanki", 2),
        ("111m333p555s777z22z win 5s tsumo seat S", "suuankou", 1),
        ("1112345678999m5m win 5m ron seat S", "junsei_chuuren", 2),
        ("1112345678999m9m win 9m ron seat S", "junsei_chuuren", 2),
        ("111222333z55m win 5m ron seat S pon 444z", "daisuushii", 2),
        ("555666777z123m99p win 9p ron seat S", "daisangen", 1),
    ],
)
def test_yakuman_and_double_yakuman(text, name, multiple):
    if name is None:
        assert error_code(text) == "not_a_win"
        return
    result = score(text)
    assert name in ids(result)
    assert result["yakuman"] == multiple
    assert result["total"] == 32000 * multiple


def test_yakuman_stack():
    # daisuushii x2 + suuankou tanki x2 + tsuuiisou x1: yakuman add on this site (000 L89)
    result = score("111222333z444z55z win 5z ron seat S")
    assert ids(result) == {"daisuushii", "suuankou_tanki", "tsuuiisou"}
    assert result["yakuman"] == 5 and result["total"] == 160000


def test_counted_yakuman():
    result = score("112233p456p789p55p win 9p tsumo seat S riichi ippatsu")
    assert result["han"] == 13
    assert (result["yakuman"], result["limit"], result["total"]) == (1, "yakuman", 32000)


@pytest.mark.parametrize(
    "text",
    [
        "123m456m789p123s99p win 1s ron seat S ippatsu",
        "123m456m789p123s99p win 1s ron seat S haitei",
        "123m456m789p123s99p win 1s tsumo seat S houtei",
        "123m456m789p123s99p win 1s ron seat S rinshan",
        "123m456m789p123s99p win 1s tsumo seat S chankan",
        "123m456m789p123s99p win 1s tsumo seat S tenhou",
        "123m456p78p99p4s win 4s ron seat S riichi chi 234s",
        "123m456m789p123s99p win 1s ron seat S kita 1",
    ],
)
def test_impossible_situations_are_invalid_situation(text):
    assert error_code(text) == "invalid_situation"


def test_bad_notation_is_invalid_notation():
    assert error_code("123m456x win 1m") == "invalid_notation"


def test_unknown_request_field_is_invalid_request():
    with pytest.raises(EngineError) as info:
        scorer().score({"hand": "123m456m789p23s99p1s", "win": "1s", "riichii": True})
    assert info.value.code == "invalid_request"
    assert "riichii" in info.value.message


def test_batch_answers_every_line():
    from engine.cli.score import answer_line

    lines = [
        '{"hand": "123m456m789p23s99p1s", "win": "1s", "seat_wind": "S"}',
        "{broken",
        '{"hand": "123m", "win": "1m"}',
        '{"hand": "123m456m789p23s99p1s", "win": "1s", "rulebook": "nosuch"}',
        '{"hand": "123m456m789p23s99p1s", "win": "1s", "seat_wind": "S"}',
    ]
    answers = [answer_line(line, None) for line in lines]
    assert [a["ok"] for a in answers] == [True, False, False, False, True]
    assert [a.get("error", {}).get("code") for a in answers] == [None, "invalid_request", "invalid_hand", "unknown_rulebook", None]
