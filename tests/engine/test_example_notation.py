"""The example mini-notation of rulebook `example` lines: every word read into the request, every mistake a clear
`InvalidRequest` naming the word (a rulebook is untrusted input)."""

from __future__ import annotations

import pytest

from engine.core.errors import InvalidRequest
from engine.scoring.example_notation import request_from_example


def test_every_kind_of_word_is_read() -> None:
    text = "234p678p34s88m2s ankan 1111m pon 777z win 2s tsumo seat S round W riichi ippatsu dora 4s ura 1z honba 2 sticks 1 kita 0"
    assert request_from_example(text) == {
        "hand": "234p678p34s88m2s",
        "melds": [{"type": "ankan", "tiles": "1111m"}, {"type": "pon", "tiles": "777z"}],
        "win": "2s",
        "tsumo": True,
        "seat_wind": "S",
        "round_wind": "W",
        "riichi": True,
        "ippatsu": True,
        "dora_indicators": "4s",
        "ura_indicators": "1z",
        "honba": 2,
        "riichi_sticks": 1,
        "kita": 0,
    }


def test_ron_and_dealer() -> None:
    assert request_from_example("123m win 1m ron dealer") == {
        "hand": "123m", "melds": [], "win": "1m", "tsumo": False, "seat_wind": "E",
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "an example needs at least the hand's tiles"),
        ("123m win", "`win` needs a value after it"),
        ("123m win 1m pon", "`pon` needs a value after it"),
        ("123m win 1m honba two", "`honba` needs a number, got `two`"),
        ("123m win 1m sticks -1", "`sticks` needs a number, got `-1`"),
        ("123m win 1m rich", "unknown word `rich` in example"),
        ("123m tsumo riichi", "an example needs `win TILE`"),
    ],
)
def test_mistakes_are_clear_errors(text: str, message: str) -> None:
    with pytest.raises(InvalidRequest) as info:
        request_from_example(text)
    assert info.value.message == message
