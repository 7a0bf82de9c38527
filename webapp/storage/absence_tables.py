"""The table of absences: since when (epoch ms) a human seat of a friend game has had no
connected socket, one row per game and seat (``game.absence_records`` reads and writes
it). Kept in the database, beside the games, so the countdown before the player who
stayed may claim the win survives a restart and is the same on every server."""

from __future__ import annotations

from sqlalchemy import BigInteger, String
from sqlalchemy.orm import Mapped, mapped_column

from webapp.storage.tables import Base


class SeatAbsence(Base):
    __tablename__ = "absences"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[str] = mapped_column(String(8), primary_key=True)
    since_ms: Mapped[int] = mapped_column(BigInteger)
