"""``riichi replay`` (``engine.cli.replay``) at its edges: a missing or unreadable log is one readable line and
the contract's exit code, never a traceback, and the options do what their help says.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.cli import replay as replay_cli
from engine.replay.rounds import ReplayReport

ROOT = Path(__file__).resolve().parents[2]
EXCERPT = ROOT / "tests" / "data" / "tenhou" / "excerpts" / "chankan.json"


def test_replay_of_a_path_that_does_not_exist_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "nowhere.mjlog")]) == 2
    assert "nowhere.mjlog` does not exist" in capsys.readouterr().err


def test_replay_under_an_unknown_rulebook_fails_before_reading_a_log(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXCERPT), "--rulebook", "no_such_rulebook"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("riichi replay: error:") and "no_such_rulebook" in err


def test_replay_json_reports_a_matching_round(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXCERPT), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 1 and report["rounds"] == report["rounds_matched"] >= 1
    assert report["mismatches"] == [] and report["errors"] == []


def test_replay_of_only_bad_files_is_bad_input_and_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "broken.mjlog"
    bad.write_text("<mjloggm ver='2.3'><UN n0='", encoding="utf-8")
    assert main(["replay", str(bad)]) == 2
    out = capsys.readouterr().out
    assert f"{bad}: not replayed: " in out and "0 games" in out and "1 files not replayed" in out


def test_replay_of_a_folder_skips_what_is_not_a_log_and_replays_the_rest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("not a log", encoding="utf-8")
    (tmp_path / EXCERPT.name).write_bytes(EXCERPT.read_bytes())
    bad = tmp_path / "broken.json"
    bad.write_text("{\"log\": [[[0, 0, 0], ", encoding="utf-8")
    assert main(["replay", str(tmp_path)]) == 1  # one good game, one file not replayed: some trouble, not bad input
    out = capsys.readouterr().out
    assert "notes.txt: skipped: " in out and "broken.json: not replayed: " in out
    assert "1 games" in out and "1 files not replayed" in out


def test_replay_text_shows_fifty_mismatches_and_counts_the_rest(capsys: pytest.CaptureFixture[str]) -> None:
    report = ReplayReport(games=1, rounds=60, mismatches=[{"file": "g.mjlog", "text": f"E{i}: differs"} for i in range(57)])
    replay_cli._print_text(report)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "g.mjlog E0: differs" and lines[49] == "g.mjlog E49: differs"
    assert lines[50] == "... and 7 more mismatches (--json lists them all)"
    assert lines[51].startswith("1 games, 60 rounds, 0 matched") and lines[51].endswith("57 mismatches")


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_replay_progress_draws_after_half_a_second_and_erases_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = _Clock()
    monkeypatch.setattr(replay_cli.time, "monotonic", clock)
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    bar = replay_cli._Progress(enabled=True)
    bar(1, 4, "logs/first.mjlog")  # too soon: a quick run shows no bar
    assert err.getvalue() == ""
    clock.now += 1
    bar(1, 1, "logs/only.mjlog")  # a single file: no bar
    assert err.getvalue() == ""
    bar(2, 4, "logs/second.mjlog")
    drawn = err.getvalue()
    assert drawn.startswith("\r[" + "#" * 15 + "." * 15 + "] 2/4 second.mjlog")
    bar.close()
    assert err.getvalue().endswith("\r" + " " * 80 + "\r")


def test_replay_progress_disabled_or_never_shown_writes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = _Clock()
    monkeypatch.setattr(replay_cli.time, "monotonic", clock)
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    quiet = replay_cli._Progress(enabled=False)
    clock.now += 5
    quiet(2, 4, "x.mjlog")
    quiet.close()
    replay_cli._Progress(enabled=True).close()
    assert err.getvalue() == ""




@pytest.mark.parametrize("fault", [KeyError("seat"), ValueError("a bad count"), AssertionError()])
def test_a_fault_of_the_round_engine_is_an_internal_error_not_a_mismatch(
    fault: Exception, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bug of the round engine is never reported as the log differing from the rulebook (exit 1), nor as a
    file that cannot be read: it is the contract's internal error, exit 3, asking for a report."""
    from engine.replay import rounds

    def broken(*args: object, **kwargs: object) -> None:
        raise fault

    monkeypatch.setattr(rounds, "replay_round", broken)
    assert main(["replay", str(EXCERPT), "--json"]) == 3
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("riichi replay: internal error while replaying ")
    assert type(fault).__name__ in captured.err and "please report" in captured.err and "Traceback" not in captured.err


def test_a_fault_of_the_round_engine_reaches_a_library_caller_as_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.core.errors import InternalError
    from engine.replay import rounds
    from engine.replay.source import replay_log

    def broken(*args: object, **kwargs: object) -> None:
        raise IndexError("tile")

    monkeypatch.setattr(rounds, "replay_round", broken)
    with pytest.raises(InternalError, match="please report") as caught:
        replay_log(EXCERPT.read_bytes(), name=EXCERPT.name)
    assert isinstance(caught.value.__cause__, IndexError)



def test_replay_loads_each_rulebook_then_freezes_what_is_alive(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``riichi replay`` loads a rulebook through ``scorer_frozen``: the scorer ``library.scorer`` gives, loaded with
    the collector paused, then ``gc.freeze``; and its report is the one the plain ``library.scorer`` gives."""
    import gc

    from engine.replay.rounds import replay
    from engine.scoring import library

    frozen: list[bool] = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(gc.isenabled()))  # nothing of the test process frozen
    assert replay_cli.scorer_frozen("tenhou") is library.scorer("tenhou")
    assert frozen == [True]  # after loading, with the collector running again
    assert main(["replay", str(EXCERPT), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == replay([str(EXCERPT)], None, library.scorer).to_json()
