"""What one running server holds: the operator's rulebook policy, the worker pool and the lanes its requests run
in (on ``app.state.riichi``)."""

from __future__ import annotations

import shutil
import tempfile

from engine.scoring.library import RulebookPolicy
from engine.web.lanes import Lane
from engine.web.limits import (
    BATCH_QUEUE,
    BATCH_THREADS,
    BODY_SECONDS,
    DEFAULT_TIMEOUT,
    DEFAULT_WORKERS,
    JOB_QUEUE,
    MAX_REQUEST_SECONDS,
    SCORE_QUEUE,
    SCORE_THREADS,
)
from engine.web.worker import WorkerPool
from ruledsl.record import field, record


@record(slots=False)
class ServerOptions:
    """The operator's choices: on the command line (``riichi serve``) or in ``RIICHI_*`` variables
    (``engine.web.environment``)."""

    rulebook_dirs: tuple[str, ...] = ()
    default_rulebook: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    workers: int = DEFAULT_WORKERS
    warm: bool = False  # start the workers with the server rather than on the first check
    queue: int = JOB_QUEUE  # jobs that may wait for a worker beyond one running per worker
    body_seconds: float = BODY_SECONDS  # seconds a client may take to send a request's body
    list_seconds: float = MAX_REQUEST_SECONDS  # seconds a list of scores or analyses may take (then 413)
    host: str = "127.0.0.1"  # the address bound: its name is a Host the server answers (see engine.web.gate)
    allow_hosts: tuple[str, ...] = ()  # further Host names (`--allow-host`), e.g. the name a proxy forwards
    cors_origins: tuple[str, ...] = ()  # origins whose pages may call the API (`--cors-origin`); none by default


@record(frozen=False, slots=False)
class ServerState:
    policy: RulebookPolicy
    pool: WorkerPool
    scratch: str | None = field(default=None)  # the empty folder workers run in, when no --rulebook-dir is given
    scores: Lane = field(default_factory=lambda: Lane("score", SCORE_THREADS, SCORE_QUEUE, retry_after=1))
    batches: Lane = field(default_factory=lambda: Lane("lists", BATCH_THREADS, BATCH_QUEUE, retry_after=2))
    jobs: Lane = field(default_factory=lambda: Lane("jobs", DEFAULT_WORKERS, JOB_QUEUE, retry_after=5))
    list_seconds: float = MAX_REQUEST_SECONDS

    @classmethod
    def start(cls, options: ServerOptions) -> ServerState:
        """The policy, and a pool whose workers run in the first ``--rulebook-dir`` (so that an upload's
        ``extends`` finds the operator's files) or in an empty folder of their own (so that it finds none)."""
        policy = RulebookPolicy.of(options.default_rulebook, list(options.rulebook_dirs))
        scratch = None
        if policy.dirs:
            folder = policy.dirs[0]
        else:
            folder = scratch = tempfile.mkdtemp(prefix="riichi-serve-")
        pool = WorkerPool(options.workers, folder, options.timeout, allowed=policy.folders)
        # One waiting thread per worker process: a job past them waits in the queue, holding no thread.
        jobs = Lane("jobs", pool.size, options.queue, retry_after=5, max_wait=pool.timeout)
        return cls(policy, pool, scratch, jobs=jobs, list_seconds=options.list_seconds)

    def close(self) -> None:
        for lane in (self.scores, self.batches, self.jobs):
            lane.close()
        self.pool.close()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)


__all__ = ["ServerOptions", "ServerState"]
