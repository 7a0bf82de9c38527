"""Load benchmark (a script that prints figures, not a test): N simulated players each
play a vs-AI game at a fast level over Socket.IO, while M spectators watch one more game,
against a single server (SQLite, in-process AI pool) or a multi-process deployment (two
servers, four queue workers, Redis, PostgreSQL), all started here on loopback.

It prints the p50, p95 and p99 of
  * the move round-trip beyond think time: from a player's ``move`` to the state with
    the AI's reply, minus the engine time the server recorded for that reply;
  * the spectator fan-out delay: from the showcase player's ``move`` to each spectator's
    state carrying it (one sample per spectator per move).

Players run as asyncio clients in one process, the watched game's player in another and
the spectators in ``--spectator-procs`` more (as real ones are spread over many machines),
so no side's client work delays another's clocks (all use the wall clock of this machine).
Spectators stay until every player is done, or with ``--spectators-leave`` all disconnect
at once when the watched game's moves are played.

The spectators connect first; once all are in, the script prints the server's memory
(resident set) and thread count against its figures before they came, i.e. the memory one
idle socket costs. Then the players connect and play starts. Every process raises its
open-files limit to the hard limit (thousands of sockets each).

    .venv/bin/python tests/load/load.py --mode single --players 200 --spectators 500
    .venv/bin/python tests/load/load.py --mode multi --players 200 --spectators 500
    .venv/bin/python tests/load/load.py --players 200 --spectators 5000 --spectator-procs 5 \
        --pause 5 --port 5610

The client processes run at a lower CPU priority (``--client-nice``, 10 by default) than
the servers they measure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

NS = "/game"
# One spectator in this many reads every state and times it (see ``Watcher``).
TIMED_EVERY = 10


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    if not samples:
        return (float("nan"),) * 3
    ordered = sorted(samples)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return at(0.50), at(0.95), at(0.99)


def client_process(niceness: int) -> None:
    """Set up a client process: thousands of sockets, and a lower CPU priority than the
    servers (clients must not take the CPU the figures are about)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if niceness:
        os.nice(niceness)


def process_figures(pid: int) -> tuple[float, int]:
    """Resident memory (MB) and thread count of process ``pid``."""
    rss_kb, threads = 0, 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss_kb = int(line.split()[1])
        elif line.startswith("Threads:"):
            threads = int(line.split()[1])
    return rss_kb / 1024, threads


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, all cores together."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    total = sum(values[:8])
    tick = os.sysconf("SC_CLK_TCK")
    return (total - idle) / tick, total / tick


class Sharing:
    """What else ran on the machine during play: the load average (sampled every second)
    and the CPU share of the servers against that of the whole machine."""

    def __init__(self, pids: list[int]) -> None:
        import threading

        self.pids = pids
        self.loads: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(1.0):
            self.loads.append(os.getloadavg()[0])

    def __enter__(self) -> Sharing:
        self.started = time.time()
        self.server_cpu = sum(cpu_seconds(pid) for pid in self.pids)
        self.busy, self.total = machine_busy()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.wall = time.time() - self.started
        self.server_cpu = sum(cpu_seconds(pid) for pid in self.pids) - self.server_cpu
        busy, total = machine_busy()
        self.busy, self.total = busy - self.busy, total - self.total

    def report(self) -> str:
        loads = self.loads or [os.getloadavg()[0]]
        cores = os.cpu_count() or 1
        return (
            f"during play ({self.wall:.0f} s): load average (1 min) {min(loads):.1f} to "
            f"{max(loads):.1f}, mean {statistics.fmean(loads):.1f}, on {cores} cores; the "
            f"machine was {100 * self.busy / max(self.total, 1e-9):.0f}% busy; the server "
            f"process(es) used {100 * self.server_cpu / max(self.wall, 1e-9):.0f}% of one core"
        )


