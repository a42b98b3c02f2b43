"""Loading rulebooks once per process: the bounded caches of compiled rulebooks (and of what is built from one).

A batch or a server compiles each rulebook a single time: compiled rulebooks sit in bounded caches keyed by the
rulebook's canonical identity (a bundled name, or the real path of a file), so a batch that spells one path a
thousand ways still compiles it once, and a batch naming a thousand files keeps only the most recent. An entry
loaded from files remembers the size and modification time of every file of its ``extends`` chain and is used
only while they are unchanged: a rulebook edited on disk is read again on its next use (and an edit that breaks it
gives its errors), without restarting the server. ``forget`` drops entries explicitly.

This module sits below the scorer: ``built`` keeps one object made from each loaded rulebook (the shared
``Scorer`` of ``engine.scoring.library.scorer``, which passes the class in), so that the scorer can answer a request
naming another rulebook through the same cache without importing the module that imports it.
"""

from __future__ import annotations

import os
from _thread import allocate_lock as Lock  # threading.Lock itself, without importing threading
from collections import OrderedDict
from collections.abc import Callable

from engine.core.errors import EngineError, InvalidRulebook, UnknownRulebook
from rulebooks import DEFAULT_RULEBOOK
from ruledsl import compiled_cache
from ruledsl.caches import once, register
from ruledsl.nodes import Rulebook
from ruledsl.package_files import SHA256, bundled_dir
from ruledsl.record import record
from ruledsl.rulebook_files import (
    RULEBOOK_SUFFIX,
    UnknownRulebookError,
    allowed_folders,
    bundled_names,
    confined,
    is_bundled_name,
)
from ruledsl.typing_names import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from ruledsl.diagnostics import RulebookError

# A bundled rulebook is loaded from the shipped compiled file (``ruledsl.compiled_cache``) without importing the
# compiler, the resolver, the syntax tree's classes or the diagnostics: each is imported where a rulebook is loaded
# the full way or an error is reported (about a tenth of a one-hand command's start-up).

Built = TypeVar("Built")

# Compiled rulebooks (and their scorers) kept per process; the least recently used one is dropped past this. Above
# the number of bundled rulebooks (a test checks it), so that a pass over every one of them (a comparison across
# the bundled set, a server offering all of them) finds each still loaded on the next pass instead of evicting each
# just before its turn comes again; a scorer holds about half a megabyte.
CACHE_SIZE = 64
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

    def drop(self, which: Callable[[str], bool]) -> None:
        with self._lock:
            for key in [key for key in self._items if which(key)]:
                del self._items[key]

    def __len__(self) -> int:
        return len(self._items)


# A file's identity for the caches: its size and modification time (nanoseconds), or None when it cannot be read
Stamp = tuple[tuple[str, tuple[int, int] | None], ...]


def _stamp(files: list[str] | tuple[str, ...]) -> Stamp:
    """What each file of a chain looks like now; an entry is stale when this differs from when it was loaded."""
    stamps: list[tuple[str, tuple[int, int] | None]] = []
    for file in files:
        try:
            info = os.stat(file)
        except (OSError, ValueError):
            stamps.append((file, None))
        else:
            stamps.append((file, (info.st_mtime_ns, info.st_size)))
    return tuple(stamps)


@record(slots=False)
class _Loaded:
    """A cache entry: what loading gave (a compiled rulebook or the error), and the stamps of the files read."""

    value: object
    files: tuple[str, ...]
    stamp: Stamp

    def fresh(self) -> bool:
        return not self.files or _stamp(self.files) == self.stamp


def _entry(value: object, files: list[str] | tuple[str, ...]) -> _Loaded:
    files = tuple(files)
    return _Loaded(value, files, _stamp(files))


_RULEBOOKS = _Bounded(CACHE_SIZE)
_SCORERS = _Bounded(CACHE_SIZE)
_FAILURES = _Bounded(FAILURE_CACHE_SIZE)
for _name, _cache in (("rulebooks", _RULEBOOKS), ("scorers", _SCORERS), ("failures", _FAILURES)):
    register(f"engine.scoring.library.{_name}", _cache.clear, _cache.__len__, _cache.size)


@once
def _bundled() -> frozenset[str]:
    return frozenset(bundled_names())


def is_bundled(name: str) -> bool:
    """Whether ``name`` is the name of a bundled rulebook."""
    return name in _bundled()


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
        from ruledsl.diagnostics import printable

        raise UnknownRulebook(f"unknown rulebook `{printable(ref)}`")
    return ref


def _shown(ref: str, within: tuple[str, ...] | None) -> str:
    """A rulebook as a message names it: a file inside one of the confining folders by its path relative to that
    folder (a server never shows its own folders, and a long path cut to fit a message could no longer be
    recognised and hidden), any other as written."""
    folders = within if within else allowed_folders()  # a worker process is confined as a whole
    if folders:
        resolved = os.path.realpath(ref)
        for folder in folders:
            base = os.path.realpath(folder)
            if resolved.startswith(base + os.sep):
                return os.path.relpath(resolved, base).replace(os.sep, "/")
    return ref


def _key(ref: str, within: tuple[str, ...] | None) -> str:
    """The cache key: the rulebook's identity, and the folders its files were confined to (a file loaded
    unconfined may reach files a confined load must refuse)."""
    key = canonical(ref)
    if within is None or key in _bundled():  # a bundled rulebook reads bundled files only: one entry serves both
        return key
    return "\x00".join((key, "within", *within))


def _chain_files(compiled: Rulebook) -> list[str]:
    """The files a compiled rulebook was read from (bundled ones, which do not change, left out)."""
    shipped = os.path.realpath(bundled_dir())
    return [
        file
        for file in compiled.files()
        if os.path.isfile(file) and os.path.dirname(os.path.realpath(file)) != shipped
    ]


