"""The worker pool that bounds a stranger's rulebook in time: a job past its timeout, or a worker that dies, costs
that one answer (``limit_exceeded``) and the pool goes on with a fresh process."""

from __future__ import annotations

import tempfile

from engine.web.worker import WorkerPool

UPLOAD = {"text": 'rulebook mine "Mine" extends house\n', "file": "mine.rulebook"}


def test_a_dead_worker_is_replaced():
    with tempfile.TemporaryDirectory() as folder:
        pool = WorkerPool(1, folder, timeout=30)
        try:
            assert pool.run("check", ref=UPLOAD, examples=False)["ok"] is True
            (worker,) = pool._all
            worker.process.kill()
            worker.process.wait()
            answer = pool.run("check", ref=UPLOAD, examples=False)
            assert answer["error"]["code"] == "limit_exceeded" and "stopped its worker" in answer["error"]["message"]
            assert pool.run("check", ref=UPLOAD, examples=False)["ok"] is True
            assert pool.killed == 1 and len(pool._all) == 1
        finally:
            pool.close()


def test_an_unknown_rulebook_in_a_worker_is_answered_with_its_code():
    with tempfile.TemporaryDirectory() as folder:
        pool = WorkerPool(1, folder, timeout=30)
        try:
            answer = pool.run("diff", a={"name": "nowhere"}, b={"name": "house"}, hands=0)
            assert answer["error"]["code"] == "unknown_rulebook"
        finally:
            pool.close()
