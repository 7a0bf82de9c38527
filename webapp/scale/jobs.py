"""The RQ jobs that ``gomoku worker`` runs in multi-process mode: an AI turn of a game
(``play_turn``) and a bare search for hints and the engine API (``search``).

A job finds the worker's game service, turn queue and name in the ``WorkerContext`` the
worker installed before it started taking jobs. ``play_turn`` claims the turn's lease in
Redis (``turns``), renews it while searching, streams ``thinking`` reports to the game's
room through the Socket.IO message queue, and finally commits the move through
``GameService.commit_ai_move``, the same commit path as the in-process pool's (a version
compare-and-set in the shared database), which publishes the new state and queues the
next AI turn of an engine game. A search whose
game moved on (undo, resign, a re-run that finished first) stops early and commits
nothing."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from webapp.ai.search_job import search_position
from webapp.ai.types import AiJob
from webapp.game.ai_turns import job_for
from webapp.game.errors import GameActionError
from webapp.game.service import GameService
from webapp.game.types import Seat
from webapp.scale.turns import ANONYMOUS, AiTurn, TurnQueue

log = logging.getLogger(__name__)

RENEW_S = 0.25


@dataclass
class WorkerContext:
    service: GameService
    turns: TurnQueue
    owner: str


_context: WorkerContext | None = None


def install(context: WorkerContext) -> None:
    global _context
    _context = context


def current() -> WorkerContext:
    if _context is None:
        raise RuntimeError("this process is not a gomoku worker: run `gomoku worker`")
    return _context


def play_turn(
    game_id: str,
    version: int,
    color: str,
    level: int,
    defence: float = 1.0,
    client: str = ANONYMOUS,
) -> str:
    """Play the AI's move of ``game_id`` at ``version`` (a turn of ``client``'s share);
    return what happened."""
    ctx = current()
    service = ctx.service
    turn = AiTurn(game_id, version, color, level, defence)
    if not ctx.turns.claim(turn, ctx.owner):
        return "held by another worker"
    stop = threading.Event()
    moved_on = threading.Event()
    seat = Seat(color)
    try:
        try:
            game = service.load(game_id)
        except GameActionError:
            return "stale"
        if game.version != version or game.ai_to_move is not seat:
            return "stale"

        def keep_lease() -> None:
            while not stop.wait(RENEW_S):
                try:
                    if service.store.version_of(game_id) != version:
                        moved_on.set()
                        return
                    if not ctx.turns.renew(turn, ctx.owner):
                        log.warning("lost the lease of %s@%s", game_id, version)
                except Exception as error:  # a blip: the version check decides at the end
                    log.warning("lease renewal of %s failed: %s", game_id, error)

        threading.Thread(target=keep_lease, name="turn-lease", daemon=True).start()
        started = time.monotonic()
        job = job_for(game, seat, service.players)

        def progress(info: dict[str, Any]) -> None:
            service.publish_thinking(game_id, seat, info)

        move = search_position(job, progress, moved_on.is_set)
        if moved_on.is_set():
            return "cancelled"
        played = service.commit_ai_move(game_id, version, seat, move, started)
        log.info("turn %s@%s %s", game_id, version, "played" if played else "stale")
        return "played" if played else "stale"
    finally:
        stop.set()
        try:
            ctx.turns.release(turn, ctx.owner)
            ctx.turns.finished(client)
        except Exception as error:  # the lease expires by itself, and the watchdog
            log.warning("could not release %s: %s", turn.key, error)


def search(job: dict[str, Any]) -> dict[str, Any]:
    """A search without a game: hints and ``POST /api/v1/move``."""
    return search_position(AiJob.from_json(job)).to_json()
