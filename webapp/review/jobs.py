"""Review jobs: the engine over every position of a finished game, once per game.

``ReviewJobs.request(game_id)`` starts the review of a finished game unless it is stored
already or running (here or, through the lease in ``repo``, in another server process),
and answers the review's status either way: concurrent requests share one job and a
finished review is served to everyone from the database. The job runs in a background
thread of the server and sends each position to the AI runner as an ``analysis``-lane
search (``AiJob`` with ``threats``: the worker also runs the threat searches), one at a
time and all reviews as the one client ``review``, so the pool (``ai.pool``) lets other
clients' hints take turns with it and live games' moves never wait for it (they have
workers of their own). It works the same over the queue runner of multi-process mode.
After each position it stores the evaluations (a job taken over after a crash resumes
from them) and emits ``review_progress`` to the ``review:<id>`` room; at the end it
builds the review (``report``), stores it and emits ``review_done``."""

from __future__ import annotations

import logging
import os
import threading
import uuid
from collections.abc import Callable
from typing import Any

from engine import Board
from webapp.ai.runner import AiRunner, wait_for
from webapp.ai.types import AiJob
from webapp.game.errors import BadRequestError
from webapp.game.model import Game
from webapp.game.types import Seat, Status
from webapp.review.repo import DONE, FAILED, RUNNING, ReviewRecord, ReviewRepo
from webapp.review.report import (
    black_chance,
    build_review,
    position_eval,
    terminal_eval,
)

log = logging.getLogger(__name__)

REVIEW_TIME_S = 0.5  # engine time per position
REVIEW_LEVEL = 5  # noiseless negamax; the time above replaces its own limit
REVIEW_CLIENT = "review"  # every review's searches share the analysis lane as one client
LEASE_S = 30.0  # a review whose runner is silent this long is taken over
# Beyond the search time: a cold worker may still be compiling the engine.
SEARCH_GRACE_S = 60.0
SEARCH_ATTEMPTS = 2

Emit = Callable[[str, dict[str, Any], str], None]


def room_of(game_id: str) -> str:
    return f"review:{game_id}"


