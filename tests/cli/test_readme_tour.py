"""Every command of the README's short tour runs, with the exit code the contract gives it.

The tour is kept here as data (``TOUR``): the README's "A short tour" block lists exactly these commands, and
the last test checks that the README says no other ``riichi`` command.
"""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from engine.cli import main
from tests.spec_files import TENHOU

ROOT = Path(__file__).resolve().parents[2]
MJLOG = TENHOU / "mjlog" / "2010081709gm-00a9-0000-fe3371ad.mjlog"  # vendored: tests/data/tenhou
STDIN = '{"hand": "234m567m789p46s88p5s", "win": "5s", "riichi": true}\n'

# (command as written in the README, expected exit code)
TOUR = [
    ("riichi --version", 0),
    ("riichi rulebooks", 0),
    ("riichi rulebooks --sources", 0),
    ("riichi score 234m567m789p46s88p5s --win 5s --seat S --riichi --dora 4s", 0),
    ("riichi score 19m19p19s1234567z1m --win 1m --seat S", 0),
    ("riichi score 19m19p19s1234567z1m --win 1m --seat S --rulebook wrc2025", 0),
    ("riichi score 123m 456p 789s 11s 555z --win 1s --seat W --tsumo", 0),
    ("riichi score --json", 0),
    ("riichi analyze 1112345678999m", 0),
    ("riichi check rulebooks/examples/tournament.rulebook", 0),
    ("riichi explain house pinfu", 0),
    ("riichi diff house wrc2025", 1),
    ("riichi diff house wrc2025 --format md", 1),
    ("riichi diff house rulebooks/examples/tournament.rulebook", 1),
    # replay's own conformance is tests/conformance/test_replay.py; here: the 2010 game replays with its final table
    (f"riichi replay {MJLOG.relative_to(ROOT).as_posix()}", 0),
    ("riichi play --rulebook tenhou --games 2 --seed 7 --agents shanten --json", 0),
    ("riichi play --rulebook house --games 1 --seed 7 --narrate", 0),
    ("riichi impact house rulebooks/examples/tournament.rulebook tests/data/tenhou/excerpts --wins-only", 1),
    ("riichi sheet mleague --against wrc2025 --format html -o rules.html", 0),
]


def _run(command: str, monkeypatch: pytest.MonkeyPatch, out: Path | None = None) -> int:
    words = shlex.split(command)[1:]
    if "-o" in words and out is not None:  # a file the command writes goes to the test's folder, not the checkout
        words[words.index("-o") + 1] = str(out / words[words.index("-o") + 1])
    if words == ["--version"]:
        with pytest.raises(SystemExit) as exit_info:
            main(words)
        return int(exit_info.value.code or 0)
    if words[:2] == ["score", "--json"]:
        monkeypatch.setattr("sys.stdin", io.StringIO(STDIN))
    return main(words)


# golden-tested elsewhere, so here they wait for -m slow: tests/cli/test_diff.py runs the first command against its
# golden file, test_diff_markdown.py the Markdown form of the same diff (on 300 hands)
GOLDEN_TESTED = {"riichi diff house wrc2025", "riichi diff house wrc2025 --format md"}


@pytest.mark.parametrize(
    ("command", "code"),
    [pytest.param(c, code, id=c, marks=pytest.mark.slow if c in GOLDEN_TESTED else ()) for c, code in TOUR],
)
def test_tour_command_runs(command: str, code: int | tuple[int, ...], monkeypatch: pytest.MonkeyPatch, capsys, tmp_path: Path) -> None:
    monkeypatch.chdir(ROOT)
    got = _run(command, monkeypatch, tmp_path)
    assert got in code if isinstance(code, tuple) else got == code
    captured = capsys.readouterr()
    written = sorted(tmp_path.iterdir())
    assert (captured.out or written) and "Traceback" not in captured.err  # `-o FILE` writes the file instead


def test_readme_tour_lists_only_these_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## A short tour", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    written = {re.sub(r"\s+#.*$", "", line.replace("echo '" + STDIN.strip() + "' | ", "")).strip() for line in block.splitlines()}
    assert {line for line in written if line.startswith("riichi")} <= {c for c, _ in TOUR}
