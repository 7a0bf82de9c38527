"""The composition root: the store, the AI runner, presence and the game service, built
from one ``Settings`` value, for both the web server (``app.create_app``) and the queue
worker (``scale.worker``).

Without a Redis URL everything stays in this process: AI searches in a process pool
(``ai.pool``), presence in memory. With one (``scale.shared``), presence and AI turns are
shared through Redis and the AI's moves are queue jobs. ``Runtime.close`` releases what
``build`` made. Flask and Socket.IO are not needed here: the caller hands in how to emit.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webapp.ai.fairness import FairShareRunner
from webapp.ai.runner import AiRunner
from webapp.game import model
from webapp.game.service import GameService, ServiceSettings
from webapp.players.person_ratings import PersonRatings
from webapp.players.registry import PlayerRegistry
from webapp.realtime.presence import Presence
from webapp.realtime.publisher import Emit
from webapp.storage import people_tables  # noqa: F401  (its tables, for create_all)
from webapp.storage.store import Store


def database_url(instance: Path) -> str:
    """``DATABASE_URL`` or the SQLite file of the instance folder."""
    return os.environ.get("DATABASE_URL") or f"sqlite:///{instance / 'gomoku.sqlite3'}"


@dataclass(frozen=True)
class Settings:
    database_url: str
    redis_url: str | None = None
    ai_workers: int = 1
    ai_analysis_workers: int = 1
    ai_warm_up: bool = True
    # Wait this long for the engine to be warm before serving (None: do not wait).
    ai_start_wait_s: float | None = None
    ai_quota: Any = None  # ``ai.fairness.Quota`` of hints and engine API searches
    engines: Any = None  # the ENGINES setting (``players.registry``)
    service: ServiceSettings = field(default_factory=ServiceSettings)

    @classmethod
    def from_config(cls, config: Any) -> Settings:
        """From a Flask config (or any mapping with the same keys)."""
        return cls(
            database_url=str(config["DATABASE_URL"]),
            redis_url=config.get("REDIS_URL") or None,
            ai_workers=int(config.get("AI_WORKERS") or 1),
            ai_analysis_workers=int(config.get("AI_ANALYSIS_WORKERS") or 1),
            ai_warm_up=bool(config.get("AI_WARM_UP", True)),
            ai_start_wait_s=config.get("AI_START_WAIT_S"),
            ai_quota=config.get("AI_QUOTA"),
            engines=config.get("ENGINES"),
            service=ServiceSettings(
                aivai_move_s=float(config.get("AIVAI_MOVE_S", 0.6)),
                hint_time_s=float(config.get("HINT_TIME_S", 0.5)),
                abandon_ms=int(config.get("ABANDON_MS", model.ABANDON_CLAIM_MS)),
                idle_ms=int(config.get("IDLE_MS", ServiceSettings.idle_ms)),
                unstarted_ms=int(config.get("UNSTARTED_MS", ServiceSettings.unstarted_ms)),
                waiting_ms=int(config.get("WAITING_MS", ServiceSettings.waiting_ms)),
            ),
        )


@dataclass
class Runtime:
    """What one server or worker process owns: closed together by ``close``."""

    store: Store
    runner: AiRunner
    presence: Any
    service: GameService
    shared: Any = None
    owns_runner: bool = True
    # The web server's Socket.IO instance, when there is one.
    socketio: Any = None
    # People's Glicko-2 ratings (``players.person_ratings``), rated as games end.
    ratings: Any = None

    def close(self) -> None:
        self.service.close()
        if self.owns_runner:
            self.runner.shutdown()
        if self.shared is not None:
            self.shared.close()
        self.store.close()


def build(
    settings: Settings, *, runner: AiRunner | None = None, emit: Emit | None = None
) -> Runtime:
    """Build the runtime. ``runner`` is an existing AI runner to share (tests); otherwise
    a process pool is started (single-process mode) or the queue's runner is used."""
    store = Store(settings.database_url)
    shared = None
    presence: Any
    inner: AiRunner
    if settings.redis_url:
        from webapp.scale.shared import Shared

        shared = Shared.connect(settings.redis_url)
        inner = shared.runner
        presence = shared.presence
    else:
        if runner is not None:
            inner = runner
        else:
            from webapp.ai.pool import PoolAiRunner

            inner = PoolAiRunner(
                settings.ai_workers,
                analysis_workers=settings.ai_analysis_workers,
                warm_up=settings.ai_warm_up,
            )
        presence = Presence()
    # Hints and the engine API get a fair share per client (``ai.fairness``).
    ai_runner = FairShareRunner(inner, settings.ai_quota)
    if settings.ai_start_wait_s is not None:
        # Serve once the engine is warm; a fresh install compiles it for a minute or
        # two: then serve anyway, and the first moves say that they wait for it.
        ai_runner.wait_ready(float(settings.ai_start_wait_s))
    service = GameService(
        store,
        ai_runner,
        presence,
        players=PlayerRegistry.build(settings.engines),
        settings=settings.service,
        emit=emit,
        turns=shared.turns if shared is not None else None,
    )
    ratings = PersonRatings(store.engine)
    service.finish_hooks.append(ratings.on_game_finished)
    return Runtime(
        store,
        ai_runner,
        presence,
        service,
        shared,
        owns_runner=runner is None and shared is None,
        ratings=ratings,
    )
