"""``riichi lsp``: a Language Server Protocol server for `.rulebook` files on stdin/stdout (``engine.lsp``).

An editor starts it (see docs/editors.md); it answers until the editor says `exit` or closes the pipe. It needs
nothing beyond the package itself.
"""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default and only transport; "
                        "accepted because some editors pass it)")


def run(args: argparse.Namespace) -> int:
    from engine.lsp.server import run as serve

    return serve()
