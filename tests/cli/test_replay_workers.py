"""``riichi replay --workers N``: the files replayed in N processes give the report, the story and the exit code of
one process, byte for byte; a bad count is bad input; an engine fault in a worker and Ctrl-C end the run cleanly.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "tenhou"
MJLOG = DATA / "mjlog"
PRIVATE_LOBBY = "2019020120gm-0009-10011-215330df.mjlog"  # a note: its final table with uma is not compared


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A dozen logs of the three kinds the folder holds, one that differs from the rulebook, one with a note, a
    corrupt log and a file that is no log."""
    folder = tmp_path_factory.mktemp("corpus")
    chosen = [*sorted(MJLOG.glob("*.mjlog"))[:5], MJLOG / PRIVATE_LOBBY, *sorted((DATA / "json").glob("*.json"))[:2]]
    chosen += [DATA / "excerpts" / name for name in ("confusing_nakis_1.json", "double_ron.json", "kyushukyuhai.json", "chankan.json")]
    for path in chosen:
        (folder / path.name).write_bytes(path.read_bytes())
    (folder / "broken.mjlog").write_text("<mjloggm ver='2.3'><UN n0='", encoding="utf-8")
    (folder / "notes.txt").write_text("not a log", encoding="utf-8")
    return folder


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("form", [["--json"], []], ids=["json", "text"])
def test_two_workers_give_the_report_of_one_byte_for_byte(corpus: Path, form: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    one = _run(["replay", str(corpus), *form, "--workers", "1"], capsys)
    two = _run(["replay", str(corpus), *form, "--workers", "2"], capsys)
    assert one == two
    code, out, _ = one
    assert code == 1  # a round differs and a file cannot be read: some trouble, not bad input
    for seen in ("broken.mjlog", "notes.txt", "confusing_nakis_1.json", PRIVATE_LOBBY):
        assert seen in out  # the corrupt file, the skipped one, the mismatch and the note are all reported


def test_the_default_is_the_one_process_report(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["replay", str(corpus), "--json"], capsys) == _run(["replay", str(corpus), "--json", "--workers", "1"], capsys)


def test_narration_with_two_workers_is_told_in_the_order_of_the_files(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(corpus / name) for name in ("double_ron.json", "broken.mjlog", "kyushukyuhai.json", "chankan.json")]
    one = _run(["replay", *files, "--narrate", "--workers", "1"], capsys)
    two = _run(["replay", *files, "--narrate", "--workers", "2"], capsys)
    assert one == two
    out = one[1]
    headers = [line for line in out.splitlines() if line.startswith("Game ")]
    assert headers == [f"Game {files[0]}:", f"Game {files[2]}:", f"Game {files[3]}:"]


def test_discards_with_two_workers_are_those_of_one(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(corpus / name) for name in ("double_ron.json", "chankan.json")]
    one = _run(["replay", *files, "--discards", "--workers", "1"], capsys)
    assert one == _run(["replay", *files, "--discards", "--workers", "2"], capsys)
    assert "discards: " in one[1]


@pytest.mark.parametrize("count", ["0", "-2", "two", "1.5", ""])
def test_a_worker_count_that_is_not_a_whole_number_above_zero_is_bad_input(count: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["replay", str(MJLOG / PRIVATE_LOBBY), f"--workers={count}"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "--workers" in err and "Traceback" not in err


def test_an_engine_fault_in_a_worker_is_the_internal_error_naming_the_round(
    corpus: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from engine.replay import rounds

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("seat")

    monkeypatch.setattr(rounds, "replay_round", broken)  # forked workers inherit the fault
    one = _run(["replay", str(corpus), "--json", "--workers", "1"], capsys)
    two = _run(["replay", str(corpus), "--json", "--workers", "2"], capsys)
    assert one == two
    code, out, err = two
    assert code == 3 and out == ""
    assert err.startswith("riichi replay: internal error while replaying E1") and err.count("\n") == 1
    assert "KeyError" in err and "Traceback" not in err


def test_the_progress_bar_counts_files_as_they_are_done(corpus: Path) -> None:
    from engine.cli.replay import scorer_frozen
    from engine.replay.rounds import replay

    seen: list[tuple[int, int, str]] = []
    replay([str(corpus)], None, scorer_frozen, progress=lambda *a: seen.append(a), workers=2)
    total = len(seen)
    assert total == 13 and [s[:2] for s in seen] == [(n, total) for n in range(1, total + 1)]
    assert [Path(s[2]).name for s in seen] == sorted(p.name for p in corpus.iterdir() if p.name != "notes.txt")


def _children(pid: int) -> set[int]:
    try:
        return {int(c) for t in Path(f"/proc/{pid}/task").iterdir() for c in (t / "children").read_text().split()}
    except OSError:
        return set()


@pytest.mark.skipif(not Path("/proc/self/task").exists() or sys.platform == "win32", reason="reads /proc")
def test_ctrl_c_ends_the_workers_with_one_line_and_exit_130() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "engine.cli", "replay", str(MJLOG), "--json", "--workers", "2"]
    # Ctrl-C as a terminal's user has it: a test run started in the background (a CI job, ``nohup``) has SIGINT
    # ignored, and a process inherits that, so the command would never see the signal
    run = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
        preexec_fn=_interruptible,
    )
    deadline = time.monotonic() + 60
    workers: set[int] = set()
    while len(workers) < 2 and time.monotonic() < deadline and run.poll() is None:
        workers = _children(run.pid)
        time.sleep(0.02)
    assert len(workers) >= 2, "the pool never started"
    os.killpg(run.pid, signal.SIGINT)  # as a terminal's Ctrl-C: to every process of the command
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130
    assert out == "" and err == "riichi replay: interrupted\n"
    time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() and "zombie" not in _state(pid) for pid in workers)


def _interruptible() -> None:
    """In the child, before the command starts: SIGINT back to its default, which Python turns into
    KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return "gone (zombie)"
