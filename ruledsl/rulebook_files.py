"""Which rulebook files may be read, decided at the read itself: one policy for every file a rulebook reaches.

A rulebook names other files through ``extends``; a server or a batch lets strangers name files inside the
folders its operator allows. A check made only where a request names a file would miss the files its ``extends``
chain reaches (a symlink ``outside.rulebook`` in an allowed folder pointing elsewhere, or ``pw.rulebook`` pointing
at ``/etc/passwd``), so every read of a rulebook file goes through ``read_rulebook_file``, which resolves the real
path and opens only

* a regular file (never a folder, device, FIFO or stdin), read with a byte bound;
* one whose real name ends in ``.rulebook`` (named directly or reached through ``extends``), so that neither a
  name nor a link makes a diagnostic quote some other file of the machine (``scorer("/etc/passwd")`` is refused
  before a byte is read);
* while confined (``confine`` for a whole process, a worker; ``confined`` for one call, a server answering a
  request): one whose real path lies inside an allowed folder or among the bundled rulebooks.

Refusals never show the real path: an answer quotes only the name as it was written.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ruledsl.package_files import bundled_dir
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path
    from typing import NoReturn

# Scoring under a bundled rulebook reads its files through this module alone: the syntax tree's classes and the
# diagnostics (``ruledsl.ast``, ``ruledsl.diagnostics``) are imported only to report a file that cannot be read.

RULEBOOK_SUFFIX = ".rulebook"
# The file size bounds the time of reading it: the hand-written parser takes about 1.5 µs a token, and refuses a
# part nested too deep by itself; a mistake it leaves to lark costs up to about 30 µs a token (a file near the bound
# made of long operator chains and ending in a syntax error: 3.8 s). The bundled rulebooks are at most 32 kB.
MAX_SOURCE_BYTES = 256 * 1024

_process_folders: tuple[str, ...] | None = None
_call_folders: ContextVar[tuple[str, ...] | None] = ContextVar("rulebook_folders", default=None)


class UnreadableRulebook(OSError):
    """A rulebook path that may not be read (missing, not a regular file, outside the allowed folders): never
    opened."""


def _real_folders(folders: Iterable[str]) -> tuple[str, ...]:
    return tuple(os.path.realpath(f) for f in folders)


def normalise(text: str) -> str:
    """Line ends as the parser counts them: "\\r\\n" and a lone "\\r" (old Mac files) become "\\n", so that every
    diagnostic's line and column match what an editor shows."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _printable(text: str) -> str:
    """``ruledsl.diagnostics.printable``, imported only for a refusal's message."""
    from ruledsl.diagnostics import printable

    return printable(text)


def confine(folders: Iterable[str] | None) -> None:
    """From now on this process reads rulebook files only inside ``folders`` (and the bundled ones); None lifts
    it. A worker process calls this once, before any job."""
    global _process_folders
    _process_folders = None if folders is None else _real_folders(folders)


@contextmanager
def confined(folders: Iterable[str] | None) -> Iterator[None]:
    """Within the block, read rulebook files only inside ``folders`` (and the bundled ones); None changes
    nothing."""
    if folders is None:
        yield
        return
    token = _call_folders.set(_real_folders(folders))
    try:
        yield
    finally:
        _call_folders.reset(token)


def allowed_folders() -> tuple[str, ...] | None:
    """The real folders a read may reach now, the bundled one included; None when unconfined."""
    folders = _call_folders.get()
    if folders is None:
        folders = _process_folders
    if folders is None:
        return None
    return (*folders, os.path.realpath(bundled_dir()))


def _inside(real: str, folder: str) -> bool:
    try:
        return os.path.commonpath([real, folder]) == folder
    except ValueError:  # another drive
        return False


def admit(path: str | Path, *, extended: bool = False) -> str:
    """The real path of a rulebook file this process may read; ``UnreadableRulebook`` (naming the file as
    written) otherwise. ``extended``: the file is reached through an ``extends`` (the same policy; the message
    says where the name came from)."""
    try:
        real = os.path.realpath(path)
        mode = os.stat(real).st_mode
    except (OSError, ValueError):
        raise UnreadableRulebook(f"no such file `{_printable(str(path))}`") from None
    if not stat.S_ISREG(mode):
        raise UnreadableRulebook(f"`{_printable(str(path))}` is not a regular file")
    if not real.endswith(RULEBOOK_SUFFIX):
        shown = _printable(str(path))
        if extended or str(path).endswith(RULEBOOK_SUFFIX):
            raise UnreadableRulebook(f"`{shown}` leads to a file whose name does not end in `{RULEBOOK_SUFFIX}`")
        raise UnreadableRulebook(f"`{shown}` is not a rulebook file: a rulebook file's name ends in `{RULEBOOK_SUFFIX}`")
    folders = allowed_folders()
    if folders is not None and not any(_inside(real, folder) for folder in folders):
        raise UnreadableRulebook(f"`{_printable(str(path))}` is outside the folders rulebooks may be read from")
    return real


