"""Loading rulebooks once per process, and which rulebooks a request may name.

A batch or a server compiles each rulebook a single time: compiled rulebooks and scorers sit in bounded caches
keyed by the rulebook's canonical identity (a bundled name, or the real path of a file), so a batch that spells
one path a thousand ways still compiles it once, and a batch naming a thousand files keeps only the most recent.

Requests come from other programs, so what they may name is decided by the operator (``RulebookPolicy``): a
bundled rulebook, the operator's own ``--rulebook``, or a ``.rulebook`` file inside a ``--rulebook-dir``. Anything
else is ``unknown_rulebook`` with a message that quotes only the request's own (sanitised) words.
"""

from __future__ import annotations

import functools
import os
import stat
from collections import OrderedDict
from threading import Lock

from engine.errors import EngineError, InvalidRulebook, UnknownRulebook
from engine.score import Scorer
from rulebooks import DEFAULT_RULEBOOK
from ruledsl.compile import Rulebook, load
from ruledsl.diagnostics import RulebookError, printable
from ruledsl.record import record
from ruledsl.resolve import RULEBOOK_SUFFIX, UnknownRulebookError, bundled_names
from ruledsl.rulebook_files import confined

# Compiled rulebooks (and their scorers) kept per process; the least recently used one is dropped past this.
CACHE_SIZE = 32
# Broken rulebooks remembered, so that a batch naming one on every line does not re-read it every time.
FAILURE_CACHE_SIZE = 32


