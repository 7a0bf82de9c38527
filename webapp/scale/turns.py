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
Clients get fair shares of the workers: at most ``share`` turns of one client (the address
whose move gave the AI its turn; later turns of AI-vs-AI games count as one client
together) are queued or being played at once. Its further turns wait in a line of their
own (``gomoku:turns-waiting:<client>``, their key reading ``waiting:<client>``) and join
the queue as its earlier ones end (``finished``, called by the worker, and by the
watchdog for any client with a waiting line), so a client with many games delays another
client's turn by at most its share of turns, not by all of its games.
``QueueAiRunner`` sends hints and stateless engine searches through a queue of their own
(``ANALYSIS_QUEUE``: the analysis lane) and waits for their results; a worker takes turns
first and analysis when no turn waits, or only one of the two (``gomoku worker --lane``).
Workers run the jobs in ``jobs``."""

from __future__ import annotations

import json
import logging
import os
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
WAITING = "waiting:"
ANONYMOUS = "-"
# Turns of one client queued or being played at once (``AI_TURN_SHARE``).
TURN_SHARE = 2

# Admit a turn: queue it if its client holds fewer than its share (1), else put it in the
# client's waiting line (2); 0 if the turn is queued, waiting or held already. The
# client's set forgets turns whose key has gone (played, or a dead worker's lease).
_ADMIT = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for _, member in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  if redis.call('EXISTS', member) == 0 then redis.call('ZREM', KEYS[2], member) end
end
if redis.call('ZCARD', KEYS[2]) < tonumber(ARGV[3]) then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  redis.call('ZADD', KEYS[2], 0, KEYS[1])
  redis.call('EXPIRE', KEYS[2], ARGV[2])
  return 1
end
redis.call('SET', KEYS[1], ARGV[5], 'EX', ARGV[2])
redis.call('RPUSH', KEYS[3], ARGV[4])
redis.call('EXPIRE', KEYS[3], ARGV[2])
return 2
"""
# Move waiting turns of a client into the queue while it holds fewer than its share;
# return "<job id>|<turn key>|<turn json>" for each, to be enqueued under that job id.
_PROMOTE = """
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if redis.call('EXISTS', member) == 0 then redis.call('ZREM', KEYS[1], member) end
end
local started = {}
local n = 3
while ARGV[n] and redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) do
  local entry = redis.call('LPOP', KEYS[2])
  if not entry then break end
  local key = string.sub(entry, 1, string.find(entry, '|', 1, true) - 1)
  local value = redis.call('GET', key)
  if value and string.sub(value, 1, 8) == 'waiting:' then
    redis.call('SET', key, 'queued:' .. ARGV[n], 'EX', ARGV[2])
    redis.call('ZADD', KEYS[1], 0, key)
    redis.call('EXPIRE', KEYS[1], ARGV[2])
    table.insert(started, ARGV[n] .. '|' .. entry)
    n = n + 1
  end
end
return started
"""

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


def clients_turns_key(client: str) -> str:
    return f"gomoku:turns-of:{client}"


def waiting_key(client: str) -> str:
    return f"gomoku:turns-waiting:{client}"


def turn_share() -> int:
    """``AI_TURN_SHARE`` from the environment, else ``TURN_SHARE``."""
    return max(1, int(os.environ.get("AI_TURN_SHARE") or TURN_SHARE))


def requester() -> str:
    """The address of the request or socket event being handled, else ``ANONYMOUS``
    (a turn that follows an AI's own move)."""
    try:
        from flask import has_request_context, request
    except ImportError:  # pragma: no cover - the web stack is always installed
        return ANONYMOUS
    if has_request_context() and request.remote_addr:
        return str(request.remote_addr)
    return ANONYMOUS


class TurnQueue:
    def __init__(
        self,
        redis: Any,
        *,
        queue_name: str = QUEUE_NAME,
        lease_ms: int = LEASE_MS,
        share: int | None = None,
    ):
        from rq import Queue

        self.redis = redis
        self.queue = Queue(queue_name, connection=redis)
        self.lease_ms = lease_ms
        self.share = share if share is not None else turn_share()
        self._claim = redis.register_script(_CLAIM)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._admit = redis.register_script(_ADMIT)
        self._promote = redis.register_script(_PROMOTE)
        # Turns seen marked queued with their job gone from the queue: key -> (marker,
        # first seen), for ``find_orphans``.
        self._unclaimed: dict[str, tuple[bytes, float]] = {}

    def schedule(self, turn: AiTurn, client: str | None = None) -> bool:
        """Queue ``turn`` unless it is queued, waiting or being played already; it waits
        in its client's line while the client holds its share (``client``: by default
        the address of the request being handled)."""
        client = client or requester()
        job_id = f"turn-{uuid.uuid4().hex}"
        entry = f"{turn.key}|{json.dumps(asdict(turn))}"
        admitted = self._admit(
            keys=[turn.key, clients_turns_key(client), waiting_key(client)],
            args=[QUEUED + job_id, QUEUED_TTL_S, self.share, entry, WAITING + client],
        )
        if admitted == 1:
            self._enqueue(turn, job_id, client)
        return bool(admitted)

    def _enqueue(self, turn: AiTurn, job_id: str, client: str) -> None:
        try:
            self.queue.enqueue_call(
                "webapp.scale.jobs.play_turn",
                job_id=job_id,
                kwargs={**asdict(turn), "client": client},
                timeout=JOB_TIMEOUT_S,
                result_ttl=0,  # nobody reads a turn's result: the game is the result
                failure_ttl=3600,
                description=f"AI turn {turn.game_id}@{turn.version}",
            )
        except Exception:
            self.redis.delete(turn.key)  # the watchdog queues it again
            raise

    def finished(self, client: str) -> int:
        """A turn of ``client`` ended: queue its waiting turns its share now allows;
        return how many."""
        ids = [f"turn-{uuid.uuid4().hex}" for _ in range(self.share)]
        started = self._promote(
            keys=[clients_turns_key(client), waiting_key(client)],
            args=[self.share, QUEUED_TTL_S, *ids],
        )
        for item in started:
            text = item.decode() if isinstance(item, bytes) else item
            job_id, _, data = text.split("|", 2)
            try:
                self._enqueue(AiTurn(**json.loads(data)), job_id, client)
            except Exception as error:
                log.warning("could not queue a waiting AI turn: %s", error)
        return len(started)

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
        # Turns waiting for their client's share: held, but make sure the line moves
        # (its client's turns may have ended on a worker that died before saying so).
        lines = {
            marker[len(WAITING) :].decode()
            for marker in markers
            if marker is not None and marker.startswith(WAITING.encode())
        }
        for client in sorted(lines):
            self.finished(client)
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
