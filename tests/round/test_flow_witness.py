"""`riichi diff` shows every round-level flow change on a short scripted round (`engine.round.witness`) that A with
only this change settles differently: kan-dora timing, multiple ron, riichi conditions, abortive draws, furiten,
kuikae, liability, draw payments, kita....

The variants are the rows of ``test_every_name_executes``: two rulebooks that differ in one value only, written as
files, so the witness is found through the same path `riichi diff A B` takes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli.diff import render_markdown, render_text
from engine.diff.change_witnesses import diff_with_witnesses
from engine.round import round_rules
from engine.round.witness import SCRIPTS, play, round_witness
from engine.scoring.library import scorer
from ruledsl.rulebook_changes import SCORING_SETTINGS
from tests.round.test_every_name_executes import RULEBOOK_ROWS, Row


def _round_level(row: Row) -> bool:
    """A row of a flow name: not a scoring setting (those have witness hands) and not the game's start points
    (a game scenario shows it)."""
    words = row.name.split(" (")[0].split()
    if len(words) == 2 and (words[0], words[1]) in SCORING_SETTINGS | {("table", "start_points")}:
        return False
    return True


FLOW_ROWS = [row for row in RULEBOOK_ROWS if _round_level(row)]


def _file(tmp_path: Path, name: str, text: str) -> str:
    base = "sanma" if text.startswith("sanma:") else "house"
    path = tmp_path / f"{name}.rulebook"
    path.write_text(f'rulebook {name} "{name}" extends {base}\n{text.removeprefix("sanma:")}\n', encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("row", FLOW_ROWS, ids=lambda row: row.name)
def test_a_flow_name_alone_gets_a_round_witness(row: Row, tmp_path: Path) -> None:
    a = scorer(_file(tmp_path, "base", row.base))
    b = scorer(_file(tmp_path, "variant", row.variant))
    report = diff_with_witnesses(a, b, random_hands=0)
    assert report.changes, row.name
    for index, (change, _witness) in enumerate(report.changes):
        scenario = report.scenario(index)
        assert scenario is not None, f"{change.item}: {report.reason(index)}"
        assert scenario["a"] != scenario["b"]
    text = render_text(report)
    assert "no scenario" not in text and "no hand witness" not in text
    assert "scenario (this change alone; last line: the whole of variant)" in text


def test_the_witness_is_in_words_for_each_side(tmp_path: Path) -> None:
    a = scorer(_file(tmp_path, "base", "override settings win { multiple_ron = 2 }"))
    b = scorer(_file(tmp_path, "variant", "override settings win { multiple_ron = 1 }"))
    report = diff_with_witnesses(a, b, random_hands=0)
    scenario = report.to_json()["changes"][0]["scenario"]
    assert scenario["kind"] == "round" and scenario["script"] == "double_ron"
    assert scenario["a"]["words"].startswith("South wins by ron from East (") and " and West wins by ron from East" in scenario["a"]["words"]
    assert "West" not in scenario["b"]["words"].split(";")[0]
    lines = render_text(report).splitlines()
    assert lines[-5:-1] == [
        "      East deals: " + scenario["situation"],
        "      base: " + scenario["a"]["words"],
        "      base + `multiple_ron` only: " + scenario["b"]["words"],
        "      variant: the same as with this change alone",  # the whole of B is this change alone here
    ]
    assert scenario["situation"] in render_markdown(report)


@pytest.mark.parametrize("pair", [("tenhou", "mleague"), ("wrc2025", "mleague")])
def test_bundled_diffs_show_every_flow_change_in_words(pair: tuple[str, str]) -> None:
    report = diff_with_witnesses(scorer(pair[0]), scorer(pair[1]), random_hands=20)
    text = render_text(report)
    assert "no hand witness" not in text and "flow rule" not in render_markdown(report)
    for index, (change, _witness) in enumerate(report.changes):
        if change.affects_score:
            continue
        assert report.scenario(index) is not None or report.reason(index), change.item
    kinds = {change.item: (report.scenario(index) or {}).get("kind") for index, (change, _) in enumerate(report.changes)}
    assert all(kind == "round" for item, kind in kinds.items() if item.split()[0] in ("draw", "abortive_draw", "liability"))
    if pair == ("tenhou", "mleague"):
        for item in ("setting kan_dora", "setting min_points", "setting min_wall", "setting multiple_ron", "setting voluntary_noten"):
            assert kinds[item] == "round", item
        # a setting valid only with another (a target score and its extension round) is shown with it, and says so
        index = [change.item for change, _ in report.changes].index("setting target_points")
        assert "setting extension_rounds" in report.scenario(index)["together_with"]
        assert "(this change with setting extension_rounds" in text


def test_scripts_deal_under_every_bundled_table_size() -> None:
    """Every script plays through under a rulebook of its table size (a script error would hide witnesses)."""
    four, three = round_rules(scorer("house")), round_rules(scorer("sanma"))
    for script in SCRIPTS:
        out = play(four if script.players == 4 else three, script)
        assert out["end"] and len(out["deltas"]) == script.players


def test_a_rulebook_has_no_round_witness_against_itself() -> None:
    r = round_rules(scorer("tenhou"))
    assert round_witness(r, r) is None
