"""``gomoku worker``: the queue worker of multi-process deployments (``REDIS_URL`` set).

It connects to Redis and to the shared database (``DATABASE_URL``), compiles the engine,
installs the context the jobs of ``jobs`` need and then runs an RQ ``SimpleWorker`` on
the AI queues (games' AI moves first, then hints and engine API searches; ``--lane``
keeps a worker to one of the two): jobs run in this process, so the compiled engine stays
warm and killing the worker kills its search. A watchdog thread checks twice a second
that every AI turn of an active game is queued or held (``TurnQueue.find_orphans``) and
queues the ones that are not, which is how a turn whose worker died is re-run. Start
about two workers per core to spare (a fast level's turn mostly waits on Redis and the
database), on any machine that reaches Redis and the database. Without ``REDIS_URL`` the
server runs AI moves in its own process pool and this command only explains that."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
import threading
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the web stack loads only once REDIS_URL is known to be set
    from webapp.scale.turns import TurnQueue
    from webapp.storage.store import Store

log = logging.getLogger("webapp.scale.worker")

WATCHDOG_S = 0.5


def _watchdog(turns_queue: TurnQueue, store: Store, stop: threading.Event) -> None:
    """Queue every AI turn nobody holds, twice a second, until ``stop``."""
    from webapp.scale.turns import AiTurn

    while not stop.wait(WATCHDOG_S):
        try:
            turns = [AiTurn(*row) for row in store.ai_turns()]
            for turn in turns_queue.find_orphans(turns):
                if turns_queue.schedule(turn):
                    log.info("queued the orphaned AI turn %s@%s", turn.game_id, turn.version)
        except Exception as error:  # Redis or the database is down: try again soon
            log.warning("watchdog pass failed: %s", error)
            stop.wait(1.0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="gomoku worker", description="Run AI moves queued by the web servers (RQ)."
    )
    parser.add_argument("--name", help="worker name (default: host and process id)")
    parser.add_argument(
        "--no-warm-up", action="store_true", help="skip compiling the engine before work"
    )
    parser.add_argument(
        "--lane",
        choices=["all", "game", "analysis"],
        default="all",
        help="which jobs to take: games' AI moves, hints and engine API searches, or both "
        "(games' first; the default)",
    )
    args = parser.parse_args(list(argv or []))
    url = os.environ.get("REDIS_URL")
    if not url:
        print(
            "gomoku worker: set REDIS_URL (e.g. redis://localhost:6379/0) to run a queue "
            "worker; without it the server runs AI moves in its own process pool.",
            file=sys.stderr,
        )
        return 2
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    from flask_socketio import SocketIO
    from rq import SimpleWorker

    from webapp.game.service import ServiceSettings
    from webapp.realtime.namespace import NAMESPACE
    from webapp.runtime import Settings, build, database_url
    from webapp.scale import jobs
    from webapp.scale.shared import SOCKETIO_CHANNEL

    name = args.name or f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:4]}"
    instance = Path(
        os.environ.get("GOMOKU_INSTANCE") or Path(__file__).resolve().parents[2] / "instance"
    )
    instance.mkdir(parents=True, exist_ok=True)
    emitter = SocketIO(message_queue=url, channel=SOCKETIO_CHANNEL)
    settings = Settings(
        database_url(instance),
        redis_url=url,
        engines=os.environ.get("GOMOKU_ENGINES"),
        service=ServiceSettings(aivai_move_s=float(os.environ.get("AIVAI_MOVE_S") or 0.6)),
    )
    runtime = build(
        settings,
        emit=lambda event, payload, to, skip: emitter.emit(
            event, payload, namespace=NAMESPACE, to=to, skip_sid=skip
        ),
    )
    service, shared, store = runtime.service, runtime.shared, runtime.store
    jobs.install(jobs.WorkerContext(service, shared.turns, name))
    if not args.no_warm_up:
        from engine.tools.warmup import warm_up

        log.info("engine ready in %.1f s", warm_up())
    log.info("worker %s ready", name)
    stop = threading.Event()
    threading.Thread(
        target=_watchdog, args=(shared.turns, store, stop), name="watchdog", daemon=True
    ).start()
    # RQ stops warmly on SIGTERM/SIGINT; make sure neither is ignored by a parent shell.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        while True:
            queues = {"game": [shared.turns.queue], "analysis": [shared.runner.queue]}.get(
                args.lane, [shared.turns.queue, shared.runner.queue]
            )
            worker = SimpleWorker(
                queues, connection=shared.redis, name=f"{name}-{uuid.uuid4().hex[:4]}"
            )
            # Back within two seconds of a Redis outage, not RQ's default of up to a minute.
            worker.max_connection_wait_time = 2.0
            try:
                worker.work(with_scheduler=False, logging_level="WARNING")
                break  # a requested stop
            except (KeyboardInterrupt, SystemExit):
                break
            except Exception as error:  # Redis went away under RQ: start again when it is back
                log.warning("queue worker stopped (%s); restarting in 1 s", error)
                time.sleep(1.0)
    finally:
        stop.set()
        runtime.close()
    return 0
