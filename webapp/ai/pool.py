"""The AI runner of a single server: a pool of search worker processes, in two lanes.

``PoolAiRunner`` starts its workers (``pool_worker``: plain child processes that speak JSON
lines over their stdin and stdout, one reader thread each, no ``multiprocessing``, so the
pool also works under gevent) as soon as it is built, so they compile or load the engine
while the server starts rather than when the first player waits. Jobs go to one of two
lanes, each with workers of its own: ``game`` for the AI moves of live games and
``analysis`` for hints and the engine API, whose workers also run at a lower CPU
priority. However many searches one client asks for, a game's AI move never waits behind
them. Within a lane, clients (``AiJob.client``) take turns (``lanes.FairQueue``) and none
holds more than all but one of the lane's workers; how much analysis each client may ask
for is ``fairness``'s business. A job of a game seat (its ``session``) goes back to the
worker that played that seat before when that worker is free, so an MCTS tree or an
external brain kept there is reused.

``warming`` is true while the game lane has no warm worker (the service then shows
"engine warming up"); ``wait_ready`` blocks until every lane has one. The workers die with
the server (see ``pool_worker``); a worker that dies otherwise fails its job (the service
retries it) and is replaced."""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import os
import queue
import subprocess
import sys
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import IO, Any

from webapp.ai.lanes import ANALYSIS, GAME, LANES, FairQueue
from webapp.ai.runner import AiRunner, AiTicket, wait_for
from webapp.ai.search_job import FIRST_REPORT_S, search_position
from webapp.ai.types import AiJob, AiMove, ProgressCallback

# The names the rest of the app imported from here before the interface had its own
# modules (``runner``, ``types``, ``search_job``).
__all__ = [
    "FIRST_REPORT_S",
    "AiJob",
    "AiMove",
    "AiRunner",
    "AiTicket",
    "PoolAiRunner",
    "ProgressCallback",
    "WorkerLostError",
    "search_position",
    "wait_for",
]

log = logging.getLogger(__name__)

WORKER_MODULE = "webapp.ai.pool_worker"
# Analysis workers yield the CPU to the turn workers.
ANALYSIS_NICE = 10
SESSIONS_KEPT = 4096
STOP_WAIT_S = 2.0
# A worker that dies this soon after starting is replaced only after a pause (a broken
# install must not spin).
EARLY_DEATH_S = 5.0
RESPAWN_PAUSE_S = 2.0
# A search still running this long after its own time limit has hung.
STUCK_AFTER_S = 120.0


class WorkerLostError(RuntimeError):
    """The worker process searching a job died before answering."""


@dataclass(eq=False)
class _Pending:
    job_id: int
    job: AiJob
    lane: str
    client: str
    future: Future[AiMove]
    on_progress: ProgressCallback | None
    drained: threading.Event = field(default_factory=threading.Event)
    started: float = 0.0  # when a worker took it (monotonic s)

    def overdue(self, now: float) -> bool:
        """Far past any limit it was given: its worker is stuck."""
        spec = self.job.player or {}
        budget = self.job.time_s or float(spec.get("move_time_s") or 0.0)
        return now - self.started > budget + STUCK_AFTER_S


@dataclass(eq=False)
class _Worker:
    lane: str
    process: subprocess.Popen[bytes]
    started: float
    ready: bool = False
    alive: bool = True
    current: _Pending | None = None

    @property
    def pid(self) -> int:
        return self.process.pid


def _worker_env() -> dict[str, str]:
    # The server may run from a source tree that is not installed: its workers import the
    # same ``webapp``.
    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


