"""How long `riichi diff` takes with witness search, per pair of bundled rulebooks (cold process each time).

The mahjong package has no notion of comparing rulesets, so there is no peer column here; the figure to watch is
seconds per diff, which the issue wants "in seconds, not minutes".
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

PAIRS = [("house", "wrc2025"), ("house", "mleague"), ("house", "sanma"), ("wrc2025", "mahjchina"), ("house", "tenhou")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=4000, help="random hands searched per diff")
    args = parser.parse_args()
    print(f"{'diff':<24} {'seconds':>8} {'changes':>8} {'witnessed':>10} {'searched':>9}")
    for a, b in PAIRS:
        start = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-m", "engine.cli", "diff", a, b, "--json", "--hands", str(args.hands)],
            capture_output=True,
            text=True,
            check=False,
        )
        elapsed = time.perf_counter() - start

        report = json.loads(out.stdout)
        witnessed = sum(1 for c in report["changes"] if c["witness"] is not None)
        print(f"{a + ' ' + b:<24} {elapsed:>8.2f} {len(report['changes']):>8} {witnessed:>10} {report['searched']:>9}")


if __name__ == "__main__":
    main()
