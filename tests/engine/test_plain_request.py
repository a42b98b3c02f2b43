"""Requests read without pydantic: the written-out field table agrees with the contract's models, and scoring a
plain request never imports pydantic (it is a tenth of a second of start-up for ``riichi score --json``)."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from engine.scoring.plain_request import REQUEST_FIELDS, checking_reader, fields_of, plain_request
from engine.scoring.request import ScoreRequest, parse_request
from tests.peer_oracle import random_requests


def test_the_field_table_is_the_contract_models():
    assert fields_of(ScoreRequest) == REQUEST_FIELDS


@pytest.mark.parametrize(
    "data",
    [
        {"hand": "123m456p789s11z22z", "win": "2z"},
        {"hand": "123m456p789s11z22z", "win": "2z", "melds": [], "rulebook": None, "seat_wind": "S", "honba": 3},
        {"hand": "123m456p789s22z", "win": "2z", "melds": [{"type": "pon", "tiles": "111z"}], "tsumo": True},
    ],
)
def test_a_plain_request_reads_as_pydantic_would(data):
    read = plain_request(data)
    assert read is not None
    assert {k: getattr(read, k) for k in ScoreRequest.model_fields if k != "melds"} == parse_request(data).model_dump(exclude={"melds"})


@pytest.mark.parametrize(
    "data",
    [
        {"hand": "123m", "win": "1m", "tsumo": 1},  # pydantic would coerce
        {"hand": "123m", "win": "1m", "honba": True},
        {"hand": "123m", "win": "1m", "kita": 5},  # out of range
        {"hand": "123m", "win": "1m", "seat_wind": "X"},
        {"hand": "123m", "win": "1m", "extra": 1},
        {"hand": "123m"},
        {"hand": "123m", "win": "1m", "melds": [{"type": "pon"}]},
        {"hand": "123m", "win": "1m", "melds": [{"type": "pung", "tiles": "111z"}]},
        ["not", "an", "object"],
    ],
)
def test_anything_else_goes_to_pydantic(data):
    assert plain_request(data) is None


def test_scoring_plain_requests_never_imports_pydantic():
    code = (
        "import sys; from engine.scoring.library import scorer; import engine.cli.score; "
        "r = scorer('house').score({'hand': '234m567m789p46s88p5s', 'win': '5s', 'riichi': True}); "
        "print(r['total'], 'pydantic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["2000", "False"]


def _mutations(rng: random.Random, data: dict) -> list[object]:
    """Objects near a request: each a key dropped, a value of another type or out of its range, an unknown key,
    a meld broken, keys in another order."""
    out: list[object] = [dict(reversed(list(data.items())))]
    for key in list(data):
        out.append({k: v for k, v in data.items() if k != key})
        for value in (None, True, 1, 1000, 1001, -1, 5, "E", "X", "", 1.0, [], [{}], {"a": 1}):
            out.append({**data, key: value})
    out.append({**data, "extra": 1})
    out.append({**data, "kita": rng.randint(-1, 5), "liable": rng.choice(["E", "Q", None])})
    out.append({**data, "melds": [{"type": "pon", "tiles": 111}]})
    out.append({**data, "melds": [{"type": "pung", "tiles": "111z"}]})
    out.append({**data, "melds": [{"tiles": "111z", "type": "ankan", "x": None}]})
    out.append({**data, "melds": ({"type": "pon", "tiles": "111z"},)})
    return out


def test_the_reader_decides_per_signature_as_the_written_out_test_does():
    """``plain_request`` keeps per signature (keys and value types) what is left to check; on requests and
    thousands of objects near them it takes exactly what the key-by-key test takes, with the same values."""
    rng = random.Random(7)
    plain = checking_reader(REQUEST_FIELDS)
    taken = 0
    for data in random_requests(20260302, 200):
        for candidate in [data, *_mutations(rng, data)]:
            read = plain_request(candidate)
            assert (read is not None) == plain(candidate), candidate
            if read is not None:
                taken += 1
                expected = {**REQUEST_FIELDS.defaults, "melds": [], **candidate}
                expected["from_"] = expected.pop("from")
                assert read.__dict__ == expected
    assert taken > 2000
