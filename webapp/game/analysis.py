"""Searches that are not a game's move: a hint for the human to move in a game against
the AI, and the stateless engine API (``POST /api/v1/move``).

Both go through the same ``AiRunner`` as the games' moves (``ai.runner``), marked as
the ``analysis`` lane with the asking client so the runner can keep them from delaying
anyone's game. A hint answers through a ``reply`` callback when its search ends; the
engine API waits for its answer."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from engine import Board, GomokuError
from webapp.ai.runner import AiRunner, wait_for
from webapp.ai.types import AiJob, AiMove
from webapp.game.errors import BadRequestError
from webapp.game.model import Game

log = logging.getLogger(__name__)

HINT_LEVEL = 4
ENGINE_API_LEVEL = 5
# Extra wait beyond the asked search time for the stateless API: a cold worker may still
# be compiling the search core.
ENGINE_API_GRACE_S = 30.0

Reply = Callable[[str, dict[str, Any]], None]


class Analysis:
    def __init__(self, runner: AiRunner, *, hint_time_s: float = 0.5) -> None:
        self.runner = runner
        self.hint_time_s = hint_time_s
        self.closed = False

    def hint(self, game: Game, reply: Reply, client: str | None = None) -> None:
        """Search ``game``'s position for the side to move; ``reply`` gets ``hint`` (or
        an ``error``) when the search ends. The caller checked that a hint is allowed."""
        job = AiJob(
            size=game.size,
            rule=game.rule.value,
            moves=list(game.points),
            level=HINT_LEVEL,
            time_s=self.hint_time_s,
            lane="analysis",
            client=client,
        )
        ticket = self.runner.submit(job)
        game_id = game.id

        def done(future: Future[AiMove]) -> None:
            if future.cancelled() or self.closed:
                return
            try:
                move = future.result()
            except Exception:
                log.exception("hint search for game %s failed", game_id)
                reply(
                    "error",
                    {"code": "hint_failed", "message": "the hint search failed", "params": {}},
                )
                return
            reply(
                "hint",
                {
                    "game": game_id,
                    "game_id": game_id,
                    "move": list(move.move),
                    "x": move.move[0],
                    "y": move.move[1],
                    "score": move.score,
                    "depth": move.depth,
                    "pv": [list(p) for p in move.pv],
                },
            )

        ticket.future.add_done_callback(done)

    def engine_move(
        self,
        *,
        size: int,
        rule: str,
        moves: list[tuple[int, int]],
        time_ms: int,
        client: str | None = None,
    ) -> dict[str, Any]:
        """The best move in a position within ``time_ms``."""
        try:
            board = Board.from_moves(moves, size=size, rule=rule)
        except GomokuError as error:
            raise BadRequestError(
                f"the moves are not a legal game: {error}", code="bad_moves"
            ) from None
        if board.is_game_over():
            raise BadRequestError("the game is already over", code="game_over")
        job = AiJob(
            size=size,
            rule=rule,
            moves=moves,
            level=ENGINE_API_LEVEL,
            time_s=time_ms / 1000,
            lane="analysis",
            client=client,
        )
        ticket = self.runner.submit(job)
        try:
            move = wait_for(ticket, time_ms / 1000 + ENGINE_API_GRACE_S)
        except TimeoutError:
            raise BadRequestError(
                "the engine did not answer in time", code="engine_timeout"
            ) from None
        return {
            "move": list(move.move),
            "score": move.score,
            "depth": move.depth,
            "nodes": move.nodes,
            "pv": [list(p) for p in move.pv],
        }
