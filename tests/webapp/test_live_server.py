"""The real ``gomoku serve`` in a subprocess: HTTP API, a Socket.IO client over a real
websocket playing the AI, and a restart on the same instance folder that keeps the game.
Also the ``gomoku worker`` stub's message without ``REDIS_URL``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from typing import Any

import socketio

ROOT = Path(__file__).resolve().parents[2]


def call(url: str, body: Any = None) -> tuple[int, Any, str]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, headers={"Content-Type": "application/json"} if data else {}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read()), reply.headers.get("Set-Cookie", "")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), ""


def test_serve_plays_over_a_real_websocket_and_survives_a_restart(live_server: Any) -> None:
    status, body, _ = call(f"{live_server.url}/api/v1/games")
    assert status == 200
    assert body == {"games": []}
    status, body, cookie = call(
        f"{live_server.url}/api/v1/games", {"mode": "ai", "level": 1, "color": "black"}
    )
    assert status == 201
    game_id = body["id"]
    seat = cookie.split(";")[0]
    assert seat.startswith(f"seat_{game_id}=")

    states: list[dict[str, Any]] = []
    replied = threading.Event()
    client = socketio.Client()

    @client.on("state", namespace="/game")
    def on_state(state: dict[str, Any]) -> None:
        states.append(state)
        if len(state["moves"]) == 2:
            replied.set()

    client.connect(
        live_server.url, namespaces=["/game"], headers={"Cookie": seat}, transports=["websocket"]
    )
    try:
        client.emit("join", {"game_id": game_id}, namespace="/game")
        client.sleep(0.5)
        assert states and states[-1]["you"] == "black"
        client.emit(
            "move",
            {"game_id": game_id, "x": 7, "y": 7, "version": states[-1]["version"]},
            namespace="/game",
        )
        assert replied.wait(60), states
    finally:
        client.disconnect()
    moves = states[-1]["moves"]

    live_server.restart()
    status, state, _ = call(f"{live_server.url}/api/v1/games/{game_id}")
    assert status == 200
    assert state["moves"] == moves
    assert state["status"] == "active"
    assert len(state["evals"]) == 1
    status, body, _ = call(f"{live_server.url}/api/v1/games/{game_id}x")
    assert status == 404


def test_worker_without_redis_explains_and_exits_2() -> None:
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "webapp.cli", "worker"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "REDIS_URL" in done.stderr
