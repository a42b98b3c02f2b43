"""A hand's fact table takes the situation's facts directly, the six said of its fields from a table kept per those
fields (``engine.scoring.facts._said_of``): they must be the facts computed afresh from the situation."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import tiles as T
from engine.core.hand import build_hand
from engine.core.situation import COUNTER_FIELDS, FLAG_FIELDS, WINDS, Situation
from engine.scoring.facts import HandFacts, situation_facts


def _afresh(s: Situation, players: int) -> dict:
    facts = {name: getattr(s, name) for name in FLAG_FIELDS + COUNTER_FIELDS}
    facts.update(
        ron=not s.tsumo,
        dealer=s.seat_wind == "E",
        riichi=s.riichi or s.double_riichi,
        players=players,
        seat_wind=T.wind_kind(s.seat_wind),
        round_wind=T.wind_kind(s.round_wind),
    )
    return facts


_SITUATIONS = st.builds(
    Situation,
    **{name: st.booleans() for name in FLAG_FIELDS},
    seat_wind=st.sampled_from(WINDS),
    round_wind=st.sampled_from(WINDS),
    kita=st.integers(0, 4),
    honba=st.integers(0, 1000),
    riichi_sticks=st.integers(0, 1000),
    dealer_consecutive_wins=st.integers(0, 1000),
)


@settings(max_examples=300)
@given(_SITUATIONS, st.sampled_from([3, 4]))
def test_situation_facts_are_the_facts_computed_afresh(situation, players):
    hand = build_hand("123m456m789p123s99p", [], "1s")
    expected = _afresh(situation, players)
    assert situation_facts(situation, players) == expected
    table = HandFacts(hand, situation, (), (), {}, players)
    assert {name: table[name] for name in expected} == expected
    assert list(situation_facts(situation, players)) == list(expected)  # the same order of facts too
