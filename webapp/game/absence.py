"""Since when each human seat of a game has been without a connected socket.

The service tells ``observe`` which seats are connected whenever a socket joins or leaves
a game (and when a player arrives to find the opponent gone); a seat first seen absent
starts its countdown then, and a seat seen connected again stops it. The view shows the
countdown (``abandon``) and the model's ``claim_victory`` reads it. Kept in this
process's memory: after a restart the countdown starts when the player who stayed
comes back."""

from __future__ import annotations

import threading
from collections.abc import Iterable

from webapp.game.types import Seat


class Absence:
    def __init__(self) -> None:
        self._since: dict[str, dict[Seat, int]] = {}
        self._lock = threading.Lock()

    def observe(
        self, game_id: str, humans: Iterable[Seat], connected: Iterable[Seat], now: int
    ) -> dict[Seat, int]:
        """Record who of ``humans`` is connected at ``now``; return the seats gone and
        since when."""
        present = set(connected)
        with self._lock:
            gone = self._since.setdefault(game_id, {})
            for seat in humans:
                if seat in present:
                    gone.pop(seat, None)
                else:
                    gone.setdefault(seat, now)
            if not gone:
                del self._since[game_id]
            return dict(gone)

    def gone_since(self, game_id: str) -> dict[Seat, int]:
        with self._lock:
            return dict(self._since.get(game_id, {}))

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._since.pop(game_id, None)
