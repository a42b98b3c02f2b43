"""Impact runs shared by the tests of this folder: each (A, B, files) is run once per test session."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from engine.impact.run import run_impact
from engine.replay.rounds import log_files
from tests.impact.oracle import corpus
from tests.spec_files import TENHOU

KIRIAGE_ONLY = str(Path(__file__).parent / "data" / "kiriage_only.rulebook")


def subset() -> tuple[Path, ...]:
    """A fixed sample of the corpus for the default (fast) run: every eleventh game."""
    return tuple(corpus()[::11])


def excerpts() -> tuple[Path, ...]:
    """The short excerpts of real games kept for their rare events: double ron, four riichi, nine terminals..."""
    return tuple(log_files([str(TENHOU / "excerpts")]))


@cache
def report(a: str, b: str, files: tuple[Path, ...] | None = None, workers: int = 2, flow: bool = True) -> dict[str, Any]:
    """The JSON report of one run (the whole corpus by default), computed once per test session."""
    return run_impact(a, b, files or tuple(corpus()), workers=workers, flow=flow).to_json()


def item(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(i for i in report["items"] if i["item"] == name)
