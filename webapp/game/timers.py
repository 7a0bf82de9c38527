"""Timers of the game service: a flag fall due on a running clock, the moment a player
who stayed may claim an abandoned game, the abort of a game nobody started (``expiry``),
and the like. One timer per game and purpose; setting one replaces the previous. The
callbacks run on timer threads and go through the service's per-game lock like any
request."""

from __future__ import annotations

import threading
from collections.abc import Callable

from webapp.game.model import Game
from webapp.game.types import Status


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

    def arm(
        self, game: Game, now: int, *, expires_at: int | None, refresh: Callable[[], None]
    ) -> None:
        """Set ``game``'s timers as it stands at ``now``: ``refresh`` when its running
        clock's flag falls and at ``expires_at`` (a side has not moved); a game no longer
        in progress has no abandon countdown either."""
        clock = game.clock
        if game.status is not Status.ACTIVE or clock is None or clock.running is None:
            self.cancel(game.id, "flag")
        else:
            self.set(game.id, "flag", clock.left(clock.running, now) / 1000 + 0.05, refresh)
        if game.status is not Status.ACTIVE:
            self.cancel(game.id, "abandon")
        if expires_at is None:
            self.cancel(game.id, "expire")
        else:
            self.set(game.id, "expire", (expires_at - now) / 1000 + 0.05, refresh)

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
