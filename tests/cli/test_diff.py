"""`riichi diff`: every difference the seeds state between house and wrc2025, each scoring one on a real hand."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from engine.cli import main
from engine.scoring.library import scorer
from tests.rulebook_params import bundled_params

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def _run(capsys, *args: str) -> tuple[int, str]:
    code = main(["diff", *args])
    return code, capsys.readouterr().out


@pytest.fixture(scope="module")
def house_wrc2025_json() -> str:
    """``riichi diff house wrc2025 --json`` run once for the tests that read its report (a run costs seconds)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["diff", "house", "wrc2025", "--json"]) == 1
    return out.getvalue()


def test_house_wrc2025_text_is_golden(capsys):
    code, out = _run(capsys, "house", "wrc2025")
    assert code == 1
    golden = GOLDEN / "diff_house_wrc2025.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


def test_house_wrc2025_lists_every_difference_the_seeds_state(house_wrc2025_json):
    out = house_wrc2025_json
    report = json.loads(out)
    items = {c["item"] for c in report["changes"]}
    stated = {
        "setting start_points",  # 000 L237
        "setting red_fives",  # L238
        "limit kiriage",  # L240
        "setting multiple_ron",  # L241
        "abortive_draw kyuushu_kyuuhai",  # L242
        "abortive_draw suufon_renda",
        "abortive_draw suucha_riichi",
        "abortive_draw suukaikan",
        "abortive_draw sanchahou",
        "draw nagashi_mangan",  # L243
        "fu value_pair",  # L244
        "setting min_points",  # L245
        "setting min_wall",
        "setting temporary_release",  # L246
        "setting thirteen_orphans_robs_closed_kan",  # L247
        "liability pao",  # L248
        "exception kokushi_13",  # L249
        "exception suuankou_tanki",
        "exception junsei_chuuren",
        "setting bust_ends_game",  # L250
        "setting leftover_sticks",  # L251
    }
    assert stated <= items


def test_every_scoring_witness_is_verified(house_wrc2025_json):
    out = house_wrc2025_json
    report = json.loads(out)
    a, b = scorer("house"), scorer("wrc2025")
    witnessed = [c for c in report["changes"] if c["witness"] is not None]
    assert {c["item"] for c in witnessed} >= {
        "setting red_fives",
        "limit kiriage",
        "fu value_pair",
        "exception kokushi_13",
        "exception suuankou_tanki",
        "exception junsei_chuuren",
        "yakuman daisuushii",
    }
    for change in witnessed:
        request = change["witness"]["request"]
        assert a.score_json(request) == change["witness"]["a"]
        # a red five only A has is scored under B as the same hand with a plain five
        assert b.score_json(change["witness"].get("request_b", request)) == change["witness"]["b"]
        assert change["witness"]["a"] != change["witness"]["b"]
    for change in report["changes"]:
        if not change["affects_score"]:
            assert change["witness"] is None
    assert report["searched"] > 1000


def test_kiriage_witness_is_the_four_han_thirty_fu_cell(house_wrc2025_json):
    out = house_wrc2025_json
    change = next(c for c in json.loads(out)["changes"] if c["item"] == "limit kiriage")
    assert (change["witness"]["a"]["total"], change["witness"]["b"]["total"]) == (7700, 8000)


@pytest.mark.parametrize("name", bundled_params())
def test_diff_of_a_rulebook_with_itself_is_empty(capsys, name):
    code, out = _run(capsys, name, name, "--json")
    assert code == 0
    assert json.loads(out)["changes"] == []


def test_markdown_form(capsys):
    code, out = _run(capsys, "house", "mleague", "--format", "md", "--hands", "200")
    assert code == 1
    assert out.startswith("# Rule differences: `house` and `mleague`")
    assert "| `limit kazoe` |" in out


def test_unknown_rulebook_is_trouble(capsys):
    assert main(["diff", "house", "nosuch"]) == 2
    assert "unknown rulebook" in capsys.readouterr().err
