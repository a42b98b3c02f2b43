"""``riichi impact A B LOGS...``: what changing rulebook A to B does to real games, charged item by item.

Exit 0 when no round changes, 1 when some do, 2 on bad input (a rulebook that does not load, a path that does
not exist, no log among the paths, or no log that could be read: the report is printed, the files named on
stderr). Text on a terminal, ``--json`` (stable fields), ``--format md`` to publish, ``--format html`` for one
offline page with charts (the ``report`` extra); both escape every word quoted from a rulebook or a log.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.cli.arguments import load_scorer, positive
from engine.cli.output import write_output
from engine.cli.progress import ticker
from engine.core.errors import InvalidRequest
from engine.impact.report import render_markdown, render_text
from engine.impact.run import EXECUTORS, run_impact
from engine.replay.rounds import log_files

EXIT_SAME, EXIT_CHANGED, EXIT_BAD_INPUT = 0, 1, 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", help="the rulebook the logs were played under (bundled name or path)")
    parser.add_argument("b", help="the rulebook to re-settle them under (bundled name or path)")
    parser.add_argument("logs", nargs="+", metavar="LOG", help="mjlog, tenhou.net/6 JSON or mjai files, or folders of them")
    parser.add_argument("--json", action="store_true", help="machine-readable output (same as --format json)")
    parser.add_argument("--format", choices=("text", "json", "md", "html"), default="text")
    parser.add_argument("-o", "--output", help="write the report to this file instead of standard output")
    parser.add_argument("--workers", type=positive, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--executor", choices=EXECUTORS, default="local", help="local process pool, or Dask (the `cluster` extra)")
    parser.add_argument(
        "--wins-only", action="store_true",
        help="re-score the wins only, without playing whole rounds through the round engine (several times faster)",
    )
    parser.add_argument("--scheduler", default=None, help="with --executor dask: an existing scheduler (tcp://host:8786); default a local cluster")


def run(args: argparse.Namespace) -> int:
    fmt = "json" if args.json else args.format
    load_scorer(args.a), load_scorer(args.b)  # a rulebook that does not load is bad input before any log is read
    for raw in args.logs:
        if not Path(raw).exists():
            raise InvalidRequest(f"`{raw}` does not exist")
    files = log_files(args.logs)
    if not files:
        raise InvalidRequest("no game log among the paths given (.mjlog, .xml, .json, .mjson, .jsonl)")
    if fmt == "html":
        from engine.impact.html import _pygal

        _pygal()  # refuse before the run, not after it
    with ticker(total=len(files), label="impact", enabled=False if fmt == "json" else None) as tick:
        summary = run_impact(
            args.a, args.b, files, workers=args.workers, executor=args.executor, scheduler=args.scheduler,
            on_file=lambda _: tick(), flow=not args.wins_only,
        )
    report = summary.to_json()
    if fmt == "json":
        text = json.dumps(report, ensure_ascii=False)
    elif fmt == "md":
        text = render_markdown(report)
    elif fmt == "html":
        from engine.impact.html import render_html

        text = render_html(report)
    else:
        text = render_text(report)
    if args.output:
        if not write_output("impact", args.output, text + "\n"):
            return EXIT_BAD_INPUT
    else:
        print(text)
    if nothing_read(summary.files, summary.unreadable_count, summary.unreadable):
        return EXIT_BAD_INPUT
    return EXIT_CHANGED if summary.changed else EXIT_SAME


def nothing_read(files: int, unreadable: int, named: list[dict[str, str]]) -> bool:
    """True (and the files named on stderr) when no log could be read: "no change" would be a claim about games
    nobody looked at, so it is bad input, as for ``riichi replay``."""
    if files == 0 or unreadable < files:
        return False
    shown = "; ".join(f"{e['file']}: {e.get('error') or e.get('message')}" for e in named[:5])
    more = f"; and {unreadable - 5:,} more" if unreadable > 5 else ""
    print(f"riichi impact: error: no game log could be read ({unreadable:,} of {files:,} unreadable): {shown}{more}", file=sys.stderr)
    return True
