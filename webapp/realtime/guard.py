"""Guards in front of the Socket.IO server for what no handler should ever see.

``init_app`` wraps two steps of python-socketio's packet handling:
  * decoding: a packet that does not parse (bad type, bad JSON, a thousand nested
    brackets), or a binary one (this app speaks JSON only), is dropped and logged under
    a ``LogBudget``, never with a traceback;
  * event dispatch: an event whose name is not a string, or is one of the names the
    protocol reserves for its own signals (``connect``, ``disconnect``...), is refused
    with an ``error`` event (and a negative acknowledgement when one was asked for). A
    client could otherwise fake its own disconnect: its rate limit would be reset and
    its seat shown as empty.
Refusals count against the sender's rate limit like any event. The namespace handlers
behind it (``namespace``) only ever receive string names of real events. An engine.io
packet that breaks the websocket loop itself ends that connection quietly
(``SocketEndpointGuard``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import Flask
from socketio import packet

from webapp.realtime.log_budget import limit_logger

log = logging.getLogger(__name__)

# Names the Socket.IO protocol keeps for its own signals: never a client's event.
RESERVED_EVENTS = frozenset(
    {"connect", "connect_error", "disconnect", "disconnecting", "newListener",
     "removeListener", "message"}
)  # fmt: skip

_BINARY_TYPES = (str(packet.BINARY_EVENT), str(packet.BINARY_ACK))

# What a malformed packet can raise while python-socketio decodes it.
_DECODE_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError)


def event_name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a client's event, or None if it can."""
    if not isinstance(name, str):
        return "an event name must be a string"
    if name in RESERVED_EVENTS:
        return f"{name!r} is reserved and cannot be sent as an event"
    return None


def init_app(app: Flask, allow: Callable[[str], bool] | None = None) -> None:
    """Guard the Socket.IO server of ``app``; ``allow(sid)`` is the rate limit."""
    install_guards(app.extensions["socketio"].server, allow)
    app.wsgi_app = SocketEndpointGuard(app.wsgi_app)  # type: ignore[method-assign]


def install_guards(server: Any, allow: Callable[[str], bool] | None = None) -> None:
    """Wrap ``server`` (a ``socketio.Server``); ``allow(sid)`` is the rate limit."""
    limit_logger(log.name)
    # These log what a client sent them, some with a traceback: keep one line of each.
    limit_logger("socketio.server", tracebacks=False)
    limit_logger("engineio.server", tracebacks=False)
    decode = server._handle_eio_message
    dispatch = server._handle_event

    def handle_message(eio_sid: str, data: Any) -> Any:
        if not isinstance(data, str) or data[:1] in _BINARY_TYPES:
            # Every message of this app is JSON text: binary packets would leave the
            # decoder waiting for attachments that the next packets would be taken for.
            log.warning("dropped a binary packet from %s", eio_sid)
            return None
        try:
            return decode(eio_sid, data)
        except _DECODE_ERRORS as error:
            log.warning("dropped a malformed packet from %s: %s", eio_sid, _short(error))
            return None

    def handle_event(eio_sid: str, namespace: str | None, ack_id: Any, data: Any) -> Any:
        name = data[0] if isinstance(data, list) and data else None
        problem = event_name_problem(name)
        if problem is None:
            return dispatch(eio_sid, namespace, ack_id, data)
        namespace = namespace or "/"
        sid = server.manager.sid_from_eio_sid(eio_sid, namespace)
        if sid is None or not server.manager.is_connected(sid, namespace):
            return None
        code = "bad_request"
        if allow is not None and not allow(sid):
            code, problem = "rate_limited", "too many messages: slow down"
        error = {"code": code, "message": problem, "params": {}}
        server.emit("error", error, to=sid, namespace=namespace)
        if ack_id is not None:
            reply = server.packet_class(
                packet.ACK, namespace=namespace, id=ack_id, data=[{"ok": False, "error": error}]
            )
            server._send_packet(eio_sid, reply)
        return None

    server._handle_eio_message = handle_message
    server._handle_event = handle_event


class SocketEndpointGuard:
    """WSGI middleware around the Socket.IO endpoint: an exception that a malformed
    engine.io packet raises out of the websocket loop ends that one connection with one
    budgeted log line instead of a traceback from the web server."""

    def __init__(self, app: Callable[..., Any], path: str = "/socket.io") -> None:
        self.app = app
        self.path = path

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        try:
            return self.app(environ, start_response)
        except (ConnectionError, StopIteration):
            raise  # how simple-websocket asks Werkzeug or Gunicorn to drop the connection
        except Exception as error:
            if not str(environ.get("PATH_INFO", "")).startswith(self.path):
                raise
            log.warning("closed a socket after a malformed packet: %s", _short(error))
            if str(environ.get("HTTP_UPGRADE", "")).lower() == "websocket":
                return []  # the websocket had the connection: nothing more to send
            start_response("400 Bad Request", [("Content-Type", "text/plain")])
            return [b"malformed packet"]


def _short(error: BaseException) -> str:
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= 120 else text[:117] + "..."
