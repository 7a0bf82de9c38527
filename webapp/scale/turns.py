"""The AI turn queue of multi-process mode: AI moves as RQ jobs on Redis, with a lease so
a turn whose worker died is played by another.

``TurnQueue.schedule`` queues one RQ job per AI turn (a game at a version with an AI seat
to move). A Redis key per turn, ``gomoku:turn:<game id>:<version>``, makes the turn
queued at most once: it reads ``queued:<job id>`` while the job waits, then becomes the
lease of the worker that ``claim``-ed it, which ``renew``-s it several times a second
while it searches. A worker killed mid-search stops renewing; the key expires and the
watchdog (``find_orphans``, run by every worker) queues the turn again. A job that left
the queue but was never claimed (its worker died in between, or failed before claiming)
is found the same way: still marked queued, no longer in the queue, for UNCLAIMED_S.
Whichever job finishes first commits its move with the store's version check, so a turn
is played exactly once.
``QueueAiRunner`` sends hints and stateless engine searches through a queue of their own
(``ANALYSIS_QUEUE``: the analysis lane) and waits for their results; a worker takes turns
first and analysis when no turn waits, or only one of the two (``gomoku worker --lane``).
Workers run the jobs in ``jobs``."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from concurrent.futures import Future
from dataclasses import asdict, dataclass
from typing import Any

from webapp.ai.runner import AiRunner, AiTicket
from webapp.ai.types import AiJob, AiMove, ProgressCallback

log = logging.getLogger(__name__)

QUEUE_NAME = "gomoku-ai"
ANALYSIS_QUEUE = "gomoku-ai-analysis"
LEASE_MS = 1500
QUEUED_TTL_S = 3600
JOB_TIMEOUT_S = 300
SEARCH_RESULT_TTL_S = 120
POLL_S = 0.02
# How long a turn may stay marked queued after its job has left the queue before the
# watchdog counts its worker as lost (taking a job and claiming it takes milliseconds).
UNCLAIMED_S = 2.0
QUEUED = "queued:"

# Take the turn if it is queued (or its key vanished); refuse a turn another worker holds.
_CLAIM = """
local value = redis.call('GET', KEYS[1])
if value and string.sub(value, 1, 7) ~= 'queued:' and value ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(frozen=True)
class AiTurn:
    """The AI seat ``color`` is to move in ``game_id`` at ``version``."""

    game_id: str
    version: int
    color: str
    level: int
    defence: float = 1.0

    @property
    def key(self) -> str:
        return f"gomoku:turn:{self.game_id}:{self.version}"


class TurnQueue:
    def __init__(self, redis: Any, *, queue_name: str = QUEUE_NAME, lease_ms: int = LEASE_MS):
        from rq import Queue

        self.redis = redis
        self.queue = Queue(queue_name, connection=redis)
        self.lease_ms = lease_ms
        self._claim = redis.register_script(_CLAIM)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        # Turns seen marked queued with their job gone from the queue: key -> (marker,
        # first seen), for ``find_orphans``.
        self._unclaimed: dict[str, tuple[bytes, float]] = {}

    def schedule(self, turn: AiTurn) -> bool:
        """Queue ``turn`` unless it is queued or being played already."""
        job_id = f"turn-{uuid.uuid4().hex}"
        if not self.redis.set(turn.key, QUEUED + job_id, nx=True, ex=QUEUED_TTL_S):
            return False
        try:
            self.queue.enqueue_call(
                "webapp.scale.jobs.play_turn",
                job_id=job_id,
                kwargs=asdict(turn),
                timeout=JOB_TIMEOUT_S,
                result_ttl=0,  # nobody reads a turn's result: the game is the result
                failure_ttl=3600,
                description=f"AI turn {turn.game_id}@{turn.version}",
            )
        except Exception:
            self.redis.delete(turn.key)
            raise
        return True

    def claim(self, turn: AiTurn, owner: str) -> bool:
        return bool(self._claim(keys=[turn.key], args=[owner, self.lease_ms]))

    def renew(self, turn: AiTurn, owner: str) -> bool:
        return bool(self._renew(keys=[turn.key], args=[owner, self.lease_ms]))

    def release(self, turn: AiTurn, owner: str) -> None:
        self._release(keys=[turn.key], args=[owner])

    def find_orphans(self, turns: list[AiTurn]) -> list[AiTurn]:
        """The turns that nobody has queued or holds: never queued (a server died
        between commit and enqueue, or Redis was down), whose worker died while playing
        them (the lease expired), or whose job left the queue and was never claimed for
        UNCLAIMED_S (its worker died first). The last kind is unmarked here, so that
        ``schedule`` queues it again."""
        if not turns:
            return []
        pipe = self.redis.pipeline()
        for turn in turns:
            pipe.get(turn.key)
        markers = pipe.execute()
        waiting = [
            (turn, marker)
            for turn, marker in zip(turns, markers, strict=True)
            if marker is not None and marker.startswith(QUEUED.encode())
        ]
        pipe = self.redis.pipeline()
        for _, marker in waiting:
            pipe.lpos(self.queue.key, marker[len(QUEUED) :])
        positions = pipe.execute() if waiting else []
        now = time.monotonic()
        seen: dict[str, tuple[bytes, float]] = {}
        orphans = [turn for turn, marker in zip(turns, markers, strict=True) if marker is None]
        for (turn, marker), position in zip(waiting, positions, strict=True):
            if position is not None:
                continue  # still waiting for a worker
            first = self._unclaimed.get(turn.key)
            since = first[1] if first is not None and first[0] == marker else now
            if now - since < UNCLAIMED_S:
                seen[turn.key] = (marker, since)
            elif self._release(keys=[turn.key], args=[marker]):
                log.warning("the job of AI turn %s@%s was lost", turn.game_id, turn.version)
                orphans.append(turn)
        self._unclaimed = seen
        return orphans


