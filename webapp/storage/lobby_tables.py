"""The lobby's open seeks (``lobby.repo`` reads and writes them): one row per seek, a
manual seek (``kind`` ``seek``) or a quick-pairing request (``quick``). Kept in the
database so every server process sees the same list; the unique key allows one open
seek per person and kind."""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Float, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from webapp.storage.tables import Base


class SeekRow(Base):
    __tablename__ = "lobby_seeks"
    __table_args__ = (UniqueConstraint("person_id", "kind", name="uq_lobby_seeks_person_kind"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    person_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(64))
    rule: Mapped[str] = mapped_column(String(16))
    size: Mapped[int] = mapped_column(Integer)
    preset: Mapped[str] = mapped_column(String(8))
    rated: Mapped[bool] = mapped_column(Boolean)
    color: Mapped[str] = mapped_column(String(8))
    opening: Mapped[str] = mapped_column(String(16))
    # The creator's rating under the seek's rule key when it was made (pairing, display).
    rating: Mapped[float] = mapped_column(Float)
    provisional: Mapped[bool] = mapped_column(Boolean, default=True)
    # The creator's lobby socket; ``gone_ms`` is set when it disconnects (epoch ms).
    sid: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    gone_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
