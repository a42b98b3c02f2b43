"""The report does not depend on how the work was spread: one process, a pool of two, or a local Dask cluster."""

from __future__ import annotations

import pytest

from engine.impact.run import run_impact
from tests.impact.oracle import corpus
from tests.impact.runs import KIRIAGE_ONLY, excerpts


def _files() -> tuple:
    # mjlog and tenhou.net/6 JSON games and short excerpts (a double ron, nine terminals), more files than workers
    # so that tasks finish out of order
    every = corpus()
    rare = [p for p in excerpts() if p.stem in ("double_ron", "kyushukyuhai")]
    return tuple(every[:2] + rare + every[-2:])


def test_one_worker_and_a_pool_give_identical_reports():
    one = run_impact("house", "mleague", _files(), workers=1).to_json()
    pool = run_impact("house", "mleague", _files(), workers=2).to_json()
    assert one["changed_rounds"] > 0 and one["rounds_resettled"]["course_changed"] > 0
    assert one == pool


def test_a_local_dask_cluster_gives_the_same_report():
    pytest.importorskip("dask.distributed", reason="the `cluster` extra is not installed")
    one = run_impact("house", KIRIAGE_ONLY, _files(), workers=1).to_json()
    dask = run_impact("house", KIRIAGE_ONLY, _files(), workers=2, executor="dask").to_json()
    assert one["changed_rounds"] > 0
    assert one == dask
