"""A logging filter that lets a repeated warning through once a minute, so that a client cannot grow the log.

uvicorn writes one line per malformed request ("Invalid HTTP request received.") and the like: a client sending
garbage in a loop would write the log without end. The same message (its template, not its arguments) passes
once per ``every`` seconds; the next one to pass says how many were held back.
"""

from __future__ import annotations

import logging
import threading
import time


class OncePerMinute(logging.Filter):
    def __init__(self, every: float = 60.0) -> None:
        super().__init__()
        self.every = every
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR and record.exc_info:
            return True  # a real failure of the server: always shown whole
        key = str(record.msg)
        now = time.monotonic()
        with self._lock:
            if now - self._last.get(key, -self.every) < self.every:
                self._held[key] = self._held.get(key, 0) + 1
                return False
            self._last[key] = now
            held = self._held.pop(key, 0)
            if len(self._last) > 1000:  # many distinct messages: start over rather than grow
                self._last = {key: now}
        if held:
            record.msg = f"{record.msg} ({held} more like it in the last minute were not logged)"
        return True


def quiet(*loggers: str, every: float = 60.0) -> None:
    """Install the filter on the named loggers (``riichi serve`` calls it on uvicorn's)."""
    for name in loggers:
        logging.getLogger(name).addFilter(OncePerMinute(every))


__all__ = ["OncePerMinute", "quiet"]
