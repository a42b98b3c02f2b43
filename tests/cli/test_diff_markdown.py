"""`riichi diff --format md`: the table an organiser publishes, golden, for the bundled pair and for a club file
with several changes (each row's example hand is the one its own rule moves)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.cli import main
from ruledsl import ast
from ruledsl.explain import english

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
SEVERAL = str(Path(__file__).resolve().parent / "fixtures" / "several_changes.rulebook")


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("diff_house_wrc2025.md", ["house", "wrc2025", "--format", "md", "--hands", "300"]),
        ("diff_several_changes.md", ["house", SEVERAL, "--format", "md", "--hands", "300"]),
        ("diff_several_changes.txt", ["house", SEVERAL, "--hands", "300"]),
    ],
)
def test_diff_output_is_golden(capsys, monkeypatch, name: str, args: list[str]) -> None:
    monkeypatch.chdir(Path(SEVERAL).parent)  # the club file is named by a path relative to its folder
    args = [a if a != SEVERAL else "several_changes.rulebook" for a in args]
    assert main(["diff", *args]) == 1
    out = capsys.readouterr().out
    golden = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


def test_plain_english_keeps_the_grouping_of_and_and_or() -> None:
    a, b, c, d = (ast.Name(n) for n in ("riichi", "tsumo", "closed", "ron"))
    mixed = ast.BinOp("or", ast.BinOp("and", a, b), ast.BinOp("and", c, d))
    grouped = ast.BinOp("and", ast.BinOp("or", a, b), ast.BinOp("or", c, d))
    assert english(mixed).startswith("(") and ") or (" in english(mixed)
    assert ") and (" in english(grouped)