def free_point(moves: list[list[int]], size: int, rng: random.Random) -> tuple[int, int]:
    taken = {tuple(m) for m in moves}
    centre = size // 2
    for radius in range(1, size):
        options = [
            (centre + dx, centre + dy)
            for dx in range(-radius, radius + 1)
            for dy in range(-radius, radius + 1)
            if 0 <= centre + dx < size
            and 0 <= centre + dy < size
            and (centre + dx, centre + dy) not in taken
        ]
        if options:
            return rng.choice(options)
    raise RuntimeError("board full")


# -- clients (asyncio) ----------------------------------------------------------------------


async def create_game(session: Any, url: str, body: dict[str, Any]) -> tuple[str, str]:
    async with session.post(f"{url}/api/v1/games", json=body) as reply:
        data = await reply.json()
        if reply.status != 201:
            raise RuntimeError(f"create failed: {reply.status} {data}")
        cookie = reply.headers["Set-Cookie"].split(";")[0]
        return str(data["id"]), cookie


class Client:
    """One Socket.IO connection that keeps the latest state of its game."""

    def __init__(self, url: str, game_id: str, cookie: str | None) -> None:
        import socketio

        self.url = url
        self.game_id = game_id
        self.cookie = cookie
        self.sio = socketio.AsyncClient(reconnection=False)
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.arrivals: dict[int, float] = {}  # move count -> first time seen
        self.errors: list[dict[str, Any]] = []
        self.states = 0
        self.sio.on("state", self._on_state, namespace=NS)
        self.sio.on("error", self._on_error, namespace=NS)

    async def _on_state(self, state: dict[str, Any]) -> None:
        now = time.time()
        self.states += 1
        if state.get("id") != self.game_id:
            return
        # A move has arrived with the first state that contains it (a state may be
        # overtaken by a newer one from another process and then be ignored).
        for count in range(1, len(state["moves"]) + 1):
            self.arrivals.setdefault(count, now)
        if self.state is not None and state["version"] < self.state["version"]:
            return  # an older state overtaken by a newer one: keep the newest, as browsers do
        self.state = state
        self.changed.set()

    async def _on_error(self, error: dict[str, Any]) -> None:
        self.errors.append(error)
        self.changed.set()

    async def connect(self) -> None:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        await self.sio.connect(
            self.url, namespaces=[NS], headers=headers, transports=["websocket"], wait_timeout=30
        )
        await self.sio.emit("join", {"game_id": self.game_id}, namespace=NS)
        await self.wait(lambda s: True, 60)

    async def wait(self, predicate: Any, timeout_s: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout_s
        while True:
            if self.state is not None and predicate(self.state):
                return self.state
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.game_id}: no matching state in {timeout_s} s")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    async def close(self) -> None:
        await self.sio.disconnect()


async def send_move(client: Client, rng: random.Random) -> tuple[int, float] | None:
    """Play a free point near the centre in ``client``'s game; return the number of moves
    before it and when it was sent, or None if the game is no longer active."""
    state = client.state
    assert state is not None
    if state["status"] != "active":
        return None
    count = len(state["moves"])
    x, y = free_point(state["moves"], state["size"], rng)
    sent = time.time()
    await client.sio.emit(
        "move",
        {"game_id": client.game_id, "x": x, "y": y, "version": state["version"]},
        namespace=NS,
    )
    return count, sent


async def play_vs_ai(
    client: Client, moves: int, pause_s: float, rng: random.Random
) -> list[tuple[int, float, float]]:
    """Play ``moves`` moves; return (ply of the AI reply, seconds from move to reply,
    when the move was sent)."""
    samples = []
    # Players do not all move at the same instant: each starts within one think time.
    await asyncio.sleep(pause_s * rng.uniform(0.0, 1.0))
    for _ in range(moves):
        played = await send_move(client, rng)
        if played is None:
            break
        count, sent = played
        reply = await client.wait(
            lambda s, c=count: len(s["moves"]) >= c + 2 or s["status"] != "active", 120
        )
        if len(reply["moves"]) >= count + 2:
            samples.append((count + 2, client.arrivals[count + 2] - sent, sent))
        await asyncio.sleep(pause_s * rng.uniform(0.5, 1.5))
    return samples


