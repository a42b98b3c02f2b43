"""`riichi replay` prints mismatches as readable text (golden): the round, the event, what the log has and what the
rulebook gives. Three real excerpts replayed under a rulebook that is not theirs: a double ron M-League turns into a
head bump, a four-riichi abort it does not have, and a nine-terminals draw it does not allow."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "replay_mleague_mismatches.txt"
LOGS = [f"tests/data/tenhou/excerpts/{name}.json" for name in ("double_ron", "four_reach", "kyushukyuhai")]


def test_replay_mismatches_read_as_text(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["replay", *LOGS, "--rulebook", "mleague"]) == 1
    out = capsys.readouterr().out
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(out, encoding="utf-8")
    assert out == GOLDEN.read_text(encoding="utf-8")
    assert "{" not in out and "Traceback" not in out  # no Python dicts, no traceback


POSITIONS = ROOT / "tests" / "golden" / "replay_positions.txt"


def test_replay_mismatches_name_their_place_in_each_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each format's own place (golden): an mjai log's line, an mjlog tag's line and column, a tenhou.net/6
    entry of the ``log`` arrays. Two logs with a kan indicator moved before the replacement draw (which
    ``tenhou`` reveals after it) and a nine-terminals draw M-League does not allow."""
    from tests.replay.test_kan_dora_order import MJLOG, OPEN_KAN, _moved, selfplay_log

    lines, _ = _moved(selfplay_log("tenhou")[0], "daiminkan", -1)
    (tmp_path / "moved.mjson").write_text("\n".join(lines) + "\n", encoding="utf-8")
    text = MJLOG.read_text(encoding="utf-8")
    match = OPEN_KAN.search(text)
    assert match is not None
    moved = text[: match.start()] + match.group(1) + match.group(4) + match.group(3) + text[match.end() :]
    (tmp_path / "moved.mjlog").write_text(moved, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["replay", "moved.mjson", "moved.mjlog", "--rulebook", "tenhou"]) == 1
    out = capsys.readouterr().out
    monkeypatch.chdir(ROOT)
    assert main(["replay", "tests/data/tenhou/excerpts/kyushukyuhai.json", "--rulebook", "mleague"]) == 1
    out += capsys.readouterr().out
    if os.environ.get("UPDATE_GOLDEN"):
        POSITIONS.write_text(out, encoding="utf-8")
    assert out == POSITIONS.read_text(encoding="utf-8")
    assert "moved.mjson E" in out and ", line 1, column " in out and ", log[0][16]: illegal move" in out
