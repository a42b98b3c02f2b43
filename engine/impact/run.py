"""Run an impact over many logs: one file per task, on a local process pool or a Dask cluster, folded in order.

Every executor hands back the same ``FileImpact`` per file and the results are folded in the order the files were
given, so the report does not depend on the executor or the worker count. At most a few tasks per worker are in
flight at once, so neither the task list nor the results of a large corpus pile up in memory (``engine.core.pool``,
shared with ``riichi replay``).

Dask rather than Ray for ``--executor dask``: a task here is a plain function of (rulebook, rulebook, path) that
returns a small picklable value, which is exactly what Dask's futures do; Dask installs from pure-Python wheels in
seconds (Ray brings a ~200 MB binary wheel, its own object store and a dashboard), runs on any cluster an
organisation already has (``--scheduler tcp://host:8786``) and runs locally with no server at all (its test).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from engine.core.pool import TASKS_PER_WORKER, default_workers, in_order, ordered
from engine.impact.files import FileImpact, impact_of_file
from engine.impact.summary import Summary
from engine.impact.tiles import mapping_note
from engine.impact.variants import Rules
from engine.scoring import library
from ruledsl.caches import lru

if TYPE_CHECKING:
    from engine.impact.flow import FlowRules

EXECUTORS = ("local", "dask")


@lru(256)
def rules_for(a: str, b: str) -> Rules:
    """The rulebooks of a run, built once per process (each worker builds its own on its first file)."""
    return Rules(library.scorer(a), library.scorer(b), a, b)


@lru(256)
def flow_for(a: str, b: str) -> FlowRules:
    """The round and game rules of a run and of its one-item variants, built once per process."""
    from engine.impact.flow import FlowRules

    return FlowRules(rules_for(a, b))


def impact_of_path(a: str, b: str, path: str, flow: bool = True) -> FileImpact:
    """One task: a log file re-settled under rulebooks ``a`` and ``b`` (bundled names or absolute paths); with
    ``flow``, whole rounds too, through the round engine."""
    return impact_of_file(rules_for(a, b), path, flow_for(a, b) if flow else None)


def _local(a: str, b: str, paths: Iterable[str], workers: int, flow: bool) -> Iterator[FileImpact]:
    return in_order(partial(impact_of_path, a, b, flow=flow), paths, workers)


def _dask(a: str, b: str, paths: Iterable[str], workers: int, scheduler: str | None, flow: bool) -> Iterator[FileImpact]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        from engine.core.errors import InvalidRequest

        raise InvalidRequest("`--executor dask` needs the `cluster` extra; install it from the project's folder, as the README does: pip install '.[cluster]'") from None
    if scheduler:
        client = Client(scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        yield from ordered(lambda p: client.submit(impact_of_path, a, b, p, flow, pure=False), lambda f: f.result(), paths, max(workers, 1) * TASKS_PER_WORKER)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_impact(
    a: str,
    b: str,
    paths: Iterable[str | Path],
    workers: int | None = None,
    executor: str = "local",
    scheduler: str | None = None,
    on_file: Callable[[FileImpact], None] | None = None,
    flow: bool = True,
) -> Summary:
    """Re-settle every log of ``paths`` under ``a`` and ``b`` and fold the results into one ``Summary``.

    ``a`` and ``b`` are bundled rulebook names or rulebook files; ``on_file`` is called after each file (a
    progress bar); ``flow`` False re-scores the wins only (no round engine: several times faster). Raises ``EngineError`` for a rulebook that does not load, before any log is read.
    """
    a, b = _ref(a), _ref(b)
    rules = rules_for(a, b)  # loads (or refuses) both rulebooks up front, and warms a fork-started pool
    if flow:
        flow_for(a, b)
    tiles = mapping_note(rules.a.prepared.red_fives, rules.b.prepared.red_fives)
    summary = Summary.empty(a, b, [(c.item, c.change, c.affects_score) for c in rules.changes], tiles)
    workers = default_workers() if workers is None else max(1, workers)
    names = (str(p) for p in paths)
    if executor == "dask":
        results = _dask(a, b, names, workers, scheduler, flow)
    else:
        results = _local(a, b, names, workers, flow)
    for part in results:
        summary.add(part)
        if on_file is not None:
            on_file(part)
    return summary


def _ref(ref: str) -> str:
    """A rulebook reference every worker resolves the same way: a file by its absolute path."""
    return library.canonical(ref)
