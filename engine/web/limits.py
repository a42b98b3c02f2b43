"""The bounds of ``riichi serve``: every one documented, every one answered ``limit_exceeded``, never a crash.

A server faces strangers' bytes, so each cost a request can cause has a ceiling: the body it may send, the
requests one batch may hold, the rulebook text it may upload, and the seconds a check or diff may run before its
worker process is killed. It also faces strangers' patience: the seconds a client may take to send its headers and
its body, the connections it may hold open, and the jobs that may wait for a thread or a worker, so that one
client can never stop the server answering another.
"""

from __future__ import annotations

from ruledsl.parser import MAX_SOURCE_BYTES

# A body larger than this is refused before it is read in full (two rulebooks of MAX_SOURCE_BYTES plus JSON).
MAX_BODY_BYTES = 2 * MAX_SOURCE_BYTES + 64 * 1024
# Score requests in one `POST /score` list (a request is about 100 bytes; a batch this size answers in ~0.1 s).
MAX_BATCH = 1000
# Rulebook text one upload may hold: the parser's own bound, so that a file `riichi check` accepts is accepted.
MAX_RULEBOOK_BYTES = MAX_SOURCE_BYTES
# Seconds a check, explain or diff may run in its worker before the worker is killed and replaced.
DEFAULT_TIMEOUT = 20.0
# Random hands a diff may search for witnesses (the CLI's default).
MAX_DIFF_HANDS = 4000
# Memory a worker process may map, so that one pathological rulebook cannot take the machine's memory.
WORKER_MEMORY_BYTES = 2 * 1024**3
# Worker processes that run checks and diffs (the machine's cores are shared with the scoring requests).
DEFAULT_WORKERS = 2
# Distinct rulebooks one `POST /score` may name (each may cost a compile of ~0.1-0.4 s; the compiled-rulebook
# cache holds 32, more than the scoring threads can name at once: 2 lists of 8 and 4 single requests).
MAX_RULEBOOKS_PER_REQUEST = 8
# Seconds of scoring or analysis one request may take in its thread before it is answered limit_exceeded.
MAX_REQUEST_SECONDS = 10.0
# Threads that score single requests, threads that score lists, and the requests each may hold waiting beyond them;
# past that a request is answered 503 with Retry-After.
SCORE_THREADS, SCORE_QUEUE = 4, 256
BATCH_THREADS, BATCH_QUEUE = 2, 8
# Checks, explains, diffs and impacts waiting for a worker process beyond one running per worker.
JOB_QUEUE = 32
# Seconds a client may take to send a request's headers (from the connection or the previous answer) and its body.
HEADER_SECONDS = 10.0
BODY_SECONDS = 30.0
# Seconds an idle keep-alive connection stays open.
KEEP_ALIVE_SECONDS = 5
# Open connections; past it a new one closes the oldest connection waiting on its client (engine.web.protocol).
MAX_CONNECTIONS = 512

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_BATCH",
    "MAX_RULEBOOK_BYTES",
    "DEFAULT_TIMEOUT",
    "MAX_DIFF_HANDS",
    "WORKER_MEMORY_BYTES",
    "DEFAULT_WORKERS",
    "MAX_RULEBOOKS_PER_REQUEST",
    "MAX_REQUEST_SECONDS",
    "SCORE_THREADS",
    "SCORE_QUEUE",
    "BATCH_THREADS",
    "BATCH_QUEUE",
    "JOB_QUEUE",
    "HEADER_SECONDS",
    "BODY_SECONDS",
    "KEEP_ALIVE_SECONDS",
    "MAX_CONNECTIONS",
]
