"""Rulebook load and compile time, for every bundled rulebook: cold in a fresh process, warm in this one.

Run: ``python benchmarks/load.py [--runs N] [--warm N]``.

cold     one fresh ``python -c`` per rulebook and run, so nothing is cached: reading the file and its ``extends``
         chain, building the LALR parser, parsing, resolving, checking and compiling; the median of ``--runs``.
         The imports of ``ruledsl`` are timed apart (``imports``), since every process pays them once.
scorer   building the engine's ``Scorer`` (its precomputed tables) from the compiled rulebook, in that process.
warm     ``ruledsl.compile.load`` again in this process, where the parser is built and the modules are imported:
         what a server pays to reload a rulebook; the median of ``--warm``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from ruledsl.compile import load  # noqa: E402
from ruledsl.resolve import bundled_names  # noqa: E402

COLD = """
import json, time
t0 = time.perf_counter()
from ruledsl.compile import load
from engine.scoring.score import Scorer
t1 = time.perf_counter()
rulebook = load({name!r})
t2 = time.perf_counter()
Scorer(rulebook)
t3 = time.perf_counter()
print(json.dumps({{"imports": t1 - t0, "load": t2 - t1, "scorer": t3 - t2}}))
"""


def cold(name: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", COLD.format(name=name)], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return json.loads(out.stdout)


def warm(name: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        load(name)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per rulebook (median)")
    parser.add_argument("--warm", type=int, default=10, help="in-process reloads per rulebook (median)")
    args = parser.parse_args()

    load("house")  # build the parser once, so every warm figure is a reload
    print("times in milliseconds; cold = fresh process (median of "
          f"{args.runs}), warm = reload in a running process (median of {args.warm})")
    header = f"{'rulebook':18}{'chain':36}{'items':>6}{'imports':>9}{'cold':>8}{'scorer':>8}{'warm':>8}"
    print(header)
    print("-" * len(header))
    for name in bundled_names():
        runs = [cold(name) for _ in range(args.runs)]
        rulebook = load(name)
        chain = " -> ".join(book.name for book in reversed(rulebook.resolved.chain))
        items = sum(len(rules) for rules in rulebook.rules.values())
        row = {key: statistics.median(run[key] for run in runs) * 1000 for key in runs[0]}
        print(
            f"{name:18}{chain:36}{items:>6}{row['imports']:>9.0f}{row['load']:>8.0f}"
            f"{row['scorer']:>8.1f}{warm(name, args.warm) * 1000:>8.1f}"
        )


if __name__ == "__main__":
    main()