class QueueAiRunner(AiRunner):
    """Hints and stateless searches as RQ jobs; one thread polls their results."""

    def __init__(self, redis: Any, *, queue_name: str = ANALYSIS_QUEUE) -> None:
        from rq import Queue

        self.queue = Queue(queue_name, connection=redis)
        self._pending: dict[str, tuple[Any, Future[AiMove]]] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._closed = False
        self._poller = threading.Thread(target=self._poll, name="ai-results", daemon=True)
        self._poller.start()

    def submit(self, job: AiJob, on_progress: ProgressCallback | None = None) -> AiTicket:
        if self._closed:
            raise RuntimeError("the AI runner is shut down")
        rq_job = self.queue.enqueue_call(
            "webapp.scale.jobs.search",
            kwargs={"job": job.to_json()},
            timeout=JOB_TIMEOUT_S,
            result_ttl=SEARCH_RESULT_TTL_S,
            failure_ttl=SEARCH_RESULT_TTL_S,
            description="AI search",
        )
        future: Future[AiMove] = Future()
        with self._lock:
            self._pending[rq_job.id] = (rq_job, future)
        self._wake.set()

        def cancel() -> None:
            if future.cancel():
                with self._lock:
                    self._pending.pop(rq_job.id, None)
                try:
                    rq_job.cancel()
                except Exception as error:  # already running or gone: its result is ignored
                    log.debug("could not cancel search job %s: %s", rq_job.id, error)

        ticket = AiTicket(0, future, cancel)
        ticket.progress_done.set()
        return ticket

    def _poll(self) -> None:
        while not self._closed:
            with self._lock:
                pending = list(self._pending.items())
            if not pending:
                self._wake.wait(0.5)
                self._wake.clear()
                continue
            for job_id, (rq_job, future) in pending:
                try:
                    status = rq_job.get_status(refresh=True)
                except Exception as error:  # Redis down: keep waiting
                    log.debug("could not poll job %s: %s", job_id, error)
                    continue
                status = getattr(status, "value", status)
                if status not in ("finished", "failed", "canceled", "stopped"):
                    continue
                with self._lock:
                    self._pending.pop(job_id, None)
                if future.done():
                    continue
                if status == "finished":
                    data = rq_job.return_value()
                    future.set_result(AiMove.from_json(data))
                else:
                    future.set_exception(RuntimeError(f"the search job ended {status}"))
            time.sleep(POLL_S)

    def shutdown(self) -> None:
        self._closed = True
        self._wake.set()
        with self._lock:
            pending, self._pending = self._pending, {}
        for _, future in pending.values():
            future.cancel()
