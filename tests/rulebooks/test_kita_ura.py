"""A North set aside in three-player counts like a North in the hand for ura dora too: under a West ura indicator a
riichi winner's kita tiles are ura dora (riichienv's three-player Tenhou rules do this; before, only the dora
indicators counted them, and the riichienv oracle showed the difference)."""

from __future__ import annotations

import pytest

from engine.api import scorer

HAND = {"hand": "123p456p789s11z555z", "win": "5z", "tsumo": True, "seat_wind": "S", "riichi": True}


def _ura(name: str, **extra: object) -> int:
    result = scorer(name).score({**HAND, **extra})
    return sum(line.get("han", 0) for line in result["yaku"] if line["id"] == "ura_dora")


@pytest.mark.parametrize("name", ["sanma", "tenhou_sanma"])
def test_a_set_aside_north_is_ura_dora_under_a_west_ura_indicator(name: str) -> None:
    assert _ura(name, kita=2, ura_indicators="3z") == 2
    assert _ura(name, kita=2, ura_indicators="2z") == 0
    assert _ura(name, kita=0, ura_indicators="3z") == 0


def test_not_without_riichi() -> None:
    result = scorer("sanma").score({**HAND, "riichi": False, "kita": 1, "ura_indicators": "3z"})
    assert "ura_dora" not in {line["id"] for line in result["yaku"]}
