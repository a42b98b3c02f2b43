"""A request read by its shape (``RequestReader.read_shaped``: one pass over a plain object whose signature is known,
its situation kept per shape) gives exactly the inputs, or raises exactly the error, of the field-by-field reading
(``RequestReader.read_checked``), on generated requests and on objects near them: wrong types, values out of range,
unknown keys, broken melds, bad notation, keys in another order."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.hand import kept_meld
from engine.scoring.library import scorer
from engine.scoring.plain_request import shape_of
from engine.scoring.score import Scorer
from tests.engine.test_plain_request import _mutations
from tests.outcomes import CLEAN_CODES
from tests.peer_oracle import random_requests


def _outcome(read: Any, data: Any) -> Any:
    try:
        return ("inputs", read(data))
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return ("error", type(exc).__name__, getattr(exc, "code", None), str(exc))


def _near(rng: random.Random, data: dict[str, Any]) -> list[Any]:
    """Objects near a request, as the plain reader's tests make them, and notation gone wrong."""
    out = _mutations(rng, data)
    for key in ("hand", "win", "dora_indicators", "ura_indicators"):
        out += [{**data, key: text} for text in ("1x", "99z", "0z", "5m5m5m5m5m", "1m 2m", "")]
    hand = data.get("hand")
    if isinstance(hand, str) and len(hand) > 2:  # a tile that does not exist in place of the hand's last one
        out += [{**data, "hand": hand[:-2] + f"{digit}z"} for digit in "890"]
    out.append({**data, "melds": [{"type": "pon", "tiles": "777z"}] * 5})
    out.append({**data, "melds": [{"type": "chi", "tiles": "135m"}]})
    out.append({**data, "melds": [["pon", "777z"]]})
    out.append({**data, "honba": 1000, "kita": 4, "riichi_sticks": 1000, "dealer_consecutive_wins": 1000})
    out.append({**data, "seat_wind": "W", "round_wind": "N", "double_riichi": True, "riichi": False})
    return out


def _check(s: Scorer, objects: list[Any]) -> int:
    """Compare both readings of every object (each read twice by shape: kept situations and melds then); the number
    of objects the shape read took."""
    reader = s.inputs
    taken = 0
    for data in objects:
        for _ in range(2):
            expected = _outcome(reader.read_checked, data)
            assert expected[0] == "inputs" or expected[2] in CLEAN_CODES, (data, expected)  # a bug is never alike
            assert _outcome(reader.read, data) == expected, data
        shape = shape_of(data) if type(data) is dict else None
        if shape is not None and reader.read_shaped(shape, data) is not None:
            taken += 1
    return taken


def test_generated_requests_and_objects_near_them_read_alike() -> None:
    rng = random.Random(11)
    objects: list[Any] = []
    for data in random_requests(20260303, 120):
        objects += [data, *_near(rng, data)]
    assert _check(scorer("house"), objects) > 1000


def test_shapes_holding_no_one_or_several_situation_fields_read_alike() -> None:
    """A shape's situation values are a tuple for several fields and the value itself for one (``Shape.one_value``):
    each way, and none at all, gives the situation of the careful reading."""
    base = {"hand": "123m456p789s11z555m", "win": "1z", "dora_indicators": "1m"}
    objects: list[Any] = [
        base, {**base, "tsumo": True}, {**base, "seat_wind": "S"}, {**base, "honba": 3}, {**base, "double_riichi": True},
        {**base, "tsumo": True, "seat_wind": "W"}, {**base, "double_riichi": True, "riichi": False, "honba": 2},
    ]
    assert _check(scorer("house"), objects) == len(objects)


def test_shapes_read_alike_under_other_tile_sets() -> None:
    """A three-player rulebook lacks 2m..8m and counts North tiles set aside: the shape reads its hands as the
    careful reading does, rejections included."""
    rng = random.Random(12)
    objects: list[Any] = []
    for data in random_requests(20260304, 60):
        objects += [data, *_near(rng, data)[:20], {**data, "kita": 1}]
    _check(scorer("sanma"), objects)


def test_a_meld_is_read_as_build_hand_reads_it() -> None:
    from engine.core.hand import build_hand

    built = build_hand("456789m33666z", [("pon", "777z")], "3z")
    assert kept_meld("pon", "777z") == built.melds[0]
    assert kept_meld("chi", "0m34m") == build_hand("123456789p33m", [("chi", "0m34m")], "3m").melds[0]
    assert kept_meld("chi", "0m34m") is kept_meld("chi", "0m34m")  # kept
    assert kept_meld("pon", 777) is None and kept_meld(None, "777z") is None and kept_meld("pung", "777z") is None
    assert kept_meld("chi", "135m") is None and kept_meld("pon", "7z7z") is None and kept_meld("pon", "88z") is None


def test_liability_and_unknown_keys_have_no_shape() -> None:
    base = {"hand": "456789m33666z", "win": "3z"}
    assert shape_of({**base, "liable": "S"}) is None and shape_of({**base, "from": None}) is None
    assert shape_of({**base, "extra": 1}) is None and shape_of({"hand": "1m"}) is None
    shape = shape_of({**base, "honba": 2})
    assert shape is not None and shape.situation_names == ("honba",)
    assert shape_of(base) is not None


_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 1002), st.sampled_from(["E", "S", "W", "N", "X", "", "1m", "777z"]), st.floats(0, 3)
)
_KEYS = st.sampled_from(["tsumo", "riichi", "double_riichi", "ippatsu", "seat_wind", "round_wind", "kita", "honba", "riichi_sticks", "dora_indicators", "rulebook", "melds", "x"])


@settings(max_examples=300, deadline=None)
@given(index=st.integers(0, 59), changes=st.lists(st.tuples(_KEYS, _VALUES), max_size=4), reverse=st.booleans())
def test_random_changes_read_alike(index: int, changes: list[tuple[str, Any]], reverse: bool) -> None:
    data = dict(_REQUESTS[index])
    for key, value in changes:
        data[key] = value
    if reverse:
        data = dict(reversed(list(data.items())))
    _check(scorer("house"), [data, json.loads(json.dumps(data))])


_REQUESTS = random_requests(20260305, 60)


@settings(max_examples=300, deadline=None)  # the twin below runs 3000 under -m slow
@given(st.text(alphabet="0123456789mpszx \t,", min_size=1, max_size=20))
def test_indicators_read_without_the_notation_cache_read_as_the_notation_does(text: str) -> None:
    """A request's indicators read by ``inputs.indicator_codes`` (one plain tile or several, by their
    digit runs) give exactly ``tile_codes``'s codes, or raise exactly its error."""
    from engine.core.tiles import tile_codes
    from engine.scoring.inputs import indicator_codes

    assert _outcome(indicator_codes, text) == _outcome(tile_codes, text)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="0123456789mpszx \t,", min_size=1, max_size=20))
def test_indicators_read_without_the_notation_cache_read_as_the_notation_does_at_length(text: str) -> None:
    test_indicators_read_without_the_notation_cache_read_as_the_notation_does.hypothesis.inner_test(text)
