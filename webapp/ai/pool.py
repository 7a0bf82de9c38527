"""AI moves off the server's threads: an ``AiRunner`` interface and its process-pool form.

The game service submits an ``AiJob`` (a position, a level and a style) and gets an
``AiTicket`` whose future resolves to an ``AiMove``; progress after each search depth
comes back through a queue to a dispatcher thread that calls the job's ``on_progress``.
``ProcessPoolAiRunner`` runs searches in spawned worker processes (one per core by
default) so a search never holds the server's GIL. Cancelling a ticket drops a queued job
and asks a running one to stop; the service also ignores results whose game version has
moved on. ``search_position`` is the search itself, shared with the queue workers of
multi-process mode (``jobs``), whose runner (``queue.QueueAiRunner``) implements the same
interface."""

from __future__ import annotations

import contextlib
import itertools
import logging
import multiprocessing
import os
import queue
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from typing import Any

log = logging.getLogger(__name__)

ProgressCallback = Callable[[dict[str, Any]], None]

# A search's progress reports start after it has run this long (see ``search_position``).
FIRST_REPORT_S = 0.1
WATCH_AFTER_S = 0.02

# Ring of recently cancelled job ids shared with the workers; 256 slots is far more than
# the number of jobs that can be in flight at once.
CANCEL_SLOTS = 256


@dataclass(frozen=True)
class AiJob:
    """One search: the position, who searches (a level and a style) and an optional
    time or depth that replaces the level's own limit (hints, the stateless move API)."""

    size: int
    rule: str
    moves: list[tuple[int, int]]
    level: int
    defence: float = 1.0
    seed: int | None = None
    time_s: float | None = None
    depth: int | None = None
    # Who plays when not negamax at ``level``: ``players.Player.spec()`` (MCTS or an
    # external engine); ``session`` ("<game id>:<colour>") lets a worker keep that
    # player's tree or brain process between the moves of one game seat.
    player: dict[str, Any] | None = None
    session: str | None = None


@dataclass(frozen=True)
class AiMove:
    move: tuple[int, int]
    score: int
    depth: int
    nodes: int
    pv: list[tuple[int, int]] = field(default_factory=list)
    time_s: float = 0.0
    nps: int = 0
    # Set instead of a move when an external engine lost by failing (``{"reason":
    # "timeout"|"forfeit", "detail"}``): the game service ends the game against it.
    forfeit: dict[str, str] | None = None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["move"] = list(self.move)
        data["pv"] = [list(p) for p in self.pv]
        return data


class AiTicket:
    """A submitted job: ``future`` gives the ``AiMove``; ``cancel`` abandons it."""

    def __init__(
        self,
        job_id: int,
        future: Future[AiMove],
        cancel: Callable[[], None],
        progress_done: threading.Event | None = None,
    ) -> None:
        self.job_id = job_id
        self.future = future
        self._cancel = cancel
        # Set once every progress report of the job has been delivered, so the caller can
        # publish the move after the last report rather than before it.
        self.progress_done = progress_done or threading.Event()

    def cancel(self) -> None:
        self._cancel()


class AiRunner(ABC):
    @abstractmethod
    def submit(self, job: AiJob, on_progress: ProgressCallback | None = None) -> AiTicket:
        """Start a search; ``on_progress`` is called from a server thread per depth."""

    @abstractmethod
    def shutdown(self) -> None:
        """Stop accepting jobs and release the workers."""


# -- worker side (runs in the spawned processes) -----------------------------------------

_progress_queue: Any = None
_cancelled: Any = None


def _init_worker(progress_queue: Any, cancelled: Any, warm_up: bool) -> None:
    global _progress_queue, _cancelled
    _progress_queue = progress_queue
    _cancelled = cancelled
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    if warm_up:
        # Compiling the search core takes seconds the first time; do it before a player
        # waits for a move.
        try:
            from engine.tools.warmup import warm_up as warm_engine

            warm_engine()
        except Exception:  # a failed warm-up only costs time on the first real move
            log.exception("AI worker warm-up failed")


def _exit_with_parent(parent_pid: int) -> None:
    # A server killed without a clean shutdown must not leave searching workers behind.
    while os.getppid() == parent_pid:
        time.sleep(1.0)
    os._exit(0)


def _is_cancelled(job_id: int) -> bool:
    return _cancelled is not None and _cancelled[job_id % CANCEL_SLOTS] == job_id


