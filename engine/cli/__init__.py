"""The ``riichi`` console script: one subcommand per module, each registering itself with argparse.

Every error a user can cause is reported as one readable line on stderr with the contract's exit code (2);
a bug of ours is one line too, asking for a report, with exit code 3 (``internal_error``); a Python traceback
never reaches the terminal.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import sys
from collections.abc import Iterator, Sequence
from types import ModuleType

from engine.core.errors import EngineError, InternalError
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse  # the full parser is built only when the quick reading of ``riichi score`` declines (parsing)
    from typing import Any, NoReturn

# (subcommand, module, one-line help). A module exposes ``configure(parser)`` and ``run(args) -> int``.
SUBCOMMANDS: tuple[tuple[str, str, str], ...] = (
    ("score", "engine.cli.score", "score a hand under a rulebook"),
    ("analyze", "engine.cli.analyze", "shanten, waits and decompositions of a hand"),
    ("check", "engine.cli.check", "validate rulebook files"),
    ("diff", "engine.cli.diff", "semantic difference of two rulebooks, with witness hands"),
    ("explain", "engine.cli.explain", "a rulebook, or one of its items, in plain English"),
    ("sheet", "engine.cli.sheet", "the players' handout: the whole rulebook, its clauses and payment tables (md or html)"),
    ("rulebooks", "engine.cli.rulebooks", "list the bundled rulebooks"),
    ("replay", "engine.cli.replay", "replay game logs and compare every hand result"),
    ("play", "engine.cli.play", "self-play whole games with built-in agents"),
    ("impact", "engine.cli.impact", "what changing rulebook A to B does to real game logs"),
    ("schema", "engine.cli.schema", "print the JSON Schema of a request or response model"),
    ("serve", "engine.cli.serve", "web pages and an HTTP API on this machine (the `web` extra)"),
    ("lsp", "engine.cli.lsp", "a language server for `.rulebook` files over stdio (for editors)"),
)

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3  # a bug of ours (contract: `internal_error`), never the exit code of bad input


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The full argparse parser (``engine.cli.parsing``); given ``argv``, only the subcommand it names imports its
    module and options (none when it names none)."""
    from engine.cli.parsing import build_parser as build

    return build(argv)


def _version() -> str:
    """The installed distribution's version (the one ``pip`` reports)."""
    from engine.core.version import shown_version

    return shown_version()


def _unknown_command(word: str | None) -> str | None:
    """The error for a first word that names no subcommand, with the closest one suggested."""
    names = [name for name, _, _ in SUBCOMMANDS]
    if word is None or word in names:
        return None
    from ruledsl.diagnostics import did_you_mean

    hint = did_you_mean(word, names) or f"commands: {', '.join(names)}"
    return f"riichi: error: unknown command `{word}`; {hint}"


def _command_in(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names: its first word that is not an option (the top level has no options but
    ``--help``). None when there is none."""
    return next((word for word in argv if not word.startswith("-")), None)


def _load(module_name: str) -> ModuleType | None:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None
        raise


@contextlib.contextmanager
def no_collections() -> Iterator[None]:
    """The garbage collector paused (then restored as it was) while start-up work runs: importing modules and
    loading and compiling a rulebook allocate a few hundred thousand objects that all stay alive, so the dozens of
    collections they would trigger find nothing to free and only cost start-up time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _quick_arguments(argv: list[str]) -> Any:
    """``riichi score``'s arguments read without argparse (``engine.cli.score_args``), or None: argparse reads
    them, for every other command and whenever that reader is unsure, with argparse's own messages."""
    if not argv or argv[0] != "score":
        return None
    from engine.cli.score_args import read

    return read(argv[1:])


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    unknown = _unknown_command(_command_in(argv))
    if unknown is not None:
        print(unknown, file=sys.stderr)
        return EXIT_BAD_INPUT
    with no_collections():  # the subcommand's imports: many objects made, few freed
        args: Any = _quick_arguments(argv)
        if args is None:
            parser = build_parser(argv)
            args = parser.parse_args(argv)
            if not getattr(args, "command", None):
                parser.print_help(sys.stderr)
                return EXIT_BAD_INPUT
    module = _load(args._module)
    if module is None:
        print(f"riichi {args.command}: not built yet in this version", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return int(module.run(args))
    except InternalError as exc:
        print(f"riichi {args.command}: {exc.message}", file=sys.stderr)
        return EXIT_INTERNAL
    except EngineError as exc:
        print(f"riichi {args.command}: error: {exc.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug of ours: still one readable line, never a traceback, and its own exit code
        print(f"riichi {args.command}: {InternalError.of(exc, f'running `riichi {args.command}`').message}", file=sys.stderr)
        return EXIT_INTERNAL


def _one_shot(argv: list[str]) -> bool:
    """Whether the command scores one hand and ends (``riichi score HAND``, not a ``--json`` batch): everything it
    makes (modules, the rulebook, its scorer, one answer) stays alive until the process ends, so a collection of
    the garbage collector could free nothing. Paused for ``main`` alone, the first collection after it would still
    walk every object made meanwhile: about 2% of the command's work."""
    return bool(argv) and argv[0] == "score" and not any(word.startswith("--j") for word in argv)  # argparse takes `--js`


# Commands that may leave worker processes, threads or files to the interpreter's exit (web server, dask cluster):
# they end the normal way. Every other command has finished its work, written and closed everything when ``main``
# returns.
_NORMAL_EXIT = frozenset({"serve", "impact"})


def console() -> NoReturn:
    """The ``riichi`` console script: ``main``, then out of the process without the interpreter's teardown.

    Tearing down frees every object the process made one by one (the rulebook's syntax tree, its compiled rules,
    every module): about 11 ms of processor time, a quarter of what ``riichi score HAND`` takes from launch to exit without it,
    for memory the operating system reclaims at once anyway. Output is flushed first; nothing of ours registers
    ``atexit`` work on these commands. ``main`` itself returns normally, for tests and embedding programs.
    """
    if _one_shot(sys.argv[1:]):
        gc.disable()  # never enabled again: the process ends with this command
    code = main()
    if _command_in(sys.argv[1:]) in _NORMAL_EXIT:
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # started with the stream closed (``riichi ... >&-``)
            continue
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more can be said on it
            pass
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    console()
