"""``tools/coverage_floor.py``, the CI step that holds every module of ``engine/`` and ``ruledsl/`` at 85% branch
coverage: it must fail on any one module under the floor even when the total is high, name each with
its figure, fail on a module the report lacks (a file nobody imports is not "covered"), and say clearly when the
report itself is wrong, since a floor that silently passes on a bad report enforces nothing.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("coverage_floor", ROOT / "tools" / "coverage_floor.py")
assert _spec is not None and _spec.loader is not None
floor = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(floor)


def report(figures: dict[str, float], branch: bool = True) -> dict[str, Any]:
    """A coverage.py JSON report with the given per-file percentages (the fields the script reads, and a few
    it must ignore)."""
    return {
        "meta": {"format": 3, "version": "7.17.5", "branch_coverage": branch},
        "files": {name: {"summary": {"covered_lines": 1, "num_statements": 2, "percent_covered": p}} for name, p in figures.items()},
        "totals": {"percent_covered": 99.0},
    }


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "coverage.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def every_module_at(percent: float) -> dict[str, float]:
    return {name: percent for name in floor.package_modules(ROOT)}


def test_every_module_of_both_packages_is_listed() -> None:
    modules = floor.package_modules(ROOT)
    on_disk = sorted(p.relative_to(ROOT).as_posix() for pkg in ("engine", "ruledsl") for p in (ROOT / pkg).rglob("*.py"))
    assert modules == on_disk  # pyproject.toml omits nothing
    assert "engine/web/worker.py" in modules and "ruledsl/__init__.py" in modules


def test_a_report_at_the_floor_everywhere_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert floor.main([str(write(tmp_path, report(every_module_at(85.0))))]) == 0
    assert "at or above 85%" in capsys.readouterr().out


def test_each_module_under_the_floor_is_named_with_its_figure_lowest_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    figures = every_module_at(100.0)
    figures["engine/cli/serve.py"] = 61.04
    figures["engine/web/jobs.py"] = 84.99  # just under: no rounding up to the floor
    figures["tests/cli/test_cli_more.py"] = 10.0  # not a module of the packages: not the floor's business
    assert floor.main([str(write(tmp_path, report(figures)))]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "coverage_floor: 2 module(s) under 85% branch coverage:",
        "  engine/cli/serve.py: 61.0% (floor 85%)",
        "  engine/web/jobs.py: 85.0% (floor 85%)",
    ]


def test_a_module_missing_from_the_report_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    figures = every_module_at(100.0)
    del figures["engine/round/actions.py"]
    assert floor.main([str(write(tmp_path, report(figures)))]) == 1
    assert "engine/round/actions.py: not in the coverage report (never measured)" in capsys.readouterr().err


def test_the_floor_can_be_set(tmp_path: Path) -> None:
    path = write(tmp_path, report(every_module_at(90.0)))
    assert floor.main([str(path), "--floor", "90"]) == 0
    assert floor.main([str(path), "--floor", "90.5"]) == 1


def test_absolute_names_and_an_installed_copy_are_read_as_the_module(tmp_path: Path) -> None:
    figures = every_module_at(100.0)
    figures[str(ROOT / "engine" / "api.py")] = figures.pop("engine/api.py")
    site = "/venv/lib/python3.11/site-packages/ruledsl/check.py"
    figures[site] = 50.0
    del figures["ruledsl/check.py"]
    lines = floor.failures(figures, 85.0, floor.package_modules(ROOT), ROOT)
    assert lines == ["ruledsl/check.py: 50.0% (floor 85%)"]


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "cannot read"),
        ("{not json", "is not JSON"),
        ("[1, 2]", "not a coverage.py JSON report"),
        (json.dumps({"meta": {}, "files": []}), "not a coverage.py JSON report"),
        (json.dumps(report({"engine/api.py": 90.0}, branch=False)), "without branch coverage"),
        (json.dumps({"meta": {"branch_coverage": True}, "files": {"engine/api.py": {"summary": {}}}}), "no `summary.percent_covered` for `engine/api.py`"),
    ],
)
def test_a_report_that_cannot_be_used_is_exit_2_saying_why(
    content: str | None, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "coverage.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert floor.main([str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("coverage_floor: error: ") and words in err and "Traceback" not in err


def test_an_omitted_module_is_not_missing(tmp_path: Path) -> None:
    (tmp_path / "engine" / "web").mkdir(parents=True)
    (tmp_path / "ruledsl").mkdir()
    for name in ("engine/__init__.py", "engine/web/big.py", "ruledsl/x.py"):
        (tmp_path / name).write_text("", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.coverage.run]\nbranch = true\n# a generated file\nomit = ["engine/web/big.py"]\n', encoding="utf-8"
    )
    assert floor.package_modules(tmp_path) == ["engine/__init__.py", "ruledsl/x.py"]
    (tmp_path / "pyproject.toml").write_text("not [ toml", encoding="utf-8")
    assert len(floor.package_modules(tmp_path)) == 3  # a config it cannot read omits nothing


def test_a_real_coverage_report_is_read(tmp_path: Path) -> None:
    """The fields read are the ones coverage.py itself writes: measured in a child process (this one may itself be
    under coverage), on a module where half the branches run."""
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "engine" / "half.py").write_text(
        "def sign(x):\n    if x < 0:\n        return -1\n    return 1\n\n\nsign(5)\n", encoding="utf-8"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE")}
    env["PYTHONPATH"] = str(tmp_path)
    run = [sys.executable, "-m", "coverage"]
    subprocess.run([*run, "run", "--branch", "--source=engine", "-m", "engine.half"], cwd=tmp_path, env=env, check=True, timeout=120)
    subprocess.run([*run, "json", "-o", "coverage.json"], cwd=tmp_path, env=env, check=True, timeout=120, capture_output=True)
    figures = floor.read_report(tmp_path / "coverage.json")
    # 5 statements, 1 missed; 2 branch arcs, 1 taken: (4 + 1) / (5 + 2)
    assert figures["engine/half.py"] == pytest.approx(100 * 5 / 7)
    assert floor.failures(figures, 85.0, ["engine/__init__.py", "engine/half.py"], tmp_path) == [
        "engine/half.py: 71.4% (floor 85%)"
    ]
