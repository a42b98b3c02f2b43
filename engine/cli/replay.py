"""``riichi replay``: recompute every round of real game logs under a rulebook and report what differs."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine import library
from engine.errors import EngineError, InvalidRequest
from engine.replay.rounds import replay

EXIT_MATCH, EXIT_MISMATCH, EXIT_BAD_INPUT = 0, 1, 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="mjlog XML or tenhou.net/6 JSON files, or folders")
    parser.add_argument("--rulebook", default=None, help="score under this rulebook (default: the log's own rules)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    for raw in args.paths:
        if not Path(raw).exists():
            raise InvalidRequest(f"`{raw}` does not exist")
    try:
        report = replay(args.paths, args.rulebook, library.scorer)
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidRequest(f"cannot read a log: {exc}") from None
    except EngineError:
        raise
    data = report.to_json()
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        for m in report.mismatches[:50]:
            print(f"{m['file']} {m['round']}: {m['what']}: expected {m['expected']}, got {m['got']}")
        if len(report.mismatches) > 50:
            print(f"... and {len(report.mismatches) - 50} more mismatches")
        print(
            f"{report.games} games, {report.rounds} rounds, {report.rounds_matched} matched, "
            f"{report.wins} wins, {len(report.mismatches)} mismatches",
            file=sys.stdout,
        )
    return EXIT_MATCH if not report.mismatches else EXIT_MISMATCH
