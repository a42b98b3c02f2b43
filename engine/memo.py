"""A bounded memo as a plain dict, for the caches on the scoring path.

``functools.lru_cache`` keeps a linked list node per entry, a container the garbage collector tracks and walks in
every full collection; a large cache of them makes each collection slower while a batch is scored. A dict whose
values are tuples of ints holds nothing the collector follows once they are untracked, and a hit is one C-level
lookup (``memo[key]``) rather than a Python call. Full memos are emptied at once: real traffic repeats far less
than the bound, so recency bookkeeping would cost more than it saves.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any


class Memo(dict):
    """``memo[key]`` is ``fn(key)``, computed on first use and kept until the memo holds ``limit`` entries."""

    __slots__ = ("fn", "limit")

    def __init__(self, fn: Callable[[Any], Any], limit: int) -> None:
        super().__init__()
        self.fn = fn
        self.limit = limit
        MEMOS.append(self)

    def __missing__(self, key: Hashable) -> Any:
        value = self.fn(key)
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


MEMOS: list[Memo] = []  # every memo of the process, for ``clear_all``


def clear_all() -> None:
    """Empty every memo (benchmarks that want cold-start figures; tests)."""
    for memo in MEMOS:
        memo.clear()
