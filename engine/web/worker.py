"""Worker processes that run a stranger's rulebook with a time bound: a job past its seconds kills its worker.

A thread cannot be stopped in Python, and a process pool's future cannot cancel a job already running, so the
pool here is a handful of plain processes, each with a pipe: the server sends a job, waits at most the timeout
for the answer, and on silence kills that process and starts a fresh one. A worker also caps its own memory
(``RLIMIT_AS``) and works in a folder of the operator's choosing (see ``engine.web.jobs``). Workers start on first
use, so a server that only scores never starts one.
"""

from __future__ import annotations

import json
import os
import queue
import select
import subprocess
import sys
import threading
import time
from typing import Any

from engine.web.errors import body
from engine.web.limits import WORKER_MEMORY_BYTES


def main() -> None:
    """A worker's loop (``python -m engine.web.worker FOLDER MEMORY [ALLOWED...]``): one JSON job a line on
    stdin, one JSON answer a line on stdout, until stdin closes. Every rulebook file the worker reads must lie in
    FOLDER or an ALLOWED folder (``ruledsl.rulebook_files.confine``), whatever a job or an ``extends`` names."""
    folder, memory, allowed = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    os.chdir(folder)
    try:  # a stranger's rulebook yields the processor to the server that answers everyone else
        os.nice(10)
    except (AttributeError, OSError):
        pass
    from ruledsl.rulebook_files import confine

    confine([folder, *allowed])
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    except (ImportError, ValueError, OSError):  # not on this platform, or a lower limit already set
        pass
    from engine.services.answers import encode
    from engine.web.jobs import JOBS

    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        job = json.loads(line)
        out.write(encode(_answer(JOBS, job["name"], job["kwargs"])))
        out.flush()


def _answer(jobs: dict[str, Any], name: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    from engine.core.errors import EngineError, InternalError

    try:
        return jobs[name](**kwargs)
    except EngineError as exc:
        return body(exc.code, exc.message)
    except RecursionError:
        return body("limit_exceeded", "the rulebook is nested too deeply")
    except MemoryError:
        return body("limit_exceeded", f"the job needs more than {WORKER_MEMORY_BYTES // 1024**2:,} MiB of memory")
    except InternalError as exc:
        return body(exc.code, exc.message)
    except Exception as exc:  # noqa: BLE001 - a bug of ours (a rule that cannot be evaluated is an EngineError)
        return body("internal_error", InternalError.of(exc, f"running the {name} job").message)


class _Worker:
    """One worker process, its pipes, and the bytes of an answer read so far."""

    def __init__(self, folder: str, memory: int, allowed: tuple[str, ...] = ()) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "engine.web.worker", folder, str(memory), *allowed],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": _import_path()},
        )

    def call(self, name: str, kwargs: dict[str, Any], timeout: float) -> dict[str, Any] | None:
        """The answer, or None when the job outlived ``timeout`` or the worker died (the caller replaces it)."""
        assert self.process.stdin is not None and self.process.stdout is not None
        deadline = time.monotonic() + timeout
        try:
            self.process.stdin.write(json.dumps({"name": name, "kwargs": kwargs}).encode() + b"\n")
            self.process.stdin.flush()
            fd = self.process.stdout.fileno()
            chunks: list[bytes] = []
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    return None
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return None
                chunks.append(chunk)
                if chunk.endswith(b"\n"):
                    return json.loads(b"".join(chunks))
        except (OSError, ValueError):
            return None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=5)
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:  # a job's bytes still buffered for a process that is gone
                pass


def _import_path() -> str:
    """The folder this package is imported from, first on the worker's path (a source tree works as installed)."""
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    rest = os.environ.get("PYTHONPATH")
    return here + (os.pathsep + rest if rest else "")


class WorkerPool:
    """At most ``size`` worker processes; ``run`` blocks the calling thread (FastAPI runs it in its thread pool)."""

    def __init__(
        self, size: int, folder: str, timeout: float, memory: int = WORKER_MEMORY_BYTES, allowed: tuple[str, ...] = ()
    ) -> None:
        self.size = max(1, size)
        self.folder = folder
        self.allowed = allowed  # folders besides ``folder`` whose rulebook files a worker may read
        self.timeout = timeout
        self.memory = memory
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self.started = 0
        self._lock = threading.Lock()
        self._all: list[_Worker] = []
        self.killed = 0  # workers killed for outliving their timeout (reported by /health)

    def run(self, name: str, **kwargs: Any) -> dict[str, Any]:
        """The job's answer; ``limit_exceeded`` when it outlives the timeout or no worker frees up in time."""
        deadline = time.monotonic() + self.timeout
        worker = self._take(deadline)
        if worker is None:
            return body("limit_exceeded", f"every worker is busy; try again (a job may run {self.timeout:g} s)")
        answer = worker.call(name, kwargs, max(0.1, deadline - time.monotonic()))
        if answer is None:
            died = worker.process.poll() is not None
            self._replace(worker)
            if died:  # the memory bound, most likely: the process could not even raise MemoryError
                return body("limit_exceeded", f"the {name} stopped its worker process (past its memory bound?)")
            return body("limit_exceeded", f"the {name} took longer than {self.timeout:g} s and was stopped")
        self._idle.put(worker)
        return answer

    def _take(self, deadline: float) -> _Worker | None:
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            pass
        with self._lock:
            if self.started < self.size:
                self.started += 1
                worker = _Worker(self.folder, self.memory, self.allowed)
                self._all.append(worker)
                return worker
        try:
            return self._idle.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None

    def warm(self) -> None:
        """Start every worker now (a server's start), so that the first check as an organiser types is quick."""
        while True:
            with self._lock:
                if self.started >= self.size:
                    return
                self.started += 1
                worker = _Worker(self.folder, self.memory, self.allowed)
                self._all.append(worker)
            self._idle.put(worker)

    def _replace(self, worker: _Worker) -> None:
        worker.stop()
        with self._lock:
            self.killed += 1
            self._all.remove(worker)
            fresh = _Worker(self.folder, self.memory, self.allowed)
            self._all.append(fresh)
        self._idle.put(fresh)

    def close(self) -> None:
        with self._lock:
            for worker in self._all:
                worker.stop()
            self._all.clear()
            self.started = 0
        while not self._idle.empty():
            self._idle.get_nowait()


__all__ = ["WorkerPool"]


if __name__ == "__main__":
    main()
