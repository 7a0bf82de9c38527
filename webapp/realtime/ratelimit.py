"""A token bucket per socket connection: bursts are fine, floods get ``rate_limited``.

The socket namespace asks ``allow(sid)`` before handling each event. Twenty events a
second with a burst of forty is far above what a person clicking a board produces."""

from __future__ import annotations

import threading
import time


class RateLimiter:
    def __init__(self, rate_per_s: float = 20.0, burst: float = 40.0) -> None:
        self.rate = rate_per_s
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        with self._lock:
            tokens, last = self._buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            if tokens < 1:
                self._buckets[key] = (tokens, now)
                return False
            self._buckets[key] = (tokens - 1, now)
            return True

    def forget(self, key: str) -> None:
        with self._lock:
            self._buckets.pop(key, None)
