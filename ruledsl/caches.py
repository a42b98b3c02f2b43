"""The caches that are not memos, registered by name so that one registry knows every cache of the process.

``ruledsl.memo`` holds the bounded memos (plain dicts, weakly registered, many per scorer). The rest are a few
dozen caches with one owner each: ``functools.lru_cache`` functions (C-level hits over several arguments, which
a memo keyed by one value cannot match), the rulebook library's LRU maps, tables keyed by an object's identity.
Each registers here with how to empty it, how to count it and its bound, so that ``memo.clear_all``, the entry
cap of a JSON-lines batch (``memo.set_entry_cap`` and ``memo.trim``) and the tests reach them all. A cache whose
bound is its domain (an intern table: a few hundred groups, where identity must stay equality) is ``pinned``:
counted and bounded, never emptied.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable

from ruledsl.record import record
from ruledsl.typing_names import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from typing import Any

_T = TypeVar("_T")
_V = TypeVar("_V")


@record
class Registered:
    """One named cache: ``clear`` empties it, ``size`` counts its entries, ``bound`` is the most it holds."""

    name: str
    clear: Callable[[], None]
    size: Callable[[], int]
    bound: int
    pinned: bool = False  # bounded by its domain and never emptied (identity must stay equality)


# every named cache of the process, by name (module-level owners: they live as long as the process)
NAMED: dict[str, Registered] = {}


def register(name: str, clear: Callable[[], None], size: Callable[[], int], bound: int, *, pinned: bool = False) -> None:
    """Register a cache under ``name`` (a module reloaded in a test registers its new cache under the same name)."""
    if bound < 1:
        raise ValueError("a cache holds at least one entry")
    NAMED[name] = Registered(name, clear, size, bound, pinned)


def lru(limit: int, name: str | None = None) -> Callable[[Callable[..., _T]], functools._lru_cache_wrapper[_T]]:
    """``functools.lru_cache(maxsize=limit)``, registered (named after the function unless ``name`` is given): a
    hit stays one C-level call, and ``clear_all`` and the batch's memory cap reach it."""

    def wrap(fn: Callable[..., _T]) -> functools._lru_cache_wrapper[_T]:
        cached = functools.lru_cache(maxsize=limit)(fn)
        register(name or f"{fn.__module__}.{fn.__qualname__}", cached.cache_clear, lambda: cached.cache_info().currsize, limit)
        return cached

    return wrap


def once(fn: Callable[[], _T]) -> functools._lru_cache_wrapper[_T]:
    """A value computed on first use (a table read from a shipped file, a parser): a registered cache of one."""
    return lru(1)(fn)


class ByIdentity(Generic[_V]):
    """At most ``limit`` values keyed by an object's identity, each entry dropped when its key object dies.

    Records compare by value, so hashing one hashes every field (and ``weakref.WeakKeyDictionary`` would); the
    identity is what the owners mean ("built once per rulebook object"). A bare ``id()`` key could be reused by a
    new object after the old one died; the weak reference both drops the entry then and proves a hit is the same
    object. The key must support weak references (records do)."""

    __slots__ = ("limit", "_items", "__weakref__")

    def __init__(self, name: str, limit: int) -> None:
        self.limit = limit
        self._items: dict[int, tuple[weakref.ref[Any], _V]] = {}
        register(name, self._items.clear, self._items.__len__, limit)

    def get(self, key: object) -> _V | None:
        found = self._items.get(id(key))
        return found[1] if found is not None and found[0]() is key else None

    def put(self, key: object, value: _V) -> _V:
        if len(self._items) >= self.limit:
            self._items.clear()
        number, items = id(key), self._items
        items[number] = (weakref.ref(key, lambda ref: items.pop(number, None) if items.get(number, (None,))[0] is ref else None), value)
        return value

    def __len__(self) -> int:
        return len(self._items)
