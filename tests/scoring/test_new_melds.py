"""A new meld of a request (``engine.core.hand.kept_meld``) is made with its fields set at once (``_new_meld``):
the very ``Meld`` the record's constructor makes (equal, same hash, text and properties), and a meld read so is
the one ``build_hand`` reads from the same notation; a notation that is no meld is None, as before."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.core import hand as H
from engine.core.errors import EngineError
from engine.core.hand import MELD_TYPES, Meld, build_hand, kept_meld


def _texts() -> list[str]:
    """Meld notation of every shape, well formed or not: runs of one suit, honours, red fives, odd lengths."""
    rng = random.Random(5)
    found = ["123m", "789s", "345p", "777z", "5550m", "0555p", "4444p", "1111z", "12m", "1234m", "111z2z", "8z88z", "135m", "x", ""]
    for _ in range(300):
        suit = rng.choice("mpsz")
        digits = "".join(rng.choice("0123456789" if suit != "z" else "1234567") for _ in range(rng.choice((3, 3, 4, 2, 5))))
        found.append(digits + suit)
    return found


def test_a_meld_made_with_its_fields_at_once_is_the_one_its_constructor_makes():
    for meld_type, tiles in itertools.product(MELD_TYPES, [(0, 1, 2), (33, 33, 33), (12, 12, 12, 12), (34, 4, 4)]):
        made, built = H._new_meld(meld_type, tiles), Meld(meld_type, tiles)
        assert type(made) is Meld
        assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
        assert vars(made) == vars(built)
        assert made.kinds == built.kinds and made.code_bytes == built.code_bytes and made.is_kan == built.is_kan


@pytest.mark.parametrize("meld_type", MELD_TYPES)
def test_a_request_meld_read_anew_is_the_meld_build_hand_reads(meld_type: str):
    for text in _texts():
        H._MELDS.clear()
        found = kept_meld(meld_type, text)
        H._MELDS.clear()
        try:
            expected = H._parse_meld((meld_type, text), 0)
        except EngineError:
            expected = None
        assert found == expected, (meld_type, text)
        if found is not None:
            assert type(found) is Meld and repr(found) == repr(expected)


def test_a_hand_with_a_meld_read_anew_scores_as_one_read_by_build_hand():
    H._MELDS.clear()
    meld = kept_meld("pon", "777z")
    assert meld is not None
    built = build_hand("123m456p789s11z", [("pon", "777z")], "1z")
    assert built.melds == (meld,)
    assert kept_meld("pong", "777z") is None and kept_meld("pon", 777) is None
