"""``riichi play --workers N``: the games played in N processes give the output of one process, byte for byte (the
JSON lines, the readable lines, the story under ``--narrate``, the mjai files), in the order of the seeds; a bad
count is bad input, and an agent list that does not fit the table is bad input from a worker too."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli import main


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("extra", [["--json"], [], ["--narrate"], ["--discards", "--rulebook", "tenhou_sanma"]], ids=["json", "lines", "narrate", "sanma-discards"])
def test_two_workers_print_what_one_process_prints(extra: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "--games", "3", "--seed", "11", "--agents", "random", *extra]
    one = _run([*argv, "--workers", "1"], capsys)
    two = _run([*argv, "--workers", "2"], capsys)
    assert one[0] == two[0] == 0
    assert two[1] == one[1] and one[1].count("seed") >= 3
    assert one[2].startswith("riichi play: 3 games") and two[2].startswith("riichi play: 3 games")


def test_mjai_files_are_the_same_for_any_worker_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for workers in ("1", "2"):
        folder = tmp_path / workers
        argv = ["play", "--games", "3", "--seed", "2", "--json", "--mjai", str(folder), "--mjai-seat", "1", "--workers", workers]
        assert _run(argv, capsys)[0] == 0
    names = sorted(p.name for p in (tmp_path / "1").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "2").iterdir()) and len(names) == 6
    assert all((tmp_path / "1" / name).read_bytes() == (tmp_path / "2" / name).read_bytes() for name in names)


@pytest.mark.parametrize("count", ["0", "-1", "two", "1.5"])
def test_a_bad_worker_count_is_bad_input(count: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["play", "--games", "2", "--workers", count])
    assert exited.value.code == 2 and "Traceback" not in capsys.readouterr().err


def test_agents_for_the_wrong_table_are_bad_input_from_a_worker_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["play", "--games", "2", "--agents", "random,random", "--workers", "2"], capsys)
    assert code == 2 and out == "" and "2 agents for 4 players" in err and "Traceback" not in err
