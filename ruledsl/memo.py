"""The one cache registry of the process: bounded memos as plain dicts, weakly held, all clearable at once.

``functools.lru_cache`` keeps a linked list node per entry, a container the garbage collector tracks and walks in
every full collection; a large cache of them makes each collection slower while a batch is scored. A dict whose
values are tuples of ints holds nothing the collector follows once they are untracked, and a hit is one C-level
lookup (``memo[key]``) rather than a Python call. Full memos are emptied at once: real traffic repeats far less
than the bound, so recency bookkeeping would cost more than it saves.

Every cache registers itself in ``REGISTRY``, weakly held: a cache lives exactly as long as its owner (a module, a
scorer's rule closures), so building and dropping scorers does not grow the registry, and ``clear_all`` reaches
every cache still alive (benchmarks that want cold-start figures; tests). It lives in the rule language, the lower
layer, because the closures of ``ruledsl.fast`` memoise loop bodies and the engine's caches are the same kind.

Every cache's limit is also capped by one process-wide number of entries, ``ENTRY_CAP`` (``set_entry_cap``), so
that the memory of a long batch is bounded by a figure the process chooses rather than by the sum of each owner's
guess: an entry of the reading facts, keyed by a hand's tile counts, holds every reading's facts, and uncapped
caches of such entries were most of a long JSON-lines batch's memory. Random traffic repeats far
less than even the cap, so a lower cap costs little speed; a program that replays the same hands many times may
raise it.

The caches that are not memos (``functools.lru_cache`` functions, LRU maps, identity-keyed tables) register by
name in ``ruledsl.caches``; every function here reaches them too, so the registry of the process is the two
together (``every_cache``). An ``lru_cache`` cannot lower its bound, so the cap empties one that holds more.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable, Hashable

from ruledsl.caches import NAMED, Registered
from ruledsl.typing_names import TypeVar

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")

# The most entries any one cache keeps, whatever limit its owner asked for (``set_entry_cap``).
ENTRY_CAP = 8192


class BoundedCache(dict[_K, _V]):
    """A dict of at most ``limit`` entries, emptied when full (``put``), registered for ``clear_all``. ``limit`` is
    the smaller of what the owner asked for (``asked``) and the process's ``ENTRY_CAP``."""

    __slots__ = ("limit", "asked", "__weakref__")

    def __init__(self, limit: int) -> None:
        super().__init__()
        if limit < 1:
            raise ValueError("a cache holds at least one entry")
        self.asked = limit
        self.limit = min(limit, ENTRY_CAP)
        REGISTRY[next(_NUMBERS)] = self

    def put(self, key: _K, value: _V) -> _V:
        """Keep ``value`` under ``key`` (emptying the cache first when it is full); returns the value. Owners store
        with ``put``, and a memo's miss does the same inline: one Python call per insertion, never two."""
        if len(self) >= self.limit and key not in self:
            self.clear()
        # stored by ``setdefault``, a cheaper call than the ``dict.__setitem__`` slot wrapper (counted by
        # callgrind); a key already there (which owners rarely put again) keeps its old value, then replaced
        if _SETDEFAULT(self, key, value) is not value:
            _SET(self, key, value)
        return value

    def __setitem__(self, key: _K, value: _V) -> None:
        """``cache[key] = value`` keeps the bound too, so that no writer can pass it; the engine's owners use
        ``put`` (``tests/engine/test_memory_bounded.py`` holds them to it), so this is a safety net."""
        self.put(key, value)


class Memo(BoundedCache[_K, _V]):
    """``memo[key]`` is ``fn(key)``, computed on first use and kept until the memo holds ``limit`` entries."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[_K], _V], limit: int) -> None:
        super().__init__(limit)
        self.fn = fn

    def __missing__(self, key: _K) -> _V:
        value = self.fn(key)
        if len(self) >= self.limit:  # missing, so not in the cache: emptied when full, as ``put`` does
            self.clear()
        # the key is missing, so ``setdefault`` stores the value as ``__setitem__`` would; the C method is a
        # cheaper call than the ``dict.__setitem__`` slot wrapper (counted by callgrind)
        return _SETDEFAULT(self, key, value)


_SET = dict.__setitem__
_SETDEFAULT = dict.setdefault

# every live cache of the process, weakly held (by a serial number: a dict cannot be a set member)
REGISTRY: weakref.WeakValueDictionary[int, BoundedCache] = weakref.WeakValueDictionary()
_NUMBERS = itertools.count()


def clear_all() -> None:
    """Empty every live cache, memos and named caches alike (benchmarks that want cold-start figures; tests);
    a pinned cache (an intern table) is bounded by its domain and kept."""
    for cache in list(REGISTRY.values()):
        cache.clear()
    for named in _clearable():
        named.clear()


def _clearable() -> list[Registered]:
    return [named for named in NAMED.values() if not named.pinned]


def every_cache() -> list[tuple[str, int, int]]:
    """(name, entries, bound) of every live cache: the named ones, then the memos (named after their type)."""
    named = [(c.name, c.size(), c.bound) for c in NAMED.values()]
    return named + [(type(c).__qualname__, len(c), c.limit) for c in list(REGISTRY.values())]


def set_entry_cap(cap: int) -> int:
    """Cap every cache, live or still to come, at ``cap`` entries (a live cache holding more is emptied); returns
    the previous cap, so that a caller (a test, a program with its own memory budget) can restore it."""
    global ENTRY_CAP
    if cap < 1:
        raise ValueError("a cache holds at least one entry")
    previous, ENTRY_CAP = ENTRY_CAP, cap
    for cache in list(REGISTRY.values()):
        cache.limit = min(cache.asked, cap)
        if len(cache) > cache.limit:
            cache.clear()
    _cap_named()
    return previous


def _cap_named() -> None:
    """Empty every named cache holding more than the cap (an ``lru_cache``'s own bound cannot be lowered)."""
    for named in _clearable():
        if named.size() > ENTRY_CAP:
            named.clear()


def trim(budget: int) -> int:
    """Empty the largest live caches until all of them together hold at most ``budget`` entries; returns how many
    entries were dropped. The per-cache cap bounds each cache, but a cache whose keys are rare fills for hundreds
    of thousands of hands, so a long batch's memory still crept up until every one was full; a total keeps it
    flat. The largest caches are the ones whose keys repeat least, so they are the cheapest to drop. Call it
    between units of work (a batch does, between requests), never during one: a caller may read back an entry
    it has just stored."""
    _cap_named()
    sized = [(len(cache), cache.clear) for cache in list(REGISTRY.values())]
    sized += [(named.size(), named.clear) for named in _clearable()]
    sized.sort(key=lambda pair: pair[0], reverse=True)
    total = sum(size for size, _ in sized)
    dropped = 0
    for size, clear in sized:
        if total <= budget:
            break
        dropped += size
        total -= size
        clear()
    return dropped


def entries() -> int:
    """How many entries every live cache holds together (what a long batch keeps; bounded by the caps). A pinned
    cache is left out, like ``trim`` leaves it: its bound is its domain (a few hundred interned groups)."""
    return sum(len(cache) for cache in list(REGISTRY.values())) + sum(named.size() for named in _clearable())


def live_caches() -> int:
    """How many caches are alive (the registry's size): bounded by what the process holds, never by its history."""
    return len(REGISTRY)
