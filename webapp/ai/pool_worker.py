"""One search worker of the AI pool (``pool``): a child process that plays ``AiJob``-s sent
by its server as JSON lines on stdin and answers on stdout.

The server starts it as ``python -m webapp.ai.pool_worker --parent <pid>`` with the pid it
had before starting the child. The worker dies with that server whatever happens: the
kernel kills it when its parent goes (``PR_SET_PDEATHSIG``), it exits at once if the parent
was already gone before that was armed (its parent pid is no longer the one it was given),
and it exits when its stdin closes. It compiles (or loads) the engine first and then says
``ready``; the rest of the protocol is one object a line:

    server -> worker  {"op": "search", "id": 7, "job": {...AiJob fields...}}
                      {"op": "stop", "id": 7}       end job 7's search early
    worker -> server  {"event": "ready", "warm_s": 1.2}
                      {"event": "progress", "id": 7, "info": {...depth figures...}}
                      {"event": "done", "id": 7, "move": {...AiMove.to_json()...}}
                      {"event": "failed", "id": 7, "error": "..."}

Searches run one at a time on the main thread (``search_job.search_position``); a reader
thread takes the stop requests meanwhile. Anything else the search writes to the standard
output (a stray print, an external brain's chatter) goes to stderr, so it cannot break the
protocol."""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import logging
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any, BinaryIO

log = logging.getLogger("webapp.ai.pool_worker")

PR_SET_PDEATHSIG = 1
# Seconds the kept external brains get to quit when the server goes.
BRAIN_GRACE_S = 1.0


def die_with_parent(parent_pid: int) -> None:
    """Have the kernel kill this process when its parent exits, and exit now if the parent
    ``parent_pid`` is already gone (this process was then adopted by another one)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:
        os._exit(0)


class _Channel:
    """The protocol stream (the original stdout); fd 1 is pointed at stderr instead."""

    def __init__(self) -> None:
        self._out: BinaryIO = os.fdopen(os.dup(1), "wb", buffering=0)
        os.dup2(2, 1)
        sys.stdout = sys.stderr
        # Children (external brains) get an empty stdin, never the server's pipe.
        self.incoming: BinaryIO = os.fdopen(os.dup(0), "rb")
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        self._lock = threading.Lock()

    def send(self, message: dict[str, Any]) -> None:
        data = json.dumps(message, separators=(",", ":")).encode() + b"\n"
        with self._lock:
            self._out.write(data)


class _Worker:
    def __init__(self, channel: _Channel) -> None:
        self.channel = channel
        self.jobs: queue.Queue[tuple[int, dict[str, Any]]] = queue.Queue()
        self._current = -1
        self._stopped: set[int] = set()
        self._lock = threading.Lock()

    def read_requests(self) -> None:
        """Queue searches and note stops until the server closes stdin, then leave."""
        for line in self.channel.incoming:
            try:
                request = json.loads(line)
                op = request["op"]
                job_id = int(request["id"])
            except (ValueError, KeyError, TypeError):
                log.error("bad request from the server: %r", line[:200])
                continue
            if op == "search":
                self.jobs.put((job_id, request["job"]))
            elif op == "stop":
                with self._lock:
                    self._stopped.add(job_id)
        _leave()

    def should_stop(self, job_id: int) -> bool:
        with self._lock:
            return job_id in self._stopped

    def run(self) -> None:
        from webapp.ai.search_job import search_position
        from webapp.ai.types import AiJob

        while True:
            # A job stopped before it started still plays its first depth: the server
            # ignores that answer.
            job_id, fields = self.jobs.get()

            def progress(info: dict[str, Any], job_id: int = job_id) -> None:
                self.channel.send({"event": "progress", "id": job_id, "info": info})

            def stop(job_id: int = job_id) -> bool:
                return self.should_stop(job_id)

            try:
                job = AiJob.from_json(fields)
                move = search_position(job, progress, stop)
            except Exception as error:
                log.exception("search %s failed", job_id)
                message = {"event": "failed", "id": job_id, "error": repr(error)[:500]}
            else:
                message = {"event": "done", "id": job_id, "move": move.to_json()}
            self._finish(job_id)
            self.channel.send(message)

    def _finish(self, job_id: int) -> None:
        with self._lock:
            self._stopped.discard(job_id)


def _leave() -> None:
    """The server is gone or shutting down: end kept brains briefly, then exit."""
    threading.Timer(BRAIN_GRACE_S + 0.5, os._exit, args=(0,)).start()
    external = sys.modules.get("webapp.players.external")
    if external is not None:
        with contextlib.suppress(Exception):
            external.end_all_brains()
    os._exit(0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pool_worker")
    parser.add_argument("--parent", type=int, required=True, help="the server's pid")
    parser.add_argument("--nice", type=int, default=0, help="lower this worker's priority")
    parser.add_argument("--no-warm-up", action="store_true", help="do not compile first")
    args = parser.parse_args(argv)
    die_with_parent(args.parent)
    # The server handles Ctrl-C and stops the pool itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if args.nice:
        with contextlib.suppress(OSError):
            os.nice(args.nice)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    channel = _Channel()
    worker = _Worker(channel)
    threading.Thread(target=worker.read_requests, name="requests", daemon=True).start()
    started = time.perf_counter()
    if not args.no_warm_up:
        try:
            from engine.tools.warmup import warm_up

            warm_up()
        except Exception:  # a failed warm-up only costs time on the first real move
            log.exception("engine warm-up failed")
    channel.send({"event": "ready", "warm_s": round(time.perf_counter() - started, 3)})
    worker.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