async def _players(
    urls: list[str], count: int, moves: int, level: int, pause_s: float, start_at: float
) -> dict[str, Any]:
    import aiohttp

    async with aiohttp.ClientSession() as session:
        games = [
            await create_game(
                session, urls[i % len(urls)], {"mode": "ai", "level": level, "color": "black"}
            )
            for i in range(count)
        ]
        clients = [
            Client(urls[i % len(urls)], game_id, cookie)
            for i, (game_id, cookie) in enumerate(games)
        ]
        for start in range(0, count, 25):
            await asyncio.gather(*(c.connect() for c in clients[start : start + 25]))
        await asyncio.sleep(max(0.0, start_at - time.time()))
        results = await asyncio.gather(
            *(play_vs_ai(c, moves, pause_s, random.Random(i)) for i, c in enumerate(clients)),
            return_exceptions=True,
        )
        think: dict[str, dict[int, int]] = {}
        for client in clients:
            async with session.get(f"{client.url}/g/{client.game_id}/psq") as reply:
                lines = (await reply.text()).splitlines()[1:]
            think[client.game_id] = {
                ply: int(line.split(",")[2])
                for ply, line in enumerate(lines, start=1)
                if line.count(",") == 2
            }
        beyond: list[float] = []
        timeline: list[tuple[float, float]] = []
        failures = [repr(r) for r in results if isinstance(r, BaseException)]
        for client, result in zip(clients, results, strict=True):
            if isinstance(result, BaseException):
                continue
            for ply, seconds, sent in result:
                beyond.append(seconds - think[client.game_id].get(ply, 0) / 1000)
                timeline.append((sent, beyond[-1]))
        errors = [e for c in clients for e in c.errors]
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    return {
        "beyond": beyond,
        "timeline": sorted(timeline),
        "failures": failures,
        "errors": errors[:5],
        "games": count,
    }


async def _showcase(url: str, moves: int, level: int, game: Any, start: Any) -> dict[str, Any]:
    """The player of the watched game: creates it (its id goes to the watchers through
    ``game``), waits for the start time (from ``start``), then plays ``moves`` moves one
    second apart and returns when each was sent (move count -> wall time)."""
    import aiohttp

    rng = random.Random(11)
    async with aiohttp.ClientSession() as session:
        game_id, cookie = await create_game(
            session, url, {"mode": "ai", "level": level, "color": "black"}
        )
    player = Client(url, game_id, cookie)
    await player.connect()
    game.put(game_id)
    start_at = await asyncio.to_thread(start.get, True, 1800)
    await asyncio.sleep(max(0.0, start_at - time.time()))
    sent_at: dict[int, float] = {}
    for _ in range(moves):
        played = await send_move(player, rng)
        if played is None:
            break
        count_before, sent = played
        sent_at[count_before + 1] = sent
        await player.wait(lambda s, c=count_before: len(s["moves"]) >= c + 2, 120)
        await asyncio.sleep(1.0)  # let every spectator catch up before the next move
    await player.close()
    return {"sent": sent_at, "game_id": game_id}


