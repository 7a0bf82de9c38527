"""The table of game reviews: one row per reviewed game (``reviews``).

A row is written when a review starts and holds the moves it reviews, the engine's
evaluation of each position found so far (``positions``, so the page shows progress and a
restarted job resumes), the finished review (``result``) and the lease of the process
that runs it (``owner``, renewed at ``heartbeat_ms``, epoch ms): another process takes
over a review whose lease ran out. Defined on the shared ``Base`` of ``tables``;
``review.repo`` is the only code that reads and writes it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from webapp.storage.tables import Base, utcnow


class Review(Base):
    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    # "running", "done" or "failed".
    status: Mapped[str] = mapped_column(String(16))
    # The moves reviewed, [[x, y], ...]: a game changed since (an undo) is reviewed again.
    moves: Mapped[list[Any]] = mapped_column(JSON, default=list)
    total: Mapped[int] = mapped_column(Integer, default=0)
    # One engine evaluation per position, in order, as far as the job got.
    positions: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # How it was searched: {"time_s", "engine"}.
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    owner: Mapped[str | None] = mapped_column(String(64), nullable=True)
    heartbeat_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
