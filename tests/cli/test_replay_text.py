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
