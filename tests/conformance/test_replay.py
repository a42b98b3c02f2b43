"""`riichi replay` over the real logs: every round (wins, draws, payments, honba, sticks) as the log has it."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from tests.spec_files import TENHOU


def _replay(capsys, *args: str) -> tuple[int, dict]:
    code = main(["replay", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture(autouse=True)
def _need_data():
    if not TENHOU.exists():
        pytest.skip("shared Tenhou data not available")


def test_all_mjlog_rounds_match_under_the_logs_rules(capsys):
    code, report = _replay(capsys, str(TENHOU / "mjlog"), str(TENHOU / "partial"))
    assert report["games"] == 166
    assert report["rounds"] == report["rounds_matched"] == 1741
    assert report["mismatches"] == []
    assert code == 0


def test_all_tenhou6_json_rounds_match(capsys):
    code, report = _replay(capsys, str(TENHOU / "json"))
    assert (report["games"], report["rounds"], report["rounds_matched"]) == (37, 396, 396)
    assert code == 0


def test_excerpts_match_but_the_known_inconsistent_one(capsys):
    code, report = _replay(capsys, str(TENHOU / "excerpts"))
    assert [(m["file"].split("/")[-1], m["round"]) for m in report["mismatches"]] == [("confusing_nakis_1.json", "E2-2")]
    assert code == 1


def test_another_rulebook_shows_differences(capsys):
    code, report = _replay(capsys, str(TENHOU / "mjlog" / "2010081709gm-00a9-0000-fe3371ad.mjlog"), "--rulebook", "wrc2025")
    assert code == 1
    assert report["mismatches"]


def test_missing_path_is_bad_input(capsys):
    assert main(["replay", "/no/such/log"]) == 2
    assert "does not exist" in capsys.readouterr().err
