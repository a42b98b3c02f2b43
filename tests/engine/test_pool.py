"""``engine.core.pool``: results in the order of the items on one process or many, and a worker killed from outside
(a signal, the out-of-memory killer) is one clear error naming what happened, never a traceback or a claim of a bug."""

from __future__ import annotations

import os

import pytest

from engine.core.errors import InternalError
from engine.core.pool import in_order, ordered


def _square(n: int) -> int:
    return n * n


def _killed(n: int) -> int:
    if n == 3:
        os._exit(9)  # as a worker ended by a signal: no exception, the process is gone
    return n


def test_results_come_in_the_order_of_the_items_for_any_worker_count() -> None:
    items = list(range(25))
    assert list(in_order(_square, items, 1)) == list(in_order(_square, items, 3)) == [n * n for n in items]


def _process(_n: int) -> int:
    return os.getpid()


def test_one_item_is_done_here_and_no_count_means_every_core() -> None:
    """Never more workers than items: a single item asks for no pool, whatever the count (None: all cores)."""
    assert list(in_order(_process, [0], 4)) == list(in_order(_process, [0])) == [os.getpid()]
    assert list(in_order(_square, range(5))) == [n * n for n in range(5)]


def test_at_most_a_window_of_tasks_is_in_flight() -> None:
    started: list[int] = []
    results = ordered(lambda n: started.append(n) or n, lambda n: n, range(10), 3)
    assert next(results) == 0 and started == [0, 1, 2]


def test_a_worker_ended_from_outside_is_one_clear_error() -> None:
    with pytest.raises(InternalError) as caught:
        list(in_order(_killed, list(range(8)), 2))
    message = caught.value.message
    assert "ended abruptly" in message and "run it again" in message and "bug" not in message