class ReviewJobs:
    def __init__(
        self,
        repo: ReviewRepo,
        runner: AiRunner,
        load_game: Callable[[str], Game],
        *,
        time_s: float = REVIEW_TIME_S,
        lease_s: float = LEASE_S,
        emit: Emit | None = None,
    ) -> None:
        self.repo = repo
        # The analysis lane's fair share between clients is the pool's; the per-client
        # quotas of ``ai.fairness`` are for people's hints and API calls, not for this
        # one-search-at-a-time job.
        self.runner: AiRunner = getattr(runner, "inner", runner)
        self.load_game = load_game
        self.time_s = time_s
        self.lease_s = lease_s
        self.emit: Emit = emit or (lambda event, payload, room: None)
        self.owner = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self._jobs: dict[str, threading.Thread] = {}
        self._lock = threading.Lock()
        self._closed = threading.Event()

    @property
    def settings(self) -> dict[str, Any]:
        return {"time_s": self.time_s, "engine": "negamax"}

    def close(self) -> None:
        self._closed.set()

    # -- asking ---------------------------------------------------------------------------

    def status(self, game_id: str) -> dict[str, Any]:
        """The review's public status (``none`` before anyone asked for it)."""
        return self._public(game_id, self.repo.get(game_id), self._moves_of(game_id))

    def request(self, game_id: str) -> dict[str, Any]:
        """Start the review of a finished game if nobody has (idempotent); its status."""
        game = self.load_game(game_id)
        if game.status is not Status.FINISHED:
            raise BadRequestError("only a finished game can be reviewed", code="game_not_finished")
        moves = [[x, y] for x, y in game.points]
        with self._lock:
            running = self._jobs.get(game_id)
            if running is None or not running.is_alive():
                claimed = self.repo.claim(
                    game_id,
                    moves=moves,
                    settings=self.settings,
                    owner=self.owner,
                    lease_s=self.lease_s,
                )
                if claimed is not None:
                    thread = threading.Thread(
                        target=self._run,
                        args=(game, claimed),
                        name=f"review-{game_id}",
                        daemon=True,
                    )
                    self._jobs[game_id] = thread
                    thread.start()
        return self._public(game_id, self.repo.get(game_id), moves)

    def _moves_of(self, game_id: str) -> list[list[int]] | None:
        try:
            return [[x, y] for x, y in self.load_game(game_id).points]
        except Exception:
            return None

    def _public(
        self, game_id: str, record: ReviewRecord | None, moves: list[list[int]] | None
    ) -> dict[str, Any]:
        status = "none"
        if record is not None and (moves is None or record.moves == moves):
            status = record.status
        total = len(moves) + 1 if moves is not None else 0
        answer: dict[str, Any] = {
            "game_id": game_id,
            "status": status,
            "done": 0,
            "total": total,
            "time_s": self.time_s,
        }
        if record is None or status == "none":
            return answer
        answer["done"] = len(record.positions)
        answer["total"] = record.total
        if status == DONE:
            answer["review"] = record.result
        elif status == RUNNING:
            answer["graph"] = [round(black_chance(p), 4) for p in record.positions]
        elif status == FAILED:
            answer["error"] = record.error
        return answer

    # -- running --------------------------------------------------------------------------

    def _run(self, game: Game, record: ReviewRecord) -> None:
        game_id = game.id
        try:
            self._review(game, record)
        except Exception as error:
            log.exception("the review of game %s failed", game_id)
            self.repo.fail(game_id, self.owner, str(error) or type(error).__name__)
            self.emit(
                "review_failed",
                {"game_id": game_id, "error": "the review could not be completed"},
                room_of(game_id),
            )
        finally:
            with self._lock:
                if self._jobs.get(game_id) is threading.current_thread():
                    del self._jobs[game_id]

    def _review(self, game: Game, record: ReviewRecord) -> None:
        game_id = game.id
        moves = [(x, y) for x, y in game.points]
        total = len(moves) + 1
        positions = list(record.positions)[:total]
        for index in range(len(positions), total):
            if self._closed.is_set():
                return
            positions.append(self._evaluate(game, moves[:index], index))
            if not self.repo.save_progress(game_id, self.owner, positions):
                log.info("the review of %s went to another process", game_id)
                return
            self.emit(
                "review_progress",
                {
                    "game_id": game_id,
                    "done": len(positions),
                    "total": total,
                    "ply": index,
                    "black_winrate": round(black_chance(positions[-1]), 4),
                },
                room_of(game_id),
            )
        result = build_review(moves, positions)
        if self.repo.finish(game_id, self.owner, positions, result):
            self.emit("review_done", self.status(game_id), room_of(game_id))

    def _evaluate(self, game: Game, moves: list[tuple[int, int]], index: int) -> dict[str, Any]:
        board = Board.from_moves(moves, size=game.size, rule=game.rule)
        outcome = board.outcome()
        if outcome is not None:
            winner = Seat.of_color(outcome.winner).value if outcome.winner is not None else None
            return terminal_eval(index, winner)
        job = AiJob(
            size=game.size,
            rule=game.rule.value,
            moves=list(moves),
            level=REVIEW_LEVEL,
            time_s=self.time_s,
            lane="analysis",
            client=REVIEW_CLIENT,
            threats=True,
        )
        for attempt in range(SEARCH_ATTEMPTS):
            try:
                move = wait_for(self.runner.submit(job), self.time_s + SEARCH_GRACE_S)
                return position_eval(index, move)
            except Exception:
                # A worker lost mid-search is replaced; the position is searched again.
                if attempt + 1 == SEARCH_ATTEMPTS or self._closed.is_set():
                    raise
                log.warning("review search of %s at %d failed; retrying", game.id, index)
        raise AssertionError("unreachable")
