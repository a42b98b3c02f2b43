"""The game progression with its exact outcomes: wind and dealer order, renchan, the Tenhou-style end (agari-yame,
tenpai-yame, the 30,000 target with a sudden-death West), bust, and the final table (leftover sticks, uma, oka,
ties, rounding). Each case states where the game stands, one settlement and what follows."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.game.progression import GameState, HandOutcome, advance, outcome_fields, placement, start
from engine.game.result import final_scores, game_result, seat_bonus
from engine.game.rules import GameRules
from engine.scoring.library import rulebook
from ruledsl.record import fields, replace
from tests.game.helpers import rules, settlement

TENHOU = GameRules.of(rulebook("tenhou"))
HOUSE = GameRules.of(rulebook("house"))


def _at(r: GameRules, wind: int, dealer: int, scores=(25000,) * 4, sticks: int = 0) -> GameState:
    return replace(start(r), wind_index=wind, dealer=dealer, scores=tuple(scores), sticks=sticks)


def test_a_hanchan_without_renchan_is_eight_rounds_in_wind_and_seat_order():
    state, seen = start(HOUSE), []
    while not state.finished:
        seen.append((state.round_wind(HOUSE), state.dealer))
        state = advance(HOUSE, state, settlement(dealer_next=(state.dealer + 1) % 4, renchan=False))
    assert seen == [(w, d) for w in "ES" for d in range(4)]
    assert (state.ended_by, state.rounds_played) == ("last_round", 8)


def test_renchan_keeps_dealer_and_wind_and_counters_come_from_the_settlement():
    s = advance(HOUSE, start(HOUSE), settlement(dealer_next=0, renchan=True, honba_next=1, sticks_next=2))
    assert (s.wind_index, s.dealer, s.honba, s.sticks, s.finished) == (0, 0, 1, 2, False)


@pytest.mark.parametrize(
    ("scores", "kind", "ended_by"),
    [
        ((20000, 20000, 20000, 40000), "win", "agari_yame"),  # leading, at least 30,000
        ((20000, 20000, 20000, 40000), "exhaustive", "tenpai_yame"),
        ((22000, 22000, 27000, 29000), "win", None),  # leading but below 30,000: plays on
        ((35000, 20000, 10000, 35000), "win", None),  # tied for the lead: seat order puts seat 0 first
        ((40000, 20000, 10000, 30000), "win", None),  # not leading
    ],
)
def test_tenhou_south_4_dealer_stops_only_leading_at_30000(scores, kind, ended_by):
    s = settlement(kind, dealer_next=3, renchan=True, winners=(3,) if kind == "win" else (), tenpai=(3,) if kind == "exhaustive" else None)
    assert advance(TENHOU, _at(TENHOU, 1, 3, scores), s).ended_by == ended_by


def test_tenhou_south_4_below_the_target_goes_into_west_and_ends_in_sudden_death():
    state = advance(TENHOU, _at(TENHOU, 1, 3, (29000, 28000, 22000, 21000)), settlement(dealer_next=0, renchan=False))
    assert (state.finished, state.round_wind(TENHOU), state.dealer) == (False, "W", 0)
    ended = advance(TENHOU, state, settlement(deltas=(-2000, 3000, 0, -1000), dealer_next=1, renchan=False, winners=(1,)))
    assert ended.ended_by == "extension"


def test_tenhou_west_4_ends_the_game_even_below_the_target():
    state = advance(TENHOU, _at(TENHOU, 2, 3, (29000, 28000, 22000, 21000)), settlement(dealer_next=0, renchan=False))
    assert state.ended_by == "extension"


def test_a_west_dealer_who_is_not_leading_keeps_the_seat_even_with_someone_at_the_target():
    s = settlement(deltas=(0, 2000, 0, -2000), dealer_next=1, renchan=True, winners=(1,))
    state = advance(TENHOU, _at(TENHOU, 2, 1, (31000, 27000, 22000, 20000)), s)
    assert (state.finished, state.dealer) == (False, 1)


def test_bust_ends_the_game_below_zero_but_not_at_zero():
    s = settlement(deltas=(0, 0, 8000, -8000), dealer_next=1, renchan=False, winners=(2,))
    assert advance(HOUSE, _at(HOUSE, 0, 0, (25000, 25000, 25000, 8000)), s).finished is False
    assert advance(HOUSE, _at(HOUSE, 0, 0, (25000, 25000, 25000, 7900)), s).ended_by == "bust"


def test_a_finished_game_takes_no_more_rounds():
    with pytest.raises(ValueError):
        advance(HOUSE, replace(start(HOUSE), ended_by="bust"), settlement(dealer_next=1, renchan=False))


def test_the_settlement_tenpai_flags_decide_dealer_tenpai():
    s = {"kind": "exhaustive", "deltas": [0] * 4, "honba_next": 1, "sticks_next": 0, "dealer_next": 0, "tenpai": [True, False, False, False]}
    assert HandOutcome.of(s, 0).dealer_tenpai and not HandOutcome.of(s, 1).dealer_tenpai


@pytest.mark.parametrize(("book", "seed"), [("tenhou", 3), ("tenhou", 11), ("ema2012", 5), ("tenhou_sanma", 2), ("mleague", 7)])
def test_a_typed_settlement_advances_the_game_as_its_dict_does(book: str, seed: int):
    """``advance`` reads a settlement's fields in place (``outcome_fields``), a typed one or its dict: every round
    of a few played games, from every state they passed through, gives the same next state both ways, and the
    fields read are the record's own."""
    from engine.game import Game

    game = Game(rulebook(book), seed)
    while not game.state.finished:
        before = game.state
        game.play_round()
        rnd = game.last_round
        assert rnd is not None and rnd.settled is not None and rnd.settlement is not None
        for dealer in range(len(before.scores)):
            record = HandOutcome.of(rnd.settlement, dealer)
            assert outcome_fields(rnd.settled, dealer) == outcome_fields(rnd.settlement, dealer)
            assert outcome_fields(rnd.settled, dealer) == tuple(getattr(record, f.name) for f in fields(HandOutcome))
        assert advance(game.rules, before, rnd.settled) == advance(game.rules, before, rnd.settlement) == game.state


