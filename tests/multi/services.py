"""Real Redis and PostgreSQL servers and real ``gomoku serve`` / ``gomoku worker``
processes on loopback, for the multi-process tests and the load script.

``RedisServer`` runs ``redis-server`` without persistence on a free port; it can be
stopped and started again on the same port (the outage test). ``PostgresServer`` runs
``initdb`` into a fresh temporary folder and ``postgres`` on a free port, as the
``postgres`` user when we are root (PostgreSQL refuses to run as root). ``AppProcess``
is one ``gomoku serve`` or ``gomoku worker`` with the multi-process environment; it can
be killed with SIGKILL and started again. Everything is stopped by ``stop``; nothing
listens beyond 127.0.0.1."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_port(port: int, timeout_s: float, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on port {port} within {timeout_s} s")


def _stop_process(process: subprocess.Popen[bytes] | None, timeout_s: float = 15) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


class RedisServer:
    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed: run `make system-deps`")
        self._process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--protected-mode", "yes", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        _wait_port(self.port, 20, self._process, "redis-server")

    def stop(self) -> None:
        _stop_process(self._process)
        self._process = None


def _postgres_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if found:
        return found[-1]
    binary = shutil.which(name)
    if binary is None:
        raise RuntimeError("PostgreSQL is not installed: run `make system-deps`")
    return binary


class PostgresServer:
    """A throw-away cluster; the database is ``postgres``, the superuser ``gomoku``."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"postgresql+psycopg://gomoku@127.0.0.1:{self.port}/postgres"
        self._dir: str | None = None
        self._process: subprocess.Popen[bytes] | None = None

    def _as_owner(self, command: list[str]) -> list[str]:
        if os.geteuid() != 0:
            return command
        return ["runuser", "-u", "postgres", "--", *command]

    def start(self) -> None:
        self._dir = tempfile.mkdtemp(prefix="gomoku-pg-")
        data = os.path.join(self._dir, "data")
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self._dir, owner.pw_uid, owner.pw_gid)
        subprocess.run(
            self._as_owner(
                [_postgres_bin("initdb"), "-D", data, "-U", "gomoku", "-A", "trust",
                 "-E", "UTF8", "--no-sync"]
            ),
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        self._process = subprocess.Popen(
            self._as_owner(
                [_postgres_bin("postgres"), "-D", data, "-p", str(self.port), "-k", self._dir,
                 "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
                 "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
                 "-c", "max_connections=300"]
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        _wait_port(self.port, 30, self._process, "postgres")
        # Accepting connections comes a moment after listening.
        deadline = time.monotonic() + 30
        while True:
            done = subprocess.run(
                [_postgres_bin("pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            if done.returncode == 0:
                return
            if time.monotonic() > deadline:
                raise RuntimeError("postgres did not accept connections within 30 s")
            time.sleep(0.1)

    def stop(self) -> None:
        # SIGINT is PostgreSQL's fast shutdown.
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGINT)
            try:
                self._process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout=5)
        self._process = None
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None


class AppProcess:
    """``gomoku serve`` (``kind="serve"``) or ``gomoku worker`` in a subprocess."""

    def __init__(
        self, kind: str, env: dict[str, str], log_path: Path, port: int | None = None
    ) -> None:
        self.kind = kind
        self.env = env
        self.log_path = log_path
        self.port = port or (free_port() if kind == "serve" else None)
        self.url = f"http://127.0.0.1:{self.port}" if self.port else ""
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, wait: bool = True, timeout_s: float = 90.0) -> None:
        env = dict(os.environ)
        env.update(self.env)
        command = [sys.executable, "-m", "webapp.cli", self.kind]
        if self.kind == "serve":
            command += ["--host", "127.0.0.1", "--port", str(self.port)]
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
            )
        if wait:
            self.wait_ready(timeout_s)

    def wait_ready(self, timeout_s: float = 90.0) -> None:
        assert self.process is not None
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gomoku {self.kind} exited: see {self.log_path}")
            if self.kind == "serve":
                if self.healthy():
                    return
            elif b"ready" in self.log_path.read_bytes():
                return
            time.sleep(0.1)
        raise RuntimeError(f"gomoku {self.kind} was not ready in {timeout_s} s: {self.log_path}")

    def health(self) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=3) as reply:
                return reply.status, reply.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()
        except OSError:
            return 0, b""

    def healthy(self) -> bool:
        return self.health()[0] == 200

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, like a crash or an OOM kill."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def stop(self) -> None:
        _stop_process(self.process)
        self.process = None
