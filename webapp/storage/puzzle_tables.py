"""Puzzles, the visitors' puzzle ratings and their attempts (``puzzles.repo`` reads and
writes them; ``puzzles.starter`` fills ``puzzles`` on a fresh database)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    Index,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from webapp.storage.tables import Base, utcnow


class PuzzleRow(Base):
    """A mined puzzle with its Glicko-2 rating as a problem (it "wins" when a visitor
    fails it)."""

    __tablename__ = "puzzles"
    __table_args__ = (Index("ix_puzzles_rating", "rating"),)

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    key: Mapped[str] = mapped_column(String(32), unique=True)
    size: Mapped[int] = mapped_column(Integer)
    rule: Mapped[str] = mapped_column(String(16))
    moves: Mapped[list[Any]] = mapped_column(JSON)
    goal: Mapped[str] = mapped_column(String(8))
    kind: Mapped[str] = mapped_column(String(8))
    solution: Mapped[list[Any]] = mapped_column(JSON)
    plies: Mapped[int] = mapped_column(Integer)
    nodes: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"))
    difficulty: Mapped[float] = mapped_column(Float)
    source: Mapped[str] = mapped_column(String(16))
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PuzzlePlayerRow(Base):
    """A visitor's puzzle rating and streaks."""

    __tablename__ = "puzzle_players"

    visitor: Mapped[str] = mapped_column(String(64), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    best_streak: Mapped[int] = mapped_column(Integer, default=0)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PuzzleAttemptRow(Base):
    """One visitor's try at one puzzle: the moves played so far (both sides), and once
    it ends, whether it was solved. Ratings change once, when ``finished_at`` is set."""

    __tablename__ = "puzzle_attempts"
    __table_args__ = (Index("ix_puzzle_attempts_visitor", "visitor", "puzzle_id"),)

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    visitor: Mapped[str] = mapped_column(String(64))
    puzzle_id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"))
    played: Mapped[list[Any]] = mapped_column(JSON, default=list)
    # The forced line expected from here on (the puzzle's, or one found after a deviation).
    line: Mapped[list[Any]] = mapped_column(JSON, default=list)
    solved: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
