"""Fixtures of the multi-process tests: ``cluster``, a real deployment on loopback (Redis,
PostgreSQL, two ``gomoku serve`` processes and two ``gomoku worker`` processes, started
once per module), and ``Peer``, a python-socketio client over a real websocket that
rejoins its games whenever it (re)connects and keeps every event it receives.

Every test module here is marked ``multi``; a test that kills a process leaves the cluster
running again (``cluster.heal()``) for the next one."""

from __future__ import annotations

import contextlib
import json
import shutil
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import socketio

from tests.multi.services import AppProcess, PostgresServer, RedisServer

NS = "/game"


def _require(binary: str) -> None:
    if shutil.which(binary) is None and not list(Path("/usr/lib/postgresql").glob("*/bin")):
        pytest.fail(f"{binary} is missing: run `make system-deps`")


def _in_parallel(actions: list[Callable[[], object]]) -> None:
    """Run clean-up actions side by side (each may wait seconds), ignoring failures."""

    def run(action: Callable[[], object]) -> None:
        with contextlib.suppress(Exception):
            action()

    threads = [threading.Thread(target=run, args=(action,)) for action in actions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)


class Cluster:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.redis = RedisServer()
        self.postgres = PostgresServer()
        self.servers: list[AppProcess] = []
        self.workers: list[AppProcess] = []

    @property
    def env(self) -> dict[str, str]:
        return {
            "REDIS_URL": self.redis.url,
            "DATABASE_URL": self.postgres.url,
            "GOMOKU_INSTANCE": str(self.base / "instance"),
            "SECRET_KEY": "multi-test-secret",
            "AIVAI_MOVE_S": "0.2",
        }

    def start(self) -> None:
        self.redis.start()
        self.postgres.start()
        self.servers = [
            AppProcess("serve", self.env, self.base / f"server-{name}.log") for name in "AB"
        ]
        self.workers = [
            AppProcess("worker", self.env, self.base / f"worker-{n}.log") for n in (1, 2)
        ]
        # The first server creates the tables; then the rest start side by side.
        self.servers[0].start()
        for process in [self.servers[1], *self.workers]:
            process.start(wait=False)
        for process in [self.servers[1], *self.workers]:
            process.wait_ready()

    def heal(self) -> None:
        """Start again whatever a test killed, and wait until all of it is ready."""
        for process in [*self.servers, *self.workers]:
            if process.process is None or process.process.poll() is not None:
                process.start(wait=False)
        for process in [*self.servers, *self.workers]:
            process.wait_ready()

    def stop(self) -> None:
        _in_parallel([process.stop for process in [*self.servers, *self.workers]])
        self.postgres.stop()
        self.redis.stop()

    @property
    def a(self) -> AppProcess:
        return self.servers[0]

    @property
    def b(self) -> AppProcess:
        return self.servers[1]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    _require("redis-server")
    deployment = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        deployment.start()
        yield deployment
    finally:
        deployment.stop()


# -- HTTP ---------------------------------------------------------------------------------


def http(url: str, body: Any = None, cookie: str | None = None) -> tuple[int, Any, dict[str, str]]:
    """One request; returns (status, JSON or text body, headers)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if data else {}
    if cookie:
        headers["Cookie"] = cookie
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            raw, status, got = reply.read(), reply.status, dict(reply.headers)
    except urllib.error.HTTPError as error:
        raw, status, got = error.read(), error.code, dict(error.headers)
    try:
        return status, json.loads(raw), got
    except ValueError:
        return status, raw.decode(errors="replace"), got


def create_game(server: AppProcess, **body: Any) -> tuple[str, str]:
    """Create a game on ``server``; return its id and the creator's seat cookie."""
    status, reply, headers = http(f"{server.url}/api/v1/games", body)
    assert status == 201, reply
    return reply["id"], headers["Set-Cookie"].split(";")[0]


def claim_seat(server: AppProcess, game_id: str) -> str:
    """Take the free seat of a friend's game on ``server``: the seat's cookie."""
    status, _, headers = http(f"{server.url}/g/{game_id}/seat", {})
    assert status == 200
    return headers["Set-Cookie"].split(";")[0]


