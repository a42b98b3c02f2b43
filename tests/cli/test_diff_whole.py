"""`riichi diff` shows each witness and scenario under the whole of A and the whole of B too (`whole`), and labels
each outcome truthfully: "house + `uma` only" for A with one change, the club's own name for the whole of it. An
organiser's club file (30,000 points, uma 30-10, head bump) once saw three different "myclub" scores for one final
table, none of them the club's; the whole of the club scores 40k/30k/20k/10k as +40/+10/-20/-50."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.game.progression import start
from engine.game.result import game_result
from engine.game.rules import GameRules
from engine.scoring.library import scorer
from ruledsl.record import replace

CLUB = """rulebook myclub "A club's rules on top of the house rules" extends house

@clause("club rule 1: 30,000 points each")
override settings table {
  start_points = 30000
}

@clause("club rule 2: uma 30-10")
override settings game {
  uma = [30, 10, -10, -30]
}

@clause("club rule 3: head bump on a triple ron")
override settings win {
  triple_ron = "head_bump"
}
"""


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("club") / "myclub.rulebook"
    path.write_text(CLUB, encoding="utf-8")
    return path


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["diff", *args]) == 1
    return capsys.readouterr().out


def test_the_json_whole_of_b_is_the_clubs_own_result(capsys: pytest.CaptureFixture[str], club: Path) -> None:
    report = json.loads(_run(capsys, "house", str(club), "--hands", "50", "--json"))
    by_item = {c["item"]: c for c in report["changes"]}
    rules = GameRules.of(scorer(str(club)).rulebook)
    for item in ("setting uma", "setting start_points"):
        scenario = by_item[item]["scenario"]
        assert scenario["kind"] == "final_table"
        assert scenario["whole"]["a"] == scenario["a"]  # A is A, with or without the change
        state = replace(start(rules), scores=tuple(scenario["points"]), sticks=scenario["sticks"], rounds_played=1, ended_by="last_round")
        assert scenario["whole"]["b"]["scores"] == game_result(rules, state, "b", None)["scores"]
        assert scenario["whole"]["b"] != scenario["b"], item  # one change alone is not the club
    uma = by_item["setting uma"]["scenario"]
    assert uma["points"] == [40000, 30000, 20000, 10000]
    assert uma["whole"]["b"]["scores"] == [40.0, 10.0, -20.0, -50.0]
    assert uma["b"]["scores"] == [45.0, 15.0, -15.0, -45.0]  # house + uma only


def test_diff_values_keep_their_json_types(capsys: pytest.CaptureFixture[str], club: Path) -> None:
    report = json.loads(_run(capsys, "house", str(club), "--hands", "0", "--json"))
    by_item = {c["item"]: c for c in report["changes"]}
    assert (by_item["setting start_points"]["a"], by_item["setting start_points"]["b"]) == (25000, 30000)
    assert (by_item["setting uma"]["a"], by_item["setting uma"]["b"]) == ([], [30, 10, -10, -30])
    assert by_item["setting triple_ron"]["b"] == "head_bump"
    text = _run(capsys, "house", str(club), "--hands", "0")
    assert "~ setting start_points: 25,000 -> 30,000" in text  # the text formats print them for people
    assert "~ setting uma: none -> 30, 10, -10, -30" in text


def test_text_and_markdown_label_each_outcome_truthfully(capsys: pytest.CaptureFixture[str], club: Path) -> None:
    text = _run(capsys, "house", str(club), "--hands", "0")
    lines = [line.strip() for line in text.splitlines()]
    assert "house + `uma` only: points 40,000 30,000 20,000 10,000, scores +45.0 +15.0 -15.0 -45.0" in lines
    assert "myclub: points 40,000 30,000 20,000 10,000, scores +40.0 +10.0 -20.0 -50.0" in lines
    assert not any(line.startswith("myclub: points") and "+45.0" in line for line in lines)
    md = _run(capsys, "house", str(club), "--hands", "0", "--format", "md")
    row = next(line for line in md.splitlines() if line.startswith("| `setting uma`"))
    assert "house + `uma` only: points" in row and "myclub: points 40,000 30,000 20,000 10,000, scores +40.0" in row


def test_a_round_scenario_carries_the_whole_of_b(capsys: pytest.CaptureFixture[str]) -> None:
    """house and wrc2025 settle East's discard that two players ron differently as a whole (wrc2025 counts renhou),
    not only by the multiple-ron setting: the witness shows both."""
    report = json.loads(_run(capsys, "house", "wrc2025", "--hands", "0", "--json"))
    scenario = next(c["scenario"] for c in report["changes"] if c["item"] == "setting multiple_ron")
    assert scenario["kind"] == "round"
    assert scenario["whole"]["a"] == scenario["a"]
    assert scenario["whole"]["b"]["deltas"] != scenario["b"]["deltas"]


def test_every_witness_carries_the_whole_rulebooks(capsys: pytest.CaptureFixture[str]) -> None:
    report = json.loads(_run(capsys, "house", "wrc2025", "--hands", "100", "--json"))
    witnesses = [c["witness"] for c in report["changes"] if c["witness"]]
    assert witnesses
    for witness in witnesses:
        assert witness["whole"] == {"a": witness["a"], "b": witness["b"]}
    for change in report["changes"]:
        if change["scenario"] is not None:
            assert "whole" in change["scenario"], change["item"]