def test_tenhou_final_table_with_leftover_sticks_to_first():
    state = replace(start(TENHOU), scores=(32000, 28000, 21000, 17000), sticks=2, rounds_played=9, ended_by="last_round")
    result = game_result(TENHOU, state, "tenhou", 4)
    assert result["final_points"] == [34000, 28000, 21000, 17000]
    assert result["placement"] == [0, 1, 2, 3]
    assert result["uma_oka"] == [40.0, 10.0, -10.0, -20.0]
    assert result["scores"] == [44.0, 8.0, -19.0, -33.0]


def test_shared_ties_split_uma_and_oka_and_seat_order_does_not():
    share = rules("house", uma=[30, 10, -10, -30], oka_return=30000, tie_break="share")
    ordered = replace(share, tie_break="seat_order")
    points = (30000, 30000, 25000, 15000)
    assert seat_bonus(share, points) == (Fraction(30), Fraction(30), Fraction(-10), Fraction(-30))
    assert seat_bonus(ordered, points) == (Fraction(50), Fraction(10), Fraction(-10), Fraction(-30))


def test_three_way_ties_share_in_thirds():
    share = rules("house", uma=[15, 5, -5, -15], tie_break="share")
    assert seat_bonus(share, (30000, 30000, 30000, 10000))[:3] == (Fraction(5),) * 3


def test_five_down_six_up_rounds_a_half_toward_zero_and_first_takes_the_rest():
    r = replace(TENHOU, score_rounding="five_down_six_up")
    # Tenhou 2010: 20,100 / 35,800 / 5,200 / 38,900 recorded as -20 / +16 / -45 / +49.
    assert final_scores(r, (20100, 35800, 5200, 38900)) == (-20, 16, -45, 49)
    assert final_scores(r, (25500, 35000, 5500, 34000))[0] == -4 - 10  # third place: -4.5 -> -4, uma -10


def test_four_down_five_up_rounds_the_points_a_half_away_from_zero():
    r = replace(TENHOU, score_rounding="four_down_five_up")
    # Tenhou 2020 (2020061922gm-00a9-0000-6183ff37): 25,500 / 20,700 / 32,500 / 21,300 recorded 6 / -29 / 42 / -19.
    assert final_scores(r, (25500, 20700, 32500, 21300)) == (6, -29, 42, -19)
    # a half above the return goes up (+5), where five down, six up keeps +4; a half below zero goes down
    assert final_scores(r, (40000, 34500, 15500, 10000))[1] == 5 + 10
    assert final_scores(replace(r, score_rounding="five_down_six_up"), (40000, 34500, 15500, 10000))[1] == 4 + 10
    assert final_scores(r, (66200, 5200, 33100, -4500))[3] == -35 - 20


@given(st.lists(st.integers(-400, 900), min_size=4, max_size=4))
def test_final_scores_sum_to_zero_when_every_point_is_on_the_scores(hundreds):
    points = [h * 100 for h in hundreds]
    points[0] += 100000 - sum(points)
    for rounding in ("exact", "five_down_six_up", "four_down_five_up"):
        for tie in ("seat_order", "share"):
            r = replace(TENHOU, score_rounding=rounding, tie_break=tie)
            assert sum(final_scores(r, points)) == 0


@given(st.lists(st.integers(-100, 1000), min_size=3, max_size=4))
def test_placement_orders_by_points_then_seat(hundreds):
    order = placement(hundreds)
    assert sorted(order) == list(range(len(hundreds)))
    assert all((-hundreds[a], a) < (-hundreds[b], b) for a, b in zip(order, order[1:], strict=False))


@given(
    st.sampled_from(["house", "tenhou", "tenhou_east", "mleague", "sanma", "tenhou_sanma"]),
    st.lists(st.tuples(st.integers(0, 3), st.integers(1, 120), st.booleans()), min_size=1, max_size=60),
)
def test_a_game_without_renchan_ends_within_its_winds_and_conserves_points(name, hands):
    """Each hand: one seat pays another some hundreds of points (or a riichi stick goes to the table), the dealer
    passes. The game ends by the end of its last wind at the latest, and points plus sticks never change."""
    r = GameRules.of(rulebook(name))
    state = start(r)
    total = sum(state.scores)
    for payer, hundreds, stick in hands:
        if state.finished:
            break
        payer %= r.players
        deltas = [0] * r.players
        if stick:
            deltas[payer] -= r.riichi_deposit
        else:
            deltas[payer] -= hundreds * 100
            deltas[(payer + 1) % r.players] += hundreds * 100
        sticks = state.sticks + (1 if stick else 0)
        s = settlement("exhaustive", tuple(deltas), dealer_next=(state.dealer + 1) % r.players, renchan=False, sticks_next=sticks)
        state = advance(r, state, s)
        assert sum(state.scores) + state.sticks * r.riichi_deposit == total
        assert state.rounds_played <= len(r.winds) * r.players
    if len(hands) >= len(r.winds) * r.players:
        assert state.finished
