"""Nothing readable is trouble: `riichi impact` and `riichi replay` over paths where no log
could be read exit 2 and name the files, instead of reporting "no change" or "0 games" as a success."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli import main as cli_main
from tests.spec_files import TENHOU


@pytest.fixture
def unreadable(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "broken.mjlog").write_bytes(b"<mjloggm><GO type='169'/")  # truncated XML
    return folder


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli_main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("fmt", ["text", "json", "md"])
def test_impact_over_only_unreadable_logs_exits_2_naming_them(capsys, unreadable, fmt):
    code, out, err = run(capsys, "impact", "tenhou", "house", str(unreadable), "--workers", "1", "--format", fmt)
    assert code == 2, (out, err)
    assert "broken.mjlog" in err and "no game log could be read" in err
    assert "Traceback" not in err


def test_replay_over_only_unreadable_logs_exits_2_naming_them(capsys, unreadable):
    for extra in ([], ["--json"]):
        code, out, err = run(capsys, "replay", str(unreadable), *extra)
        assert code == 2 and "broken.mjlog" in err, (out, err)


def test_replay_over_a_folder_without_logs_exits_2(capsys, tmp_path):
    (tmp_path / "notes.txt").write_text("no logs here\n", encoding="utf-8")
    code, out, err = run(capsys, "replay", str(tmp_path))
    assert code == 2 and "no game log among the paths" in err and "notes.txt" in err


def test_one_readable_log_among_unreadable_ones_is_still_a_run(capsys, unreadable):
    good = sorted((TENHOU / "mjlog").glob("*.mjlog"))[0]
    (unreadable / good.name).write_bytes(good.read_bytes())
    code, out, err = run(capsys, "impact", "tenhou", "tenhou", str(unreadable), "--workers", "1", "--wins-only")
    assert code == 0, (out, err)
    assert "broken.mjlog" in out  # still listed among the unreadable files


def test_the_servers_impact_job_over_only_unreadable_logs_is_an_error(unreadable):
    from engine.core.errors import InvalidRequest
    from engine.web.jobs import impact

    with pytest.raises(InvalidRequest, match="broken.mjlog"):
        impact({"name": "tenhou"}, {"name": "house"}, [str(unreadable / "broken.mjlog")], False)
