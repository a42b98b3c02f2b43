"""``riichi sheet RULEBOOK``: the players' handout, the whole rulebook in words with its clauses and the payment
tables computed from it; ``--against R`` marks every difference from R. Exit 0, or 2 for bad input (an unknown
or invalid rulebook, a file that cannot be written), each said in one line."""

from __future__ import annotations

import argparse
import sys

from engine.cli.arguments import load_scorer
from engine.cli.output import write_output

EXIT_OK, EXIT_TROUBLE = 0, 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rulebook", metavar="RULEBOOK", help="a bundled rulebook name or a rulebook file")
    parser.add_argument("--against", metavar="R", help="mark every rule that differs from this rulebook (bundled name or file)")
    parser.add_argument("--format", choices=("md", "html"), default="md", help="Markdown (default) or a printable HTML page")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the handout to FILE instead of the terminal")


def run(args: argparse.Namespace) -> int:
    from engine.sheet import handout

    scorer = load_scorer(args.rulebook)
    against = load_scorer(args.against) if args.against else None
    text = handout(scorer, against, args.format)
    if not args.output:
        sys.stdout.write(text)
        return EXIT_OK
    return EXIT_OK if write_output("sheet", args.output, text) else EXIT_TROUBLE
