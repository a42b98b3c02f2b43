"""Lanes: where a request's CPU work or wait runs, off the event loop, with a bounded queue.

The event loop only reads requests and writes answers; scoring, analysis and the wait for a worker process run
in a lane's own threads. A lane has a few threads and a bounded number of jobs waiting for them (waiting jobs hold
no thread), so that a flood of one kind of request (100 diff uploads, a list of scores) never takes the threads or
the loop that answer ``/health``, the pages and a single score. Past the bound a request is answered at once
with 503 and ``Retry-After`` (``Busy``), never queued without end; so is a job that waited past the lane's
``max_wait`` seconds for a thread (a client is not kept waiting longer than a job may run).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


class Busy(Exception):
    """The lane's threads are busy and its queue full: answered 503 with ``Retry-After``."""

    def __init__(self, lane: str, retry_after: int, why: str = "every thread working and the queue full") -> None:
        super().__init__(f"the server is busy ({lane}: {why}); retry after {retry_after} s")
        self.retry_after = retry_after


class Lane:
    """``threads`` threads of its own and at most ``queue`` jobs waiting for them, each at most ``max_wait`` s."""

    def __init__(self, name: str, threads: int, queue: int, retry_after: int, max_wait: float | None = None) -> None:
        self.name = name
        self.max_wait = max_wait
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
        queued = time.monotonic()

        def call() -> T:
            waited = time.monotonic() - queued
            if self.max_wait is not None and waited > self.max_wait:
                with self._lock:
                    self.refused += 1
                raise Busy(self.name, self.retry_after, f"waited {waited:.0f} s for a thread")
            return fn()

        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, call)
        finally:
            with self._lock:
                self.in_flight -= 1

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


__all__ = ["Busy", "Lane"]
