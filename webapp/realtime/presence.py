"""Who is connected to which game: the socket ids in each game's room and their seats.

The socket namespace records joins and disconnects here; the game service reads it to
fill ``players.<colour>.connected`` and ``spectators`` and to send each seated socket its
own ``you`` when it broadcasts a state. ``summary`` answers in time independent of the
crowd (the seated sockets and a count), so a spectator's arrival costs the same whether
the room holds ten or ten thousand. Kept in memory: after a restart clients rejoin."""

from __future__ import annotations

import threading


class Presence:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rooms: dict[str, dict[str, str | None]] = {}
        # The seated sockets of each room (a few), kept beside the room so that nothing
        # needs to walk the crowd of spectators.
        self._seated: dict[str, dict[str, str]] = {}
        self._games_of: dict[str, set[str]] = {}

    def join(self, game_id: str, sid: str, color: str | None) -> None:
        with self._lock:
            self._rooms.setdefault(game_id, {})[sid] = color
            if color is None:
                seated = self._seated.get(game_id)
                if seated is not None:
                    seated.pop(sid, None)
            else:
                self._seated.setdefault(game_id, {})[sid] = color
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
                seated = self._seated.get(game_id)
                if seated is not None:
                    seated.pop(sid, None)
                    if not seated:
                        del self._seated[game_id]
            return sorted(games)

    def members(self, game_id: str) -> list[tuple[str, str | None]]:
        with self._lock:
            return list(self._rooms.get(game_id, {}).items())

    def summary(self, game_id: str) -> tuple[list[tuple[str, str]], int]:
        """The seated sockets of the room with their colours, and how many spectators."""
        with self._lock:
            seated = list(self._seated.get(game_id, {}).items())
            return seated, len(self._rooms.get(game_id, ())) - len(seated)

    def seat_of(self, game_id: str, sid: str) -> str | None:
        with self._lock:
            return self._rooms.get(game_id, {}).get(sid)

    def is_member(self, game_id: str, sid: str) -> bool:
        with self._lock:
            return sid in self._rooms.get(game_id, {})

    def connected(self, game_id: str, color: str) -> bool:
        with self._lock:
            return color in self._seated.get(game_id, {}).values()

    def spectators(self, game_id: str) -> int:
        return self.summary(game_id)[1]
