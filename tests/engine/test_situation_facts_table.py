"""A hand's fact table takes the situation's facts directly, the six said of its fields from a table kept per those
fields (``engine.scoring.facts._said_of``): they must be the facts computed afresh from the situation."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import tiles as T
from engine.core.hand import build_hand
from engine.core.situation import COUNTER_FIELDS, FLAG_FIELDS, WINDS, Situation
from engine.scoring.facts import HandFacts, situation_facts, situation_facts_of_fields


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
    # the display written out field by field is the table the field lists make, value types and order included
    displayed = list(situation_facts(situation, players).items())
    assert displayed == list(situation_facts_of_fields(situation, players).items())
    assert [type(v) for _k, v in displayed] == [type(v) for v in situation_facts_of_fields(situation, players).values()]


_RULEBOOKS = ("house", "tenhou_sanma", "wrc2025", "ema2016")
_HANDS = (
    ("123p456p789p123s99p", "1s", ()),
    ("11m456p789p555s", "5s", (("pon", "777z"),)),
    ("234p234p66p678s222z", "2z", ()),
    ("111m999p111z22z333z", "3z", ()),
)

@settings(max_examples=60, deadline=None)
@given(st.lists(_SITUATIONS, min_size=1, max_size=4), st.sampled_from(_RULEBOOKS), st.data())
def test_a_valuer_keeping_situation_facts_by_object_values_each_hand_as_its_facts_written_afresh(situations, name, data):
    """``Valuer.best_valuation`` keeps a situation's facts by the object's id (``_situated``) and copies them into
    each hand's table: the same valuation as with the facts computed afresh for that hand (``known`` given), for
    situations met again as the same object, as an equal new object, and after the kept facts are emptied."""
    from engine.core.errors import EngineError
    from engine.scoring.library import scorer

    s = scorer(name)
    order = data.draw(st.lists(st.sampled_from(range(len(situations))), min_size=1, max_size=8), label="order")
    concealed, win, melds = data.draw(st.sampled_from(_HANDS), label="hand")
    hand = s.hand(concealed, win, list(melds))

    def outcome(situation: Situation, known: dict | None) -> object:
        try:
            best = s.best_valuation(hand, situation, (), (), known)
        except EngineError as exc:
            return type(exc).__name__, str(exc)
        return best.sort_key, best.limit, best.base, best.yaku, best.fu_items, best.payments

    for step, index in enumerate(order):
        situation = situations[index] if step % 3 else Situation(**{f: getattr(situations[index], f) for f in Situation.__slots__ if not f.startswith("_")})
        if step == 5:
            s.valuer._situated.clear()
        assert outcome(situation, None) == outcome(situation, situation_facts(situation, s.prepared.players))
