"""``riichi score``'s options as argparse builds them: help, usage, checks and messages.

Apart from ``engine.cli.score`` so that the common one-hand command, read by ``engine.cli.score_args``, never imports
argparse; ``tests/cli/test_score_args.py`` holds that reader equal to this parser.
"""

from __future__ import annotations

import argparse
from typing import Any

from engine.cli.arguments import counter
from engine.cli.score import FLAGS
from engine.core.situation import COUNTER_FIELDS, COUNTER_OPTIONS


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "hand", nargs="*", metavar="HAND", help="concealed tiles with the winning tile, e.g. 234m567m789p46s88p5s (spaces allowed)"
    )
    parser.add_argument("--win", help="the winning tile, e.g. 5s")
    parser.add_argument("--rulebook", default=None, help="bundled name or path (default: the contract's default rulebook)")
    parser.add_argument("--json", action="store_true", help="read JSON score requests from stdin, one per line")
    parser.add_argument(
        "--rulebook-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="with --json: requests may name `.rulebook` files inside DIR (repeatable); otherwise only bundled ones and --rulebook",
    )
    parser.add_argument("--tsumo", action="store_true", help="self-drawn (default: ron)")
    parser.add_argument("--seat", default=None, choices="ESWN", help="seat wind (E = dealer; default E, said in the output)")
    parser.add_argument("--round", default="E", choices="ESWN", help="round wind")
    for meld in ("chi", "pon", "daiminkan", "kakan", "ankan"):
        parser.add_argument(f"--{meld}", action=_MeldAction, default=[], metavar="TILES", help=f"a {meld} meld (melds count in the order given)")
    for flag in FLAGS:
        parser.add_argument(f"--{flag.replace('_', '-')}", dest=flag, action="store_true")
    parser.add_argument("--dora", default="", help="dora indicators")
    parser.add_argument("--ura", default="", help="ura dora indicators")
    for name in COUNTER_FIELDS:  # the situation's counters, each with its option and help (``COUNTER_OPTIONS``)
        option, words = COUNTER_OPTIONS[name]
        parser.add_argument(option, type=counter, default=0, help=words)
    parser.add_argument(
        "--liable",
        default=None,
        choices="ESWN",
        help="the seat liable (pao) for this yakuman: it fed the completing set (the melds count in the order given); "
        "payments are then shown per seat as the rulebook's liability rule splits them",
    )
    parser.add_argument("--from", dest="discarder", default=None, choices="ESWN", help="the discarder of a ron (needed with --liable on a ron)")


class _MeldAction(argparse.Action):
    """``--pon 555z`` and the others: each kind's list, and every meld in the order given (``melds_in_order``), since
    the order of calls decides which one completed a yakuman (pao)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest) or []), values])  # never the shared default
        order = getattr(namespace, "melds_in_order", None) or []
        namespace.melds_in_order = [*order, (self.dest, values)]
