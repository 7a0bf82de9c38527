"""SQLAlchemy models of the web app: games, their moves and their seats.

``Game`` holds a row per game with a ``version`` counter that makes every change a
compare-and-set (see ``store``); ``Move`` is one row per ply; ``Seat`` binds a colour to
either a human (by the hash of the secret in their seat cookie) or an AI level. The
``store`` module is the only code that reads and writes these tables."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class Game(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    mode: Mapped[str] = mapped_column(String(16))
    size: Mapped[int] = mapped_column(Integer)
    rule: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # When a move was last played in the game (not its starting position); None until
    # one is: what the list of games in progress goes by.
    moved_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    # Levels, defence and clock configuration: fixed when the game is created.
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Running clock: {"black_ms", "white_ms", "running", "since"}; None without a clock.
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # {"winner", "reason", "line"} once finished.
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    takeback_by: Mapped[str | None] = mapped_column(String(8), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # Open draw and rematch offers: {"draw"?: colour, "rematch"?: colour}; None if none.
    offers: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)

    moves: Mapped[list[Move]] = relationship(
        back_populates="game", order_by="Move.ply", cascade="all, delete-orphan"
    )
    seats: Mapped[list[Seat]] = relationship(back_populates="game", cascade="all, delete-orphan")


class Move(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1-based
    x: Mapped[int] = mapped_column(Integer)
    y: Mapped[int] = mapped_column(Integer)
    color: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Engine figures for AI moves, the score from black's point of view.
    eval_score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    depth: Mapped[int | None] = mapped_column(Integer, nullable=True)
    nodes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    think_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)

    game: Mapped[Game] = relationship(back_populates="moves")


class Seat(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    color: Mapped[str] = mapped_column(String(8), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # "human" or "ai"
    # sha256 of the seat cookie's secret; None while a human seat is still free.
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    level: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(Text, default="Guest")
    # The person (visitor or account, see ``players.identity``) holding a human seat.
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)

    game: Mapped[Game] = relationship(back_populates="seats")
