"""``gomoku serve`` as a production server: gevent, a greenlet (not threads) per socket,
websocket close frames answered, no stray log lines when clients leave.

Runs the real server in a subprocess (``live_server``) with real websocket clients."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import socketio
import websocket

NS = "/game"


def _threads(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    raise AssertionError("no thread count")


def _engine_socket(url: str) -> websocket.WebSocket:
    ws = websocket.create_connection(
        url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket", timeout=10
    )
    assert ws.recv().startswith("0")  # engine.io open
    ws.send(f"40{NS},")
    assert ws.recv().startswith(f"40{NS},")  # namespace joined
    return ws


def _close_answered(url: str) -> bool:
    ws = _engine_socket(url)
    try:
        ws.send_close(websocket.STATUS_NORMAL, b"bye")
        while True:
            frame = ws.recv_frame()
            if frame.opcode == websocket.ABNF.OPCODE_CLOSE:
                return True
    except (websocket.WebSocketException, OSError):
        return False
    finally:
        ws.shutdown()


def test_many_sockets_few_threads_and_every_close_answered(live_server: Any) -> None:
    assert "(gevent)" in live_server.log_path.read_text()
    pid = live_server._process.pid
    before = _threads(pid)
    with ThreadPoolExecutor(20) as pool:
        sockets = list(pool.map(lambda _: _engine_socket(live_server.url), range(200)))
    try:
        # Werkzeug's server needed about four threads per websocket; greenlets need none.
        assert _threads(pid) <= before + 4, (before, _threads(pid))
    finally:
        for ws in sockets:
            ws.close(timeout=2)
    with ThreadPoolExecutor(20) as pool:
        answered = list(pool.map(lambda _: _close_answered(live_server.url), range(60)))
    assert all(answered), f"{answered.count(False)} of 60 close frames got no reply"


def test_clients_leave_without_stray_log_lines(live_server: Any) -> None:
    for transports in (["websocket"], ["polling", "websocket"], ["polling"]):
        for _ in range(5):
            client = socketio.Client()
            client.connect(live_server.url, namespaces=[NS], transports=transports)
            client.disconnect()
    time.sleep(0.5)
    log = live_server.log_path.read_text()
    # (engine.io may log a line when a long-poll races the upgrade: that is not checked)
    for sign in ("Invalid HTTP method", "Traceback"):
        assert sign not in log, log
