"""``Scorer.score_hand``: the entry for tiles held as codes answers exactly what ``score`` answers."""

from __future__ import annotations

import pytest

from engine.core import tiles as T
from engine.core.errors import EngineError
from engine.scoring.library import scorer
from engine.scoring.request import Situation
from engine.scoring.score import plain_request, situation_of
from tests.peer_oracle import random_requests


def _score_hand(s, request):
    q = plain_request(request)
    hand = s.build_hand(q)
    dora = T.tile_codes(q.dora_indicators) if q.dora_indicators else ()
    ura = T.tile_codes(q.ura_indicators) if q.ura_indicators else ()
    return s.score_hand(hand, situation_of(q), dora, ura)


def _answer(call):
    try:
        return call()
    except EngineError as exc:
        return {"ok": False, "error": exc.to_json()}


def test_score_hand_answers_like_score_on_random_hands():
    s = scorer("house")
    for request in random_requests(777, 600):
        expected = s.score_json(request)
        if not expected["ok"] and expected["error"]["code"] in ("invalid_hand", "invalid_notation"):
            continue  # no hand to build
        assert _answer(lambda r=request: _score_hand(s, r)) == expected, request


def test_score_hand_checks_the_situation():
    s = scorer("house")
    hand = s.build_hand(plain_request({"hand": "234m567m789p46s88p5s", "win": "5s"}))
    with pytest.raises(EngineError) as err:
        s.score_hand(hand, Situation(ippatsu=True))
    assert err.value.code == "invalid_situation"
    assert s.score_hand(hand, Situation(riichi=True, seat_wind="S"), (T.parse_tile("4s"),))["total"] == 2600


@pytest.mark.parametrize(
    "hand, situation, dora, code",
    [
        ("not a hand", Situation(), (), "invalid_request"),
        (None, Situation(), (), "invalid_request"),
        ("HAND", {"tsumo": True}, (), "invalid_request"),
        ("HAND", Situation(), ("5s",), "invalid_request"),
        ("HAND", Situation(), (99,), "invalid_request"),
        ("HAND", Situation(), 5, "invalid_request"),
        ("HAND", Situation(), (1, 2, 3, 4, 5, 6), "invalid_situation"),
    ],
)
def test_score_hand_rejects_bad_input_with_a_code(hand, situation, dora, code):
    s = scorer("house")
    if hand == "HAND":
        hand = s.build_hand(plain_request({"hand": "234m567m789p46s88p5s", "win": "5s"}))
    with pytest.raises(EngineError) as err:
        s.score_hand(hand, situation, dora)
    assert err.value.code == code


@pytest.mark.parametrize("fields", [{"seat_wind": "X"}, {"honba": -1}, {"tsumo": 1}, {"kita": True}, {"riichi": "yes"}])
def test_a_situation_checks_its_fields_when_built(fields):
    with pytest.raises(EngineError) as err:
        Situation(**fields)
    assert err.value.code == "invalid_request"


def test_a_hand_from_tile_codes_is_the_hand_from_notation():
    s = scorer("house")
    codes = s.hand([1, 2, 3, 4, 5, 6, 15, 16, 17, 21, 23, 16, 16, 22], win=22, melds=())
    text = s.hand("234m567m789p46s88p5s", win="5s")
    assert codes == text
    opened = s.hand([1, 2, 3, 4, 5, 6, 15, 16, 17, 16, 16], win=16, melds=[("pon", [27, 27, 27])])
    assert opened == s.hand("234m567m789p88p", win="8p", melds=[("pon", "111z")])


@pytest.mark.parametrize("concealed, win", [([1, 2, "x"], 1), ([99], 99), (5, 5), (None, 1), ("234m567m789p46s88p5s", 99), ("234m567m789p46s88p5s", True)])
def test_tile_codes_of_the_wrong_kind_are_invalid_hands(concealed, win):
    with pytest.raises(EngineError) as err:
        scorer("house").hand(concealed, win=win)
    assert err.value.code == "invalid_hand"


def test_a_hand_built_under_another_tile_set_is_refused():
    house, nored = scorer("house"), scorer("tenhou_nored")
    red = house.hand("234m067m789p46s88p5s", win="5s")
    with pytest.raises(EngineError) as err:
        nored.score_hand(red, Situation(riichi=True))
    assert err.value.code == "invalid_hand"
    assert nored.score_hand(nored.hand("234m567m789p46s88p5s", win="5s"), Situation(riichi=True))["ok"]
