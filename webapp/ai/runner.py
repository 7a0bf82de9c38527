"""The interface between the game service and whatever runs AI searches.

``AiRunner.submit(job, on_progress)`` starts a search of an ``AiJob`` and returns an
``AiTicket`` at once: ``ticket.future`` resolves to the ``AiMove`` (or fails),
``ticket.cancel()`` abandons it (a queued job is dropped, a running one asked to stop),
and ``on_progress`` is called from a runner thread with each progress report (the
``thinking`` payload) until ``ticket.progress_done`` is set. Implementations: the
process pool of a single server (``pool``) and the Redis queue of multi-process mode
(``scale``); the service and the AI turns (``game.ai_turns``) see only this interface."""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import Future

from webapp.ai.types import AiJob, AiMove, ProgressCallback


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
        """Start a search; ``on_progress`` is called from a runner thread per report."""

    @abstractmethod
    def shutdown(self) -> None:
        """Stop accepting jobs and release the workers."""

    @property
    def warming(self) -> bool:
        """Whether a job submitted now would wait for the engine to warm up (workers
        starting or compiling): the page says "engine warming up" meanwhile."""
        return False


def wait_for(ticket: AiTicket, timeout_s: float) -> AiMove:
    """Block until the ticket's move is ready; cancel it and raise ``TimeoutError`` if it
    takes longer than ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    try:
        return ticket.future.result(timeout=max(0.0, deadline - time.monotonic()))
    except TimeoutError:
        ticket.cancel()
        raise
