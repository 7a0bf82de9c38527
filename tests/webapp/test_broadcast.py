"""Room broadcasts framed once (``realtime.broadcast``): the frame itself, the write that
a kernel takes only in part, and the real server sending a game's states to a room of
websocket spectators (one offering per-message compression) and a long-polling one."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from types import SimpleNamespace
from typing import Any

import pytest
import socketio
import websocket
from wsproto.frame_protocol import FrameProtocol, Opcode

from webapp.realtime.broadcast import FramedWebSocket, idle_websocket, text_frame

NS = "/game"


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65535, 65536, 70000])
def test_a_text_frame_reads_back_as_the_text(size: int) -> None:
    text = "é" * (size // 2) + "x" * (size % 2)
    reader = FrameProtocol(client=True, extensions=[])
    reader.receive_bytes(text_frame(text))
    frames = list(reader.received_frames())
    assert len(frames) == 1
    assert frames[0].opcode is Opcode.TEXT and frames[0].frame_finished
    assert frames[0].payload == text


class _Sock:
    """A socket whose kernel buffer takes ``room`` bytes of the next send."""

    def __init__(self, room: int | None = None) -> None:
        self.room = room
        self.written: list[bytes] = []

    def send(self, data: bytes, flags: int = 0, timeout: float | None = None) -> int:
        if self.room == 0:
            raise BlockingIOError
        taken = len(data) if self.room is None else min(self.room, len(data))
        self.room = None
        self.written.append(bytes(data[:taken]))
        return taken

    def sendall(self, data: bytes) -> None:
        self.written.append(bytes(data))


def _framed(sock: _Sock) -> FramedWebSocket:
    framed = FramedWebSocket.__new__(FramedWebSocket)
    framed.write_lock = __import__("gevent.lock").lock.Semaphore()
    framed.ws = SimpleNamespace(connected=True, sock=sock, send=lambda m: sock.sendall(m.encode()))
    return framed


def test_a_frame_taken_in_part_is_finished_before_the_next_write() -> None:
    sock = _Sock(room=3)
    framed = _framed(sock)
    frame = text_frame("4" + "a" * 300)
    assert framed.try_send(frame)
    assert framed.write_lock.locked()
    # Nothing else may start while the rest is pending, not even another broadcast.
    assert not framed.try_send(text_frame("4b"))
    framed.send("4next")  # engine.io's writer: waits for the rest
    assert b"".join(sock.written) == frame + b"4next"
    assert not framed.write_lock.locked()


def test_a_full_kernel_buffer_leaves_the_frame_to_the_queue() -> None:
    sock = _Sock(room=0)
    assert not _framed(sock).try_send(text_frame("4x"))
    assert sock.written == []


def test_only_an_idle_upgraded_socket_is_written_directly() -> None:
    framed = _framed(_Sock())

    def engine_socket(queued: int = 0, **changes: Any) -> Any:
        fields: dict[str, Any] = {
            "upgraded": True, "closing": False, "closed": False,
            "queue": SimpleNamespace(qsize=lambda: queued),
        }  # fmt: skip
        fields.update(changes)
        socket = SimpleNamespace(**fields)
        socket.gomoku_framed_ws = framed
        return socket

    assert idle_websocket(engine_socket()) is framed
    assert idle_websocket(engine_socket(upgraded=False)) is None
    assert idle_websocket(engine_socket(closing=True)) is None
    assert idle_websocket(engine_socket(queued=1)) is None
    assert idle_websocket(None) is None
    # The writer holds the lock while it writes: a broadcast then takes the queue.
    framed.write_lock.acquire()
    assert not framed.try_send(text_frame("4x"))
    framed.write_lock.release()
    assert framed.try_send(text_frame("4x"))


def _post(url: str, body: dict[str, Any]) -> tuple[dict[str, Any], str]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read()), reply.headers["Set-Cookie"].split(";")[0]


def _spectator(url: str, game_id: str, **options: Any) -> websocket.WebSocket:
    ws = websocket.create_connection(
        url.replace("http", "ws", 1) + "/socket.io/?EIO=4&transport=websocket",
        timeout=20,
        **options,
    )
    assert ws.recv().startswith("0")
    ws.send(f"40{NS},")
    assert ws.recv().startswith(f"40{NS},")
    ws.send(f"42{NS}," + json.dumps(["join", {"game_id": game_id}]))
    return ws


def _states_until(ws: websocket.WebSocket, moves: int) -> list[dict[str, Any]]:
    """Every state ``ws`` reads until one has ``moves`` moves."""
    states = []
    while True:
        message = ws.recv()
        if message == "2":
            ws.send("3")
            continue
        if not message.startswith(f"42{NS},"):
            continue
        name, payload = json.loads(message[len(NS) + 3 :])
        if name == "state":
            states.append(payload)
            if len(payload["moves"]) >= moves:
                return states


def test_a_room_of_spectators_gets_every_move_in_order(live_server: Any) -> None:
    url = live_server.url
    game, cookie = _post(f"{url}/api/v1/games", {"mode": "ai", "level": 1, "color": "black"})
    game_id = game["id"]
    spectators = [_spectator(url, game_id) for _ in range(12)]
    # A browser offers per-message compression: the server declines it.
    offering = _spectator(url, game_id, header=["Sec-WebSocket-Extensions: permessage-deflate"])
    assert "sec-websocket-extensions" not in {k.lower() for k in offering.getheaders()}
    spectators.append(offering)
    polled: list[dict[str, Any]] = []
    poller = socketio.Client()
    poller.on("state", polled.append, namespace=NS)
    poller.connect(url, namespaces=[NS], transports=["polling"])
    assert poller.call("join", {"game_id": game_id}, namespace=NS, timeout=10)["ok"]
    player = socketio.Client()
    seen: list[dict[str, Any]] = []
    player.on("state", seen.append, namespace=NS)
    player.connect(url, namespaces=[NS], headers={"Cookie": cookie}, transports=["websocket"])
    try:
        assert player.call("join", {"game_id": game_id}, namespace=NS, timeout=10)["ok"]
        for x in range(3):
            state = seen[-1]
            point = next(p for p in ([i, 0] for i in range(15)) if p not in state["moves"])
            reply = player.call(
                "move",
                {"game_id": game_id, "x": point[0], "y": 0, "version": state["version"]},
                namespace=NS,
                timeout=10,
            )
            assert reply["ok"], reply
            deadline = time.monotonic() + 30
            while len(seen[-1]["moves"]) < 2 * (x + 1) and time.monotonic() < deadline:
                time.sleep(0.02)
        final = seen[-1]
        assert len(final["moves"]) == 6
        for ws in spectators:
            states = _states_until(ws, 6)
            versions = [s["version"] for s in states]
            assert versions == sorted(versions)
            assert states[-1]["moves"] == final["moves"]
            counts = {len(s["moves"]) for s in states}
            assert {1, 2, 3, 4, 5, 6} <= counts, counts
        deadline = time.monotonic() + 10
        while (not polled or len(polled[-1]["moves"]) < 6) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert polled[-1]["moves"] == final["moves"]
    finally:
        player.disconnect()
        poller.disconnect()
        for ws in spectators:
            ws.close()
    live_server.stop()
    log = live_server.log_path.read_text()
    assert "Traceback" not in log
    # Most of those states were written straight to the spectators' sockets.
    written = re.search(r"written straight to sockets: (\d+), queued: (\d+)", log)
    assert written is not None, log
    assert int(written[1]) >= 6 * len(spectators), written[0]
