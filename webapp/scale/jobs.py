"""The RQ jobs that ``gomoku worker`` runs in multi-process mode: an AI turn of a game
(``play_turn``) and a bare search for hints and the engine API (``search``).

A job finds the worker's game service, turn queue and name in the ``WorkerContext`` the
worker installed before it started taking jobs. ``play_turn`` claims the turn's lease in
Redis (``aiqueue``), renews it while searching, streams ``thinking`` reports to the
game's room through the Socket.IO message queue, and finally commits the move through
``GameService.apply_ai_move`` (a version compare-and-set in the shared database), which
broadcasts the new state and queues the next AI turn of an engine game. A search whose
game moved on (undo, resign, a re-run that finished first) stops early and commits
nothing."""

from __future__ import annotations

import logging
import random
import threading
import time
from dataclasses import dataclass
from typing import Any

from webapp.ai.search_job import search_position
from webapp.ai.types import AiJob
from webapp.game.service import GameService, room_of
from webapp.scale.turns import AiTurn, TurnQueue

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


def play_turn(game_id: str, version: int, color: str, level: int, defence: float = 1.0) -> str:
    """Play the AI's move of ``game_id`` at ``version``; return what happened."""
    ctx = current()
    service = ctx.service
    turn = AiTurn(game_id, version, color, level, defence)
    if not ctx.turns.claim(turn, ctx.owner):
        return "held by another worker"
    stop = threading.Event()
    moved_on = threading.Event()
    try:
        record = service.store.find(game_id)
        if record is None or record.version != version or service.ai_to_move(record) != color:
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
        job = AiJob(
            size=record.size,
            rule=record.rule,
            moves=record.points,
            level=level,
            defence=defence,
            seed=random.randrange(2**31),
            player=service.player_spec(record, color),
            session=f"{game_id}:{color}",
        )

        def progress(info: dict[str, Any]) -> None:
            service.emit("thinking", {"game_id": game_id, "color": color, **info}, room_of(game_id))

        stats = search_position(job, progress, moved_on.is_set)
        if moved_on.is_set():
            return "cancelled"
        if record.mode == "aivai":
            # Pace engine games so spectators can follow them.
            pause = service.aivai_move_s - (time.monotonic() - started)
            if pause > 0:
                time.sleep(pause)
        played = service.apply_ai_move(game_id, version, color, stats, record)
        log.info("turn %s@%s %s", game_id, version, "played" if played else "stale")
        return "played" if played else "stale"
    finally:
        stop.set()
        try:
            ctx.turns.release(turn, ctx.owner)
        except Exception as error:  # the lease expires by itself
            log.warning("could not release %s: %s", turn.key, error)


def search(job: dict[str, Any]) -> dict[str, Any]:
    """A search without a game: hints and ``POST /api/v1/move``."""
    return search_position(AiJob.from_json(job)).to_json()