class _Bounded:
    """A small thread-safe LRU map from a canonical rulebook identity to what loading it gave."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, object] = OrderedDict()
        self._lock = Lock()

    def get(self, key: str) -> object | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: str, value: object) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


_RULEBOOKS = _Bounded(CACHE_SIZE)
_SCORERS = _Bounded(CACHE_SIZE)
_FAILURES = _Bounded(FAILURE_CACHE_SIZE)


@functools.cache
def _bundled() -> frozenset[str]:
    return frozenset(bundled_names())


def canonical(ref: str) -> str:
    """One key per rulebook however it is spelled: a bundled name as is, a file by its real path."""
    if ref in _bundled() and "/" not in ref and "\\" not in ref:
        return ref
    if ref.endswith(RULEBOOK_SUFFIX) or "/" in ref or "\\" in ref:
        try:
            return os.path.realpath(ref)
        except (OSError, ValueError):
            return ref
    return ref


def _named(ref: object) -> str:
    if ref is None:
        return DEFAULT_RULEBOOK
    if not isinstance(ref, str):
        raise UnknownRulebook(f"a rulebook is named by a string (a bundled name or a path), not {type(ref).__name__}")
    if not ref or "\x00" in ref:
        raise UnknownRulebook(f"unknown rulebook `{printable(ref)}`")
    return ref


def _key(ref: str, within: tuple[str, ...] | None) -> str:
    """The cache key: the rulebook's identity, and the folders its files were confined to (a file loaded
    unconfined may reach files a confined load must refuse)."""
    key = canonical(ref)
    if within is None or key in _bundled():  # a bundled rulebook reads bundled files only: one entry serves both
        return key
    return "\x00".join((key, "within", *within))


def rulebook(ref: str | None = DEFAULT_RULEBOOK, *, within: tuple[str, ...] | None = None) -> Rulebook:
    """The compiled rulebook for a bundled name or a path; errors carry the contract's code
    (``unknown_rulebook`` for a name or file that does not exist, ``invalid_rulebook`` with the rendered
    diagnostics for one that has errors). None means the default rulebook, as in a request. ``within``: every
    file of its ``extends`` chain must lie inside these folders (``ruledsl.rulebook_files``)."""
    ref = _named(ref)
    key = _key(ref, within)
    found = _RULEBOOKS.get(key)
    if found is not None:
        return found  # type: ignore[return-value]
    failed = _FAILURES.get(key)
    if isinstance(failed, EngineError):
        raise type(failed)(failed.message)  # a fresh error each time: a raised one carries its traceback
    try:
        with confined(within):
            compiled = load(ref)
    except UnknownRulebookError as exc:
        error: EngineError = UnknownRulebook(exc.message)
    except RulebookError as exc:
        error = InvalidRulebook(f"rulebook `{printable(ref)}` has errors:\n{exc.message}")
    else:
        _RULEBOOKS.put(key, compiled)
        return compiled
    _FAILURES.put(key, error)
    raise error


def scorer(ref: str | None = DEFAULT_RULEBOOK, *, within: tuple[str, ...] | None = None) -> Scorer:
    """The scorer for a rulebook, built once per canonical rulebook and shared (a ``Scorer`` is thread-safe)."""
    ref = _named(ref)
    key = _key(ref, within)
    found = _SCORERS.get(key)
    if found is None:
        found = Scorer(rulebook(ref, within=within))
        _SCORERS.put(key, found)
    return found  # type: ignore[return-value]


def clear_caches() -> None:
    """Forget every loaded rulebook (tests; a server that reloads its rulebook files)."""
    _RULEBOOKS.clear()
    _SCORERS.clear()
    _FAILURES.clear()


@record(slots=False)
class RulebookPolicy:
    """Which rulebooks the requests of a batch may name, as the operator allowed on the command line.

    ``default`` is the operator's ``--rulebook`` (a bundled name or a path, trusted as given); ``dirs`` are the
    ``--rulebook-dir`` folders, whose ``.rulebook`` files (regular files, at any depth, symlinks resolved) a
    request may name by path. A request may always name a bundled rulebook.
    """

    default: str = DEFAULT_RULEBOOK
    dirs: tuple[str, ...] = ()

    @classmethod
    def of(cls, default: str | None, dirs: list[str] | tuple[str, ...] | None = ()) -> RulebookPolicy:
        real = tuple(os.path.realpath(d) for d in dirs or ())
        return cls(default or DEFAULT_RULEBOOK, real)

    @property
    def folders(self) -> tuple[str, ...]:
        """The real folders whose rulebook files a request's rulebook (and its ``extends`` chain) may read: the
        ``--rulebook-dir`` folders and the folder of the operator's own ``--rulebook`` file."""
        if self.default in _bundled():
            return self.dirs
        return (*self.dirs, os.path.dirname(os.path.realpath(self.default)))

    def scorer(self, named: object) -> Scorer:
        """The scorer for a request's ``rulebook`` field, every file it reads confined to ``folders``."""
        return scorer(self.choose(named), within=self.folders)

    def choose(self, named: object) -> str:
        """The rulebook reference to load for a request's ``rulebook`` field; ``UnknownRulebook`` when the
        request may not name it."""
        if named is None or named == self.default:
            return self.default
        if not isinstance(named, str):
            raise UnknownRulebook("`rulebook` must be a string naming a rulebook")
        if named in _bundled():
            return named
        if "\x00" in named or len(named) > 4096:
            raise UnknownRulebook(f"unknown rulebook `{printable(named)}`")
        if canonical(named) == canonical(self.default):
            return self.default
        for folder in self.dirs:
            path = self._inside(named, folder)
            if path is not None:
                return path
        return self._refuse(named)

    def _inside(self, named: str, folder: str) -> str | None:
        candidate = named if os.path.isabs(named) else os.path.join(folder, named)
        if not candidate.endswith(RULEBOOK_SUFFIX):
            candidate += RULEBOOK_SUFFIX
        try:
            real = os.path.realpath(candidate)
            if os.path.commonpath([real, folder]) != folder:
                return None
            mode = os.stat(real).st_mode
        except (OSError, ValueError):
            return None
        return real if stat.S_ISREG(mode) else None

    def _refuse(self, named: str) -> str:
        shown = printable(named)
        if self.dirs:
            raise UnknownRulebook(
                f"unknown rulebook `{shown}`: not a bundled rulebook, nor a `.rulebook` file in a folder allowed by `--rulebook-dir`"
            )
        raise UnknownRulebook(
            f"unknown rulebook `{shown}`: a request may name a bundled rulebook ({', '.join(sorted(_bundled()))}); "
            "files only inside a folder the operator allows with `--rulebook-dir`"
        )


__all__ = ["rulebook", "scorer", "bundled_names", "clear_caches", "canonical", "RulebookPolicy", "DEFAULT_RULEBOOK"]