class PoolAiRunner(AiRunner):
    """``workers`` processes for live games' turns and ``analysis_workers`` for hints and
    the engine API; started at once, ready once warm (``wait_ready``)."""

    def __init__(self, workers: int, *, analysis_workers: int = 1, warm_up: bool = True) -> None:
        self._sizes = {GAME: max(1, workers), ANALYSIS: max(1, analysis_workers)}
        self._warm_up = warm_up
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._closed = False
        self._workers: dict[str, list[_Worker]] = {lane: [] for lane in LANES}
        self._waiting: dict[str, FairQueue[_Pending]] = {lane: FairQueue() for lane in LANES}
        self._ready = {lane: threading.Event() for lane in LANES}
        self._affinity: OrderedDict[str, _Worker] = OrderedDict()
        self._parent_pid = os.getpid()
        self._env = _worker_env()
        # Every worker is started by this one long-lived thread: the kernel's "kill me
        # when my parent goes" follows the thread that started a child, not the process.
        self._spawns: queue.Queue[str | None] = queue.Queue()
        # One worker per lane first; the others once one is warm, so that on a fresh
        # install they load what the first compiled instead of all compiling at once.
        self._later = [lane for lane, size in self._sizes.items() for _ in range(size - 1)]
        for lane in self._sizes:
            self._spawns.put(lane)
        self._supervisor = threading.Thread(target=self._supervise, name="ai-pool", daemon=True)
        self._supervisor.start()

    # -- state ----------------------------------------------------------------------------

    @property
    def warming(self) -> bool:
        """True while a live game's AI move would wait for a worker to warm up."""
        return not self._ready[GAME].is_set()

    @property
    def ready(self) -> bool:
        return all(event.is_set() for event in self._ready.values())

    def wait_ready(self, timeout_s: float | None = None) -> bool:
        """Block until every lane has a warm worker; False if ``timeout_s`` ran out."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        for event in self._ready.values():
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not event.wait(left):
                return False
        return True

    def worker_pids(self) -> list[int]:
        with self._lock:
            return [w.pid for workers in self._workers.values() for w in workers]

    def status(self) -> dict[str, dict[str, int]]:
        """Per lane: workers, how many are ready and busy, and how many jobs wait."""
        with self._lock:
            return {
                lane: {
                    "workers": len(workers),
                    "ready": sum(w.ready for w in workers),
                    "busy": sum(w.current is not None for w in workers),
                    "waiting": len(self._waiting[lane]),
                }
                for lane, workers in self._workers.items()
            }

    # -- jobs -----------------------------------------------------------------------------

    def submit(self, job: AiJob, on_progress: ProgressCallback | None = None) -> AiTicket:
        lane = job.lane if job.lane in LANES else GAME
        pending = _Pending(next(self._ids), job, lane, job.client or "", Future(), on_progress)
        with self._lock:
            if self._closed:
                raise RuntimeError("the AI runner is shut down")
            self._waiting[lane].push(pending.client, pending)
            self._dispatch(lane)
        return AiTicket(
            pending.job_id, pending.future, lambda: self._cancel(pending), pending.drained
        )

    def _cancel(self, pending: _Pending) -> None:
        with self._lock:
            waiting = self._waiting[pending.lane].remove(pending.client, pending)
            worker = next((w for w in self._workers[pending.lane] if w.current is pending), None)
            pending.on_progress = None
        if waiting and not pending.future.cancel():
            # Put back after a failed start, so already running: it ends here.
            error = WorkerLostError("the search was cancelled before it restarted")
            _resolve(pending.future, lambda f: f.set_exception(error))
        elif worker is not None:
            self._send(worker, {"op": "stop", "id": pending.job_id})
        pending.drained.set()

    def _dispatch(self, lane: str) -> None:
        """Start waiting jobs on the lane's free warm workers (under the lock)."""
        line = self._waiting[lane]
        workers = self._workers[lane]
        # A client may hold all but one of the lane's workers: the last one stays free for
        # everybody else.
        share = max(1, len(workers) - 1)
        while len(line):
            free = [w for w in workers if w.ready and w.alive and w.current is None]
            if not free:
                return
            held = Counter(w.current.client for w in workers if w.current is not None)
            pending = line.pop(partial(_under_share, held, share))
            if pending is None:
                return
            # (A job put back after a failed start is running already.)
            if not pending.future.running() and not pending.future.set_running_or_notify_cancel():
                continue
            session = pending.job.session
            worker = self._affinity.get(session) if session else None
            if worker is None or worker not in free:
                worker = free[0]
            if session:
                self._affinity[session] = worker
                self._affinity.move_to_end(session)
                while len(self._affinity) > SESSIONS_KEPT:
                    self._affinity.popitem(last=False)
            worker.current = pending
            pending.started = time.monotonic()
            request = {"op": "search", "id": pending.job_id, "job": pending.job.to_json()}
            if not self._send(worker, request):
                # The worker is dying (its reader thread replaces it): another one starts
                # the job.
                worker.alive = False
                worker.current = None
                line.push_front(pending.client, pending)

    def _send(self, worker: _Worker, message: dict[str, Any]) -> bool:
        stdin = worker.process.stdin
        if stdin is None:
            return False
        try:
            stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            stdin.flush()
        except (OSError, ValueError):
            return False
        return True

    def _report(self, pending: _Pending, info: dict[str, Any]) -> None:
        callback = pending.on_progress
        if callback is None:
            return
        try:
            callback(info)
        except Exception:
            log.exception("AI progress callback failed")

    # -- workers --------------------------------------------------------------------------

    def _supervise(self) -> None:
        while True:
            try:
                lane = self._spawns.get(timeout=1.0)
            except queue.Empty:
                self._end_stuck_workers()
                continue
            if lane is None:
                return
            with self._lock:
                if self._closed:
                    return
            try:
                self._spawn(lane)
            except OSError:
                log.exception("could not start an AI worker")
                time.sleep(RESPAWN_PAUSE_S)
                self._spawns.put(lane)

    def _end_stuck_workers(self) -> None:
        """Kill a worker whose search went on far past its limit (a hung external brain,
        say): its job fails, to be retried, and another worker takes its place."""
        now = time.monotonic()
        with self._lock:
            stuck = [
                w
                for lane in self._workers.values()
                for w in lane
                if w.current is not None and w.current.overdue(now)
            ]
        for worker in stuck:
            log.error("AI worker %s is stuck on a search; ending it", worker.pid)
            with contextlib.suppress(OSError):
                worker.process.kill()

    def _spawn(self, lane: str) -> None:
        command = [sys.executable, "-m", WORKER_MODULE, "--parent", str(self._parent_pid)]
        if lane == ANALYSIS:
            command += ["--nice", str(ANALYSIS_NICE)]
        if not self._warm_up:
            command.append("--no-warm-up")
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=self._env,
            close_fds=True,
        )
        worker = _Worker(lane, process, time.monotonic())
        with self._lock:
            closed = self._closed
            if not closed:
                self._workers[lane].append(worker)
        if closed:
            self._stop_process(worker)
            return
        threading.Thread(
            target=self._read, args=(worker,), name=f"ai-{lane}-{process.pid}", daemon=True
        ).start()

    def _read(self, worker: _Worker) -> None:
        stdout: IO[bytes] | None = worker.process.stdout
        if stdout is not None:
            for line in stdout:
                try:
                    message = json.loads(line)
                    self._handle(worker, message)
                except Exception:
                    log.exception("bad message from AI worker %s: %r", worker.pid, line[:200])
        self._lost(worker)

    def _handle(self, worker: _Worker, message: dict[str, Any]) -> None:
        event = message.get("event")
        if event == "ready":
            log.info(
                "AI %s worker %s ready in %.1f s",
                worker.lane,
                worker.pid,
                float(message.get("warm_s", 0)),
            )
            with self._lock:
                worker.ready = True
                self._ready[worker.lane].set()
                self._dispatch(worker.lane)
                later, self._later = self._later, []
            for lane in later:
                self._spawns.put(lane)
            return
        pending = worker.current
        if pending is None or pending.job_id != message.get("id"):
            return
        if event == "progress":
            self._report(pending, message["info"])
            return
        with self._lock:
            worker.current = None
            self._dispatch(worker.lane)
        pending.drained.set()
        if event == "done":
            _resolve(pending.future, lambda f: f.set_result(AiMove.from_json(message["move"])))
        else:
            error = RuntimeError(f"the search failed: {message.get('error')}")
            _resolve(pending.future, lambda f: f.set_exception(error))

    def _lost(self, worker: _Worker) -> None:
        with contextlib.suppress(Exception):
            worker.process.wait(timeout=STOP_WAIT_S)
        with self._lock:
            worker.alive = False
            if worker in self._workers[worker.lane]:
                self._workers[worker.lane].remove(worker)
            pending, worker.current = worker.current, None
            if not any(w.ready for w in self._workers[worker.lane]):
                self._ready[worker.lane].clear()
            closed = self._closed
            for session in [s for s, w in self._affinity.items() if w is worker]:
                del self._affinity[session]
        if pending is not None:
            pending.drained.set()
            error = WorkerLostError(
                f"AI worker {worker.pid} died (exit {worker.process.returncode})"
            )
            _resolve(pending.future, lambda f: f.set_exception(error))
        if closed:
            return
        log.warning(
            "AI worker %s exited with %s; starting another", worker.pid, worker.process.returncode
        )
        if time.monotonic() - worker.started < EARLY_DEATH_S:
            time.sleep(RESPAWN_PAUSE_S)
        self._spawns.put(worker.lane)

    def _stop_process(self, worker: _Worker) -> None:
        with contextlib.suppress(OSError, ValueError):
            if worker.process.stdin is not None:
                worker.process.stdin.close()
        try:
            worker.process.wait(timeout=STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            worker.process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                worker.process.wait(timeout=STOP_WAIT_S)

    def shutdown(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            waiting = [p for line in self._waiting.values() for p in line.clear()]
            workers = [w for lane in self._workers.values() for w in lane]
        stopped = RuntimeError("the AI runner is shut down")
        for pending in waiting:
            if not pending.future.cancel():
                _resolve(pending.future, lambda f: f.set_exception(stopped))
            pending.drained.set()
        # Closing a worker's stdin ends it at once, even mid-search.
        for worker in workers:
            with contextlib.suppress(OSError, ValueError):
                if worker.process.stdin is not None:
                    worker.process.stdin.close()
        for worker in workers:
            self._stop_process(worker)
        self._spawns.put(None)
        self._supervisor.join(timeout=STOP_WAIT_S)


def _under_share(held: Counter[str], share: int, client: str) -> bool:
    return held[client] < share


def _resolve(future: Future[AiMove], settle: Callable[[Future[AiMove]], None]) -> None:
    with contextlib.suppress(Exception):  # already settled (shut down meanwhile)
        settle(future)
