"""What one running server holds: the operator's rulebook policy and the worker pool (on ``app.state.riichi``)."""

from __future__ import annotations

import shutil
import tempfile

from engine.library import RulebookPolicy
from engine.web.limits import DEFAULT_TIMEOUT, DEFAULT_WORKERS
from engine.web.worker import WorkerPool
from ruledsl.record import field, record


@record(slots=False)
class ServerOptions:
    """The operator's choices on the command line (``riichi serve``)."""

    rulebook_dirs: tuple[str, ...] = ()
    default_rulebook: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    workers: int = DEFAULT_WORKERS
    warm: bool = False  # start the workers with the server rather than on the first check


@record(frozen=False, slots=False)
class ServerState:
    policy: RulebookPolicy
    pool: WorkerPool
    scratch: str | None = field(default=None)  # the empty folder workers run in, when no --rulebook-dir is given

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
        return cls(policy, pool, scratch)

    def close(self) -> None:
        self.pool.close()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)


__all__ = ["ServerOptions", "ServerState"]
