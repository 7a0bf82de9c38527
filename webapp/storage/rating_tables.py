"""The tables of people's Glicko-2 ratings (``players.person_ratings`` reads and writes
them): the current rating per person and rule key, the rating after each rated game
(the profile's chart), and the rated games themselves, whose primary key makes a game
count exactly once however many processes see it end."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, Float, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from webapp.storage.tables import Base, utcnow


class PersonRatingRow(Base):
    __tablename__ = "person_ratings"
    __table_args__ = (Index("ix_person_ratings_rule_rating", "rule_key", "rating"),)

    person_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    rule_key: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64), default="Guest")
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingHistoryRow(Base):
    __tablename__ = "rating_history"
    __table_args__ = (
        UniqueConstraint("person_id", "rule_key", "game_id", name="uq_rating_history_game"),
        Index("ix_rating_history_person", "person_id", "rule_key", "id"),
    )

    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    person_id: Mapped[str] = mapped_column(String(64))
    rule_key: Mapped[str] = mapped_column(String(32))
    game_id: Mapped[str] = mapped_column(String(32))
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatedGameRow(Base):
    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    rule_key: Mapped[str] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
