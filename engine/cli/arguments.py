"""Command-line arguments checked where the user typed them, so an error names the argument and its text.

The engine reports a bad tile by its place in a string it was handed; on the command line the user needs to
know which of several tile arguments is wrong (``--dora 8z: honour `8z` does not exist``). Likewise a rulebook
path that does not exist is "no such file", not an unknown bundled name.
"""

from __future__ import annotations

import os
import re

from engine.core import tiles as T
from engine.core.errors import UnknownRulebook
from engine.scoring import library
from engine.scoring.score import Scorer
from ruledsl.rulebook_files import RULEBOOK_SUFFIX

_POSITION = re.compile(r" at position \d+")


def checked_tiles(argument: str, text: str) -> None:
    """Raise the notation error of ``text`` prefixed by the argument it came from; nothing when it reads."""
    if not text:
        return
    try:
        T.parse_tiles(text)
    except T.NotationError as exc:
        message = exc.message
        quoted = re.search(r"`([^`]+)`", message)
        if quoted and text.count(quoted.group(1)) == 1:
            message = _POSITION.sub("", message)  # the quoted tile is unambiguous within the argument
        raise T.NotationError(f"{argument} {text}: {message}", exc.text, exc.position) from None


def counter(text: str) -> int:
    """argparse type of a count on the table (honba, sticks, kita): a whole number, zero or more."""
    from argparse import ArgumentTypeError  # already loaded: argparse is the caller

    try:
        value = int(text)
    except ValueError:
        raise ArgumentTypeError(f"`{text}` is not a whole number") from None
    if value < 0:
        raise ArgumentTypeError(f"`{text}` is negative; give 0 or more")
    return value


def positive(text: str) -> int:
    """argparse type of a search size: a whole number, 1 or more."""
    from argparse import ArgumentTypeError

    value = counter(text)
    if value < 1:
        raise ArgumentTypeError(f"`{text}` must be 1 or more")
    return value


def looks_like_path(ref: str) -> bool:
    """A rulebook argument that names a file rather than a bundled rulebook (as the loader decides it)."""
    return ref.endswith(RULEBOOK_SUFFIX) or "/" in ref or "\\" in ref


def load_scorer(ref: str, *, plain: bool = False) -> Scorer:
    """The scorer of a bundled name or a rulebook file; a path that is not there is "no such file".

    ``plain``: the reference scorer (``Scorer(reference=True)``: every rule run as its compiled nodes, nothing
    prepared ahead), for a command that scores a hand or a few. Its answers are the fast scorer's
    (``tests/ruledsl/test_reference_scoring.py`` holds whole responses equal); it is built in a fifth of the
    instructions (9.7 M against 49.4 M under the default rulebook) and scores a hand in about 1.5 M more, so the fast scorer
    pays only after some thirty hands."""
    if looks_like_path(ref) and not os.path.isfile(ref):
        reason = "is a directory, not a rulebook file" if os.path.isdir(ref) else "no such file"
        raise UnknownRulebook(f"`{ref}`: {reason}")
    if plain:
        return Scorer(library.rulebook(ref), reference=True)
    return library.scorer(ref)