def search_position(
    job: AiJob,
    on_progress: ProgressCallback | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> AiMove:
    """Search ``job``'s position in this process: ``on_progress`` gets each finished
    depth, ``should_stop`` is polled to end the search early. Pool workers and queue
    workers (``jobs``) both search through here."""
    from engine import Board, Limit
    from engine.search.levels import get_level

    if job.player is not None and job.player.get("kind") in ("mcts", "engine"):
        from webapp.players.registry import play_move

        return play_move(job, on_progress, should_stop)
    level = get_level(job.level)
    limit = level.limit
    if job.time_s is not None or job.depth is not None:
        limit = Limit(time=job.time_s, depth=job.depth)
    board = Board.from_moves(job.moves, size=job.size, rule=job.rule)
    done = threading.Event()
    started = time.monotonic()
    latest: list[dict[str, Any]] = []  # the newest report not yet passed on
    report_lock = threading.Lock()

    def report(info: dict[str, Any] | None) -> None:
        # Depths finished in the first moments are replaced within milliseconds: they
        # wait, and only the newest goes out once the search has run FIRST_REPORT_S. A
        # quick search sends none; its figures travel with the move (``evals``).
        with report_lock:
            if info is not None:
                latest[:] = [info]
            if done.is_set() or not latest or time.monotonic() - started < FIRST_REPORT_S:
                return
            if on_progress is not None:
                # Under the lock: once the search is over no report can follow its move.
                on_progress(latest.pop())

    watching: list[threading.Thread] = []

    def on_iteration(info: Any) -> None:
        report(info.to_json())
        if should_stop is not None and should_stop():
            searcher.stop()  # called only while ``searcher`` (below) searches
        if not watching and time.monotonic() - started >= WATCH_AFTER_S:
            # Only a search that lasts gets a thread to poll for a stop and to pass on
            # its newest depth while the next one runs; most searches of the fast levels
            # end in a millisecond or two.
            watching.append(threading.Thread(target=watch, daemon=True))
            watching[0].start()

    searcher = level.searcher(defence=job.defence, seed=job.seed, on_iteration=on_iteration)

    def watch() -> None:
        while not done.wait(0.05):
            if should_stop is not None and should_stop():
                searcher.stop()
                return
            report(None)

    try:
        result = searcher.search(board, limit)
    finally:
        with report_lock:
            done.set()
    return AiMove(
        move=(int(result.move[0]), int(result.move[1])),
        score=int(result.score),
        depth=int(result.depth),
        nodes=int(result.nodes),
        pv=[(int(x), int(y)) for x, y in result.pv],
        time_s=float(result.time),
        nps=int(result.nps),
    )


def run_job(job_id: int, job: AiJob) -> AiMove:
    """Search ``job``'s position and return the move; runs inside a pool worker."""

    def progress(info: dict[str, Any]) -> None:
        if _progress_queue is not None:
            _progress_queue.put((job_id, info))

    try:
        return search_position(job, progress, lambda: _is_cancelled(job_id))
    finally:
        if _progress_queue is not None:
            _progress_queue.put((job_id, None))  # no more progress for this job


# -- server side -----------------------------------------------------------------------


class ProcessPoolAiRunner(AiRunner):
    def __init__(self, workers: int, *, warm_up: bool = True) -> None:
        self._context = multiprocessing.get_context("spawn")
        self._workers = max(1, workers)
        self._warm_up = warm_up
        self._progress: Any = self._context.Queue()
        self._cancelled: Any = self._context.Array("q", [-1] * CANCEL_SLOTS)
        self._callbacks: dict[int, ProgressCallback] = {}
        self._drained: dict[int, threading.Event] = {}
        self._inflight: set[int] = set()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._closed = False
        self._executor = self._new_executor()
        self._dispatcher = threading.Thread(
            target=self._dispatch_progress, name="ai-progress", daemon=True
        )
        self._dispatcher.start()

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self._workers,
            mp_context=self._context,
            initializer=_init_worker,
            initargs=(self._progress, self._cancelled, self._warm_up),
        )

    def submit(self, job: AiJob, on_progress: ProgressCallback | None = None) -> AiTicket:
        with self._lock:
            if self._closed:
                raise RuntimeError("the AI runner is shut down")
            job_id = next(self._ids)
            self._inflight.add(job_id)
            drained = self._drained[job_id] = threading.Event()
            if on_progress is not None:
                self._callbacks[job_id] = on_progress
            try:
                future = self._executor.submit(run_job, job_id, job)
            except BrokenProcessPool:
                log.warning("AI worker pool broke; starting a new one")
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = self._new_executor()
                future = self._executor.submit(run_job, job_id, job)

        def finished(done: Future[AiMove]) -> None:
            # A completed search ends its progress with a marker; anything else ends here.
            if done.cancelled() or done.exception() is not None:
                self._forget(job_id)
            else:
                with self._lock:
                    self._inflight.discard(job_id)

        future.add_done_callback(finished)

        def cancel() -> None:
            if not future.cancel():
                with self._cancelled.get_lock():
                    self._cancelled[job_id % CANCEL_SLOTS] = job_id
            self._forget(job_id)

        return AiTicket(job_id, future, cancel, drained)

    def _forget(self, job_id: int) -> None:
        with self._lock:
            self._callbacks.pop(job_id, None)
            self._inflight.discard(job_id)
            drained = self._drained.pop(job_id, None)
        if drained is not None:
            drained.set()

    def _dispatch_progress(self) -> None:
        while True:
            try:
                item = self._progress.get(timeout=0.5)
            except queue.Empty:
                if self._closed:
                    return
                continue
            except (EOFError, OSError, ValueError):
                return
            if item is None:
                return
            job_id, info = item
            if info is None:
                self._forget(job_id)
                continue
            with self._lock:
                callback = self._callbacks.get(job_id)
            if callback is not None:
                try:
                    callback(info)
                except Exception:
                    log.exception("AI progress callback failed")

    def shutdown(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._callbacks.clear()
            for job_id in self._inflight:
                self._cancelled[job_id % CANCEL_SLOTS] = job_id
            for drained in self._drained.values():
                drained.set()
            self._drained.clear()
        self._executor.shutdown(wait=True, cancel_futures=True)
        with contextlib.suppress(Exception):
            self._progress.put(None)
        self._dispatcher.join(timeout=2)
        with contextlib.suppress(Exception):
            self._progress.close()
            self._progress.join_thread()


def wait_for(ticket: AiTicket, timeout_s: float) -> AiMove:
    """Block until the ticket's move is ready; cancel it and raise ``TimeoutError`` if it
    takes longer than ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    try:
        return ticket.future.result(timeout=max(0.0, deadline - time.monotonic()))
    except TimeoutError:
        ticket.cancel()
        raise
