"""When the AI moves: one interface, ``AiTurns``, with two implementations.

After every committed change the service calls ``schedule(game)``: if an AI seat is to
move, its search starts (and a search for an older version of the game is dropped).
``PoolTurns`` searches through an ``AiRunner`` of this server (``ai.runner``: the
process pool) and commits the answer itself; ``QueueTurns`` puts the turn on the Redis
queue of multi-process mode (``scale.turns``), where a ``gomoku worker`` searches it. Both
end in the same commit path, the service's ``commit_ai_move``, which plays the move only
if the game is still at the version searched (the store's compare-and-set settles any
race). ``job_for`` builds the search job of a turn for both."""

from __future__ import annotations

import logging
import secrets
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from engine import MATE
from webapp.ai.runner import AiRunner, AiTicket
from webapp.ai.types import AiJob, AiMove
from webapp.game import model, opening_ai
from webapp.game.errors import GameActionError
from webapp.game.model import Change, Game
from webapp.game.types import EngineFigures, Seat
from webapp.players.registry import PlayerRegistry

log = logging.getLogger(__name__)

AI_RETRIES = 2

# (game id, version, seat, move, when the search started (monotonic s)) -> played?
Commit = Callable[[str, int, Seat, AiMove, float], bool]
# (game id, seat, report): a search's progress, for the ``thinking`` event.
Progress = Callable[[str, Seat, dict[str, Any]], None]


def job_for(game: Game, seat: Seat, players: PlayerRegistry) -> AiJob:
    """The search that plays ``seat``'s AI move in ``game``."""
    info = game.seats[seat]
    return AiJob(
        size=game.size,
        rule=game.rule.value,
        moves=list(game.points),
        level=int(info.level or 3),
        defence=float(game.settings.get("defence", 1.0)),
        # A fresh seed per move keeps the noisy levels from replaying the same game.
        seed=secrets.randbelow(2**31),
        player=player_spec(game, seat, players),
        session=f"{game.id}:{seat.value}",
        opening=opening_ai.task_of(game),
    )


def player_spec(game: Game, seat: Seat, players: PlayerRegistry) -> Any:
    """The MCTS or engine player of ``seat`` (None: negamax at the seat's level). A
    player no longer configured plays as negamax."""
    chosen = game.settings.get("players")
    player_id = chosen.get(seat.value) if isinstance(chosen, dict) else None
    if not player_id or player_id not in players:
        return None
    player = players.get(player_id)
    return player.spec() if player.kind != "negamax" else None


def ai_change(game: Game, seat: Seat, move: AiMove, now: int) -> Change | None:
    """The change a search's answer makes: the move with its figures (the score turned
    to black's side), or the loss of an external engine that failed. None (and a log
    line) for a move the rules refuse."""
    if move.forfeit is not None:
        reason = move.forfeit.get("reason") or "forfeit"
        detail = move.forfeit.get("detail", "")
        log.warning("%s forfeits game %s: %s", seat.value, game.id, detail)
        return model.forfeit(game, seat, now, reason=reason, detail=detail)
    if move.opening is not None:
        return opening_ai.apply(game, seat, move.opening, now)
    score = max(-MATE, min(MATE, move.score))
    figures = EngineFigures(
        score if seat is Seat.BLACK else -score, move.depth, move.nodes, int(move.time_s * 1000)
    )
    try:
        return model.play(game, seat, move.move, now, figures=figures)
    except GameActionError as error:
        log.error("AI for game %s returned an illegal move %s: %s", game.id, move.move, error)
        return None


class AiTurns(ABC):
    # Publish the new state before scheduling: a queue worker may answer within
    # milliseconds from another process, and its state must not arrive first.
    publish_first = False

    @abstractmethod
    def schedule(self, game: Game) -> None:
        """Start ``game``'s AI move if it waits for one; drop searches of older versions."""

    @abstractmethod
    def thinking(self, game: Game) -> Seat | None:
        """The AI seat searching ``game`` at its current version, if any."""

    def cancel(self, game_id: str) -> None:  # noqa: B027 (optional)
        """Stop any search for ``game_id`` (the queue's searches stop by themselves once
        the game's version moves on)."""

    @property
    def warming(self) -> bool:
        return False

    def close(self) -> None:  # noqa: B027 (optional)
        """Stop every search."""


