"""Lanes: where a request's CPU work or wait runs, off the event loop, with a bounded queue.

The event loop only reads requests and writes answers; scoring, analysis and the wait for a worker process run
in a lane's own threads. A lane has a few threads and a bounded number of jobs waiting for them (waiting jobs hold
no thread), so that a flood of one kind of request (100 diff uploads, a list of scores) never takes the threads or
the loop that answer ``/health``, the pages and a single score. Past the bound a request is answered at once
with 503 and ``Retry-After`` (``Busy``), never queued without end.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


class Busy(Exception):
    """The lane's threads are busy and its queue full: answered 503 with ``Retry-After``."""

    def __init__(self, lane: str, retry_after: int) -> None:
        super().__init__(f"the server is busy ({lane}: every thread working and the queue full); retry after {retry_after} s")
        self.retry_after = retry_after


class Lane:
    """``threads`` threads of its own and at most ``queue`` jobs waiting for them."""

    def __init__(self, name: str, threads: int, queue: int, retry_after: int) -> None:
        self.name = name
        self.threads = max(1, threads)
        self.queue = max(0, queue)
        self.retry_after = retry_after
        self._executor = ThreadPoolExecutor(self.threads, thread_name_prefix=f"riichi-{name}")
        self._lock = threading.Lock()
        self.in_flight = 0  # running plus waiting
        self.refused = 0  # answered Busy (reported by /health)

    async def run(self, fn: Callable[[], T]) -> T:
        """``fn()`` in one of the lane's threads; ``Busy`` at once when the lane already holds all it may."""
        with self._lock:
            if self.in_flight >= self.threads + self.queue:
                self.refused += 1
                raise Busy(self.name, self.retry_after)
            self.in_flight += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, fn)
        finally:
            with self._lock:
                self.in_flight -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


__all__ = ["Busy", "Lane"]
