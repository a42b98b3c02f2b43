"""The situation flags have one source, ``engine.situation.Situation``; every other list must agree with it.

Where a list cannot be derived (the pydantic model, whose annotations make the contract's JSON Schema, and the
example words of the rule language, which cannot import the engine), these tests hold it equal instead.
"""

from __future__ import annotations

from engine.cli import score as score_cli
from engine.example_notation import FLAG_WORDS, request_from_example
from engine.plain_request import REQUEST_FIELDS
from engine.request import ScoreRequest
from engine.situation import COUNTER_FIELDS, FLAG_FIELDS, SITUATION_DEFAULTS, SITUATION_FIELDS, WIND_FIELDS


def test_the_groups_cover_every_field_once() -> None:
    assert sorted(FLAG_FIELDS + WIND_FIELDS + COUNTER_FIELDS) == sorted(SITUATION_FIELDS)
    assert "tsumo" in FLAG_FIELDS and "renhou" in FLAG_FIELDS and WIND_FIELDS == ("seat_wind", "round_wind")


def test_score_request_has_the_situation_fields_in_order_with_their_defaults() -> None:
    fields = ScoreRequest.model_fields
    assert [name for name in fields if name in SITUATION_DEFAULTS] == list(SITUATION_FIELDS)
    assert {name: fields[name].default for name in SITUATION_FIELDS} == SITUATION_DEFAULTS


def test_plain_reader_takes_every_flag() -> None:
    assert REQUEST_FIELDS.bools == frozenset(FLAG_FIELDS)
    assert set(REQUEST_FIELDS.choices) == set(WIND_FIELDS) and set(REQUEST_FIELDS.ints) == set(COUNTER_FIELDS)


def test_example_words_and_cli_flags_are_the_flags_but_tsumo() -> None:
    others = tuple(name for name in FLAG_FIELDS if name != "tsumo")
    assert FLAG_WORDS == others
    assert score_cli.FLAGS == others
    for word in others:
        assert request_from_example(f"123m456m789m11p222z win 2z {word}")[word] is True


def test_the_witness_search_counts_every_flag_but_tsumo() -> None:
    from engine import witness

    assert witness.FLAG_FIELDS == tuple(name for name in FLAG_FIELDS if name != "tsumo")
    assert "open_riichi" in witness.FLAG_FIELDS and "discarder_in_riichi" in witness.FLAG_FIELDS
