"""Small things that cost an organiser an hour each: a setting asked for by its key, a flag explained in
players' words, and the install command of an optional part said as the README says it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _explain(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["explain", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_setting_key_points_at_its_group(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _explain(capsys, "house", "red_fives")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "setting red_fives, a key of `settings table` (not an item of its own)"
    assert lines[1].startswith("  red_fives = [0m, 0p, 0s] — ")
    assert lines[-1] == '  the whole group: riichi explain house "settings table"'


def test_a_setting_the_rulebook_leaves_out_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _explain(capsys, "house", "open_riichi")
    assert code == 0 and "house does not set it" in out and "`settings riichi`" in out


def test_a_misspelt_setting_key_is_suggested(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _explain(capsys, "house", "redfives")
    assert code != 0 and "did you mean `red_fives`?" in err


def test_standalone_is_explained_in_players_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _explain(capsys, "wrc2025", "renhou")
    assert code == 0
    line = next(line for line in out.splitlines() if line.strip().startswith("standalone:"))
    assert "standalone: true" not in line and "the better of this yaku alone (no other yaku, no dora)" in line


def test_a_missing_extra_is_installed_as_the_readme_installs_it(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    assert main(["serve"]) == 2
    said = re.findall(r"pip install '[^']+'", capsys.readouterr().err)
    assert said == ["pip install '.[web]'"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for source in ("engine/cli/serve.py", "engine/impact/run.py", "engine/impact/html.py"):
        for command in re.findall(r"pip install '[^']+'", (ROOT / source).read_text(encoding="utf-8")):
            assert command in readme, (source, command)
