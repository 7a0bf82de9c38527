"""``gomoku serve``: run the web app with Flask-SocketIO's threaded server.

Parses ``--host`` and ``--port``, builds the app with ``create_app`` (configuration from
the environment), and shuts the AI worker pool down when the server stops."""

from __future__ import annotations

import argparse
import gc
import logging
import signal
import sys
from collections.abc import Sequence

from webapp.app import create_app, shutdown_app


def _stop(signum: int, _frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _tune_interpreter() -> None:
    """Settings for a process with hundreds of socket threads. It holds millions of
    long-lived objects, and each full collection of them stops every thread for a tenth
    of a second or more: what exists once the app is built is set aside for good, and
    collections run less often (cycles are rare here: most garbage goes as soon as its
    last reference does)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 50)
    # Hundreds of socket threads each wait for the interpreter to hand a message to the
    # network: hand it over sooner than the default 5 ms.
    sys.setswitchinterval(0.001)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gomoku serve", description="Serve the Gomoku web app.")
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on")
    parser.add_argument("--port", type=int, default=5000, help="TCP port (default 5000)")
    args = parser.parse_args(list(argv or []))
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    # SIGTERM (service managers, test fixtures) stops as cleanly as Ctrl-C; a shell that
    # starts the server in the background may have made it ignore SIGINT, so restore it.
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    app = create_app()
    socketio = app.extensions["socketio"]
    _tune_interpreter()
    try:
        socketio.run(app, host=args.host, port=args.port, allow_unsafe_werkzeug=True)
    except KeyboardInterrupt:
        pass
    finally:
        # A second signal (a service manager's and a shell's together) must not cut the
        # clean shutdown short.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        shutdown_app(app)
    return 0
