"""Fail when any module of ``engine/`` or ``ruledsl/`` is under the branch-coverage floor.

A total can hide a module nobody tests (a large well-tested scorer lifts a CLI command at 40%), so the floor holds
for every module on its own. The figure is coverage.py's own "Cover" of a ``--cov-branch`` run: covered lines plus
covered branch arcs over statements plus arcs, the number ``--cov-report=term`` prints, so what this script says
can be checked against that table.

A module the run never imported is still a module: the report must list every ``.py`` file of the packages
(``--cov=engine --cov=ruledsl`` makes coverage.py list unimported files at 0%), and a file missing from it fails
too, unless ``[tool.coverage.run] omit`` in ``pyproject.toml`` names it (with the reason beside it).

Usage (what ``.ci/run`` does)::

    python -m pytest --cov=engine --cov=ruledsl --cov-branch --cov-report=json:coverage.json
    python tools/coverage_floor.py coverage.json [--floor 85]

Exit 0 when every module is at or above the floor, 1 listing every module under it (with its figure) or missing
from the report, 2 when the report cannot be read.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "ruledsl")
DEFAULT_FLOOR = 85.0


def _omitted_patterns(root: Path) -> list[str]:
    """The ``omit`` globs of ``[tool.coverage.run]``: a module left out on purpose is not "missing"."""
    try:
        config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return []
    omit = config.get("tool", {}).get("coverage", {}).get("run", {}).get("omit", [])
    return [str(p) for p in omit] if isinstance(omit, list) else []


def package_modules(root: Path = ROOT) -> list[str]:
    """Every module file of the packages, as a path relative to ``root`` with ``/`` (the report's own form)."""
    omit = _omitted_patterns(root)
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            if any(fnmatch.fnmatch(relative, pattern) for pattern in omit):
                continue
            found.append(relative)
    return found


def read_report(path: Path) -> dict[str, float]:
    """``{module path: percent covered}`` from a coverage.py JSON report; ValueError says what is wrong with it."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"cannot read `{path}`: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"`{path}` is not JSON: {exc}") from None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        raise ValueError(f"`{path}` is not a coverage.py JSON report (no `files` object)")
    if not data.get("meta", {}).get("branch_coverage", False):
        raise ValueError(f"`{path}` was measured without branch coverage: run pytest with --cov-branch")
    figures: dict[str, float] = {}
    for name, entry in files.items():
        try:
            figures[Path(name).as_posix()] = float(entry["summary"]["percent_covered"])
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"`{path}`: no `summary.percent_covered` for `{name}`") from None
    return figures


def _relative(name: str, root: Path) -> str:
    """A report's file name relative to ``root``: coverage.py writes names relative to where it ran, or absolute
    ones for a file elsewhere (the packages imported from an installed copy): then from the package folder on."""
    path = Path(name)
    if not path.is_absolute():
        return path.as_posix()
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        parts = path.parts
        for i in range(len(parts) - 1, -1, -1):
            if parts[i] in PACKAGES and parts[i - 1] in ("site-packages", "dist-packages"):
                return "/".join(parts[i:])
        return path.as_posix()


def failures(figures: dict[str, float], floor: float, modules: list[str], root: Path = ROOT) -> list[str]:
    """One line per module under ``floor`` (lowest first) and per module the report lacks."""
    by_module = {_relative(name, root): percent for name, percent in figures.items()}
    low = sorted(
        ((percent, name) for name, percent in by_module.items() if name.split("/")[0] in PACKAGES and percent < floor),
    )
    lines = [f"{name}: {percent:.1f}% (floor {floor:g}%)" for percent, name in low]
    lines += [f"{name}: not in the coverage report (never measured)" for name in modules if name not in by_module]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Fail when a module of engine/ or ruledsl/ is under the coverage floor.")
    parser.add_argument("report", type=Path, help="a coverage.py JSON report (pytest --cov-report=json:FILE)")
    parser.add_argument("--floor", type=float, default=DEFAULT_FLOOR, help=f"percent every module needs (default {DEFAULT_FLOOR:g})")
    args = parser.parse_args(argv)
    try:
        figures = read_report(args.report)
    except ValueError as exc:
        print(f"coverage_floor: error: {exc}", file=sys.stderr)
        return 2
    modules = package_modules(ROOT)
    bad = failures(figures, args.floor, modules, ROOT)
    if bad:
        print(f"coverage_floor: {len(bad)} module(s) under {args.floor:g}% branch coverage:", file=sys.stderr)
        for line in bad:
            print(f"  {line}", file=sys.stderr)
        return 1
    print(f"coverage_floor: all {len(modules)} modules of {' and '.join(PACKAGES)} at or above {args.floor:g}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
