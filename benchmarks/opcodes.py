"""Bytecode instructions a replayed round executes, by function: where a warm replay pass spends its steps,
counted rather than timed (the same count on any machine, at any load).

Run: ``python benchmarks/opcodes.py [--logs N] [--top K]``. The first ``N`` (default 20) vendored mjlog logs are
read, two of them replayed untimed (the rulebooks compiled), one warm-up pass played, then one more pass traced with
``sys.settrace`` and opcode events (some hundred times slower than untraced: 20 logs take about a minute). Each
function's count is its own instructions, not those of what it calls. Opcodes are not time: a C-level call is one
opcode, a loop of cheap opcodes many (``benchmarks/instructions.py`` counts machine instructions).
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.replay import run as _run  # noqa: E402  (the replay benchmark's own pass over the games)
from engine.replay.rounds import read_events  # noqa: E402


def _name(frame: FrameType) -> str:
    path = frame.f_code.co_filename
    shown = path[len(str(ROOT)) + 1 :] if path.startswith(str(ROOT)) else path
    return f"{shown}:{frame.f_code.co_name}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=20, help="how many of the vendored mjlog logs (sorted by name)")
    parser.add_argument("--top", type=int, default=25, help="how many functions to list")
    args = parser.parse_args(argv)
    paths = sorted((ROOT / "tests" / "data" / "tenhou" / "mjlog").iterdir())[: args.logs]
    games = [(path.name, read_events(path)) for path in paths]
    _run(games[:2])
    gc.freeze()
    _run(games)  # the warm-up pass: what is counted is a warm pass
    counts: Counter[str] = Counter()

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode":
            counts[_name(frame)] += 1
        return trace

    sys.settrace(trace)
    try:
        report = _run(games)
    finally:
        sys.settrace(None)
    total = sum(counts.values())
    print(f"{report.games} games, {report.rounds} rounds: {total:,} bytecode instructions, {total // max(report.rounds, 1):,} a round")
    for name, count in counts.most_common(args.top):
        print(f"{count:>12,} {count / total:6.1%}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
