"""Impact throughput and scaling: rounds re-settled per second, with one worker and with all, on growing corpora.

Run: ``python benchmarks/impact.py [--a house] [--b mleague] [--scales 1,10] [--workers N] [--wins-only]``. The corpus is the
shipped real games (``tests/data/tenhou``: 165 mjlog and 37 tenhou.net/6 JSON games); scale k copies every file
k times into a temporary folder (replicated games), so that the per-round time and the memory can be compared
across sizes. The clock covers the whole ``run_impact`` call: reading each log, re-scoring every win under both
rulebooks, attributing the changed ones, folding the results. Memory is the peak resident size of this process and
of the largest worker (``ru_maxrss`` of self and children): it must not grow with the corpus.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.core.pool import default_workers  # noqa: E402
from engine.impact.run import run_impact  # noqa: E402
from engine.replay.rounds import log_files  # noqa: E402

CORPUS = [str(ROOT / "tests" / "data" / "tenhou" / "mjlog"), str(ROOT / "tests" / "data" / "tenhou" / "json")]


def replicated(files: list[Path], copies: int, folder: Path) -> list[Path]:
    """``copies`` copies of every file, each under its own name (the suffix kept: it selects the reader)."""
    out = []
    for k in range(copies):
        for path in files:
            target = folder / f"{k:03d}-{path.name}"
            shutil.copyfile(path, target)
            out.append(target)
    return out


def measure(a: str, b: str, files: list[Path], workers: int, flow: bool) -> dict[str, float]:
    started = time.perf_counter()
    summary = run_impact(a, b, files, workers=workers, flow=flow)
    seconds = time.perf_counter() - started
    return {
        "files": len(files),
        "rounds": summary.rounds,
        "seconds": seconds,
        "rounds_per_s": summary.rounds / seconds,
        "ms_per_round": 1000 * seconds / summary.rounds,
        "peak_rss_mb_self": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "peak_rss_mb_worker": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="house")
    parser.add_argument("--b", default="mleague")
    parser.add_argument("--scales", default="1,10", help="corpus sizes as multiples of the shipped games")
    parser.add_argument("--workers", type=int, default=default_workers(), help="the 'all workers' count")
    parser.add_argument("--wins-only", action="store_true", help="re-score wins only (no round engine), as `riichi impact --wins-only`")
    args = parser.parse_args()
    flow = not args.wins_only
    files = log_files(CORPUS)
    mode = "wins only" if args.wins_only else "whole rounds through the round engine"
    print(f"impact {args.a} -> {args.b} ({mode}); {len(files)} shipped games; {os.cpu_count()} cores, {args.workers} workers")
    run_impact(args.a, args.b, files[:1], workers=1, flow=flow)  # compile both rulebooks once: start-up is not throughput
    for workers in sorted({1, args.workers}):
        row = measure(args.a, args.b, files, workers, flow)
        print(
            f"  1x corpus, {workers} worker(s): {row['rounds']:,} rounds in {row['seconds']:.1f} s = "
            f"{row['rounds_per_s']:,.0f} rounds/s ({row['ms_per_round']:.2f} ms/round)"
        )
    for scale in (int(s) for s in args.scales.split(",") if s):
        with tempfile.TemporaryDirectory(prefix="impact-bench-") as tmp:
            corpus = replicated(files, scale, Path(tmp))
            row = measure(args.a, args.b, corpus, args.workers, flow)
        print(
            f"  {scale}x corpus ({row['files']:,} files), {args.workers} workers: {row['rounds']:,} rounds in "
            f"{row['seconds']:.1f} s, {row['ms_per_round']:.2f} ms/round; peak RSS {row['peak_rss_mb_self']:.0f} MB "
            f"(main), {row['peak_rss_mb_worker']:.0f} MB (largest worker)"
        )


if __name__ == "__main__":
    main()
