"""``riichi explain``: a rulebook, or one of its items, in plain English, with clauses and provenance.

``riichi explain RULEBOOK`` reads every item; ``riichi explain RULEBOOK NAME`` or ``... KIND NAME`` one item
(an item removed by a variant is explained as removed). Exit 0, or 2 for an unknown or invalid rulebook or an
unknown item, with a "did you mean" where a name is close.
"""

from __future__ import annotations

import argparse
import sys

from engine.services.check import Unreadable, read_target
from ruledsl.diagnostics import RulebookError
from ruledsl.explain import UnknownItem, explain_query, explain_rulebook
from ruledsl.resolve import UnknownRulebookError, resolve

EXIT_OK, EXIT_TROUBLE = 0, 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rulebook", metavar="RULEBOOK", help="a bundled rulebook name or a rulebook file")
    parser.add_argument(
        "item",
        nargs="*",
        metavar="ITEM",
        help="one item: its name, or its kind and name (e.g. `yaku my_local_yaku`); default: every item",
    )


def run(args: argparse.Namespace) -> int:
    try:
        display, text = read_target(args.rulebook)
        resolved = resolve(display, text=text, file=display if text is not None else None)
    except Unreadable as exc:
        return _fail(str(exc))
    except UnknownRulebookError as exc:
        return _fail(exc.message)
    except RulebookError as exc:
        print(exc.message, file=sys.stderr)
        return _fail(f"`{args.rulebook}` has errors; `riichi check {args.rulebook}` lists them")
    query = " ".join(args.item).strip()
    if not query:
        print(explain_rulebook(resolved))
        return EXIT_OK
    try:
        print(explain_query(resolved, query))
    except UnknownItem as exc:
        return _fail(exc.message)
    return EXIT_OK


def _fail(message: str) -> int:
    print(f"riichi explain: error: {message}", file=sys.stderr)
    return EXIT_TROUBLE
