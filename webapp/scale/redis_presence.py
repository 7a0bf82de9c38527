"""Presence shared through Redis, for multi-process mode: who is in each game's room on
any server, and which seat each socket holds.

It has the interface of ``presence.Presence`` so the game service and the socket
namespace use either. A room is a Redis hash ``gomoku:room:<game id>`` of socket id ->
``<server id>|<colour>``; each server refreshes a short-lived key ``gomoku:server:<id>``
once a second, so sockets of a server that was killed drop out of rooms (and out of the
``connected`` flags and spectator counts) within seconds instead of haunting them.
Each server also keeps its own sockets' entries in memory and writes them back when its
key has vanished (Redis restarted empty after an outage), so the sockets that stayed
connected keep getting their states. Workers read rooms to broadcast states but never
join them."""

from __future__ import annotations

import logging
import threading
import uuid
from typing import Any

log = logging.getLogger(__name__)

SERVER_TTL_MS = 5000
HEARTBEAT_S = 1.0


def room_key(game_id: str) -> str:
    return f"gomoku:room:{game_id}"


def sid_key(sid: str) -> str:
    return f"gomoku:sid:{sid}"


def server_key(server_id: str) -> str:
    return f"gomoku:server:{server_id}"


class RedisPresence:
    def __init__(self, redis: Any, server_id: str | None = None) -> None:
        self.redis = redis
        self.server_id = server_id or uuid.uuid4().hex[:12]
        self._stop = threading.Event()
        self._heartbeat: threading.Thread | None = None
        self._lock = threading.Lock()
        # This server's own sockets: sid -> {game id: colour or ""}.
        self._local: dict[str, dict[str, str]] = {}

    # -- server liveness ----------------------------------------------------------------

    def start_heartbeat(self) -> None:
        """Mark this server alive now and every second until ``close``."""
        self.beat()
        self._heartbeat = threading.Thread(
            target=self._beat_forever, name="presence-heartbeat", daemon=True
        )
        self._heartbeat.start()

    def beat(self) -> None:
        previous = self.redis.set(server_key(self.server_id), "1", px=SERVER_TTL_MS, get=True)
        if previous is None:
            self._write_back()

    def _write_back(self) -> None:
        with self._lock:
            local = {sid: dict(games) for sid, games in self._local.items()}
        if not local:
            return
        pipe = self.redis.pipeline()
        for sid, games in local.items():
            for game_id, color in games.items():
                pipe.hset(room_key(game_id), sid, f"{self.server_id}|{color}")
                pipe.sadd(sid_key(sid), game_id)
        pipe.execute()
        log.info("presence of %d sockets written back to Redis", len(local))

    def _beat_forever(self) -> None:
        while not self._stop.wait(HEARTBEAT_S):
            try:
                self.beat()
            except Exception as error:  # Redis down: the next beat tries again
                log.warning("presence heartbeat failed: %s", error)

    def close(self) -> None:
        self._stop.set()

    # -- rooms --------------------------------------------------------------------------

    def join(self, game_id: str, sid: str, color: str | None) -> None:
        with self._lock:
            self._local.setdefault(sid, {})[game_id] = color or ""
        pipe = self.redis.pipeline()
        pipe.hset(room_key(game_id), sid, f"{self.server_id}|{color or ''}")
        pipe.sadd(sid_key(sid), game_id)
        pipe.execute()

    def leave_all(self, sid: str) -> list[str]:
        """Forget a socket; return the games it was in."""
        with self._lock:
            games = set(self._local.pop(sid, {}))
        for game_id in self.redis.smembers(sid_key(sid)):
            games.add(game_id.decode() if isinstance(game_id, bytes) else game_id)
        pipe = self.redis.pipeline()
        for game_id in games:
            pipe.hdel(room_key(game_id), sid)
        pipe.delete(sid_key(sid))
        pipe.execute()
        return sorted(games)

    def members(self, game_id: str) -> list[tuple[str, str | None]]:
        """The sockets in the room (on live servers) and their seats."""
        raw = self.redis.hgetall(room_key(game_id))
        if not raw:
            return []
        entries: list[tuple[str, str, str | None]] = []
        for sid, value in raw.items():
            sid = sid.decode() if isinstance(sid, bytes) else sid
            value = value.decode() if isinstance(value, bytes) else value
            server, _, color = value.partition("|")
            entries.append((sid, server, color or None))
        servers = sorted({server for _, server, _ in entries})
        alive = dict(zip(servers, self.redis.mget([server_key(s) for s in servers]), strict=True))
        dead = [sid for sid, server, _ in entries if alive.get(server) is None]
        if dead:
            self.redis.hdel(room_key(game_id), *dead)
        return [(sid, color) for sid, server, color in entries if alive.get(server) is not None]

    def summary(self, game_id: str) -> tuple[list[tuple[str, str]], int]:
        """The seated sockets of the room with their colours, and how many spectators."""
        members = self.members(game_id)
        seated = [(sid, color) for sid, color in members if color is not None]
        return seated, len(members) - len(seated)

    def seat_of(self, game_id: str, sid: str) -> str | None:
        return dict(self.members(game_id)).get(sid)

    def is_member(self, game_id: str, sid: str) -> bool:
        return sid in dict(self.members(game_id))

    def connected(self, game_id: str, color: str) -> bool:
        return any(c == color for _, c in self.members(game_id))

    def spectators(self, game_id: str) -> int:
        return sum(1 for _, c in self.members(game_id) if c is None)
