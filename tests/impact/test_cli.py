"""``riichi impact`` as a user runs it: exit codes, the three text forms, bad input, wins B refuses, rounds A cannot
reproduce, and the public re-settlement API."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.api import load_rulebook_text, resettle
from engine.cli import main
from engine.impact.files import placements
from engine.impact.report import points
from engine.replay.events import Win
from engine.replay.rounds import read_events
from tests.impact.oracle import corpus
from tests.impact.runs import KIRIAGE_ONLY, report

TANYAO, DORA_KINDS = 8, {52, 53, 54}


def _files(n: int = 4) -> list[str]:
    return [str(p) for p in corpus()[:n]]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["impact", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_same_rulebook_changes_nothing_and_exits_0(capsys):
    code, out, err = _run(capsys, "house", "house", *_files(2), "--json", "--workers", "1")
    data = json.loads(out)
    assert code == 0 and err == ""
    assert data["changed_rounds"] == 0 and data["items"] == [] and data["wins"] > 0


def test_kiriage_changes_rounds_exits_1_and_reads_as_text_and_markdown(capsys):
    code, out, _ = _run(capsys, "house", KIRIAGE_ONLY, *_files(), "--workers", "1")
    assert code == 1
    assert "limit kiriage:" in out and "points to winners" in out and "examples of limit kiriage:" in out
    code, md, _ = _run(capsys, "house", KIRIAGE_ONLY, *_files(), "--format", "md", "--workers", "1")
    assert code == 1
    assert md.startswith("# Rule change impact") and "| `limit kiriage` |" in md and "## Example rounds" in md


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["house", "mleague", "no/such/folder"], "does not exist"),
        (["house", "no_such_rulebook", "tests/data/tenhou/json"], "unknown rulebook"),
        (["house", "mleague", "tests/impact/data"], "no game log"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_an_unreadable_log_is_reported_and_the_others_still_run(tmp_path, capsys):
    bad = tmp_path / "broken.mjlog"
    bad.write_text("<mjloggm ver='2.3'><SHUFFLE", encoding="utf-8")
    code, out, _ = _run(capsys, "house", "house", str(bad), *_files(1), "--json", "--workers", "1")
    data = json.loads(out)
    assert code == 0
    assert data["unreadable_files"] == 1 and data["unreadable"][0]["file"] == str(bad)
    assert data["files"] == 2 and data["wins"] > 0


def test_json_runs_stay_quiet_on_stderr_when_piped():
    result = subprocess.run(
        [sys.executable, "-m", "engine.cli", "impact", "house", KIRIAGE_ONLY, *_files(2), "--json", "--workers", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1 and result.stderr == ""
    assert json.loads(result.stdout)["b"].endswith("kiriage_only.rulebook")


def _open_tanyao_wins(files: list[str]) -> tuple[int, int]:
    """(open wins with tanyao, those whose only yaku is tanyao) straight from the logs."""
    changed = illegal = 0
    for path in files:
        for event in read_events(Path(path)):
            if isinstance(event, Win) and any(m.is_open for m in event.melds):
                ids = {n for n, han in event.yaku if han}
                if TANYAO in ids:
                    changed += 1
                    illegal += int(not (ids - {TANYAO} - DORA_KINDS))
    return changed, illegal


def test_kuitan_nashi_refuses_open_tanyao_wins_and_stops_the_game_comparison():
    files = tuple(corpus()[:12])
    got = report("tenhou", "tenhou_nokuitan", files, workers=1)
    changed, illegal = _open_tanyao_wins([str(f) for f in files])
    tanyao = next(i for i in got["items"] if i["item"] == "yaku tanyao")
    assert illegal > 0
    assert tanyao["wins"] == got["changed_wins"] == changed
    assert tanyao["illegal_wins"] == got["illegal_wins"] == illegal
    assert got["points_at_stake"] > 0
    assert got["games"]["diverged"] > 0
    assert all("hora" in g["where"] or "not a legal win" in g["where"] for g in got["games"]["diverged_examples"])


def test_rounds_a_does_not_reproduce_are_left_out_with_the_reason():
    # the logs were played with red fives: a rulebook without them cannot reproduce a win that counted them
    got = report("tenhou_nored", "tenhou", tuple(corpus()[:6]), workers=1)
    assert got["rounds_left_out"] > 0
    assert all("does not reproduce" in e["reason"] or "refuses" in e["reason"] for e in got["left_out"])
    assert got["changed_rounds"] == 0  # a left-out round is never compared


def test_resettle_is_a_public_api_taking_rulebooks_held_in_memory():
    # the site's own rules plus kiriage: tenhou plays every game to its logged end, so the game is compared too
    text = Path(KIRIAGE_ONLY).read_text(encoding="utf-8").replace("extends house", "extends tenhou")
    result = resettle("tenhou", load_rulebook_text(text), str(corpus()[0]))
    assert result["rounds"] >= result["rounds_with_wins"] > 0
    changed = [w for w in result["wins"] if w["delta"]]
    assert changed and all(w["items"][0]["item"] == "limit kiriage" for w in changed)
    assert result["game"]["scores_a"] and result["game"]["diverged"] is None
    assert result["flow_rounds"] == [r for r in result["flow_rounds"] if r["items"] == ["limit kiriage"]]


def test_placements_break_ties_towards_the_first_dealer_and_points_read_signed():
    assert placements((25000, 25000, 30000, 20000)) == (2, 3, 1, 4)
    assert (points(61800), points(-300), points(0)) == ("+61,800", "-300", "0")


def test_self_played_mjai_logs_are_reproduced_by_the_winners_point_changes(tmp_path, capsys):
    """mjai records no yaku: A reproduces a win when it pays the winner what the log did."""
    assert main(["play", "--rulebook", "house", "--games", "2", "--seed", "7", "--mjai", str(tmp_path)]) == 0
    capsys.readouterr()
    code, out, _ = _run(capsys, "house", "house", str(tmp_path), "--json", "--workers", "1")
    data = json.loads(out)
    assert code == 0 and data["files"] == 2
    assert data["wins"] >= 10 and data["rounds_left_out"] == 0  # a hora collects the sticks declared this round too
    assert data["rounds_resettled"]["changed"] == 0


def test_output_file_is_confirmed_and_an_unwritable_one_is_one_line(tmp_path, capsys):
    target = tmp_path / "impact.md"
    code, out, err = _run(capsys, "house", "house", *_files(1), "--format", "md", "--workers", "1", "-o", str(target))
    assert code == 0 and out == ""
    assert target.read_text(encoding="utf-8").startswith("# Rule change impact")
    assert err.strip().splitlines()[-1].startswith(f"riichi impact: wrote `{target}` (")
    code, out, err = _run(capsys, "house", "house", *_files(1), "--workers", "1", "-o", "/nonexistent-folder/x.md")
    assert code == 2 and out == "" and "Traceback" not in err
    assert "riichi impact: error: cannot write `/nonexistent-folder/x.md`" in err
