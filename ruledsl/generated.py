"""The command line of a generated file the package ships (parser tables, parsed rulebooks): ``--write`` writes it
from its sources, ``--check`` exits 1 while the shipped one differs (the tests call the same check)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path


def write_or_check(prog: str, description: str, shown: str, path: str | Path, render: Callable[[], str], shipped: Callable[[], str | None], command: str, argv: list[str] | None = None) -> int:
    """``shown`` names the file in messages (``ruledsl/grammar_tables.json``); ``render`` builds its text."""
    import argparse  # here: argparse costs start-up time, and the modules calling this are imported at start-up

    parser = argparse.ArgumentParser(prog=prog, description=description)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help=f"write {shown} from its sources")
    mode.add_argument("--check", action="store_true", help=f"exit 1 if the shipped {shown} is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.write:
        Path(path).write_text(text, encoding="utf-8")
        print(f"wrote {path}")
        return 0
    if shipped() != text:
        print(f"{shown} is stale; regenerate it with `{command}`", file=sys.stderr)
        return 1
    return 0
