"""How long `riichi diff` takes with witness search, per pair of bundled rulebooks (a cold process each time).

Run: ``python benchmarks/diff.py [--hands N] [--repeat R] [--pairs house:wrc2025,...]``. Each diff runs as the user
runs it (``python -m engine.cli diff A B --json``) in a fresh process; the figure is that process's CPU time (user
plus system, from the kernel's accounting of the finished child: the wall clock of a shared machine counts other
work too) and its wall clock, the best of ``--repeat`` runs (default 3), with the number of hands it searched. The
mahjong package has no notion of comparing rulesets, so there is no peer column here.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAIRS = [("house", "wrc2025"), ("house", "mleague"), ("house", "sanma"), ("wrc2025", "mahjchina"), ("house", "tenhou")]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(a: str, b: str, hands: int | None) -> tuple[float, float, dict]:
    """(CPU seconds, wall seconds, the JSON report) of one ``riichi diff A B`` in a fresh process."""
    command = [sys.executable, "-m", "engine.cli", "diff", a, b, "--json"] + (["--hands", str(hands)] if hands is not None else [])
    cpu, wall = _children_cpu(), time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
    cpu, wall = _children_cpu() - cpu, time.perf_counter() - wall
    if not out.stdout.strip():
        raise SystemExit(f"riichi diff {a} {b} failed ({out.returncode}): {out.stderr.strip()[-400:]}")
    return cpu, wall, json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=None, help="random hands searched per diff (default: the command's own)")
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per diff; the best is shown (default 3)")
    parser.add_argument("--pairs", default=None, help="comma-separated A:B pairs (default: five bundled pairs)")
    args = parser.parse_args()
    pairs = [tuple(p.split(":", 1)) for p in args.pairs.split(",")] if args.pairs else PAIRS
    print(f"best of {max(args.repeat, 1)} fresh processes per diff")
    print(f"{'diff':<24} {'CPU s':>7} {'wall s':>7} {'changes':>8} {'witnessed':>10} {'searched':>9}")
    for a, b in pairs:
        runs = [run(a, b, args.hands) for _ in range(max(args.repeat, 1))]
        cpu = min(r[0] for r in runs)
        wall = min(r[1] for r in runs)
        report = runs[0][2]
        witnessed = sum(1 for c in report["changes"] if c["witness"] is not None)
        print(f"{a + ' ' + b:<24} {cpu:>7.2f} {wall:>7.2f} {len(report['changes']):>8} {witnessed:>10} {report['searched']:>9,}")


if __name__ == "__main__":
    main()
