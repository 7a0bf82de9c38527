"""How long the first AI reply of a freshly started server takes.

Starts ``gomoku serve`` on a new, empty instance folder, waits until it answers HTTP, creates
a game in which the AI (``--level``, 3 by default) plays first, joins it with a Socket.IO
client and times the AI's opening move. Prints the seconds from the server's start to its
first answer, and from the game's creation to the AI's move, per run.

    nice -n 10 .venv/bin/python tests/load/first_reply.py --runs 3

The engine's compiled code must be cached already (``make run`` and ``make setup`` do it;
``python -m engine.warmup`` by hand), as it is after any install."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
NS = "/game"


def _wait_http(url: str, process: subprocess.Popen[bytes], timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        if process.poll() is not None:
            raise RuntimeError("gomoku serve exited")
        try:
            with urllib.request.urlopen(f"{url}/api/v1/games", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"gomoku serve did not answer in {timeout_s} s")
        time.sleep(0.02)


def _first_reply(url: str, level: int) -> float:
    import socketio

    body = json.dumps({"mode": "ai", "color": "white", "level": level}).encode()
    request = urllib.request.Request(
        f"{url}/api/v1/games", data=body, headers={"Content-Type": "application/json"}
    )
    created = time.monotonic()
    with urllib.request.urlopen(request, timeout=30) as reply:
        game_id = json.loads(reply.read())["id"]
    moved = threading.Event()
    warming: list[bool] = []
    client = socketio.Client(reconnection=False)

    def on_state(state: dict[str, object]) -> None:
        if state.get("warming"):
            warming.append(True)
        if state.get("id") == game_id and state.get("moves"):
            moved.set()

    client.on("state", on_state, namespace=NS)
    client.connect(url, namespaces=[NS], transports=["websocket"], wait_timeout=30)
    client.emit("join", {"game_id": game_id}, namespace=NS)
    try:
        if not moved.wait(120):
            raise RuntimeError("no AI move within 120 s")
        return time.monotonic() - created
    finally:
        client.disconnect()


def run_once(port: int, level: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory(prefix="gomoku-first-reply-") as folder:
        env = dict(os.environ, GOMOKU_INSTANCE=str(Path(folder) / "instance"))
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
        url = f"http://127.0.0.1:{port}"
        command = [sys.executable, "-m", "webapp.cli", "serve", "--port", str(port)]
        started = time.monotonic()
        with (Path(folder) / "server.log").open("wb") as log:
            process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
        try:
            _wait_http(url, process, 120)
            up = time.monotonic() - started
            return up, _first_reply(url, level)
        finally:
            process.terminate()
            process.wait(30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=5590)
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    replies = []
    for run in range(1, args.runs + 1):
        up, reply = run_once(args.port, args.level)
        replies.append(reply)
        print(
            f"run {run}: server answered after {up:.2f} s; first AI reply (level "
            f"{args.level}) {reply:.2f} s after the game was created",
            flush=True,
        )
    print(f"first AI reply: best {min(replies):.2f} s, worst {max(replies):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