def game_state(server: AppProcess, game_id: str) -> dict[str, Any]:
    status, state, _ = http(f"{server.url}/api/v1/games/{game_id}")
    assert status == 200, state
    return state  # type: ignore[no-any-return]


# -- Socket.IO peers ----------------------------------------------------------------------


class Peer:
    """A browser stand-in: one Socket.IO connection to one server, joined to games."""

    def __init__(self, server: AppProcess, cookie: str | None = None) -> None:
        self.server = server
        self.cookie = cookie
        self.games: list[str] = []
        self.events: list[tuple[float, str, dict[str, Any]]] = []
        self.connects = 0
        self._changed = threading.Condition()
        self.client = socketio.Client(reconnection=True, reconnection_delay=0.2,
                                      reconnection_delay_max=1.0)  # fmt: skip
        self.client.on("connect", self._on_connect, namespace=NS)
        for name in ("state", "thinking", "error", "hint"):
            self.client.on(name, self._recorder(name), namespace=NS)

    def _recorder(self, name: str) -> Callable[[dict[str, Any]], None]:
        def record(payload: dict[str, Any]) -> None:
            with self._changed:
                self.events.append((time.monotonic(), name, payload))
                self._changed.notify_all()

        return record

    def _on_connect(self) -> None:
        self.connects += 1
        for game_id in self.games:
            self.client.emit("join", {"game_id": game_id}, namespace=NS)

    def connect(self) -> Peer:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        self.client.connect(
            self.server.url, namespaces=[NS], headers=headers, transports=["websocket"],
            wait_timeout=10,
        )  # fmt: skip
        return self

    def join(self, game_id: str, timeout_s: float = 30) -> dict[str, Any]:
        self.games.append(game_id)
        self.client.emit("join", {"game_id": game_id}, namespace=NS)
        return self.wait_state(game_id, lambda s: True, timeout_s)

    def call(self, event: str, payload: dict[str, Any], timeout_s: float = 30) -> Any:
        return self.client.call(event, payload, namespace=NS, timeout=timeout_s)

    def states(self, game_id: str) -> list[dict[str, Any]]:
        with self._changed:
            return [p for _, e, p in self.events if e == "state" and p["id"] == game_id]

    def last_state(self, game_id: str) -> dict[str, Any]:
        """The newest state (by version: one from another process may come late)."""
        states = self.states(game_id)
        assert states, f"no state of {game_id}"
        return max(states, key=lambda state: state["version"])

    def wait_state(
        self, game_id: str, predicate: Callable[[dict[str, Any]], bool], timeout_s: float = 10
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while True:
                for _, event, payload in reversed(self.events):
                    if event == "state" and payload["id"] == game_id and predicate(payload):
                        return payload
                left = deadline - time.monotonic()
                if left <= 0:
                    seen = [len(p["moves"]) for _, e, p in self.events if e == "state"]
                    raise AssertionError(
                        f"no matching state of {game_id} in {timeout_s} s (move counts {seen})"
                    )
                self._changed.wait(min(left, 0.2))

    def wait_moves(self, game_id: str, count: int, timeout_s: float = 10) -> dict[str, Any]:
        return self.wait_state(game_id, lambda s: len(s["moves"]) >= count, timeout_s)

    def close(self) -> None:
        self.client.disconnect()


@pytest.fixture
def peers() -> Iterator[Callable[..., Peer]]:
    made: list[Peer] = []

    def make(server: AppProcess, cookie: str | None = None) -> Peer:
        peer = Peer(server, cookie).connect()
        made.append(peer)
        return peer

    yield make
    _in_parallel([peer.close for peer in made])


def free_point(state: dict[str, Any], near: tuple[int, int] = (7, 7)) -> tuple[int, int]:
    """The empty point nearest ``near``."""
    taken = {tuple(m) for m in state["moves"]}
    size = state["size"]
    for radius in range(size):
        for dx in range(-radius, radius + 1):
            for dy in range(-radius, radius + 1):
                x, y = near[0] + dx, near[1] + dy
                if 0 <= x < size and 0 <= y < size and (x, y) not in taken:
                    return x, y
    raise AssertionError("the board is full")
