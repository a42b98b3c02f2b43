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
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable, Hashable
from typing import Any


class BoundedCache(dict):
    """A dict of at most ``limit`` entries, emptied when full (``put``), registered for ``clear_all``."""

    __slots__ = ("limit", "__weakref__")

    def __init__(self, limit: int) -> None:
        super().__init__()
        if limit < 1:
            raise ValueError("a cache holds at least one entry")
        self.limit = limit
        REGISTRY[next(_NUMBERS)] = self

    def put(self, key: Hashable, value: Any) -> Any:
        """Keep ``value`` under ``key`` (emptying the cache first when it is full); returns the value."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


class Memo(BoundedCache):
    """``memo[key]`` is ``fn(key)``, computed on first use and kept until the memo holds ``limit`` entries."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[Any], Any], limit: int) -> None:
        super().__init__(limit)
        self.fn = fn

    def __missing__(self, key: Hashable) -> Any:
        value = self.fn(key)
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


# every live cache of the process, weakly held (by a serial number: a dict cannot be a set member)
REGISTRY: weakref.WeakValueDictionary[int, BoundedCache] = weakref.WeakValueDictionary()
_NUMBERS = itertools.count()


def clear_all() -> None:
    """Empty every live cache (benchmarks that want cold-start figures; tests)."""
    for cache in list(REGISTRY.values()):
        cache.clear()


def live_caches() -> int:
    """How many caches are alive (the registry's size): bounded by what the process holds, never by its history."""
    return len(REGISTRY)
