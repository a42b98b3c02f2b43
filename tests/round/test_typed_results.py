"""The typed results inside the engine: a win's ``ScoreResult`` and ``Payments``, and a round's ``Settlement``.

The honba part of each payment is the scorer's (``PaymentRules.split``: the same payment rules at honba 0); it must
equal what settling a 1-han 30-fu hand twice and subtracting gave before, for every bundled rulebook, seat and
counter. A round's typed settlement must write exactly the contract's settlement object, and the game must read
the same counters from either.
"""

from __future__ import annotations

import pytest

from engine.core.situation import Situation
from engine.game.progression import HandOutcome
from engine.game.selfplay import Game
from engine.round.events import (
    DAHAI,
    NAME,
    SEATS,
    TSUMO,
    Ankan,
    Dahai,
    Dora,
    EndKyoku,
    Hora,
    Kakan,
    Meld,
    Nukidora,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartKyoku,
    Tsumo,
    write,
)
from engine.round.round import Round
from engine.scoring import library
from engine.scoring.result import Payments, ScoreResult

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
                split = scorer.payment_rules.split(answer["payments"], base=answer["base_points"], dealer=dealer, tsumo=tsumo, honba=honba)
                old = _old_honba_parts(scorer, dealer=dealer, tsumo=tsumo, honba=honba) if honba else {}
                # asked again, the honba-0 payments come from the split's cache: the same parts
                again = scorer.payment_rules.split(answer["payments"], base=answer["base_points"], dealer=dealer, tsumo=tsumo, honba=honba)
                assert (again.value, again.honba) == (split.value, split.honba)
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


def test_events_are_written_from_the_typed_log() -> None:
    """``Round.events`` is ``write`` of each record of ``Round.log``, written once; a game's ``events`` likewise."""
    game = Game(library.rulebook("tenhou"), 5)
    game.play_round()
    rnd = game.last_round
    assert rnd is not None
    first = rnd.events
    assert first == [write(e) for e in rnd.log] and rnd.events is first
    assert game.events[1:] == first and game.events[0]["type"] == "start_game"


def test_each_event_record_writes_the_mjai_style_dict() -> None:
    m1, p5, red5s, north = 0, 13, 36, 30
    cases = [
        (Tsumo(1, m1), {"type": "tsumo", "actor": 1, "pai": "1m"}),
        (Dahai(2, red5s, True), {"type": "dahai", "actor": 2, "pai": "0s", "tsumogiri": True}),
        (Meld("pon", 0, 3, p5, (p5, p5)), {"type": "pon", "actor": 0, "target": 3, "pai": "5p", "consumed": ["5p", "5p"]}),
        (Ankan(1, (m1,) * 4), {"type": "ankan", "actor": 1, "consumed": ["1m"] * 4}),
        (Kakan(1, m1, (m1,) * 3), {"type": "kakan", "actor": 1, "pai": "1m", "consumed": ["1m"] * 3}),
        (Nukidora(2, north), {"type": "nukidora", "actor": 2, "pai": "4z"}),
        (Reach(3), {"type": "reach", "actor": 3}),
        (Reach(3, True), {"type": "reach", "actor": 3, "open": True}),
        (ReachAccepted(3, (0, 0, 0, -1000), (25000, 25000, 25000, 24000)),
         {"type": "reach_accepted", "actor": 3, "deltas": [0, 0, 0, -1000], "scores": [25000, 25000, 25000, 24000]}),
        (Dora(p5), {"type": "dora", "dora_marker": "5p"}),
        (Hora(0, 2, m1, (8000, 0, -8000, 0), "1m"), {"type": "hora", "actor": 0, "target": 2, "pai": "1m", "deltas": [8000, 0, -8000, 0], "ura_markers": "1m"}),
        (Ryukyoku("exhaustive", (1500, -1500), (True, False)), {"type": "ryukyoku", "reason": "exhaustive", "tenpais": [True, False], "deltas": [1500, -1500]}),
        (Ryukyoku("kyuushu_kyuuhai", (0, 0)), {"type": "ryukyoku", "reason": "kyuushu_kyuuhai", "deltas": [0, 0]}),
        (EndKyoku(), {"type": "end_kyoku"}),
        (StartKyoku("E", 1, 0, 0, 0, m1, (25000,) * 2, ((m1, p5), (red5s,))),
         {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0, "dora_marker": "1m",
          "scores": [25000, 25000], "tehais": ["1m5p", "0s"]}),
    ]
    for event, expected in cases:
        written = write(event)
        assert written == expected and list(written) == list(expected)


def test_shared_draw_and_discard_events_are_the_records_a_round_would_make() -> None:
    assert all(TSUMO[seat][code] == Tsumo(seat, code) for seat in range(SEATS) for code in range(len(NAME)))
    assert all(DAHAI[seat][code][flag] == Dahai(seat, code, bool(flag)) for seat in range(SEATS) for code in range(len(NAME)) for flag in (0, 1))
    assert all(type(DAHAI[seat][code][flag].tsumogiri) is bool for seat in range(SEATS) for code in range(len(NAME)) for flag in (0, 1))


def test_the_settlement_dict_is_written_when_first_read_and_kept() -> None:
    """``Round.settlement`` is ``Settlement.as_json`` of ``Round.settled``, written at its first read (a replay and a
    game read the typed record only), then the same dict at every read; None before the hand is over."""
    game = Game(library.rulebook("tenhou"), 7)
    game.play_round()
    rnd = game.last_round
    assert rnd is not None and rnd.settled is not None
    fresh = Round(rnd.rules, seed=7)
    assert fresh.settlement is None and fresh._settlement is None
    first = rnd.settlement
    assert first == rnd.settled.as_json() and rnd.settlement is first
