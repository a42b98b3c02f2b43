"""The ``riichi`` command's full argparse parser: every command's options, help and usage messages.

Imported only when it is needed: argparse with what it brings in (``gettext``, ``locale``, ``shutil`` and its
compressors) and the parser it builds cost a one-hand ``riichi score`` about a tenth of its start-up, so that
command's common form is read by ``engine.cli.score_args`` and reaches this module only for ``--help``, a mistake
or anything that reader is unsure of.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import engine.cli as cli  # read at each use: tests replace its commands and loader


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage mistakes with exit code 2 and no traceback (its default, made explicit)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(cli.EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The full parser; given ``argv``, only the subcommand it names imports its module and options (none when it
    names none: ``riichi --help`` lists the commands from ``SUBCOMMANDS``), so that a command (``riichi score
    --json`` in a pipeline, say) starts without importing every other one, nor pydantic through them."""
    wanted = cli._command_in(argv) if argv is not None else None
    load_all = argv is None
    # ``riichi score ...``: the other subcommands' parsers would only be built to be thrown away (a dozen argparse
    # parsers, each looking up its messages' translations: several ms of a one-hand command's start-up). Only when
    # the command comes first: ``riichi --help score`` still lists every command.
    alone = wanted if argv and argv[0] == wanted else None
    parser = _Parser(prog="riichi", description="Riichi mahjong rules as data.")
    parser.add_argument("--version", action=_VersionAction, help="show the installed version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, module_name, help_text in cli.SUBCOMMANDS:
        if alone is not None and name != alone:
            continue
        sp = sub.add_parser(name, help=help_text, description=help_text)
        sp.set_defaults(_module=module_name)
        module = cli._load(module_name) if load_all or wanted == name else None
        if module is not None:
            module.configure(sp)
        else:
            sp.add_argument("rest", nargs="*", help=argparse.SUPPRESS)
    return parser


class _VersionAction(argparse.Action):
    """``--version``, looked up only when asked: reading the installed distribution's metadata imports
    ``importlib.metadata`` (and ``email``), about 23 ms that every other command would pay otherwise."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object, option_string: str | None = None) -> None:
        parser._print_message(f"riichi {cli._version()}\n", sys.stdout)
        parser.exit()
