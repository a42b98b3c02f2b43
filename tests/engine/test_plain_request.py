"""Requests read without pydantic: the written-out field table agrees with the contract's models, and scoring a
plain request never imports pydantic (it is a tenth of a second of start-up for ``riichi score --json``)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from engine.scoring.plain_request import REQUEST_FIELDS, fields_of, plain_request
from engine.scoring.request import ScoreRequest, parse_request


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
