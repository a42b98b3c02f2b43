"""``riichi check``: validate rulebook files and run the examples they contain.

Every diagnostic is printed in the one format (position, source line, caret, help), errors and warnings alike,
then one summary line per file. A file that checks clean also has its own ``example`` lines scored; a failing
example is reported as an error at its line; and each flow rule it writes that another rule of the rulebook keeps
from ever acting is a warning naming that rule (``engine.diff.shadowing``). Exit 0 when every file is valid (warnings allowed), 1 when any
has errors, 2 when a file cannot be read at all.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.cli import no_collections
from engine.services.check import (
    FileReport,
    Unreadable,
    check_resolving,
    check_source,
    check_target,
    read_target,
)

EXIT_OK, EXIT_ERRORS, EXIT_UNREADABLE = 0, 1, 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="rulebook files, or bundled rulebook names (see `riichi rulebooks`)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per file instead of text")
    parser.add_argument("--no-examples", action="store_true", help="do not score the rulebook's `example` lines")


def run(args: argparse.Namespace) -> int:
    with no_collections():  # see ``_checked``: the reports, and what they were made from, live until they are printed
        reports = [_checked(target, not args.no_examples) for target in args.files]
        for report in reports:
            if report.unreadable is not None:
                print(f"riichi check: error: {report.unreadable}", file=sys.stderr)
            if args.json:
                print(json.dumps(report.to_json()))
                continue
            # one write per file: a big file's thousands of diagnostics are one string, not two prints each
            shown = "".join(f"{d.render()}\n\n" for d in report.diagnostics)
            if report.unreadable is None:
                shown += f"{report.summary()}\n"
            sys.stdout.write(shown)
        sys.stdout.flush()
    if any(r.unreadable is not None for r in reports):
        return EXIT_UNREADABLE
    if any(not r.ok for r in reports):
        return EXIT_ERRORS
    return EXIT_OK


def _checked(target: str, examples: bool) -> FileReport:
    """One file's report, made with the garbage collector paused (by ``run``, until the reports are printed):
    reading and checking a big file makes hundreds of thousands of objects (its syntax tree, the checker's
    findings) that stay alive until the report is made, so the collections they would trigger walk them again and
    again for the few cycles they free (a fifth of the check of a 2,000-item file)."""
    return check_target(target, examples=examples)


__all__ = ["FileReport", "Unreadable", "check_resolving", "check_source", "check_target", "configure", "read_target", "run"]
