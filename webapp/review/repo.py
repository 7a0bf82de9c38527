"""Reading and writing reviews (``storage.review_tables``) for the review jobs (``jobs``).

Every write is a compare-and-set on the row's lease (``owner`` and ``heartbeat_ms``), so
of several processes asked for the same review exactly one runs it; the others see it
running (its lease fresh) and wait for its result. A lease not renewed for ``lease_s``
may be taken over, and the positions found so far are kept for the new owner to resume
from, as long as the game's moves are the same."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Table, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from webapp.storage.review_tables import Review
from webapp.storage.tables import utcnow

REVIEWS = cast(Table, Review.__table__)

RUNNING = "running"
DONE = "done"
FAILED = "failed"


def epoch_ms() -> int:
    return int(time.time() * 1000)


@dataclass
class ReviewRecord:
    game_id: str
    status: str
    moves: list[list[int]]
    total: int
    positions: list[dict[str, Any]] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    error: str | None = None
    owner: str | None = None
    heartbeat_ms: int = 0

    def fresh(self, now_ms: int, lease_s: float) -> bool:
        """Whether its owner renewed the lease within ``lease_s``."""
        return now_ms - self.heartbeat_ms < lease_s * 1000


def _record(row: Any) -> ReviewRecord:
    return ReviewRecord(
        game_id=row.game_id,
        status=row.status,
        moves=[list(p) for p in (row.moves or [])],
        total=int(row.total or 0),
        positions=list(row.positions or []),
        settings=dict(row.settings or {}),
        result=dict(row.result) if row.result else None,
        error=row.error,
        owner=row.owner,
        heartbeat_ms=int(row.heartbeat_ms or 0),
    )


class ReviewRepo:
    def __init__(self, engine: Engine, *, now_ms: Any = epoch_ms) -> None:
        self.engine = engine
        self.now_ms = now_ms

    def get(self, game_id: str) -> ReviewRecord | None:
        with self.engine.connect() as connection:
            row = connection.execute(select(REVIEWS).where(REVIEWS.c.game_id == game_id)).first()
        return _record(row) if row is not None else None

    def claim(
        self,
        game_id: str,
        *,
        moves: list[list[int]],
        settings: dict[str, Any],
        owner: str,
        lease_s: float,
    ) -> ReviewRecord | None:
        """Make ``owner`` the runner of this review and return the row (with the positions
        an earlier owner found for the same moves and settings); None if it is done or
        another owner's lease is fresh."""
        now = self.now_ms()
        values = {
            "status": RUNNING,
            "moves": moves,
            "total": len(moves) + 1,
            "settings": settings,
            "result": None,
            "error": None,
            "owner": owner,
            "heartbeat_ms": now,
            "updated_at": utcnow(),
        }
        current = self.get(game_id)
        if current is None:
            try:
                with self.engine.begin() as connection:
                    connection.execute(
                        insert(REVIEWS).values(
                            game_id=game_id, positions=[], created_at=utcnow(), **values
                        )
                    )
            except IntegrityError:
                return None  # another process started it a moment ago
            return self.get(game_id)
        same = current.moves == moves and current.settings == settings
        if same and current.status == DONE:
            return None
        if same and current.status == RUNNING and current.fresh(now, lease_s):
            return None
        kept = current.positions if same else []
        with self.engine.begin() as connection:
            changed = connection.execute(
                update(REVIEWS)
                .where(REVIEWS.c.game_id == game_id)
                .where(REVIEWS.c.heartbeat_ms == current.heartbeat_ms)
                .where(REVIEWS.c.status == current.status)
                .values(positions=kept, **values)
            ).rowcount
        return self.get(game_id) if changed == 1 else None

    def _owned(self, game_id: str, owner: str, **values: Any) -> bool:
        with self.engine.begin() as connection:
            changed = connection.execute(
                update(REVIEWS)
                .where(REVIEWS.c.game_id == game_id)
                .where(REVIEWS.c.owner == owner)
                .where(REVIEWS.c.status == RUNNING)
                .values(updated_at=utcnow(), **values)
            ).rowcount
        return bool(changed == 1)

    def save_progress(self, game_id: str, owner: str, positions: list[dict[str, Any]]) -> bool:
        """Store the positions found so far and renew the lease; False if it was lost."""
        return self._owned(game_id, owner, positions=positions, heartbeat_ms=self.now_ms())

    def finish(
        self,
        game_id: str,
        owner: str,
        positions: list[dict[str, Any]],
        result: dict[str, Any],
    ) -> bool:
        return self._owned(
            game_id, owner, positions=positions, result=result, status=DONE,
            heartbeat_ms=self.now_ms(),
        )  # fmt: skip

    def fail(self, game_id: str, owner: str, error: str) -> bool:
        return self._owned(game_id, owner, status=FAILED, error=error[:500])
