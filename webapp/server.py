"""``gomoku serve``: the web app on gevent's WSGI server, one process.

Every connection, websocket or HTTP, is a greenlet of one thread rather than an OS thread
(Werkzeug's development server needed about four threads per websocket), so one process
holds thousands of idle sockets. The standard library's blocking calls (sockets, locks,
sleeps, subprocess pipes, the AI pool's reader threads and the service's timers) become
cooperative through ``gevent.monkey``, which ``gomoku serve`` applies before anything else
is imported (see ``cli``); websockets are served by simple-websocket. ``Handler`` closes
the connection once a websocket ends, so that the client's reply to a close frame is read
by the websocket and not taken for a new HTTP request.

Parses ``--host``, ``--port`` and ``--access-log``, builds the app with ``create_app``
(configuration from the environment), and on SIGTERM or SIGINT stops accepting, closes
the open connections and shuts the AI worker pool down."""

from __future__ import annotations

import argparse
import gc
import logging
import resource
import signal
from collections.abc import Sequence
from typing import Any

import gevent
from gevent import monkey
from gevent.event import Event
from gevent.pywsgi import WSGIHandler, WSGIServer

from engine.search.heap import settle_heap
from webapp.app import create_app, shutdown_app
from webapp.realtime.log_budget import limit_logger

log = logging.getLogger("webapp.server")

# Connections waiting to be accepted: thousands of sockets may (re)connect at once.
BACKLOG = 2048
STOP_GRACE_S = 5.0


class Handler(WSGIHandler):  # type: ignore[misc]
    def run_application(self) -> None:
        websocket = str(self.environ.get("HTTP_UPGRADE", "")).lower() == "websocket"
        try:
            super().run_application()
        finally:
            if websocket:
                # The websocket had the connection to itself; HTTP may not read on.
                self.close_connection = True


def _raise_open_files_limit() -> int:
    """Every socket is a file descriptor: allow as many as the system lets us."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return int(soft)


def _tune_interpreter() -> None:
    """Settings for a process that holds millions of long-lived objects, where each full
    collection of them stops every connection for a tenth of a second or more: what
    exists once the app is built is set aside for good, and collections run less often
    (cycles are rare here: most garbage goes as soon as its last reference does)."""
    settle_heap()
    gc.set_threshold(20_000, 20, 50)


def build_server(app: Any, host: str, port: int, *, access_log: bool = False) -> WSGIServer:
    """The gevent WSGI server for ``app`` (started by the caller)."""
    error_log = logging.getLogger("webapp.server.http")
    # Broken requests are a client's doing: a few lines a minute say enough.
    limit_logger(error_log.name)
    return WSGIServer(
        (host, port),
        app,
        handler_class=Handler,
        backlog=BACKLOG,
        log=logging.getLogger("webapp.server.access") if access_log else None,
        error_log=error_log,
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gomoku serve", description="Serve the Gomoku web app.")
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on")
    parser.add_argument("--port", type=int, default=5000, help="TCP port (default 5000)")
    parser.add_argument("--access-log", action="store_true", help="log every HTTP request")
    args = parser.parse_args(list(argv or []))
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if not monkey.is_module_patched("socket"):
        raise RuntimeError("gomoku serve needs gevent's monkey patching first (see webapp.cli)")
    open_files = _raise_open_files_limit()
    app = create_app({"ASYNC_MODE": "gevent"})
    server = build_server(app, args.host, args.port, access_log=args.access_log)
    stop = Event()
    # A shell that starts the server in the background may have made it ignore SIGINT.
    gevent.signal_handler(signal.SIGTERM, stop.set)
    gevent.signal_handler(signal.SIGINT, stop.set)
    _tune_interpreter()
    try:
        server.start()
        log.info("serving on http://%s:%d (gevent)", args.host, args.port)
        log.info("up to %d open files, so about as many sockets", open_files)
        stop.wait()
        log.info("stopping")
    finally:
        manager = app.extensions["gomoku"].socketio.server.manager
        if hasattr(manager, "written"):
            log.info("messages written straight to sockets: %d, queued: %d",
                     manager.written, manager.queued)  # fmt: skip
        server.stop(timeout=STOP_GRACE_S)
        shutdown_app(app)
    return 0
