"""Scoring throughput on the same random hands: our Python API, ``riichi score --json``, and the mahjong package.

Run: ``python benchmarks/score.py [--hands N] [--seed S]``. The hands come from ``tests/peer_oracle.py`` (the
generator of the peer cross-check: complete hands with calls, red fives, dora and random situations, a few
incomplete ones). Figures are hands per second; every column scores the same hands.

ours, API, first pass  ``scorer("house").score_json(request)`` on pre-built request dicts, request validation
                       included, with the decomposition cache empty (the first hands a process sees)
ours, API, again       the same hands a second time (decomposition cache warm)
riichi score --json    one subprocess fed every request as a JSON line on stdin, timed from start to exit:
                       interpreter start-up, imports, rulebook compile, JSON in and out included
mahjong 2.1.0          ``HandCalculator.estimate_hand_value`` on pre-converted 136-format tiles, melds and
                       ``HandConfig`` objects (the conversion is not timed), options as the house rules

It also prints the cold load and compile time of the ``house`` rulebook, measured in a fresh process.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mahjong.hand_calculating.divider import HandDivider  # noqa: E402
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402

from engine import decompose  # noqa: E402
from engine.library import scorer  # noqa: E402
from tests.peer_oracle import peer_arguments, random_requests  # noqa: E402

COLD_LOAD = """
import json, time
t0 = time.perf_counter()
from engine.library import scorer
t1 = time.perf_counter()
scorer("house")
t2 = time.perf_counter()
print(json.dumps({"imports": t1 - t0, "load": t2 - t1}))
"""


def cold_load() -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", COLD_LOAD], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout)


def ours_api(requests: list[dict]) -> tuple[float, list[dict]]:
    s = scorer("house")
    start = time.perf_counter()
    results = [s.score_json(r) for r in requests]
    return time.perf_counter() - start, results


def ours_cli(requests: list[dict]) -> tuple[float, list[dict]]:
    exe = shutil.which("riichi")
    command = [exe] if exe else [sys.executable, "-c", "import sys; from engine.cli import main; sys.exit(main())"]
    payload = "".join(json.dumps(dict(r, rulebook="house")) + "\n" for r in requests)
    start = time.perf_counter()
    out = subprocess.run([*command, "score", "--json"], input=payload, capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - start
    if out.returncode != 0:
        raise SystemExit(f"riichi score --json failed ({out.returncode}): {out.stderr.strip()}")
    return elapsed, [json.loads(line) for line in out.stdout.splitlines()]


def peer(requests: list[dict]) -> float:
    calls = [peer_arguments(r) for r in requests]
    HandDivider._divide_hand_impl.cache_clear()
    start = time.perf_counter()
    for kwargs in calls:
        HandCalculator.estimate_hand_value(**kwargs)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=20260301)
    args = parser.parse_args()

    load = cold_load()
    requests = random_requests(args.seed, args.hands)
    scorer("house")  # compiled before timing: the API figures are per hand, not per process
    decompose.clear_caches()
    first, results = ours_api(requests)
    again, _ = ours_api(requests)
    cli, cli_results = ours_cli(requests)
    assert [r["ok"] for r in cli_results] == [r["ok"] for r in results], "CLI and API answers differ"
    theirs = peer(requests)
    wins = sum(r["ok"] for r in results)

    n = len(requests)
    print(f"{n:,} hands (seed {args.seed}; {wins:,} scored, {n - wins:,} no yaku or not complete)")
    print(f"{'':34}{'hands/s':>10}{'us/hand':>10}{'vs mahjong':>12}")
    for label, seconds in (
        ("ours, Python API, first pass", first),
        ("ours, Python API, again", again),
        ("ours, riichi score --json", cli),
        ("mahjong 2.1.0 HandCalculator", theirs),
    ):
        print(f"{label:34}{n / seconds:>10,.0f}{seconds / n * 1e6:>10,.0f}{theirs / seconds:>11.2f}x")
    print(
        f"cold load+compile of `house` in a fresh process: {load['load'] * 1000:,.0f} ms "
        f"(after {load['imports'] * 1000:,.0f} ms of imports)"
    )


if __name__ == "__main__":
    main()
