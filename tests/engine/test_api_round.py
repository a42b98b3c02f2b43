"""The embedding API hands out the round and game objects beside the scorer, without loading them for scoring."""

from __future__ import annotations

import subprocess
import sys

import pytest

import engine.api as api
from engine.core.errors import EngineError


def test_a_round_is_played_to_its_settlement_through_the_api():
    r = api.Round(api.rulebook("house"), api.RoundSetup(dealer=0), seed=7)
    while not r.finished:
        seat = r.waiting()[0]
        r.apply(r.legal_actions(seat)[-1])
    settlement = r.settlement
    assert settlement["kind"] in ("win", "exhaustive", "abortive")
    assert len(settlement["deltas"]) == 4


def test_an_illegal_action_is_refused_with_its_code():
    r = api.Round(api.rulebook("house"), api.RoundSetup(dealer=0), seed=7)
    seat = r.waiting()[0]
    other = (seat + 1) % 4
    with pytest.raises(api.IllegalAction) as info:
        r.apply(api.Action("dahai", other, pai=0))
    assert isinstance(info.value, EngineError) and info.value.code == "illegal_action"


def test_a_game_result_comes_back_through_the_api():
    result = api.Game(api.rulebook("tenhou"), seed=1, agents="shanten").play()
    data = result if isinstance(result, dict) else result.model_dump()
    assert sum(data["final_points"]) == 4 * 25000  # leftover sticks go to first place under tenhou
    assert data["ended_by"] in ("last_round", "bust", "agari_yame", "tenpai_yame", "extension")


def test_unknown_names_are_an_attribute_error():
    with pytest.raises(AttributeError):
        api.NoSuchThing  # noqa: B018


def test_scoring_alone_does_not_import_the_round_engine():
    code = "import engine.api, sys; engine.api.scorer('house'); print('engine.round' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"
