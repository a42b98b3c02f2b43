"""Work on many files spread over this machine's cores, the results handed back in the order of the files.

A run over a large corpus (``riichi replay``, ``riichi impact``) is one task per file; the caller folds the results
in the order the files were given, so its report does not depend on the worker count. At most a few tasks per
worker are in flight at once (``window``), so neither the task list nor the results of a large corpus pile up in
memory.

Workers are forked where the system can (they start at once and share what the parent has loaded, a compiled
rulebook included), spawned elsewhere. They ignore Ctrl-C: the terminal sends it to every process of the command,
and it is the parent that stops the run, ending its workers, so that an interrupted run leaves no process behind
and prints no traceback from each worker.
"""

from __future__ import annotations

import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sized
from typing import TYPE_CHECKING, Any, TypeVar

from engine.core.errors import InternalError

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")
R = TypeVar("R")

TASKS_PER_WORKER = 4  # enough queued that no worker waits for the parent, few enough to keep memory flat


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def ordered(submit: Callable[[T], Any], result: Callable[[Any], R], items: Iterable[T], window: int) -> Iterator[R]:
    """The results of ``items`` in their order, with at most ``window`` tasks in flight (any executor: ``submit``
    starts a task and gives its future, ``result`` waits for one)."""
    pending: deque[Any] = deque()
    for item in items:
        pending.append(submit(item))
        if len(pending) >= window:
            yield result(pending.popleft())
    while pending:
        yield result(pending.popleft())


def in_order(task: Callable[[T], R], items: Iterable[T], workers: int | None = None) -> Iterator[R]:
    """``task`` of each item, in the order of ``items``: in this process for one worker (no pool to start), else
    on a local pool of ``workers`` processes (None: all cores), never more than there are items when their number
    is known (a single item is done here). ``task`` and its results must pickle (a module-level function, or a
    ``functools.partial`` of one)."""
    if workers is None:
        workers = default_workers()
    if isinstance(items, Sized):
        workers = min(workers, len(items))
    if workers <= 1:
        yield from map(task, items)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_ignore_interrupts)
    finished = False
    try:
        _start_ignoring_interrupts(pool)
        yield from ordered(lambda item: pool.submit(task, item), lambda future: future.result(), items, workers * TASKS_PER_WORKER)
        finished = True
    except BrokenProcessPool as exc:  # a worker killed from outside (a signal, the kernel's out-of-memory killer)
        raise InternalError(
            "a worker process ended abruptly (killed by a signal, or out of memory): the run is incomplete; run it "
            "again, with fewer workers or with one"
        ) from exc
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:  # an error, Ctrl-C or a caller that stopped reading: the queued work is dropped, not waited for
            _stop(pool)


def _start_ignoring_interrupts(pool: ProcessPoolExecutor) -> None:
    """Start the pool's workers with Ctrl-C held back until they ignore it. A worker starts with the signal mask of
    the thread that makes it, and runs its initializer only some milliseconds later: a Ctrl-C in between would end
    it with a traceback. So Ctrl-C is blocked (held, not lost) in this thread while a first task, which does nothing,
    makes the pool start its workers (a fork pool starts them all then), and the mask is put back at once: a Ctrl-C
    that came meanwhile reaches this process then, and each worker's initializer ignores it before unblocking it.
    Where signal masks do not exist, the initializer alone ignores it."""
    if not hasattr(signal, "pthread_sigmask"):
        pool.submit(_nothing)
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool.submit(_nothing)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _nothing() -> None:
    """A first task that starts the workers."""


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is the parent's to handle (module docstring); one held back at the worker's start
    (``_start_ignoring_interrupts``) is dropped when it is unblocked here."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _stop(pool: ProcessPoolExecutor) -> None:
    """End a pool now: cancel what has not started and end the workers busy with the rest, waiting for them to
    exit so that none outlives the command."""
    # the pool's own list of its processes: the only way to reach them before Python 3.14's ``terminate_workers``
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
