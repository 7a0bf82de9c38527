"""How long the first AI reply of a freshly started server takes.

Starts ``gomoku serve`` on a new, empty instance folder, waits until it answers HTTP, then
creates a game in which the AI (``--level``, 3 by default) plays first and times its
opening move over a Socket.IO client, and a game in which the human opens and times the
AI's reply. Prints, per run, the seconds from the server's start to its first answer (it
answers once its AI workers are warm), the workers' warm-up times from its log, and the
two AI times.

    nice -n 10 .venv/bin/python tests/load/first_reply.py --runs 3

The engine's compiled code must be cached already (``make run`` and ``make setup`` do it;
``python -m engine.warmup`` by hand), as it is after any install."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

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


def _create(url: str, color: str, level: int) -> tuple[str, str]:
    body = json.dumps({"mode": "ai", "color": color, "level": level}).encode()
    request = urllib.request.Request(
        f"{url}/api/v1/games", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        cookie = (reply.headers.get("Set-Cookie") or "").split(";")[0]
        return str(json.loads(reply.read())["id"]), cookie


def _watch(
    url: str, game_id: str, cookie: str, moves: int
) -> tuple[Any, threading.Event, dict[str, Any]]:
    """A socket on ``game_id``, an event set once the game has ``moves`` moves, and the
    newest state."""
    import socketio

    reached = threading.Event()
    client = socketio.Client(reconnection=False)
    latest: dict[str, Any] = {}

    def on_state(state: dict[str, Any]) -> None:
        if state.get("id") == game_id:
            latest.update(state)
            if len(state.get("moves") or []) >= moves:
                reached.set()

    client.on("state", on_state, namespace=NS)
    headers = {"Cookie": cookie} if cookie else {}
    client.connect(url, namespaces=[NS], transports=["websocket"], headers=headers)
    client.emit("join", {"game_id": game_id}, namespace=NS)
    return client, reached, latest


def _ai_opens(url: str, level: int) -> float:
    """Seconds from creating a game where the AI plays first to its move."""
    created = time.monotonic()
    game_id, cookie = _create(url, "white", level)
    client, moved, _ = _watch(url, game_id, cookie, 1)
    try:
        if not moved.wait(120):
            raise RuntimeError("no AI move within 120 s")
        return time.monotonic() - created
    finally:
        client.disconnect()


def _ai_replies(url: str, level: int) -> float:
    """Seconds from a human's first move to the AI's reply."""
    game_id, cookie = _create(url, "black", level)
    client, replied, latest = _watch(url, game_id, cookie, 2)
    try:
        deadline = time.monotonic() + 30
        while not latest and time.monotonic() < deadline:
            time.sleep(0.01)
        sent = time.monotonic()
        move = {"game_id": game_id, "x": 7, "y": 7, "version": latest["version"]}
        client.emit("move", move, namespace=NS)
        if not replied.wait(120):
            raise RuntimeError("no AI reply within 120 s")
        return time.monotonic() - sent
    finally:
        client.disconnect()


def run_once(port: int, level: int) -> tuple[float, float, float, str]:
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
            opens, replies = _ai_opens(url, level), _ai_replies(url, level)
            log_text = (Path(folder) / "server.log").read_text(errors="replace")
            warm = ", ".join(re.findall(r"worker \d+ ready in ([0-9.]+ s)", log_text))
            return up, opens, replies, warm
        finally:
            process.terminate()
            process.wait(30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=5590)
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    opening, replying = [], []
    for run in range(1, args.runs + 1):
        up, opens, replies, warm = run_once(args.port, args.level)
        opening.append(opens)
        replying.append(replies)
        print(
            f"run {run}: server answered {up:.2f} s after its start (workers warm in {warm}); "
            f"level {args.level}: AI's opening move {opens:.2f} s after the game's creation, "
            f"AI's reply to the first move {replies:.2f} s",
            flush=True,
        )
    print(
        f"worst of {args.runs}: opening move {max(opening):.2f} s, "
        f"reply to the first move {max(replying):.2f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
