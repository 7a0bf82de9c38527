"""Multi-process mode wiring: what ``REDIS_URL`` switches on, shared by ``create_app`` (web
servers) and ``worker`` (queue workers).

``Shared`` holds the Redis client and the pieces built on it: the shared ``presence``
(``redis_presence``), the AI ``turns`` queue and the queue-backed runner for hints
(``aiqueue``). A web server also gets a Socket.IO client manager on Redis whose pub/sub
connection carries this server's name, so ``health`` can tell whether this very server is
still subscribed to the message queue (after a Redis outage the subscription comes back
by itself a few seconds later). ``check_available`` turns an unreachable Redis into the
named ``ServiceUnavailableError`` that clients see as ``unavailable``."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from webapp.game.errors import ServiceUnavailableError
from webapp.scale.redis_presence import RedisPresence, server_key
from webapp.scale.turns import QueueAiRunner, TurnQueue

log = logging.getLogger(__name__)

# The Flask-SocketIO default, named here because workers and servers must agree on it.
SOCKETIO_CHANNEL = "flask-socketio"
MAX_CONNECTIONS = 256


def redis_client(url: str, name: str | None = None) -> Any:
    """A Redis client that fails fast when Redis is down instead of hanging a request."""
    import redis

    # A busy server has hundreds of threads: they queue for a connection rather than
    # fail (redis-py's default pool refuses the 101st).
    pool = redis.BlockingConnectionPool.from_url(
        url,
        max_connections=MAX_CONNECTIONS,
        timeout=5.0,
        socket_connect_timeout=1.0,
        socket_timeout=5.0,
        health_check_interval=10,
        client_name=name,
    )
    return redis.Redis(connection_pool=pool)


@dataclass
class Shared:
    url: str
    redis: Any
    presence: RedisPresence
    turns: TurnQueue
    runner: QueueAiRunner
    listener_name: str

    @classmethod
    def connect(cls, url: str) -> Shared:
        redis = redis_client(url)
        presence = RedisPresence(redis)
        return cls(
            url=url,
            redis=redis,
            presence=presence,
            turns=TurnQueue(redis),
            runner=QueueAiRunner(redis),
            listener_name=f"gomoku-listener-{presence.server_id}",
        )

    def client_manager(self) -> Any:
        """The Socket.IO message queue of a web server (emits reach every server)."""
        import socketio

        return socketio.RedisManager(
            self.url,
            channel=SOCKETIO_CHANNEL,
            redis_options={
                "client_name": self.listener_name,
                "max_connections": 4 * MAX_CONNECTIONS,
                "socket_connect_timeout": 1.0,
                "health_check_interval": 10,
            },
        )

    def check_available(self) -> None:
        try:
            self.redis.ping()
        except Exception as error:
            log.warning("Redis is unavailable: %r", error)
            raise ServiceUnavailableError(
                "the game servers lost their connection to Redis; nothing was changed, "
                "try again in a moment"
            ) from error

    def health(self) -> dict[str, bool]:
        """``redis``: Redis answers; ``listener``: this server is subscribed to the
        message queue, so moves made on other servers reach its sockets; ``presence``:
        its sockets' seats are in Redis (written back after Redis restarted empty)."""
        try:
            self.redis.ping()
        except Exception:
            return {"redis": False, "listener": False}
        try:
            clients = self.redis.client_list(_type="pubsub")
        except Exception:
            return {"redis": False, "listener": False}
        listening = any(
            c.get("name") == self.listener_name and int(c.get("sub", 0)) > 0 for c in clients
        )
        try:
            present = bool(self.redis.exists(server_key(self.presence.server_id)))
        except Exception:
            present = False
        return {"redis": True, "listener": listening, "presence": present}

    def close(self) -> None:
        self.presence.close()
        self.runner.shutdown()
        try:
            self.redis.close()
        except Exception as error:
            log.debug("closing Redis: %s", error)
