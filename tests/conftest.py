"""Shared fixtures: an app on a temporary SQLite database with a real AI process pool,
its HTTP and Socket.IO test clients, and ``live_server``, the real ``gomoku serve``
running as a subprocess on a free loopback port (``.url``, ``.restart()``), for the
browser tests and the restart tests."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def ai_runner() -> Iterator[Any]:
    """One worker process per lane for the whole session: starting and warming them costs
    seconds."""
    from webapp.ai.pool import PoolAiRunner

    runner = PoolAiRunner(1, analysis_workers=1, warm_up=True)
    # After an engine change the workers compile it first (minutes on a busy machine).
    runner.wait_ready(600)
    yield runner
    runner.shutdown()


@pytest.fixture
def app_factory(tmp_path: Path, ai_runner: Any) -> Iterator[Callable[..., Any]]:
    """Build apps on this test's instance folder (the same database each time), closing
    every one at the end; ``close(app)`` shuts one down early (a server restart)."""
    from webapp.app import create_app, shutdown_app

    made: list[Any] = []

    def make(**overrides: Any) -> Any:
        config: dict[str, Any] = {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "SECRET_KEY": "test-secret",
            "AI_RUNNER": ai_runner,
            "AIVAI_MOVE_S": 0.0,
            "HINT_TIME_S": 0.2,
        }
        config.update(overrides)
        app = create_app(config)
        made.append(app)
        return app

    make.close = shutdown_app  # type: ignore[attr-defined]
    yield make
    for app in made:
        shutdown_app(app)


@pytest.fixture
def app(app_factory: Callable[..., Any]) -> Any:
    return app_factory()


@pytest.fixture
def client(app: Any) -> Any:
    return app.test_client()


@pytest.fixture
def socket_factory(app: Any) -> Iterator[Callable[..., Any]]:
    """Connect Socket.IO test clients to ``/game``; each carries the cookies of the Flask
    test client it is given (a player's browser), or none (a stranger)."""
    connected: list[Any] = []
    socketio = app.extensions["socketio"]

    def connect(flask_client: Any = None) -> Any:
        sock = socketio.test_client(app, namespace="/game", flask_test_client=flask_client)
        connected.append(sock)
        return sock

    yield connect
    for sock in connected:
        if sock.is_connected("/game"):
            sock.disconnect(namespace="/game")


@pytest.fixture
def socket_client(socket_factory: Callable[..., Any], client: Any) -> Any:
    """A socket sharing ``client``'s cookies (so it holds the seats ``client`` created)."""
    return socket_factory(client)


# -- live server ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LiveServer:
    """``gomoku serve`` in a subprocess with its own instance folder."""

    def __init__(self, instance: Path, port: int, env: dict[str, str] | None = None) -> None:
        self.instance = instance
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log_path = instance / "server.log"
        self._env = env or {}
        self._process: subprocess.Popen[bytes] | None = None

    def start(self, timeout_s: float = 180.0) -> None:
        self.instance.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        env.update({"GOMOKU_INSTANCE": str(self.instance), "AI_WORKERS": "1"})
        env.pop("DATABASE_URL", None)
        env.update(self._env)
        command = [sys.executable, "-m", "webapp.cli", "serve"]
        command += ["--host", "127.0.0.1", "--port", str(self.port)]
        with self.log_path.open("ab") as log:
            self._process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"gomoku serve exited: see {self.log_path}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/v1/games", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"gomoku serve did not answer within {timeout_s} s")

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)

    def restart(self) -> None:
        """Stop the server and start it again on the same port and instance folder."""
        self.stop()
        self.start()


@contextlib.contextmanager
def running_server(instance: Path, env: dict[str, str] | None = None) -> Iterator[LiveServer]:
    """A started ``LiveServer`` on a free port (``env``: settings for this server only),
    stopped on leaving."""
    server = LiveServer(instance, free_port(), env=env)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(tmp_path / "live-instance") as server:
        yield server
