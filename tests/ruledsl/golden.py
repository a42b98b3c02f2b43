"""Helpers of the golden-file tests: run the CLI in-process from the repository root, and compare (or, with
``UPDATE_GOLDEN=1``, rewrite) an expected-output file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def run(argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.chdir(ROOT)
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def compare_golden(path: Path, actual: str) -> None:
    if UPDATE:
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}; run with UPDATE_GOLDEN=1 to create it"
    assert actual == path.read_text(encoding="utf-8")


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()
