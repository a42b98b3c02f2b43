"""The parts ``Scorer.score_made`` builds its ``ScoreResult`` from, held equal to the general ones: the payments
split by position (``PaymentRules.split_positional``) against ``PaymentRules.split`` at every honba, and pao's
``_rebalance`` against the winner's gain summed over the other seats."""

from __future__ import annotations

import random

from engine.scoring.library import scorer
from engine.scoring.pao import _rebalance


def test_split_positional_is_split() -> None:
    rules = scorer("tenhou").payment_rules
    for han, fu in ((1, 30), (2, 40), (3, 70), (5, 30), (13, 30)):
        for dealer in (False, True):
            for tsumo in (False, True):
                settled = rules.settle(han, fu, dealer=dealer, tsumo=tsumo)
                for honba in (1, 2, 7):
                    paid = rules.settle(han, fu, dealer=dealer, tsumo=tsumo, honba=honba)
                    payments, base = paid["payments"], settled["base_points"]
                    expected = rules.split(payments, base=base, dealer=dealer, tsumo=tsumo, honba=honba)
                    assert rules.split_positional(payments, base, dealer, tsumo, honba) == expected


def test_rebalance_sums_the_others() -> None:
    draw = random.Random(7)
    for _ in range(500):
        players = draw.choice((3, 4))
        winner = draw.randrange(players)
        deltas = [0 if seat == winner else -draw.randrange(0, 50000) for seat in range(players)]
        expected = list(deltas)
        expected[winner] = -sum(d for i, d in enumerate(deltas) if i != winner)
        assert _rebalance(list(deltas), winner) == expected
