"""Who is connected to which game: the socket ids in each game's room and their seats.

The socket namespace records joins and disconnects here; the game service reads it to
fill ``players.<colour>.connected`` and ``spectators`` and to send each socket its own
``you`` when it broadcasts a state. Kept in memory: after a restart clients rejoin."""

from __future__ import annotations

import threading


class Presence:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rooms: dict[str, dict[str, str | None]] = {}
        self._games_of: dict[str, set[str]] = {}

    def join(self, game_id: str, sid: str, color: str | None) -> None:
        with self._lock:
            self._rooms.setdefault(game_id, {})[sid] = color
            self._games_of.setdefault(sid, set()).add(game_id)

    def leave_all(self, sid: str) -> list[str]:
        """Forget a socket; return the games it was in."""
        with self._lock:
            games = self._games_of.pop(sid, set())
            for game_id in games:
                room = self._rooms.get(game_id)
                if room is not None:
                    room.pop(sid, None)
                    if not room:
                        del self._rooms[game_id]
            return sorted(games)

    def members(self, game_id: str) -> list[tuple[str, str | None]]:
        with self._lock:
            return list(self._rooms.get(game_id, {}).items())

    def seat_of(self, game_id: str, sid: str) -> str | None:
        with self._lock:
            return self._rooms.get(game_id, {}).get(sid)

    def is_member(self, game_id: str, sid: str) -> bool:
        with self._lock:
            return sid in self._rooms.get(game_id, {})

    def connected(self, game_id: str, color: str) -> bool:
        with self._lock:
            return color in self._rooms.get(game_id, {}).values()

    def spectators(self, game_id: str) -> int:
        with self._lock:
            return sum(1 for c in self._rooms.get(game_id, {}).values() if c is None)
