"""The login rate limit: attempts per client address and failures per username, each in
a sliding window.

A client address may try ``per_address`` logins in ``window_s`` seconds, whatever the
usernames; a username may fail ``per_username`` times in the window, from anywhere (a
success clears its failures). Past either limit the login answers 429 with the seconds
to wait, before the password is even checked. Counts live in this process (a server of
``multi`` mode counts its own). The clock is injectable for tests."""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable

MAX_KEYS = 50_000


class LoginThrottle:
    def __init__(
        self,
        per_address: int = 20,
        per_username: int = 5,
        window_s: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_address = per_address
        self.per_username = per_username
        self.window_s = window_s
        self.clock = clock
        self._lock = threading.Lock()
        self._addresses: dict[str, deque[float]] = {}
        self._usernames: dict[str, deque[float]] = {}

    def retry_after(self, address: str, username: str) -> int | None:
        """Seconds to wait before this login may be tried, or None if it may now."""
        now = self.clock()
        with self._lock:
            waits = [
                self._wait(self._addresses, address, self.per_address, now),
                self._wait(self._usernames, username.casefold(), self.per_username, now),
            ]
        wait = max(waits)
        return math.ceil(wait) if wait > 0 else None

    def attempt(self, address: str) -> None:
        self._add(self._addresses, address)

    def failure(self, username: str) -> None:
        self._add(self._usernames, username.casefold())

    def success(self, username: str) -> None:
        with self._lock:
            self._usernames.pop(username.casefold(), None)

    def _wait(self, table: dict[str, deque[float]], key: str, limit: int, now: float) -> float:
        times = table.get(key)
        if not times:
            return 0.0
        while times and times[0] <= now - self.window_s:
            times.popleft()
        if len(times) < limit:
            return 0.0
        return times[-limit] + self.window_s - now

    def _add(self, table: dict[str, deque[float]], key: str) -> None:
        now = self.clock()
        with self._lock:
            if len(table) >= MAX_KEYS:
                # Forget the keys whose window has passed; keep the rest.
                for old in [k for k, v in table.items() if not v or v[-1] <= now - self.window_s]:
                    del table[old]
            table.setdefault(key, deque(maxlen=max(self.per_address, self.per_username))).append(
                now
            )
