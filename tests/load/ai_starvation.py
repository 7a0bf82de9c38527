"""Can one client starve other players' AI? Measures a level-1 AI's reply time in a live
game while another client floods the engine API or asks for hints as fast as it can.

Starts ``gomoku serve`` on a fresh instance folder, then runs three phases of ``--moves``
moves each, in a new game each time: no other load, four clients' worth of
``POST /api/v1/move`` with ``time_ms=10000`` sent back to back from one address, 40
hints in 2.5 s from another AI game, and eight AI-vs-AI games at level 5 started by one
client. Prints, per phase, the AI's reply time (from sending
the move to receiving the state with the reply: median and worst) and what the flooding
client got back (answers and ``rate_limited`` refusals).

    nice -n 10 .venv/bin/python tests/load/ai_starvation.py"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
NS = "/game"


def post(url: str, body: dict[str, Any], timeout_s: float = 60) -> tuple[int, Any, str]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as reply:
            cookie = (reply.headers.get("Set-Cookie") or "").split(";")[0]
            return reply.status, json.loads(reply.read()), cookie
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}"), ""


class Player:
    """A human seat in an AI game over a real Socket.IO connection."""

    def __init__(self, url: str, level: int) -> None:
        import socketio

        status, data, self.cookie = post(
            f"{url}/api/v1/games", {"mode": "ai", "level": level, "color": "black"}
        )
        assert status == 201, data
        self.game_id = data["id"]
        self.state: dict[str, Any] = {}
        self.changed = threading.Condition()
        self.hints: Counter[str] = Counter()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("state", self._on_state, namespace=NS)
        self.sio.on("hint", lambda _: self._count("answered"), namespace=NS)
        self.sio.connect(
            url, namespaces=[NS], transports=["websocket"], headers={"Cookie": self.cookie}
        )
        self.sio.emit("join", {"game_id": self.game_id}, namespace=NS)
        self.wait(lambda s: bool(s))

    def _count(self, what: str) -> None:
        with self.changed:
            self.hints[what] += 1

    def _on_state(self, state: dict[str, Any]) -> None:
        with self.changed:
            if state.get("id") == self.game_id and state["version"] >= self.state.get(
                "version", -1
            ):
                self.state = state
                self.changed.notify_all()

    def wait(self, predicate: Callable[[dict[str, Any]], bool], timeout_s: float = 120) -> None:
        with self.changed:
            if not self.changed.wait_for(lambda: predicate(self.state), timeout_s):
                raise TimeoutError(f"no matching state in {timeout_s} s")

    def reply_time(self, rng: random.Random) -> float | None:
        """Play a free point near the centre; the seconds until the AI's reply arrives."""
        state = self.state
        if state["status"] != "active":
            return None
        taken = {tuple(p) for p in state["moves"]}
        free = [(x, y) for x in range(4, 11) for y in range(4, 11) if (x, y) not in taken]
        x, y = rng.choice(free)
        count = len(state["moves"])
        sent = time.monotonic()
        self.sio.emit(
            "move",
            {"game_id": self.game_id, "x": x, "y": y, "version": state["version"]},
            namespace=NS,
        )
        self.wait(lambda s: len(s["moves"]) >= count + 2 or s["status"] != "active")
        if len(self.state["moves"]) < count + 2:
            return None
        return time.monotonic() - sent

    def ask_hint(self) -> None:
        def ack(answer: dict[str, Any]) -> None:
            self._count("refused: " + answer["error"]["code"] if not answer["ok"] else "sent")

        self.sio.emit("hint", {"game_id": self.game_id}, namespace=NS, callback=ack)

    def close(self) -> None:
        self.sio.disconnect()


def measure(url: str, moves: int, level: int, rng: random.Random) -> list[float]:
    """``moves`` AI reply times, in as many games as it takes (the AI wins some fast)."""
    times: list[float] = []
    while len(times) < moves:
        player = Player(url, level)
        try:
            while len(times) < moves:
                took = player.reply_time(rng)
                if took is None:
                    break
                times.append(took)
                time.sleep(0.3)
        finally:
            player.close()
    return times


def api_flood(url: str, stop: threading.Event, results: Counter[str]) -> None:
    body = {"size": 15, "moves": [[7, 7], [8, 8]], "time_ms": 10_000}
    while not stop.is_set():
        status, _, _ = post(f"{url}/api/v1/move", body)
        results[str(status)] += 1
        if status == 429:
            time.sleep(0.05)


def hint_flood(url: str, stop: threading.Event, results: Counter[str]) -> None:
    attacker = Player(url, 1)
    try:
        for _ in range(40):
            if stop.is_set():
                break
            attacker.ask_hint()
            time.sleep(2.5 / 40)
        stop.wait()
        time.sleep(3.0)  # the answers of the last hints
        results.update(attacker.hints)
    finally:
        attacker.close()


def engine_games_flood(url: str, stop: threading.Event, results: Counter[str]) -> None:
    """Eight AI-vs-AI games at full strength (three seconds a move), started at once.
    Their first moves count against the address that created them, here the same as the
    measured player's; so this returns (and measuring starts) once every game has made
    two moves, the steady state of such a flood."""
    games = []
    for _ in range(8):
        body = {"mode": "aivai", "black_level": 5, "white_level": 5}
        status, data, _ = post(f"{url}/api/v1/games", body)
        results[f"games created ({status})"] += 1
        games.append(data["id"])
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not stop.is_set():
        counts = []
        for game_id in games:
            with urllib.request.urlopen(f"{url}/api/v1/games/{game_id}", timeout=30) as reply:
                counts.append(len(json.loads(reply.read())["moves"]))
        if min(counts) >= 2:
            return
        time.sleep(1.0)


def summary(name: str, times: list[float], flood: Counter[str] | None = None) -> str:
    line = (
        f"{name:<28} AI replies: {len(times):2d}, median {statistics.median(times):.3f} s, "
        f"worst {max(times):.3f} s"
    )
    if flood:
        line += "; flooding client got " + ", ".join(f"{k}: {v}" for k, v in sorted(flood.items()))
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=5591)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--level", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(1)
    with tempfile.TemporaryDirectory(prefix="gomoku-starvation-") as folder:
        env = dict(os.environ, GOMOKU_INSTANCE=str(Path(folder) / "instance"))
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
        url = f"http://127.0.0.1:{args.port}"
        command = [sys.executable, "-m", "webapp.cli", "serve", "--port", str(args.port)]
        with (Path(folder) / "server.log").open("wb") as log:
            server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    urllib.request.urlopen(f"{url}/api/v1/games", timeout=2).close()
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError("gomoku serve did not start") from None
                    time.sleep(0.2)
            print(summary("no other load", measure(url, args.moves, args.level, rng)))
            for name, flood in (
                ("engine API flood (4 x 10 s)", api_flood),
                ("hint flood (40 in 2.5 s)", hint_flood),
                ("8 AI-vs-AI games, level 5", engine_games_flood),
            ):
                stop = threading.Event()
                results: Counter[str] = Counter()
                floods = 4 if flood is api_flood else 1
                threads = [
                    threading.Thread(target=flood, args=(url, stop, results), daemon=True)
                    for _ in range(floods)
                ]
                for thread in threads:
                    thread.start()
                time.sleep(0.5)
                if flood is engine_games_flood:
                    threads[0].join(300)  # the games' first moves are made
                times = measure(url, args.moves, args.level, rng)
                stop.set()
                for thread in threads:
                    thread.join(30)
                print(summary(name, times, results), flush=True)
        finally:
            server.terminate()
            server.wait(30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
