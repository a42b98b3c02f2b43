"""Whole responses of the fast scorer equal those of the reference scorer (``Scorer(..., reference=True)``: every
rule run as the reference evaluator's nodes, no static pruning, no per-element sums, no settle caches), on random
hands of the peer cross-check's generator, under every kind of bundled rulebook and under a rulebook with
exceptions to a fu item and a bonus item (the scorer's table path for valued items, which the bundled rulebooks
never take). Rule errors at run time become the contract's codes.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.scoring.score import Scorer
from ruledsl import ast
from ruledsl import vocabulary as V
from ruledsl.compile import Rule, Rulebook, compile_expr, load
from ruledsl.record import replace
from tests.outcomes import CLEAN_CODES
from tests.peer_oracle import random_requests
from tests.ruledsl.test_evaluator_agreement import HAND_FACTS, typed

VARIANTS = '''
rulebook exceptions_to_values "Exceptions to a fu item and a bonus item" extends house

@clause("test: dora count double on a closed tsumo")
exception dora_doubled to bonus dora "Dora, doubled" {
  when = closed and tsumo
  han = 2 * (dora_hits + kita_dora_hits)
}

@clause("test: a closed wait is worth 4 fu")
exception kanchan_wait to fu wait "Closed wait" {
  when = wait == kanchan
  fu = 4
}
'''


@cache
def variants() -> Rulebook:
    return load("exceptions_to_values", VARIANTS, "<test>")


@cache
def bundled(name: str) -> Rulebook:
    return load(name)


def _answers(scorer: Scorer, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [scorer.score_json(dict(r, rulebook=scorer.rulebook.name)) for r in requests]


def _compare(rulebook: Rulebook, requests: list[dict[str, Any]]) -> int:
    fast, reference = Scorer(rulebook), Scorer(rulebook, reference=True)
    scored = 0
    for request, a, b in zip(requests, _answers(fast, requests), _answers(reference, requests), strict=True):
        assert a == b, request
        scored += a["ok"]
    return scored


@pytest.mark.parametrize("name", ["house", "mleague", "wrc2025", "sanma", "tenhou"])
def test_fast_and_reference_scorers_give_equal_responses(name: str) -> None:
    requests = [r for r in random_requests(seed=1414, count=600)]
    scored = _compare(bundled(name), requests)
    assert scored > 100  # most requests are complete hands with a yaku: the comparison is not of errors only


def test_exceptions_to_fu_and_bonus_items_take_the_table_path_and_agree() -> None:
    rulebook = variants()
    fast = Scorer(rulebook)
    assert fast.prepared.bonus_values is None and fast.prepared.fu_values is None  # the table path, with exceptions
    requests = random_requests(seed=1415, count=800)
    assert _compare(rulebook, requests) > 200
    # the exceptions really apply: a closed kanchan wait is 4 fu, dora of a closed tsumo count double
    kanchan = fast.score({"hand": "123m456p789s11s555z", "win": "2m", "seat_wind": "S"})
    expected = {"id": "kanchan_wait", "fu": 4, "clause": "test: a closed wait is worth 4 fu", "clause_from": None}  # its own
    assert expected in kanchan["fu_items"]
    tsumo = fast.score({"hand": "123m456p789s11s555z", "win": "1s", "tsumo": True, "seat_wind": "S", "dora_indicators": "7z"})
    assert [line["han"] for line in tsumo["yaku"] if line["id"] == "dora_doubled"] == [6]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["house", "mleague", "wrc2025", "sanma", "tenhou", "mahjchina"])
def test_fast_and_reference_scorers_agree_on_many_hands(name: str) -> None:
    _compare(bundled(name), random_requests(seed=2024, count=5000))


# ---- rule errors at run time: the contract's codes, the same from both scorers ------------------------------

def _bonus(name: str, han: ast.Expr) -> Rule:
    return Rule("bonus", name, name, f"test: {name}", compile_expr(ast.Bool(True)), {"han": compile_expr(han)})


def broken() -> Rulebook:
    """House with bonus items whose value breaks a bound only at run time (built past the checker, whose static
    bounds would refuse some of them: the run-time guard must hold on its own)."""
    house = bundled("house")
    bonus = (
        _bonus("divided", ast.BinOp("/", ast.Int(12), ast.Name("dora_hits"))),  # 12 / 0 without dora
        _bonus("enormous", ast.BinOp("*", ast.Int(100), ast.Name("red_fives"))),  # 2^(100 + ...) past the power bound
        _bonus("negative", ast.BinOp("-", ast.Int(0), ast.BinOp("*", ast.Int(20), ast.Name("ura_hits")))),
    )
    return replace(house, name="broken", rules={**house.rules, "bonus": house.of("bonus") + bonus})


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        ({"hand": "123m456p789s11s555z", "win": "1s", "seat_wind": "S"}, "invalid_rulebook"),  # 12 / 0
        ({"hand": "123m406p789s11s555z", "win": "1s", "seat_wind": "S", "dora_indicators": "4p"}, "limit_exceeded"),
        ({"hand": "123m456p789s11s555z", "win": "1s", "seat_wind": "S", "riichi": True, "dora_indicators": "4p", "ura_indicators": "4p"}, "invalid_rulebook"),
    ],
)
def test_rule_errors_at_run_time_are_contract_answers(request_: dict[str, Any], code: str) -> None:
    rulebook = broken()
    for scorer in (Scorer(rulebook), Scorer(rulebook, reference=True)):
        answer = scorer.score_json(request_)
        assert answer["ok"] is False
        assert answer["error"]["code"] == code, answer
        assert "cannot score this hand" in answer["error"]["message"]


def test_the_payment_api_answers_rule_errors_with_contract_codes() -> None:
    from engine.core.errors import EngineError

    scorer = Scorer(bundled("house"))
    with pytest.raises(EngineError) as caught:
        scorer.settle(-3, 30, dealer=False, tsumo=False)  # negative han: fractions of points, refused
    assert caught.value.code == "invalid_rulebook"
    with pytest.raises(EngineError) as caught:
        scorer.settle(10**6, 30, dealer=False, tsumo=False)
    assert caught.value.code == "limit_exceeded"  # 2^(10^6 + 2) is past the power bound


def test_a_rule_that_raises_before_its_situation_test_raises_in_both_scorers() -> None:
    """The fast scorer leaves out rules whose situation conjuncts fail, but never past a conjunct that may raise
    first: `12 / dora_hits == 1 and riichi` raises for a hand without dora, riichi or not."""
    house = bundled("house")
    when = compile_expr(ast.BinOp("and", ast.BinOp("==", ast.BinOp("/", ast.Int(12), ast.Name("dora_hits")), ast.Int(1)), ast.Name("riichi")))
    rule = Rule("yaku", "fragile", "Fragile", "test: fragile", when, {"han": (1, 1)})
    rulebook = replace(house, name="fragile", rules={**house.rules, "yaku": house.of("yaku") + (rule,)})
    request = {"hand": "123m456p789s11s555z", "win": "1s", "seat_wind": "S"}
    for scorer in (Scorer(rulebook), Scorer(rulebook, reference=True)):
        assert scorer.score_json(request)["error"]["code"] == "invalid_rulebook"


# ---- generated bonus items: both scorers answer alike, and only with the contract's codes ------------------------

HANDS = random_requests(seed=1416, count=40)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(han=typed(V.INT, depth=3, facts=HAND_FACTS), when=typed(V.BOOL, depth=2, facts=HAND_FACTS), data=st.data())
def test_generated_bonus_items_score_alike_in_both_scorers(han: ast.Expr, when: ast.Expr, data: st.DataObject) -> None:
    house = bundled("house")
    rule = Rule("bonus", "generated", "Generated", "test: generated", compile_expr(when), {"han": compile_expr(han)})
    rulebook = replace(house, name="generated", rules={**house.rules, "bonus": house.of("bonus") + (rule,)})
    fast, reference = Scorer(rulebook), Scorer(rulebook, reference=True)
    for request in data.draw(st.lists(st.sampled_from(HANDS), min_size=3, max_size=3)):
        a, b = fast.score_json(request), reference.score_json(request)
        assert a == b, request
        assert a["ok"] or a["error"]["code"] in CLEAN_CODES