def _error_files(ref: str, exc: RulebookError | None) -> list[str]:
    """The files a failed load depends on: the rulebook's own file and every file its diagnostics point into."""
    files = [ref] if ref.endswith(RULEBOOK_SUFFIX) or "/" in ref or "\\" in ref else []
    for diagnostic in exc.diagnostics if exc is not None else ():
        if diagnostic.span.file not in files and os.path.isfile(diagnostic.span.file):
            files.append(diagnostic.span.file)
    return files


def _cached(cache: _Bounded, key: str) -> object | None:
    found = cache.get(key)
    if isinstance(found, _Loaded) and found.fresh():
        return found.value
    return None


def rulebook(ref: str | None = DEFAULT_RULEBOOK, *, within: tuple[str, ...] | None = None) -> Rulebook:
    """The compiled rulebook for a bundled name or a path; errors carry the contract's code
    (``unknown_rulebook`` for a name or file that does not exist, ``invalid_rulebook`` with the rendered
    diagnostics for one that has errors). None means the default rulebook, as in a request. ``within``: every
    file of its ``extends`` chain must lie inside these folders (``ruledsl.rulebook_files``). A file edited since
    it was loaded is loaded again."""
    ref = _named(ref)
    key = _key(ref, within)
    found = _cached(_RULEBOOKS, key)
    if found is not None:
        return found  # type: ignore[return-value]
    failed_key = f"{key}\x00as\x00{ref}"  # a failure's message quotes the name as written: one entry per spelling
    failed = _cached(_FAILURES, failed_key)
    if isinstance(failed, EngineError):
        raise type(failed)(failed.message)  # a fresh error each time: a raised one carries its traceback
    broken: RulebookError | None = None
    try:
        with confined(within):
            compiled = _load(ref)
    except UnknownRulebookError as exc:
        error: EngineError = UnknownRulebook(exc.message)
    except Exception as exc:
        from ruledsl.diagnostics import RulebookError, printable

        if not isinstance(exc, RulebookError):
            raise
        error, broken = InvalidRulebook(f"rulebook `{printable(_shown(ref, within))}` has errors:\n{exc.message}"), exc
    else:
        _RULEBOOKS.put(key, _entry(compiled, _chain_files(compiled)))
        return compiled
    _FAILURES.put(failed_key, _entry(error, _error_files(ref, broken)))
    raise error


def _load(ref: str) -> Rulebook:
    """A bundled rulebook as shipped compiled, when the shipped file holds it as its texts are now; any other (or
    that one, when the file is stale) loaded, resolved and compiled the full way."""
    if is_bundled_name(ref):
        shipped = compiled_cache.load_bundled(ref)
        if shipped is not None:
            return shipped
    from ruledsl.compile import load

    return load(ref, shipped=False)


def rulebook_from_text(text: str, file: str = "<memory>") -> Rulebook:
    """The compiled rulebook for rulebook text held in memory, cached by the text's SHA-256 (and ``file``, the
    name its diagnostics give): the same text sent again is not compiled again. Errors raise
    ``ruledsl.diagnostics.RulebookError``."""
    key = _text_key(text, file)
    found = _cached(_RULEBOOKS, key)
    if isinstance(found, Rulebook):
        return found
    from ruledsl.compile import compile_rulebook
    from ruledsl.resolve import resolve

    compiled = compile_rulebook(resolve(file, text=text, file=file))
    _RULEBOOKS.put(key, _entry(compiled, [f for f in _chain_files(compiled) if f != file]))
    return compiled


def _text_key(text: str, file: str) -> str:
    digest = SHA256(text.encode("utf-8", "surrogatepass")).hexdigest()  # the interpreter's own SHA-256, not OpenSSL's
    return "\x00".join(("text", digest, file))


def forget(ref: str | None = None) -> None:
    """Drop cached rulebooks and scorers: every one (None), or those of one bundled name or file however it is
    spelled (whatever folders they were confined to). Edited files are noticed without this; an embedder calls it
    to free memory, or after replacing a file within the resolution of its file system's modification times."""
    if ref is None:
        clear_caches()
        return
    identity = canonical(ref)
    for cache in (_RULEBOOKS, _SCORERS, _FAILURES):
        cache.drop(lambda key: key == identity or key.startswith(identity + "\x00"))


def clear_caches() -> None:
    """Forget every loaded rulebook (tests; a server that reloads its rulebook files)."""
    _RULEBOOKS.clear()
    _SCORERS.clear()
    _FAILURES.clear()


def built(ref: str | None, within: tuple[str, ...] | None, build: Callable[[Rulebook], Built]) -> Built:
    """What ``build`` makes of the rulebook ``rulebook(ref, within=within)`` loads, made once per canonical rulebook
    and shared; made again once the rulebook's files were edited (``engine.scoring.library.scorer`` passes ``Scorer``)."""
    ref = _named(ref)
    return _shared(_key(ref, within), rulebook(ref, within=within), build)


def built_from_text(text: str, file: str, build: Callable[[Rulebook], Built]) -> Built:
    """What ``build`` makes of rulebook text held in memory, shared like ``built``'s (keyed by the text's SHA-256)."""
    return _shared(_text_key(text, file), rulebook_from_text(text, file), build)


def _shared(key: str, compiled: Rulebook, build: Callable[[Rulebook], Built]) -> Built:
    """The object built from ``compiled`` under ``key``; a stale one (its rulebook loaded again) is built anew."""
    found = _SCORERS.get(key)
    if isinstance(found, tuple) and found[0] is compiled:
        return found[1]
    made = build(compiled)
    _SCORERS.put(key, (compiled, made))
    return made

