"""`riichi check` of a file that writes no example of its own builds its scorer from the settings alone: the
report is the one that compiling and preparing every rule gives (``_run_examples(whole=True)``), on every rulebook
of the repository, every checker fixture, a file extending each bundled rulebook, and a scorer that refuses one."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from engine.core.errors import EngineError
from engine.scoring import prepared
from engine.services import check as check_service
from ruledsl.resolve import bundled_names

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(
    str(p.relative_to(ROOT))
    for folder in ("rulebooks", "tests/ruledsl/fixtures", "tests/golden", "docs")
    for p in (ROOT / folder).rglob("*.rulebook")
)


def _report(monkeypatch: pytest.MonkeyPatch, whole: bool, target: str, text: str | None = None) -> tuple[object, ...]:
    with monkeypatch.context() as patch:
        patch.setattr(check_service, "_run_examples", functools.partial(check_service._run_examples, whole=whole))
        report = check_service.check_target(target) if text is None else check_service.check_source(target, text)
    rendered = "\n\n".join(d.render() for d in report.diagnostics)
    return rendered, report.summary(), report.to_json()


def _extending(name: str) -> str:
    return "\n".join(
        [
            f'rulebook no_examples "No example of its own" extends {name}',
            'source "test"',
            '@clause("T1")',
            'yaku t1 "T1" {',
            "  han = 1",
            "  when = count(g in sets: is_kan(g)) >= 4",
            "}",
            "",
        ]
    )


# The bundled rulebooks run every example twice here (seconds each): the default run takes two of them (four and
# three players), ``-m slow`` the others; every fixture runs by default.
_DEFAULT_BUNDLED = {"rulebooks/house.rulebook", "rulebooks/sanma.rulebook"}


@pytest.mark.parametrize(
    "target",
    [pytest.param(f, marks=pytest.mark.slow) if f.startswith("rulebooks/") and f not in _DEFAULT_BUNDLED else f for f in FILES],
)
def test_a_file_gets_the_report_of_every_rule_prepared(monkeypatch: pytest.MonkeyPatch, target: str) -> None:
    monkeypatch.chdir(ROOT)
    assert _report(monkeypatch, False, target) == _report(monkeypatch, True, target)


@pytest.mark.parametrize("name", sorted(bundled_names()))
def test_a_file_without_examples_gets_the_report_of_every_rule_prepared(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    text = _extending(name)
    cheap = _report(monkeypatch, False, "no_examples.rulebook", text)
    assert cheap == _report(monkeypatch, True, "no_examples.rulebook", text)
    assert cheap[2]["examples"] == {"run": 0, "failed": 0}  # type: ignore[index]


def test_a_scorer_that_refuses_the_rulebook_is_reported_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(cycles: object) -> dict[int, int]:
        raise EngineError("a broken dora cycle")

    monkeypatch.setattr(prepared, "successor_table", refuse)
    text = _extending("house")
    cheap = _report(monkeypatch, False, "no_examples.rulebook", text)
    assert cheap == _report(monkeypatch, True, "no_examples.rulebook", text)
    assert "the scorer cannot use this rulebook: a broken dora cycle" in str(cheap[0])