@dataclass
class _Search:
    seat: Seat
    version: int
    ticket: AiTicket
    started: float
    attempt: int


class PoolTurns(AiTurns):
    """AI moves searched by this server's runner and committed from its threads."""

    def __init__(
        self,
        runner: AiRunner,
        players: PlayerRegistry,
        commit: Commit,
        progress: Progress,
        reload: Callable[[str], Game],
    ) -> None:
        self.runner = runner
        self.players = players
        self._commit = commit
        self._progress = progress
        self._reload = reload
        self._searches: dict[str, _Search] = {}
        self._lock = threading.Lock()
        self._closed = False

    def schedule(self, game: Game, attempt: int = 0) -> None:
        seat = game.ai_to_move
        with self._lock:
            current = self._searches.get(game.id)
            if current is not None and current.version == game.version:
                return
            if current is not None:
                del self._searches[game.id]
                current.ticket.cancel()
            if seat is None or self._closed:
                return
            game_id = game.id

            def progress(info: dict[str, Any]) -> None:
                self._progress(game_id, seat, info)

            ticket = self.runner.submit(job_for(game, seat, self.players), progress)
            search = _Search(seat, game.version, ticket, time.monotonic(), attempt)
            self._searches[game_id] = search
        ticket.future.add_done_callback(
            lambda future: threading.Thread(
                target=self._done, args=(game_id, search, future), daemon=True
            ).start()
        )

    def _done(self, game_id: str, search: _Search, future: Future[AiMove]) -> None:
        if future.cancelled() or self._closed:
            return
        try:
            move = future.result()
        except Exception:
            log.exception("AI search for game %s failed", game_id)
            with self._lock:
                if self._searches.get(game_id) is not search:
                    return
                del self._searches[game_id]
            if search.attempt < AI_RETRIES and not self._closed:
                self.schedule(self._reload(game_id), search.attempt + 1)
            return
        search.ticket.progress_done.wait(2.0)
        with self._lock:
            if self._searches.get(game_id) is not search:
                return
        played = self._commit(game_id, search.version, search.seat, move, search.started)
        with self._lock:
            if self._searches.get(game_id) is search:
                del self._searches[game_id]
        if not played:
            log.info("AI move for game %s arrived after a change; dropped", game_id)

    def thinking(self, game: Game) -> Seat | None:
        with self._lock:
            search = self._searches.get(game.id)
        return search.seat if search is not None and search.version == game.version else None

    def cancel(self, game_id: str) -> None:
        with self._lock:
            search = self._searches.pop(game_id, None)
        if search is not None:
            search.ticket.cancel()

    @property
    def warming(self) -> bool:
        return self.runner.warming

    def close(self) -> None:
        with self._lock:
            self._closed = True
            searches, self._searches = list(self._searches.values()), {}
        for search in searches:
            search.ticket.cancel()


class QueueTurns(AiTurns):
    """AI moves as jobs on the turn queue; ``gomoku worker`` searches and commits them."""

    publish_first = True

    def __init__(self, queue: Any) -> None:
        self.queue = queue

    def schedule(self, game: Game) -> None:
        from webapp.scale.turns import AiTurn

        seat = game.ai_to_move
        if seat is None:
            return
        info = game.seats[seat]
        turn = AiTurn(
            game_id=game.id,
            version=game.version,
            color=seat.value,
            level=int(info.level or 3),
            defence=float(game.settings.get("defence", 1.0)),
        )
        try:
            self.queue.schedule(turn)
        except Exception as error:
            # The move itself is committed; the workers' watchdog queues the turn once
            # Redis answers again.
            log.warning("could not queue the AI turn of %s: %s", game.id, error)

    def thinking(self, game: Game) -> Seat | None:
        # Workers think wherever they run: an AI seat to move means a queued or running
        # job (a dead worker's job is run again).
        return game.ai_to_move
