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

from ruledsl import ast
from ruledsl.diagnostics import Diagnostic, RulebookError, printable
from ruledsl.package_files import bundled_dir
from ruledsl.parser import MAX_SOURCE_BYTES, normalise
from ruledsl.typing_names import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

RULEBOOK_SUFFIX = ".rulebook"

_process_folders: tuple[str, ...] | None = None
_call_folders: ContextVar[tuple[str, ...] | None] = ContextVar("rulebook_folders", default=None)


class UnreadableRulebook(OSError):
    """A rulebook path that may not be read (missing, not a regular file, outside the allowed folders): never
    opened."""


def _real_folders(folders: Iterable[str]) -> tuple[str, ...]:
    return tuple(os.path.realpath(f) for f in folders)


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
    shown = printable(str(path))
    try:
        real = os.path.realpath(path)
        mode = os.stat(real).st_mode
    except (OSError, ValueError):
        raise UnreadableRulebook(f"no such file `{shown}`") from None
    if not stat.S_ISREG(mode):
        raise UnreadableRulebook(f"`{shown}` is not a regular file")
    if not real.endswith(RULEBOOK_SUFFIX):
        if extended or str(path).endswith(RULEBOOK_SUFFIX):
            raise UnreadableRulebook(f"`{shown}` leads to a file whose name does not end in `{RULEBOOK_SUFFIX}`")
        raise UnreadableRulebook(f"`{shown}` is not a rulebook file: a rulebook file's name ends in `{RULEBOOK_SUFFIX}`")
    folders = allowed_folders()
    if folders is not None and not any(_inside(real, folder) for folder in folders):
        raise UnreadableRulebook(f"`{shown}` is outside the folders rulebooks may be read from")
    return real


def read_bytes(path: str | Path, *, extended: bool = False, limit: int = MAX_SOURCE_BYTES) -> bytes:
    """At most ``limit + 1`` bytes of a file ``admit`` allows, opened without following a link swapped in since
    (``O_NOFOLLOW``) and checked again to be a regular file once open."""
    real = admit(path, extended=extended)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(real, flags)
    except OSError:
        raise UnreadableRulebook(f"`{printable(str(path))}` cannot be opened") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnreadableRulebook(f"`{printable(str(path))}` is not a regular file")
        return handle.read(limit + 1)


def read_rulebook_file(path: str | Path, *, extended: bool = False) -> str:
    """The text of a rulebook file, read with bounds: only a file ``admit`` allows, at most
    ``MAX_SOURCE_BYTES`` read, UTF-8 required. Past the bound or not UTF-8 is a ``RulebookError`` (the file
    exists but cannot be a rulebook); a file that may not be read raises ``UnreadableRulebook``."""
    data = read_bytes(path, extended=extended)
    file = str(path)
    if len(data) > MAX_SOURCE_BYTES:
        raise RulebookError(
            [Diagnostic("error", f"rulebook is larger than {MAX_SOURCE_BYTES:,} bytes", ast.Span(file, 1, 1, 1, 2), "split it into files that `extends` one another")]
        )
    try:
        return normalise(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8", "replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        raise RulebookError(
            [Diagnostic("error", f"byte {exc.start} is not UTF-8 text", ast.Span(file, line, column, line, column + 1), "save the file as UTF-8")]
        ) from None


__all__ = [
    "RULEBOOK_SUFFIX",
    "UnreadableRulebook",
    "admit",
    "allowed_folders",
    "confine",
    "confined",
    "read_bytes",
    "read_rulebook_file",
]
