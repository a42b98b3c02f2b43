"""The scorer's parts (``engine.scoring``): names still importable from ``engine.scoring.score``, the inline shortcut of
the indicator checks equal to counting every tile, and the payment API through the split parts."""

from __future__ import annotations

import random

import pytest

import engine.scoring.score
from engine.core import tiles as T
from engine.core.errors import InvalidSituation
from engine.core.hand import Hand
from engine.scoring.checks import SituationChecks
from engine.scoring.library import scorer


def test_the_public_names_stay_importable_from_engine_score() -> None:
    for name in engine.scoring.score.__all__:
        assert getattr(engine.scoring.score, name) is not None, name
    for name in ("Scorer", "Tier", "Valuation", "FastRule", "Prepared", "Tables", "prepare", "basic_points", "rule_error", "plain_request", "situation_of"):
        assert name in engine.scoring.score.__all__, name


def test_no_name_is_a_single_letter_and_no_function_shares_the_closure_module_name() -> None:
    s = scorer("house")
    assert not hasattr(s, "p") and s.prepared.players == 4
    assert not hasattr(engine.scoring.score, "fast")  # ``fast_rule``: ``ruledsl.fast`` is the module that builds closures


def _full_count_problem(hand: Hand, indicators: tuple[int, ...], copies: int) -> bool:
    """Whether counting every tile of the hand, its melds and the indicators finds a kind past its copies or a red
    five twice: the straightforward check the shortcut must agree with."""
    codes = [*hand.concealed, *(c for m in hand.melds for c in m.tiles), *indicators]
    counts = [0] * T.KINDS
    for code in codes:
        counts[T.KIND_OF[code]] += 1
    reds = [c for c in codes if c >= T.RED_BASE]
    return max(counts) > copies or len(reds) != len(set(reds))


@pytest.mark.parametrize("seed", range(4))
def test_the_indicator_copy_shortcut_agrees_with_counting_every_tile(seed: int) -> None:
    s = scorer("house")
    checks: SituationChecks = s.checks
    rng = random.Random(seed)
    hands = [
        s.hand("234m567m789p46s88p5s", "5s"),
        s.hand("11m055p", "1m", melds=[("pon", "777z"), ("chi", "789p"), ("daiminkan", "1111s")]),
        s.hand("234m067m789p46s88p5s", "5s"),
        s.hand("11123456789999m", "9m"),
    ]
    codes = list(range(len(T.KIND_OF)))
    raised_at_all = 0
    for _ in range(400):
        hand = rng.choice(hands)
        dora = tuple(rng.choice(codes) for _ in range(rng.randint(1, 5)))
        ura = tuple(rng.choice(codes) for _ in range(rng.randint(0, 5)))
        expected = _full_count_problem(hand, dora + ura, 4)
        for check, args in ((checks.check_indicators, (hand, dora, ura)), (checks._within_copies, (hand, dora + ura))):
            try:
                check(*args)
                raised = False
            except InvalidSituation as exc:
                raised = True
                assert "copies" in exc.message or "red five" in exc.message
            assert raised == expected, (T.format_tiles(hand.concealed), T.format_tiles(dora), T.format_tiles(ura))
        raised_at_all += expected
    assert 0 < raised_at_all < 400  # both answers met


def test_settle_and_pay_tier_through_the_split_parts() -> None:
    s = scorer("house")
    assert s.settle(3, 30, dealer=False, tsumo=False)["total"] == 3900
    mangan = s.settle(5, 30, dealer=True, tsumo=True)
    assert mangan["limit"] == "mangan" and mangan["payments"] == {"non_dealer": 4000}
    assert s.pay_tier("mangan", dealer=False)["total"] == 8000
