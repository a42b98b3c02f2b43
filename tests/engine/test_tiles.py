"""mpsz notation: what the contract accepts, what it prints, and where it points when the text is wrong."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.tiles import (
    NotationError,
    format_kind,
    format_tiles,
    is_red,
    kind_of,
    parse_tile,
    parse_tiles,
    wind_kind,
)
from tests.strategies import hands


def _key(code: int) -> tuple[int, bool]:
    return (kind_of(code), not is_red(code))


@settings(max_examples=300)
@given(hands(sizes=(1, 5, 13, 14)))
def test_format_then_parse_gives_the_same_tiles(codes):
    text = format_tiles(codes)
    assert sorted(parse_tiles(text), key=_key) == sorted(codes, key=_key)
    assert format_tiles(parse_tiles(text)) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("123m", [0, 1, 2]),
        ("6m7m8m", [5, 6, 7]),
        ("123m 456p,789s\t1z", [0, 1, 2, 12, 13, 14, 24, 25, 26, 27]),
        ("1234567z", [27, 28, 29, 30, 31, 32, 33]),
        ("0m0p0s", [34, 35, 36]),
        ("", []),
    ],
)
def test_parse(text, expected):
    assert parse_tiles(text) == expected


def test_red_fives_fold_onto_fives_and_print_as_zero():
    assert [kind_of(code) for code in parse_tiles("0m0p0s")] == [4, 13, 22]
    assert format_tiles(parse_tiles("505m")) == "055m"
    assert format_tiles(parse_tiles("5s0p1z9m")) == "9m0p5s1z"


def test_format_sorts_m_p_s_z_unless_asked_not_to():
    codes = parse_tiles("1z9s1m")
    assert format_tiles(codes) == "1m9s1z"
    assert format_tiles(codes, sort=False) == "1z9s1m"


def test_single_tiles_and_winds():
    assert parse_tile("7z") == 33
    assert parse_tile("0p") == 35
    assert format_kind(33) == "7z"
    assert [wind_kind(letter) for letter in "ESWN"] == [27, 28, 29, 30]


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("m", 0, "suit letter `m` at position 0 has no digits before it"),
        ("123mp", 4, "suit letter `p`"),
        ("12", 0, "digits at the end have no suit letter"),
        ("123m4", 4, "digits at the end have no suit letter"),
        ("12 3m", 0, "digits before position 2 have no suit letter"),
        ("1m 23 4p", 3, "digits before position 5 have no suit letter"),
        ("1x", 1, "unexpected character `x` at position 1"),
        ("12m!", 3, "unexpected character `!`"),
        ("\uff11m", 0, "unexpected character"),
        ("8z", 0, "honour `8z` at position 0 does not exist"),
        ("123z0z", 4, "honour `0z` at position 4 does not exist"),
        ("19m 9z", 4, "honour `9z`"),
    ],
)
def test_invalid_notation_points_at_the_offending_character(text, position, fragment):
    with pytest.raises(NotationError) as info:
        parse_tiles(text)
    assert info.value.code == "invalid_notation"
    assert info.value.position == position
    assert info.value.text == text
    assert fragment in info.value.message


def test_tiles_must_be_text():
    with pytest.raises(NotationError) as info:
        parse_tiles(123)  # type: ignore[arg-type]
    assert info.value.position == 0
    assert "string" in info.value.message


@pytest.mark.parametrize("text", ["", "12m", "1m 1p"])
def test_parse_tile_wants_exactly_one(text):
    with pytest.raises(NotationError) as info:
        parse_tile(text)
    assert info.value.position == 0
    assert "expected exactly one tile" in info.value.message


def test_notation_error_serialises_to_the_contract_shape():
    with pytest.raises(NotationError) as info:
        parse_tiles("9q")
    assert info.value.to_json() == {"code": "invalid_notation", "message": info.value.message}


@settings(max_examples=300, deadline=None)  # the twin below runs 3000 under -m slow
@given(st.text(alphabet="0123456789mpszx \t,", max_size=20))
def test_the_quick_reading_of_notation_reads_what_the_careful_reader_reads(text):
    """Notation read by its runs (``_parse_well_formed``: one translate a run) gives the careful reader's codes when
    the text is well formed, and None when the careful reader names a mistake (``8z``, a stray letter, digits
    without a suit)."""
    from ruledsl.tiles import _parse_checked, _parse_well_formed

    try:
        expected: tuple[int, ...] | None = tuple(_parse_checked(text))
    except NotationError:
        expected = None
    assert _parse_well_formed(text) == expected


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="0123456789mpszx \t,", max_size=20))
def test_the_quick_reading_of_notation_reads_what_the_careful_reader_reads_at_length(text) -> None:
    test_the_quick_reading_of_notation_reads_what_the_careful_reader_reads.hypothesis.inner_test(text)


def test_one_tile_and_the_translate_tables_agree_with_the_notation():
    """The tables the hand reader uses (``ONE_TILE``, ``SUIT_CODES``, ``KIND_BYTES``) read every tile as the
    notation does."""
    from ruledsl.tiles import KIND_BYTES, ONE_TILE, SUIT_CODES

    for text, code in ONE_TILE.items():
        assert parse_tile(text) == code
        assert text[0].encode().translate(SUIT_CODES[text[1]]) == bytes([code])
        assert KIND_BYTES[code] == kind_of(code)
    assert len(ONE_TILE) == 37
    assert all(KIND_BYTES[byte] >= 37 for byte in range(37, 256))


def _runs_read_one_by_one(text: str) -> tuple[bytes, bool]:
    """The reference of ``digit_run_codes``: each run found by the regular expression with its two groups and its
    digits translated in a Python loop (the loop the three readers of notation each wrote before)."""
    import re

    from ruledsl.tiles import SUIT_CODES

    runs = re.findall(r"([0-9]+)([mpsz])", text)
    codes = b""
    for digits, suit in runs:
        codes += digits.encode().translate(SUIT_CODES[suit])
    return codes, len(codes) + len(runs) == len(text)


@settings(max_examples=300, deadline=None)  # the twin below runs 3000 under -m slow
@given(st.text(alphabet="0123456789mpszx \t,٣", max_size=40))
def test_the_one_reader_of_digit_runs_reads_what_the_loop_read(text):
    """``digit_run_codes``, the helper the three readers of notation share, gives the codes and the coverage of the
    loop each wrote before, on texts with separators, stray letters, non-ASCII digits and runs of any length."""
    from ruledsl.tiles import digit_run_codes

    assert digit_run_codes(text) == _runs_read_one_by_one(text)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="0123456789mpszx \t,٣", max_size=40))
def test_the_one_reader_of_digit_runs_reads_what_the_loop_read_at_length(text) -> None:
    test_the_one_reader_of_digit_runs_reads_what_the_loop_read.hypothesis.inner_test(text)


@pytest.mark.parametrize("text", ["12\ud800m", "\ud8001m", "1m\udfff", "１m", "1m2p\u00e9", "ß1m"])
def test_digit_runs_of_text_that_is_not_ascii(text):
    """Text with a lone surrogate, a full-width digit or a letter outside ASCII: the same codes and coverage as
    the loop over the text itself (``digit_run_codes`` reads the text's ASCII bytes, anything else one ``?``)."""
    from ruledsl.tiles import digit_run_codes

    assert digit_run_codes(text) == _runs_read_one_by_one(text)


