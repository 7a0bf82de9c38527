"""Fair shares of the engine: how much analysis (hints, the engine API) each client may ask.

``FairShareRunner`` wraps any ``AiRunner`` (the process pool or the queue of
multi-process mode). A live game's AI turn (lane ``game``) passes through, marked with
the client whose request gave the AI its turn (the pool shares its workers by client). An
analysis job (lane ``analysis``) is admitted only while its client (the address of the
request or socket event that asked, else ``AiJob.client``) has fewer than
``Quota.searches`` searches unfinished and tokens left in its bucket (``rate_per_s``,
bursts of ``burst``), and while fewer than ``Quota.waiting`` analysis searches are
unfinished in all; its think time is cut to ``Quota.max_think_s``. A refusal is
``RateLimitedError`` (``rate_limited``, HTTP 429) and starts nothing. The lanes themselves
(``pool``) keep analysis off the game workers; this keeps one client from filling the
analysis lane for everyone else."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace

from webapp.ai.lanes import ANALYSIS
from webapp.ai.runner import AiRunner, AiTicket
from webapp.ai.types import AiJob, ProgressCallback
from webapp.game.errors import RateLimitedError

ANONYMOUS = "-"


@dataclass(frozen=True)
class Quota:
    searches: int = 2  # unfinished analysis searches per client
    rate_per_s: float = 1.0  # analysis searches a second per client, sustained
    burst: float = 6.0
    # Unfinished analysis searches of all clients together: beyond this, the wait for a
    # free analysis worker would outlast the engine API's patience.
    waiting: int = 8
    max_think_s: float = 5.0


class _Bucket:
    __slots__ = ("last", "running", "tokens")

    def __init__(self, tokens: float, now: float) -> None:
        self.tokens = tokens
        self.last = now
        self.running = 0


class FairShareRunner(AiRunner):
    def __init__(self, inner: AiRunner, quota: Quota | None = None) -> None:
        self.inner = inner
        self.quota = quota or Quota()
        self._buckets: dict[str, _Bucket] = {}
        self._running = 0
        self._lock = threading.Lock()

    @property
    def warming(self) -> bool:
        return self.inner.warming

    def wait_ready(self, timeout_s: float | None = None) -> bool:
        """Block until the wrapped runner is warm (at once if it never warms up)."""
        wait = getattr(self.inner, "wait_ready", None)
        return True if wait is None else bool(wait(timeout_s))

    def submit(self, job: AiJob, on_progress: ProgressCallback | None = None) -> AiTicket:
        requester = _requester()
        if job.lane != ANALYSIS:
            if requester is not None and job.client is None:
                # The move that gave the AI its turn: its sender shares the game workers
                # fairly with other clients (the pool); later turns of an AI-vs-AI game,
                # with no sender, share them as one client.
                job = replace(job, client=requester)
            return self.inner.submit(job, on_progress)
        client = requester or job.client or ANONYMOUS
        self._admit(client)
        time_s = job.time_s
        if time_s is not None and time_s > self.quota.max_think_s:
            time_s = self.quota.max_think_s
        job = replace(job, time_s=time_s, client=client)
        try:
            ticket = self.inner.submit(job, on_progress)
        except BaseException:
            self._release(client)
            raise
        ticket.future.add_done_callback(lambda _: self._release(client))
        return ticket

    def _admit(self, client: str) -> None:
        now = time.monotonic()
        quota = self.quota
        with self._lock:
            bucket = self._buckets.get(client)
            if bucket is None:
                bucket = self._buckets[client] = _Bucket(quota.burst, now)
            bucket.tokens = min(quota.burst, bucket.tokens + (now - bucket.last) * quota.rate_per_s)
            bucket.last = now
            if bucket.running >= quota.searches:
                raise RateLimitedError(
                    f"at most {quota.searches} engine searches at a time: wait for the "
                    "running ones to finish"
                )
            if bucket.tokens < 1:
                raise RateLimitedError("too many engine searches: try again in a moment")
            if self._running >= quota.waiting:
                raise RateLimitedError("the engine is busy: try again in a moment")
            bucket.tokens -= 1
            bucket.running += 1
            self._running += 1
            self._forget_idle(now)

    def _release(self, client: str) -> None:
        with self._lock:
            bucket = self._buckets.get(client)
            if bucket is not None and bucket.running > 0:
                bucket.running -= 1
                self._running -= 1

    def _forget_idle(self, now: float) -> None:
        # Full, idle buckets say nothing a new one would not: drop them now and then.
        if len(self._buckets) < 1024:
            return
        refill = self.quota.burst / max(self.quota.rate_per_s, 1e-9)
        for key in [
            k for k, b in self._buckets.items() if b.running == 0 and now - b.last > refill
        ]:
            del self._buckets[key]

    def shutdown(self) -> None:
        self.inner.shutdown()


def _requester() -> str | None:
    """The address of the HTTP request or socket event being handled, if any: one
    client however many sockets or games it opens."""
    from flask import has_request_context, request

    if has_request_context():
        return request.remote_addr
    return None
