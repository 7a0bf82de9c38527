"""How fast one sender may chat: at most ``burst`` lines in any ``window_s`` seconds, at
least ``gap_s`` apart, and not the same line twice in a row within ``repeat_s``. Kept per
sender (the visitor, else the socket) in this process's memory."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from webapp.game.errors import GameActionError, RateLimitedError


class ChatLimiter:
    def __init__(
        self,
        burst: int = 5,
        window_s: float = 10.0,
        gap_s: float = 0.5,
        repeat_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst = burst
        self.window_s = window_s
        self.gap_s = gap_s
        self.repeat_s = repeat_s
        self.clock = clock
        self._sent: dict[str, deque[float]] = {}
        self._last: dict[str, tuple[str, float]] = {}
        self._lock = threading.Lock()

    def check(self, sender: str, text: str) -> None:
        """Count the line, or refuse it (``rate_limited``, ``chat_repeat``)."""
        now = self.clock()
        with self._lock:
            sent = self._sent.setdefault(sender, deque())
            while sent and now - sent[0] >= self.window_s:
                sent.popleft()
            if len(sent) >= self.burst or (sent and now - sent[-1] < self.gap_s):
                raise RateLimitedError("too many messages: slow down")
            last = self._last.get(sender)
            if last is not None and last[0] == text and now - last[1] < self.repeat_s:
                raise GameActionError("you just said that", code="chat_repeat")
            sent.append(now)
            self._last[sender] = (text, now)
            if len(self._sent) > 10_000:
                self._prune(now)

    def _prune(self, now: float) -> None:
        for key in [k for k, q in self._sent.items() if not q or now - q[-1] >= self.window_s]:
            self._sent.pop(key, None)
            self._last.pop(key, None)

    def forget(self, sender: str) -> None:
        with self._lock:
            self._sent.pop(sender, None)
            self._last.pop(sender, None)
