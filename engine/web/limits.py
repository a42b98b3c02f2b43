"""The bounds of ``riichi serve``: every one documented, every one answered ``limit_exceeded``, never a crash.

A server faces strangers' bytes, so each cost a request can cause has a ceiling: the body it may send, the
requests one batch may hold, the rulebook text it may upload, and the seconds a check or diff may run before its
worker process is killed.
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

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_BATCH",
    "MAX_RULEBOOK_BYTES",
    "DEFAULT_TIMEOUT",
    "MAX_DIFF_HANDS",
    "WORKER_MEMORY_BYTES",
    "DEFAULT_WORKERS",
]
