"""A logging filter that lets at most a few records per time window through.

A hostile client can send thousands of malformed packets or broken HTTP requests a
second; each would otherwise become a log record (some with a traceback) and fill the
disk. ``LogBudget`` passes ``per_window`` records per ``window_s`` seconds for each logger
it is attached to and counts the rest; the first record let through after a quiet spell
says how many were dropped. With ``tracebacks=False`` a record's exception shrinks to one
line (for loggers of libraries that log what a client sent them with a full traceback).
``limit_logger`` attaches one to a named logger."""

from __future__ import annotations

import logging
import threading
import time


class LogBudget(logging.Filter):
    def __init__(
        self, per_window: int = 20, window_s: float = 60.0, *, tracebacks: bool = True
    ) -> None:
        super().__init__()
        self.tracebacks = tracebacks
        self.per_window = per_window
        self.window_s = window_s
        self._lock = threading.Lock()
        self._window_start = float("-inf")
        self._passed = 0
        self._dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        with self._lock:
            if now - self._window_start >= self.window_s:
                self._window_start, self._passed = now, 0
            if self._passed >= self.per_window:
                self._dropped += 1
                return False
            self._passed += 1
            dropped, self._dropped = self._dropped, 0
        suffix = ""
        if record.exc_info and not self.tracebacks:
            error = record.exc_info[1]
            suffix += f": {type(error).__name__}: {str(error)[:200]}"
            record.exc_info = None
            record.exc_text = None
        if dropped:
            suffix += f" ({dropped} similar records dropped before)"
        if suffix:
            record.msg = record.getMessage() + suffix
            record.args = None
        return True

    @property
    def dropped(self) -> int:
        return self._dropped


def limit_logger(
    name: str, per_window: int = 20, window_s: float = 60.0, *, tracebacks: bool = True
) -> LogBudget:
    """Attach a budget to the logger ``name`` (once: a second call returns the first)."""
    logger = logging.getLogger(name)
    for existing in logger.filters:
        if isinstance(existing, LogBudget):
            return existing
    budget = LogBudget(per_window, window_s, tracebacks=tracebacks)
    logger.addFilter(budget)
    return budget
