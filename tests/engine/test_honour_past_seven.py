"""A fourteen-tile hand written with an honour past ``7z`` (``8z``, ``9z``, ``0z``): a notation mistake, named as
such by every way a request is read, never an engine failure."""

from __future__ import annotations

import pytest

from engine.core.hand import allowed_codes, hand_of_parts
from engine.scoring.library import scorer


@pytest.mark.parametrize("digit", "890")
def test_the_one_pass_reader_leaves_an_honour_past_seven_to_the_long_way(digit: str) -> None:
    assert hand_of_parts(f"123m456p789s11{digit * 3}z", "1z", [], allowed_codes(None, None), 4) is None


@pytest.mark.parametrize("digit", "890")
@pytest.mark.parametrize("extra", [{}, {"dora_indicators": "1m"}, {"melds": [{"type": "pon", "tiles": "777z"}]}])
def test_a_request_with_an_honour_past_seven_is_a_notation_error(digit: str, extra: dict) -> None:
    concealed = f"123m456p789s11{digit * 3}z" if "melds" not in extra else f"123m456p11{digit * 3}z"
    answer = scorer("house").score_json({"hand": concealed, "win": "1z", **extra})
    assert answer["ok"] is False
    assert answer["error"]["code"] == "invalid_notation"
    assert f"`{digit}z`" in answer["error"]["message"]
