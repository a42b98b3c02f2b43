"""``engine.round.actions``: the one move vocabulary that legality, logs, agents and the JSON output share.

Its JSON form is what `riichi play --mjai` writes and the web page shows, and its text is what an ``IllegalAction``
message quotes, so each field appears exactly when it means something (a dahai always says whether it was the drawn
tile; a call names its source seat, a tsumo does not repeat the actor) and a move built by hand compares equal to
the one ``legal_actions`` offers.
"""

from __future__ import annotations

import pytest

from engine.core import tiles as T
from engine.round import Action, IllegalAction, Round, RoundSetup, round_rules
from engine.round.actions import DECLARATIONS, OWN_TURN, RESPONSES, TYPES, sorted_tiles
from engine.scoring.library import scorer
from ruledsl import record


def tile(text: str) -> int:
    return T.parse_tile(text)


def test_a_chi_names_its_tiles_and_the_seat_called_from() -> None:
    chi = Action("chi", 1, tile("3m"), (tile("4m"), tile("0m")), target=0)
    assert chi.to_json() == {"type": "chi", "actor": 1, "pai": "3m", "consumed": ["4m", "0m"], "target": 0}
    assert str(chi) == "chi seat 1 3m with 40m from seat 0"


def test_a_discard_always_says_whether_it_was_the_drawn_tile() -> None:
    assert Action("dahai", 2, tile("7z")).to_json() == {"type": "dahai", "actor": 2, "pai": "7z", "tsumogiri": False}
    assert Action("dahai", 2, tile("7z"), tsumogiri=True).to_json()["tsumogiri"] is True
    # only a discard carries the flag: a call or a win never has one, even if set by mistake
    assert "tsumogiri" not in Action("pon", 2, tile("7z"), (tile("7z"), tile("7z")), target=1).to_json()


def test_a_move_without_a_tile_is_just_its_type_and_seat() -> None:
    for kind in ("reach", "none", "ryukyoku", "tenpai", "noten"):
        action = Action(kind, 3)
        assert action.to_json() == {"type": kind, "actor": 3}
        assert str(action) == f"{kind} seat 3"


def test_an_open_riichi_says_so_and_a_closed_one_does_not() -> None:
    assert Action("reach", 0, open=True).to_json() == {"type": "reach", "actor": 0, "open": True}
    assert str(Action("reach", 0, open=True)) == "reach seat 0 open"
    assert "open" not in Action("reach", 0).to_json()


def test_a_tsumo_does_not_name_its_own_seat_as_a_source_but_a_ron_names_the_discarder() -> None:
    tsumo = Action("hora", 1, tile("5p"), target=1)
    ron = Action("hora", 1, tile("5p"), target=3)
    assert str(tsumo) == "hora seat 1 5p"
    assert str(ron) == "hora seat 1 5p from seat 3"
    assert tsumo.to_json()["target"] == 1 and ron.to_json()["target"] == 3


def test_sorted_tiles_orders_by_kind_with_the_red_five_first() -> None:
    five, red = tile("5p"), tile("0p")
    assert red >= T.RED_BASE > five
    assert sorted_tiles([five, red, five]) == (red, five, five)
    assert sorted_tiles([tile("6m"), tile("5m"), tile("0m"), tile("4m")]) == (tile("4m"), tile("0m"), tile("5m"), tile("6m"))
    assert sorted_tiles([]) == ()


def test_actions_are_values_equal_when_their_fields_are() -> None:
    a = Action("pon", 2, tile("1z"), (tile("1z"), tile("1z")), target=0)
    assert a == Action("pon", 2, tile("1z"), (tile("1z"), tile("1z")), target=0)
    assert a != record.replace(a, target=1)
    assert len({a, record.replace(a)}) == 1
    with pytest.raises(record.FrozenRecordError):
        a.actor = 3  # type: ignore[misc]


def test_the_type_sets_partition_own_turn_responses_and_declarations() -> None:
    assert TYPES == OWN_TURN | RESPONSES | DECLARATIONS
    assert OWN_TURN & RESPONSES == {"hora"}  # a tsumo and a ron share mjai's name
    assert not DECLARATIONS & (OWN_TURN | RESPONSES)


def test_every_offered_move_is_of_a_known_type_and_survives_its_json() -> None:
    r = Round(round_rules(scorer("house")), RoundSetup(dealer=0), seed=11)
    seen = 0
    while not r.finished and seen < 200:
        seat = r.waiting()[0]
        offered = r.legal_actions(seat)
        for action in offered:
            assert action.type in TYPES
            data = action.to_json()
            assert data["type"] == action.type and data["actor"] == seat
            if action.pai is not None:
                assert T.parse_tile(data["pai"]) == action.pai
        r.apply(offered[-1])
        seen += 1
    assert seen > 0


def test_a_move_built_by_hand_is_legal_exactly_when_offered() -> None:
    r = Round(round_rules(scorer("house")), RoundSetup(dealer=0), seed=3)
    seat = r.waiting()[0]
    discard = next(a for a in r.legal_actions(seat) if a.type == "dahai")
    copy = Action("dahai", seat, discard.pai, tsumogiri=discard.tsumogiri)
    with pytest.raises(IllegalAction):
        r.apply(Action("dahai", (seat + 1) % 4, discard.pai))  # someone else's turn
    with pytest.raises(IllegalAction, match="engine.round.Action"):
        r.apply({"type": "dahai", "actor": seat})  # type: ignore[arg-type]
    r.apply(copy)
    assert r.seats[seat].discards[-1] == discard.pai


def test_the_quick_yes_of_the_shape_check_is_the_field_by_field_check() -> None:
    """``shape_problem`` says yes at once to a move whose fields have their exact types and ranges; on moves built
    from odd values of every field (bools for ints, floats, subclasses, out-of-range codes, lists for tuples,
    too many tiles) it gives exactly what the field-by-field check gives."""
    import random

    from engine.round.actions import shape_problem, shape_problem_checked

    class Int(int):
        pass

    class Str(str):
        pass

    ints = [0, 1, 3, 4, -1, 36, 37, 5.0, True, False, Int(2), None, "1", 2**80]
    types = ["dahai", "chi", "pon", "none", "hora", "reach", "tenpai", "nope", Str("pon"), 3, None]
    consumed = [(), (1, 2), [1, 2], (1, 2, 3, 4, 5), (True, 2), (1.0,), (Int(3),), (40,), "12", None, (0, 36)]
    flags = [False, True, 0, 1, None]
    rng = random.Random(5)
    quick = 0
    for _ in range(20000):
        action = Action.__new__(Action)
        odd = rng.random() < 0.5  # else every field but one plain, so that most moves are near the quick yes
        plain = {"type": "pon", "actor": 1, "pai": 5, "consumed": (5, 5), "target": 0, "tsumogiri": False, "open": False}
        pools = {"type": types, "actor": ints, "pai": ints, "consumed": consumed, "target": ints, "tsumogiri": flags, "open": flags}
        changed = rng.choice(list(pools))
        for name, pool in pools.items():
            object.__setattr__(action, name, rng.choice(pool) if odd or name == changed else plain[name])
        players = rng.choice((3, 4))
        assert shape_problem(action, players) == shape_problem_checked(action, players)
        quick += shape_problem_checked(action, players) is None
    assert quick > 2000
