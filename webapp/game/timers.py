"""Timers of the game service: a flag fall due on a running clock, the moment a player
who stayed may claim an abandoned game, and the like. One timer per game and purpose;
setting one replaces the previous. The callbacks run on timer threads and go through the
service's per-game lock like any request."""

from __future__ import annotations

import threading
from collections.abc import Callable


class GameTimers:
    def __init__(self) -> None:
        self._timers: dict[tuple[str, str], threading.Timer] = {}
        self._lock = threading.Lock()
        self._closed = False

    def set(self, game_id: str, purpose: str, delay_s: float, action: Callable[[], None]) -> None:
        """Run ``action`` in ``delay_s`` seconds, replacing this game's ``purpose`` timer."""
        key = (game_id, purpose)

        def fire() -> None:
            with self._lock:
                if self._timers.get(key) is not timer:
                    return
                del self._timers[key]
            action()

        timer = threading.Timer(max(0.0, delay_s), fire)
        timer.daemon = True
        with self._lock:
            if self._closed:
                return
            previous = self._timers.pop(key, None)
            self._timers[key] = timer
        if previous is not None:
            previous.cancel()
        timer.start()

    def cancel(self, game_id: str, purpose: str) -> None:
        with self._lock:
            timer = self._timers.pop((game_id, purpose), None)
        if timer is not None:
            timer.cancel()

    def pending(self, game_id: str, purpose: str) -> bool:
        with self._lock:
            return (game_id, purpose) in self._timers

    def close(self) -> None:
        with self._lock:
            self._closed = True
            timers, self._timers = list(self._timers.values()), {}
        for timer in timers:
            timer.cancel()
