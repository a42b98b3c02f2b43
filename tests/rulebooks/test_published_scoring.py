"""The bundled rulebooks score as the published rules say (the scoring side).

Each test scores one hand through ``engine.api.scorer`` under the bundled rulebook and under the same rulebook with
the value it had before an audit against the published rules put back (a one-item variant), and asserts the
published answer, which the old value does not give.
"""

from __future__ import annotations

import pytest

from engine.api import load_rulebook_text, scorer
from engine.scoring.example_notation import request_from_example
from engine.scoring.score import Scorer

RENHOU_CHEAP = "123m456m789p123s99p win 1s ron seat S renhou"  # ordinarily pinfu only: 1 han 30 fu
RENHOU_RICH = "234m234m234p66p234s win 4s ron seat S renhou dora 1m"  # ordinarily 7 han: haneman
THIRTEEN_HAN = "112233p456p789p55p win 9p tsumo seat S riichi ippatsu"  # 13 han, no yakuman


def variant(base: str, items: str) -> Scorer:
    return load_rulebook_text(f'rulebook old_{base} "{base} before the audit" extends {base}\n{items}\n')


def score(s: Scorer, text: str) -> dict:
    return s.score(request_from_example(text))


def yaku_ids(result: dict) -> list[str]:
    return [line["id"] for line in result["yaku"]]


# ---- wrc2025 (and mahjchina, which inherits it): renhou is a standalone mangan ---------------------------------------

@pytest.mark.parametrize("name", ["wrc2025", "mahjchina"])
def test_renhou_alone_is_a_mangan(name: str) -> None:
    result = score(scorer(name), RENHOU_CHEAP)
    assert (yaku_ids(result), result["limit"], result["total"]) == (["renhou"], "mangan", 8000)
    old = score(variant(name, "remove yaku renhou"), RENHOU_CHEAP)
    assert (yaku_ids(old), old["total"]) == (["pinfu"], 1000)


@pytest.mark.parametrize("name", ["wrc2025", "mahjchina"])
def test_renhou_does_not_add_to_other_yaku_or_dora(name: str) -> None:
    result = score(scorer(name), RENHOU_RICH)
    assert "renhou" not in yaku_ids(result)
    assert (result["han"], result["limit"], result["total"]) == (7, "haneman", 12000)
    added = score(variant(name, "override yaku renhou {\n  standalone = false\n}"), RENHOU_RICH)
    assert (added["han"], added["total"]) == (12, 24000)  # what "adds to other yaku" would have paid


def test_renhou_needs_the_renhou_situation() -> None:
    result = score(scorer("wrc2025"), RENHOU_CHEAP.replace(" renhou", ""))
    assert (yaku_ids(result), result["total"]) == (["pinfu"], 1000)


# ---- wrc2025: no counted yakuman; 13 han or more is a sanbaiman (WRC 2015 6.1, WRC changes of 2022) -------------------

@pytest.mark.parametrize("name", ["wrc2025", "mahjchina"])
def test_thirteen_han_is_a_sanbaiman(name: str) -> None:
    result = score(scorer(name), THIRTEEN_HAN)
    assert (result["han"], result["limit"], result["base_points"], result["total"]) == (13, "sanbaiman", 6000, 24000)
    assert result["yakuman"] == 0
    old = score(variant(name, 'limit kazoe "Counted yakuman" {\n  when = han >= 13\n  base = 8000\n  tier = "yonbaiman"\n}'), THIRTEEN_HAN)
    assert (old["limit"], old["total"]) == ("yonbaiman", 32000)  # what the rulebook paid before


def test_four_kans_with_many_dora_is_one_yakuman_under_wrc2025() -> None:
    hand = "11s win 1s tsumo seat S rinshan ankan 2222m daiminkan 3333p kakan 4444s ankan 5555p dora 1m2p3s4p"
    result = score(scorer("wrc2025"), hand)
    assert (result["yakuman"], result["total"]) == (1, 32000)


def test_several_yakuman_add_up_under_wrc2025() -> None:
    result = score(scorer("wrc2025"), "77z win 7z tsumo seat S rinshan ankan 1111z daiminkan 2222z kakan 3333z ankan 4444z")
    assert (result["yakuman"], result["total"]) == (3, 96000)


def test_twelve_han_stays_sanbaiman_under_wrc2025() -> None:
    result = score(scorer("wrc2025"), "112233p456p789p55p win 9p ron seat S riichi ippatsu")
    assert (result["han"], result["limit"]) == (12, "sanbaiman")


def test_other_rulebooks_keep_their_thirteen_han_names() -> None:
    assert score(scorer("house"), THIRTEEN_HAN)["limit"] == "yakuman"
    assert score(scorer("mleague"), THIRTEEN_HAN)["limit"] == "sanbaiman"


# ---- the clauses say where each decision comes from ---------------------------------------------------------------

@pytest.mark.parametrize(
    ("name", "kind", "item", "field", "words"),
    [
        ("wrc2025", "yaku", "renhou", "standalone", "WRC 2025 rules"),
        ("mahjchina", "yaku", "renhou", "standalone", "mangan"),
        ("wrc2025", "settings", "calls", "kan_dora", "at once"),
        ("mahjchina", "settings", "calls", "kan_dora", "at once"),
        ("tenhou", "draw", "nagashi_mangan", "when", "own"),
        ("tenhou", "settings", "calls", "thirteen_orphans_robs_closed_kan", "riichienv"),
        ("mleague", "settings", "game", "voluntary_noten", "noten"),
        ("mleague", "settings", "calls", "kan_dora", "mahjong-space"),
    ],
)
def test_each_decision_is_written_into_its_clause(name: str, kind: str, item: str, field: str, words: str) -> None:
    resolved = scorer(name).prepared.rulebook.resolved
    [found] = [i for i in resolved.of_kind(kind) if i.name == item]
    assert words in (found.field_clauses.get(field) or "")
