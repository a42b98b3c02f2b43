"""The Python round API is total over hand-built actions: any ``Action`` made from arbitrary
ints and strings either applies or raises ``IllegalAction`` naming the bad field, at any point of a round; a tile
code out of range never reaches an ``IndexError`` in the engine. The same holds for the seat of
``legal_actions``/``observation``/``facts`` and for the fields of ``RoundSetup`` (``InvalidRequest``)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.api import Action, IllegalAction, Round, RoundSetup, rulebook
from engine.core.errors import InvalidRequest
from engine.round.actions import TILE_CODES, TYPES

RULEBOOKS = ("tenhou", "tenhou_sanma")


def round_at(name: str, seed: int, steps: int) -> Round:
    """A round of ``name`` after ``steps`` legal moves chosen by ``seed``: own turns, call windows, the end."""
    r = Round(rulebook(name), RoundSetup(), seed=seed)
    pick = random.Random(seed)
    for _ in range(steps):
        if r.finished:
            break
        seat = r.waiting()[0]
        r.apply(pick.choice(r.legal_actions(seat)))
    return r


@pytest.mark.parametrize(
    "fields, words",
    [
        ({"type": "dahai", "actor": 0, "pai": 37}, "pai 37 is no tile code"),
        ({"type": "dahai", "actor": 0, "pai": -1}, "pai -1 is no tile code"),
        ({"type": "dahai", "actor": 0, "pai": 10**5000}, "a huge number"),
        ({"type": "dahai", "actor": 0, "pai": True}, "pai must be a tile code"),
        ({"type": "dahai", "actor": 0, "pai": "1m"}, "pai must be a tile code"),
        ({"type": "dahai", "actor": 7, "pai": 1}, "actor must be a seat number from 0 to 3"),
        ({"type": "dahai", "actor": False, "pai": 1}, "actor must be a seat number"),
        ({"type": "chi", "actor": 1, "pai": 1, "consumed": (99, 100), "target": 0}, "consumed tile 99"),
        ({"type": "chi", "actor": 1, "pai": 1, "consumed": "12", "target": 0}, "consumed must be a tuple"),
        ({"type": "ankan", "actor": 0, "consumed": (1,) * 9}, "at most 4 tiles"),
        ({"type": "pon", "actor": 1, "pai": 1, "consumed": (1, 1), "target": 4}, "target must be a seat number"),
        ({"type": 5, "actor": 0}, "type must be one of"),
        ({"type": "dahai", "actor": 0, "pai": 1, "tsumogiri": "yes"}, "true or false"),
    ],
)
def test_a_hand_built_action_out_of_range_is_an_illegal_action_naming_the_field(fields, words):
    r = round_at("tenhou", 7, 0)
    with pytest.raises(IllegalAction) as caught:
        r.apply(Action(**fields))
    assert words in caught.value.message
    assert not r.is_legal(0, Action(**fields))


@pytest.mark.parametrize("seat", [4, -1, "0", None.__class__, [0], True])
def test_a_bad_seat_is_an_illegal_action_in_every_seat_taking_method(seat):
    r = round_at("tenhou", 3, 5)
    for method in (r.legal_actions, r.observation, r.facts):
        with pytest.raises(IllegalAction, match="seat number from 0 to 3"):
            method(seat)


@pytest.mark.parametrize(
    "fields", [{"dealer": "x"}, {"dealer": True}, {"honba": 1.5}, {"scores": (1, "2", 3, 4)}, {"scores": 5}, {"round_wind": ["E"]}, {"first_round": 2}]
)
def test_round_setup_fields_of_the_wrong_type_are_invalid_requests(fields):
    with pytest.raises(InvalidRequest):
        Round(rulebook("tenhou"), RoundSetup(**fields), seed=1)


ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=TILE_CODES + 3),
    st.integers(),
    st.text(max_size=4),
    st.floats(allow_nan=True),
    st.lists(st.integers(min_value=-2, max_value=40), max_size=6),
)
TILE = st.integers(min_value=0, max_value=TILE_CODES - 1)
# most actions are well formed (so the rules themselves are asked); the rest carry anything in any field
WELL_FORMED = st.builds(
    Action,
    type=st.sampled_from(sorted(TYPES)),
    actor=st.integers(min_value=0, max_value=3),
    pai=st.none() | TILE,
    consumed=st.lists(TILE, max_size=4).map(tuple),
    target=st.none() | st.integers(min_value=0, max_value=3),
    tsumogiri=st.booleans(),
    open=st.booleans(),
)
ARBITRARY = st.builds(
    Action,
    type=st.one_of(st.sampled_from(sorted(TYPES)), ANYTHING),
    actor=ANYTHING,
    pai=ANYTHING,
    consumed=st.one_of(st.lists(ANYTHING, max_size=5).map(tuple), ANYTHING),
    target=ANYTHING,
    tsumogiri=ANYTHING,
    open=ANYTHING,
)


def _applies_or_is_illegal(name: str, seed: int, steps: int, actions: list[Action]) -> None:
    r = round_at(name, seed, steps)
    for action in actions:
        seat = action.actor if isinstance(action.actor, int) and not isinstance(action.actor, bool) else 0
        assert r.is_legal(seat, action) in (True, False)
        try:
            r.apply(action)
        except IllegalAction as exc:
            assert exc.code == "illegal_action" and exc.message


ROUNDS = dict(name=st.sampled_from(RULEBOOKS), seed=st.integers(0, 50), steps=st.integers(0, 60))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(**ROUNDS, actions=st.lists(st.one_of(WELL_FORMED, ARBITRARY), min_size=1, max_size=8))
def test_any_action_applies_or_raises_illegal_action(name, seed, steps, actions):
    _applies_or_is_illegal(name, seed, steps, actions)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(**ROUNDS, actions=st.lists(st.one_of(WELL_FORMED, ARBITRARY), min_size=1, max_size=20))
def test_any_action_applies_or_raises_illegal_action_long(name, seed, steps, actions):
    _applies_or_is_illegal(name, seed, steps, actions)


@pytest.mark.parametrize("fields", [{"seed": "x"}, {"seed": None}, {"seed": 1.5}, {"seed": True}, {"seed": 1, "agents": 5}, {"seed": 1, "agents": ["random"]}])
def test_the_game_api_refuses_a_bad_seed_or_agents_with_invalid_request(fields):
    from engine.api import Game

    with pytest.raises(InvalidRequest):
        Game(rulebook("tenhou_east"), **fields)