def read_bytes(path: str | Path, *, extended: bool = False, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """At most ``limit + 1`` bytes of a file ``admit`` allows, opened without following a link swapped in since
    (``O_NOFOLLOW``) and checked again to be a regular file once open."""
    real = admit(path, extended=extended)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(real, flags)
    except OSError:
        raise UnreadableRulebook(f"`{_printable(str(path))}` cannot be opened") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnreadableRulebook(f"`{_printable(str(path))}` is not a regular file")
        return handle.read(limit + 1)


def read_rulebook_file(path: str | Path, *, extended: bool = False) -> str:
    """The text of a rulebook file, read with bounds: only a file ``admit`` allows, at most
    ``MAX_SOURCE_BYTES`` read, UTF-8 required. Past the bound or not UTF-8 is a ``RulebookError`` (the file
    exists but cannot be a rulebook); a file that may not be read raises ``UnreadableRulebook``."""
    data = read_bytes(path, extended=extended)
    if len(data) > MAX_SOURCE_BYTES:
        _refuse(str(path), f"rulebook is larger than {MAX_SOURCE_BYTES:,} bytes", 1, 1, "split it into files that `extends` one another")
    try:
        return normalise(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8", "replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        _refuse(str(path), f"byte {exc.start} is not UTF-8 text", line, column, "save the file as UTF-8")


def _refuse(file: str, message: str, line: int, column: int, help_text: str) -> NoReturn:
    """A file that exists but cannot be a rulebook: a ``RulebookError`` pointing at the place."""
    from ruledsl.ast import Span
    from ruledsl.diagnostics import Diagnostic, RulebookError

    raise RulebookError([Diagnostic("error", message, Span(file, line, column, line, column + 1), help_text)]) from None


# ---- the bundled rulebooks -------------------------------------------------------------------------------------


def bundled_names() -> list[str]:
    """The names of the bundled rulebooks, sorted."""
    return sorted(name[: -len(RULEBOOK_SUFFIX)] for name in os.listdir(bundled_dir()) if name.endswith(RULEBOOK_SUFFIX))


def is_bundled_name(ref: str) -> bool:
    """Whether ``ref`` names a rulebook by bundled name rather than by path (as loading tells them apart)."""
    return not (ref.endswith(RULEBOOK_SUFFIX) or "/" in ref or "\\" in ref)


def read_bundled(name: str, extended: bool) -> tuple[str, str]:
    """(display name, text) of a bundled rulebook, read as loading it by name reads it (the same policy and errors:
    ``FileNotFoundError`` for a name no bundled file has); ``extended``: reached through an ``extends``."""
    if not is_bundled_name(name):  # a path: read as ``ruledsl.resolve`` reads a path
        from ruledsl.resolve import _locate

        display, text, _ = _locate(name, None, extended=extended)
        return display, text
    entry = os.path.join(bundled_dir(), f"{name}{RULEBOOK_SUFFIX}")
    if not os.path.isfile(entry):
        raise FileNotFoundError(name)
    return f"rulebooks/{name}{RULEBOOK_SUFFIX}", read_rulebook_file(entry)


class UnknownRulebookError(Exception):
    """A rulebook named that is neither a bundled one nor a file that can be read."""

    code = "unknown_rulebook"

    def __init__(self, ref: str, reason: str | None = None) -> None:
        from ruledsl.diagnostics import did_you_mean, printable

        help_text = did_you_mean(ref, bundled_names())
        if reason is not None:  # a path: say what is wrong with it
            message = f"unknown rulebook: {reason}"
        else:
            message = f"unknown rulebook `{printable(ref)}`; bundled rulebooks: {', '.join(bundled_names())}"
        if help_text:
            message += f" ({help_text})"
        super().__init__(message)
        self.message = message


__all__ = [
    "MAX_SOURCE_BYTES",
    "RULEBOOK_SUFFIX",
    "UnknownRulebookError",
    "bundled_names",
    "is_bundled_name",
    "normalise",
    "read_bundled",
    "UnreadableRulebook",
    "admit",
    "allowed_folders",
    "confine",
    "confined",
    "read_bytes",
    "read_rulebook_file",
]