class Watcher:
    """A spectator on a bare socket that speaks websocket, engine.io and Socket.IO by hand
    (handshake, namespace, join, answer pings, read frames), driven by one selector loop
    per process with no asyncio or websocket library: a few microseconds of client CPU per
    message, so thousands fit in a few client processes on the server's own cores and the
    figures are the server's. Counts the events of each kind; a ``timed`` watcher also
    parses each state and notes when each move count first reached it: the time its
    frame was read from the socket (every tenth spectator is a fair sample of the fan-out
    delay; the others skip the parsing, and the clients' CPU stays free for the server)."""

    PREFIX = f"42{NS},".encode()

    def __init__(self, url: str, game_id: str, timed: bool = True) -> None:
        host, port = url.split("//", 1)[1].rsplit(":", 1)
        self.address = (host, int(port))
        self.game_id = game_id
        self.timed = timed
        self.arrivals: dict[int, float] = {}
        self.events: dict[str, int] = {}
        self.joined = False
        self.sock: Any = None
        self.buffer = bytearray()

    def connect(self) -> None:
        """Handshake, engine.io open, namespace, join (blocking); then non-blocking."""
        import base64
        import socket

        self.sock = socket.create_connection(self.address, timeout=60)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        host = f"{self.address[0]}:{self.address[1]}"
        self.sock.sendall(
            (
                f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: {host}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            self.buffer += chunk
        head, _, rest = bytes(self.buffer).partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        self.buffer = bytearray(rest)
        opened = self._next_text()
        assert opened.startswith(b"0"), opened
        self.send(f"40{NS},")
        joined = self._next_text()
        assert joined.startswith(f"40{NS},".encode()), joined
        self.send(f"42{NS}," + json.dumps(["join", {"game_id": self.game_id}]))
        self.sock.setblocking(False)

    def _next_text(self) -> bytes:
        """The next text message (blocking; only while connecting)."""
        while True:
            message = self._frame()
            if message is not None:
                return message
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed while connecting")
            self.buffer += chunk

    def _frame(self) -> bytes | None:
        """Take one whole frame's payload from the buffer (None: not all here yet).
        Server frames are unmasked and, from this server, never fragmented."""
        buffer = self.buffer
        if len(buffer) < 2:
            return None
        size, start = buffer[1] & 0x7F, 2
        if size == 126:
            if len(buffer) < 4:
                return None
            size, start = int.from_bytes(buffer[2:4], "big"), 4
        elif size == 127:
            if len(buffer) < 10:
                return None
            size, start = int.from_bytes(buffer[2:10], "big"), 10
        if len(buffer) < start + size:
            return None
        opcode = buffer[0] & 0x0F
        payload = bytes(buffer[start : start + size])
        del buffer[: start + size]
        if opcode == 0x8:
            raise ConnectionError("closed by the server")
        return payload if opcode == 0x1 else b""

    def send(self, text: str, opcode: int = 0x1) -> None:
        """One masked client frame (short messages only)."""
        payload = text.encode()
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        assert len(payload) < 126
        frame = bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked
        blocking = self.sock.getblocking()
        self.sock.setblocking(True)
        self.sock.sendall(frame)
        self.sock.setblocking(blocking)

    def readable(self, now: float) -> bool:
        """Read what the socket has; False once it is closed."""
        try:
            chunk = self.sock.recv(262144)
        except BlockingIOError:
            return True
        if not chunk:
            return False
        self.buffer += chunk
        while True:
            message = self._frame()
            if message is None:
                return True
            if message == b"2":  # engine.io ping
                self.send("3")
            elif message.startswith(self.PREFIX):
                self._event(message, now)

    def _event(self, message: bytes, now: float) -> None:
        at = len(self.PREFIX) + 2
        name = message[at : message.find(b'"', at)].decode()
        self.events[name] = self.events.get(name, 0) + 1
        if name != "state":
            return
        if not self.timed:
            self.joined = True
            return
        payload = json.loads(message[len(self.PREFIX) :])[1]
        if payload.get("id") == self.game_id:
            for count in range(1, len(payload["moves"]) + 1):
                self.arrivals.setdefault(count, now)
            self.joined = True

    def close(self) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.send("", opcode=0x8)
            self.sock.close()


def _watchers(
    urls: list[str], first: int, count: int, game_id: str, done: Any, ready: Any
) -> dict[str, Any]:
    """``count`` spectators of ``game_id`` (spread over the servers), connected in
    batches of 25 (``ready`` hears when all are in), watching until ``done`` is set;
    returns, per timed spectator, when each move count first reached it, and how many
    events of each kind arrived."""
    import selectors

    watchers = [
        Watcher(urls[(first + i) % len(urls)], game_id, timed=(first + i) % TIMED_EVERY == 0)
        for i in range(count)
    ]
    selector = selectors.DefaultSelector()

    def pump(timeout: float) -> None:
        for key, _ in selector.select(timeout):
            watcher = key.data
            if not watcher.readable(time.time()):
                selector.unregister(watcher.sock)

    for start in range(0, count, 25):
        for watcher in watchers[start : start + 25]:
            watcher.connect()
            selector.register(watcher.sock, selectors.EVENT_READ, watcher)
        pump(0)
    deadline = time.monotonic() + 120
    while not all(w.joined for w in watchers) and time.monotonic() < deadline:
        pump(0.05)
    ready.put(count)
    while not done.is_set():
        pump(0.2)
    arrivals = [dict(w.arrivals) for w in watchers if w.timed]
    events: dict[str, int] = {}
    for watcher in watchers:
        for name, n in watcher.events.items():
            events[name] = events.get(name, 0) + n
        watcher.close()
    return {"arrivals": arrivals, "events": events}


def _run_players(args: tuple[Any, ...], out: Any, niceness: int) -> None:
    client_process(niceness)
    out.put(asyncio.run(_players(*args)))


def _run_showcase(args: tuple[Any, ...], game: Any, start: Any, out: Any, niceness: int) -> None:
    client_process(niceness)
    out.put(asyncio.run(_showcase(*args, game, start)))


def _run_watchers(args: tuple[Any, ...], out: Any, niceness: int) -> None:
    client_process(niceness)
    out.put(_watchers(*args))


# -- deployments ------------------------------------------------------------------------------


class Deployment:
    def __init__(
        self,
        mode: str,
        base: Path,
        workers: int = 4,
        port: int | None = None,
        start_timeout_s: float = 300.0,
    ) -> None:
        self.mode = mode
        self.services: list[Any] = []
        self.processes: list[Any] = []
        self.servers: list[Any] = []
        try:
            self._start(base, workers, port, start_timeout_s)
        except BaseException:
            self.stop()
            raise

    def _start(self, base: Path, workers: int, port: int | None, timeout_s: float) -> None:
        from tests.multi.services import AppProcess, PostgresServer, RedisServer

        mode = self.mode
        env = {"GOMOKU_INSTANCE": str(base / "instance"), "SECRET_KEY": "load"}
        if mode == "multi":
            redis, postgres = RedisServer(), PostgresServer()
            self.services = [postgres, redis]
            redis.start()
            postgres.start()
            env.update({"REDIS_URL": redis.url, "DATABASE_URL": postgres.url})
            self.servers = [
                AppProcess("serve", env, base / f"server-{n}.log", port + i if port else None)
                for i, n in enumerate("AB")
            ]
            workers = [
                AppProcess("worker", env, base / f"worker-{n}.log") for n in range(1, workers + 1)
            ]
            self.processes = [*self.servers, *workers]
            self.servers[0].start(timeout_s=timeout_s)
            for process in [self.servers[1], *workers]:
                process.start(wait=False)
            for process in [self.servers[1], *workers]:
                process.wait_ready(timeout_s)
        else:
            env.update({"AI_WORKERS": "2"})
            self.servers = [AppProcess("serve", env, base / "server.log", port)]
            self.processes = list(self.servers)
            self.servers[0].start(timeout_s=timeout_s)

    def warm_up(self) -> None:
        """Ask every server for an engine move, so that the whole AI path has run once
        before anything is measured (one at a time: a client gets two at once at most)."""
        import urllib.request

        body = json.dumps({"moves": [[7, 7]], "time_ms": 50}).encode()

        def ask(url: str) -> None:
            request = urllib.request.Request(
                f"{url}/api/v1/move", data=body, headers={"Content-Type": "application/json"}
            )
            with urllib.request.urlopen(request, timeout=120) as reply:
                reply.read()

        for url in self.urls:
            ask(url)

    def figures(self) -> tuple[float, int]:
        """Resident memory (MB) and threads of the servers, added up."""
        rss, threads = 0.0, 0
        for server in self.servers:
            assert server.process is not None
            mb, count = process_figures(server.process.pid)
            rss, threads = rss + mb, threads + count
        return rss, threads

    @property
    def urls(self) -> list[str]:
        return [s.url for s in self.servers]

    def stop(self) -> None:
        for process in self.processes:
            if process.process is not None:
                process.stop()
        for service in self.services:
            service.stop()


def _run(args: argparse.Namespace, deployment: Deployment) -> tuple[list[Any], str]:
    """Connect the watched game's player and the spectators, note the servers' memory,
    then connect the players and play; return every client process's result."""
    context = multiprocessing.get_context("spawn")
    out, game, start, ready = context.Queue(), context.Queue(), context.Queue(), context.Queue()
    done = context.Event()
    urls = deployment.urls
    showcase = context.Process(
        target=_run_showcase,
        args=((urls[0], args.moves, args.level), game, start, out, args.client_nice),
    )
    showcase.start()
    game_id = game.get(timeout=300)
    idle_rss, idle_threads = deployment.figures()
    # Spectators are spread over several client processes, as real ones are spread over
    # many machines: one process would queue every arrival behind the others.
    jobs = [showcase]
    share = max(1, -(-args.spectators // max(1, args.spectator_procs)))
    for first in range(0, args.spectators, share):
        count = min(share, args.spectators - first)
        jobs.append(
            context.Process(
                target=_run_watchers,
                args=((urls, first, count, game_id, done, ready), out, args.client_nice),
            )
        )
    connecting = time.time()
    for job in jobs[1:]:
        job.start()
    in_room = sum(ready.get(timeout=1800) for _ in jobs[1:])
    time.sleep(2.0)  # let the last announcements settle
    rss, threads = deployment.figures()
    per_socket = (rss - idle_rss) * 1024 / max(1, in_room)
    memory = (
        f"servers with {in_room} spectator sockets (connected in "
        f"{time.time() - connecting:.0f} s): {rss:.0f} MB resident, {threads} threads; "
        f"before them {idle_rss:.0f} MB, {idle_threads} threads: {per_socket:.0f} KB per "
        "idle socket"
    )
    print(memory, flush=True)
    # Everybody connects first and then play starts at the same moment.
    start_at = time.time() + 15 + args.players / 20
    start.put(start_at)
    players = context.Process(
        target=_run_players,
        args=(
            (urls, args.players, args.moves, args.level, args.pause, start_at),
            out,
            args.client_nice,
        ),
    )
    players.start()
    jobs.append(players)
    results = []
    pids = [server.process.pid for server in deployment.servers]
    with Sharing(pids) as sharing:
        for _ in jobs:
            results.append(out.get(timeout=1800))
            # Spectators stay until the showcase game and every player are done (or, with
            # --spectators-leave, all leave at once when the showcase ends).
            finished = {k for r in results for k in r}
            wanted = {"sent"} if args.spectators_leave else {"sent", "beyond"}
            if not done.is_set() and wanted <= finished:
                time.sleep(2.0)
                done.set()
    for job in jobs:
        job.join(60)
    return results, f"{memory}\n{sharing.report()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=["single", "multi"], default="single")
    parser.add_argument("--players", type=int, default=200, help="concurrent vs-AI games")
    parser.add_argument("--spectators", type=int, default=500, help="watchers of one game")
    parser.add_argument("--moves", type=int, default=5, help="moves per player")
    parser.add_argument("--level", type=int, default=1, help="AI level (1 is the fastest)")
    parser.add_argument("--pause", type=float, default=1.0, help="player think time, s")
    parser.add_argument(
        "--spectator-procs", type=int, default=2, help="client processes for the spectators"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=4,
        help="queue workers in multi mode (AI turns wait mostly on Redis and the database)",
    )
    parser.add_argument(
        "--spectators-leave",
        action="store_true",
        help="spectators all disconnect when the showcase game ends, while players play on",
    )
    parser.add_argument("--logs", help="keep the servers' logs in this folder")
    parser.add_argument("--port", type=int, help="first server port (default: any free one)")
    parser.add_argument(
        "--client-nice", type=int, default=10, help="niceness of the client processes"
    )
    parser.add_argument("--timeline", action="store_true", help="p95 per 5 s of play")
    parser.add_argument(
        "--per-move", action="store_true", help="fan-out of each of the watched game's moves"
    )
    parser.add_argument(
        "--start-timeout", type=float, default=300.0, help="seconds a server may take to start"
    )
    args = parser.parse_args(argv)

    client_process(0)
    with tempfile.TemporaryDirectory(prefix="gomoku-load-") as scratch:
        tmp = args.logs or scratch
        started = time.time()
        deployment = Deployment(args.mode, Path(tmp), args.workers, args.port, args.start_timeout)
        try:
            deployment.warm_up()
            print(f"{args.mode}: deployment ready in {time.time() - started:.1f} s", flush=True)
            results, memory = _run(args, deployment)
        finally:
            deployment.stop()
    players = next(r for r in results if "beyond" in r)
    sent = next(r for r in results if "sent" in r)["sent"]
    fanout: list[float] = []
    per_move: dict[int, list[float]] = {count: [] for count in sent}
    missing = 0
    events: dict[str, int] = {}
    for result in results:
        for arrivals in result.get("arrivals", []):
            for count, sent_at in sent.items():
                if count in arrivals:
                    fanout.append((arrivals[count] - sent_at) * 1000)
                    per_move[count].append(fanout[-1])
                else:
                    missing += 1
        for event, n in result.get("events", {}).items():
            events[event] = events.get(event, 0) + n
    beyond = [s * 1000 for s in players["beyond"]]
    print(f"mode={args.mode} players={args.players} spectators={args.spectators} "
          f"moves/player={args.moves} level={args.level} pause={args.pause}s")  # fmt: skip
    print(memory)
    load = os.getloadavg()[0]
    print(f"machine load average (1 min) at the end: {load:.1f} on {os.cpu_count()} cores")
    print(f"{'figure (ms)':<38}{'n':>7}{'p50':>9}{'p95':>9}{'p99':>9}{'mean':>9}")
    for name, samples in (
        ("move round-trip beyond think time", beyond),
        ("spectator fan-out delay", fanout),
    ):
        p50, p95, p99 = percentiles(samples)
        mean = statistics.fmean(samples) if samples else float("nan")
        print(f"{name:<38}{len(samples):>7}{p50:>9.0f}{p95:>9.0f}{p99:>9.0f}{mean:>9.0f}")
    if args.timeline and players["timeline"]:
        # p95 per five-second window: shows whether slow moves come in bursts.
        first = players["timeline"][0][0]
        windows: dict[int, list[float]] = {}
        for sent, seconds in players["timeline"]:
            windows.setdefault(int((sent - first) // 5), []).append(seconds * 1000)
        for index, values in sorted(windows.items()):
            print(f"  t+{index * 5:>3}s  n={len(values):>4}  p95={percentiles(values)[1]:>6.0f} ms")
    if args.per_move:
        # The first, median and last spectator of each move: a slow start (the move
        # waited on the server) or a slow spread (the fan-out itself).
        for count, delays in sorted(per_move.items()):
            if delays:
                first, median, last = min(delays), statistics.median(delays), max(delays)
                print(f"  move {count:>3}: first {first:>5.0f}  p50 {median:>5.0f}  "
                      f"last {last:>5.0f} ms")  # fmt: skip
    if players["failures"]:
        print(f"player failures: {len(players['failures'])}: {players['failures'][:3]}")
    if players["errors"]:
        print(f"error events: {players['errors']}")
    if missing:
        print(f"spectator states missing: {missing}")
    if args.spectators:
        per = {event: round(n / args.spectators, 1) for event, n in sorted(events.items())}
        print(f"events per spectator: {per}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
