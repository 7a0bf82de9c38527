"""A room's broadcast written once: one websocket frame for every socket of the room.

python-socketio sends a room emit by encoding the packet once and then, per socket,
putting it on the socket's engine.io queue, waking that socket's writer greenlet, and
having it frame the text (wsproto) and write it. That is about 40 µs of CPU per socket on
a small server, so a move reaches the 5,000th spectator of a game a fifth of a second
after the first. ``FrameOnceManager`` (the Socket.IO client manager of ``gomoku serve``)
builds the websocket frame once per broadcast and writes it straight to each socket
whose writer is idle (nothing queued, nothing being written): one non-blocking
``send`` each. Any other socket (still polling, upgrading, with packets
waiting, or whose kernel buffer is full) gets the packet the usual way, through its
queue, so the order of each socket's messages is kept.

``FramedWebSocket`` is the engine.io websocket of such a server: it records itself on its
engine.io socket (so the manager can find it), serialises its writes with the
manager's, and does not negotiate per-message compression: this app's messages are a
few hundred bytes to a few kilobytes, and a compressor per connection would cost every
socket its own compression of every broadcast and a few hundred kilobytes of memory.

Only gevent's engine.io driver is served this way (``install``); any other mode keeps
python-socketio's own path."""

from __future__ import annotations

import logging
import struct
from typing import Any

import gevent
from engineio import packet as eio_packet
from engineio.async_drivers.gevent import WebSocketWSGI
from gevent.lock import Semaphore
from socketio import Manager
from socketio import packet as sio_packet

log = logging.getLogger(__name__)

# The attribute of an engine.io socket that holds its ``FramedWebSocket``.
WS_ATTR = "gomoku_framed_ws"


def text_frame(text: str) -> bytes:
    """One unmasked, final websocket text frame (a server's frame) carrying ``text``."""
    payload = text.encode("utf-8")
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x81, size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", 0x81, 126, size)
    else:
        header = struct.pack("!BBQ", 0x81, 127, size)
    return header + payload


class FramedWebSocket(WebSocketWSGI):  # type: ignore[misc]
    """engine.io's gevent websocket (simple-websocket), findable from its engine.io socket,
    without per-message compression, with one lock around the writes to the socket."""

    def __init__(self, handler: Any, server: Any) -> None:
        super().__init__(handler, server)
        self.write_lock = Semaphore()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        # Without the client's offer, the handshake accepts no extension.
        environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)
        owner = getattr(self.app, "__self__", None)  # the engine.io socket
        if owner is not None:
            setattr(owner, WS_ATTR, self)
        try:
            return super().__call__(environ, start_response)
        finally:
            if owner is not None and getattr(owner, WS_ATTR, None) is self:
                delattr(owner, WS_ATTR)

    def send(self, message: Any) -> Any:
        with self.write_lock:
            return super().send(message)

    def try_send(self, frame: bytes) -> bool:
        """Write ``frame`` now if nothing else is being written; False if not written.
        A frame the kernel takes only in part is finished in the background, ahead of
        any later write."""
        ws = getattr(self, "ws", None)
        if ws is None or not ws.connected or self.write_lock.locked():
            return False
        try:
            sent = ws.sock.send(frame, 0, 0.0)  # gevent: a timeout of 0 never waits
        except BlockingIOError:
            return False
        except OSError:
            return False  # the usual path will meet the same error and close the socket
        if sent < len(frame):
            self.write_lock.acquire()
            gevent.spawn(self._finish, frame[sent:])
        return True

    def _finish(self, rest: bytes) -> None:
        try:
            self.ws.sock.sendall(rest)
        except OSError:
            pass  # the connection is gone: its reader ends it
        finally:
            self.write_lock.release()


def idle_websocket(socket: Any) -> FramedWebSocket | None:
    """The websocket of engine.io socket ``socket`` if it is upgraded, open and has
    nothing queued. (Its writer then waits for the next packet, unless it is still
    writing the last ones: it holds the websocket's write lock while it writes, which
    ``try_send`` checks. Greenlets switch only where they wait, so nothing is between.)"""
    ws = getattr(socket, WS_ATTR, None)
    if ws is None or not socket.upgraded or socket.closing or socket.closed:
        return None
    if socket.queue.qsize():
        return None
    return ws  # type: ignore[no-any-return]


class FrameOnceManager(Manager):  # type: ignore[misc]
    """Socket.IO's in-memory client manager, with room broadcasts framed once (see the
    module's docstring). Emits with a callback, to one socket, or with binary data take
    python-socketio's own path. Counts how many messages went each way (``written``
    straight to the socket, ``queued``)."""

    def __init__(self) -> None:
        super().__init__()
        self.written = 0
        self.queued = 0

    def emit(
        self,
        event: str,
        data: Any,
        namespace: str,
        room: Any = None,
        skip_sid: Any = None,
        callback: Any = None,
        to: Any = None,
        **kwargs: Any,
    ) -> Any:
        room = to or room
        if callback is not None:
            return super().emit(event, data, namespace, room, skip_sid, callback, **kwargs)
        if namespace not in self.rooms:
            return None
        if isinstance(data, tuple):
            args = list(data)
        elif data is not None:
            args = [data]
        else:
            args = []
        pkt = self.server.packet_class(sio_packet.EVENT, namespace=namespace, data=[event, *args])
        encoded = pkt.encode()
        if isinstance(encoded, list):  # binary attachments: several engine.io packets
            return super().emit(event, data, namespace, room, skip_sid, callback, **kwargs)
        message = eio_packet.Packet(eio_packet.MESSAGE, encoded)
        frame: bytes | None = None
        skip = set(skip_sid) if isinstance(skip_sid, list) else {skip_sid}
        sockets = self.server.eio.sockets
        for sid, eio_sid in self.get_participants(namespace, room):
            if sid in skip:
                continue
            ws = idle_websocket(sockets.get(eio_sid))
            if ws is not None:
                if frame is None:
                    frame = text_frame(message.encode())
                if ws.try_send(frame):
                    self.written += 1
                    continue
            self.queued += 1
            self.server._send_eio_packet(eio_sid, message)
        return None


def install(server: Any) -> None:
    """Have engine.io server ``server.eio`` (gevent mode) use ``FramedWebSocket``."""
    eio = server.eio
    if eio.async_mode != "gevent" or eio._async.get("websocket") is None:
        return
    eio._async = {**eio._async, "websocket": FramedWebSocket}
