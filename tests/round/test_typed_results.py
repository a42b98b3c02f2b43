"""The typed results inside the engine: a win's ``ScoreResult`` and ``Payments``, and a round's ``Settlement``.

The honba part of each payment is the scorer's (``Settlement.split``: the same payment rules at honba 0); it must
equal what settling a 1-han 30-fu hand twice and subtracting gave before, for every bundled rulebook, seat and
counter. A round's typed settlement must write exactly the contract's settlement object, and the game must read
the same counters from either.
"""

from __future__ import annotations

import pytest

from engine import library
from engine.game.progression import HandOutcome
from engine.game.selfplay import Game
from engine.scoring.result import Payments, ScoreResult
from engine.situation import Situation

BOOKS = ("house", "tenhou", "tenhou_sanma", "ema2016", "wrc2025", "mleague", "mahjchina")


def _old_honba_parts(scorer, *, dealer: bool, tsumo: bool, honba: int) -> dict[str, int]:
    """The former computation: a 1-han 30-fu win settled with and without the honba, subtracted."""
    bumped = scorer.settle(1, 30, dealer=dealer, tsumo=tsumo, honba=honba)["payments"]
    plain = scorer.settle(1, 30, dealer=dealer, tsumo=tsumo, honba=0)["payments"]
    return {k: bumped[k] - plain.get(k, 0) for k in bumped}


@pytest.mark.parametrize("book", BOOKS)
@pytest.mark.parametrize("honba", [0, 1, 3])
def test_split_matches_settling_twice(book: str, honba: int) -> None:
    scorer = library.scorer(book)
    for dealer in (True, False):
        for tsumo in (True, False):
            for han, fu in ((1, 30), (3, 40), (5, 30), (13, 30)):
                answer = scorer.settle(han, fu, dealer=dealer, tsumo=tsumo, honba=honba)
                split = scorer.settlement.split(answer["payments"], base=answer["base_points"], dealer=dealer, tsumo=tsumo, honba=honba)
                old = _old_honba_parts(scorer, dealer=dealer, tsumo=tsumo, honba=honba) if honba else {}
                for payer, amount in answer["payments"].items():
                    assert split.total(payer) == amount
                    assert split.honba_of(payer) == old.get(payer, 0)


def test_score_result_carries_the_answer_and_counters() -> None:
    scorer = library.scorer("house")
    hand = scorer.hand("123m456m789p123s99p", "9p")
    situation = Situation(tsumo=False, seat_wind="S", round_wind="E", riichi=True, honba=2, riichi_sticks=1)
    result = scorer.score_result(hand, situation)
    assert result.as_json() == scorer.score_hand(hand, situation)
    assert (result.honba, result.sticks) == (2, 1)
    assert result.payments.honba_of("ron") == 600
    assert result.payments.total("ron") == result.answer["payments"]["ron"]
    assert result.yakuman_multipliers() == {}


def test_ura_indicators_are_written_last() -> None:
    result = ScoreResult({"ok": True, "yaku": [{"id": "kokushi", "yakuman": 1}]}, Payments({}, {}), 0, 0, "1m")
    assert list(result.as_json()) == ["ok", "yaku", "ura_indicators"]
    assert result.yakuman_multipliers() == {"kokushi": 1}


@pytest.mark.parametrize("book", ["tenhou", "ema2012", "tenhou_sanma"])
def test_settlement_record_writes_the_contract_object(book: str) -> None:
    """Every settled round of a few games: the dict is the record's JSON, and the game reads the same counters."""
    game = Game(library.rulebook(book), 3)
    rounds = []
    while not game.state.finished:
        dealer = game.state.dealer
        game.play_round()
        rounds.append((game.last_round, dealer))
    for rnd, dealer in rounds:
        assert rnd.settled is not None
        assert rnd.settled.as_json() == rnd.settlement
        assert HandOutcome.of(rnd.settled, dealer) == HandOutcome.of(rnd.settlement, dealer)
