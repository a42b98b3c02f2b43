"""The ``--narrate`` and ``--discards`` flags, shared by `riichi play` and `riichi replay`.

A module of their own so that `riichi replay` does not import the self-play command (and its agents and game
modules) only to declare two flags.
"""

from __future__ import annotations

import argparse


def add_narrate(parser: argparse.ArgumentParser) -> None:
    """``--narrate`` and ``--discards``, the same two flags on `riichi play` and `riichi replay`."""
    parser.add_argument("--narrate", action="store_true", help="tell each round in words: deal, calls, riichi, wins and yaku, draws, payments")
    parser.add_argument("--discards", action="store_true", help="with --narrate, list each seat's discards (implies --narrate)")
