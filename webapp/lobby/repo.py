"""The open seeks in the database (``storage.lobby_tables``): add, list, remove, and mark
the seeks of a socket gone or back. Every call is one short transaction, so any number
of server processes share the list; taking a seek is a delete that only one of two
takers can win."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from webapp.lobby.seeks import Seek, SeekRequest
from webapp.storage.lobby_tables import SeekRow


class SeekExistsError(Exception):
    """The person already has an open seek of this kind."""


class SeekRepo:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        SeekRow.__table__.create(engine, checkfirst=True)  # type: ignore[attr-defined]

    def add(self, seek: Seek, sid: str | None) -> None:
        r = seek.request
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    insert(SeekRow).values(
                        id=seek.id, kind=seek.kind, person_id=seek.person_id,
                        name=seek.name[:64], rule=r.rule, size=r.size, preset=r.preset,
                        rated=r.rated, color=r.color, opening=r.opening,
                        rating=seek.rating, provisional=seek.provisional, sid=sid,
                        created_ms=seek.created_ms, gone_ms=None,
                    )
                )  # fmt: skip
        except IntegrityError:
            raise SeekExistsError() from None

    def get(self, seek_id: str) -> Seek | None:
        with self.engine.connect() as connection:
            row = connection.execute(select(SeekRow).where(SeekRow.id == seek_id)).first()
        return _seek_of(row) if row is not None else None

    def open_seeks(self, kind: str | None = None) -> list[Seek]:
        """The seeks whose creator is here (not gone), oldest first."""
        query = select(SeekRow).where(SeekRow.gone_ms.is_(None)).order_by(SeekRow.created_ms)
        if kind is not None:
            query = query.where(SeekRow.kind == kind)
        with self.engine.connect() as connection:
            return [_seek_of(row) for row in connection.execute(query).all()]

    def remove(self, seek_id: str) -> bool:
        """Delete a seek; False if it was gone already (another taker won)."""
        with self.engine.begin() as connection:
            done = connection.execute(delete(SeekRow).where(SeekRow.id == seek_id))
        return bool(done.rowcount == 1)

    def remove_pair(self, first: str, second: str) -> bool:
        """Delete two seeks together, or neither if one is gone already."""
        with self.engine.begin() as connection:
            done = connection.execute(delete(SeekRow).where(SeekRow.id.in_((first, second))))
            if done.rowcount != 2:
                connection.rollback()
                return False
        return True

    def remove_own(self, person_id: str, kind: str | None = None) -> int:
        query = delete(SeekRow).where(SeekRow.person_id == person_id)
        if kind is not None:
            query = query.where(SeekRow.kind == kind)
        with self.engine.begin() as connection:
            return int(connection.execute(query).rowcount)

    def mark_gone(self, sid: str, now: int) -> int:
        with self.engine.begin() as connection:
            done = connection.execute(
                update(SeekRow)
                .where(SeekRow.sid == sid, SeekRow.gone_ms.is_(None))
                .values(gone_ms=now)
            )
        return int(done.rowcount)

    def mark_back(self, person_id: str, sid: str) -> int:
        """The person's seeks belong to their new socket and are no longer gone."""
        with self.engine.begin() as connection:
            done = connection.execute(
                update(SeekRow)
                .where(SeekRow.person_id == person_id, SeekRow.gone_ms.is_not(None))
                .values(sid=sid, gone_ms=None)
            )
        return int(done.rowcount)

    def expire(self, gone_before: int) -> int:
        """Delete the seeks whose creator left before ``gone_before`` (epoch ms)."""
        with self.engine.begin() as connection:
            done = connection.execute(
                delete(SeekRow).where(SeekRow.gone_ms.is_not(None), SeekRow.gone_ms < gone_before)
            )
        return int(done.rowcount)


def _seek_of(row: Any) -> Seek:
    return Seek(
        row.id,
        row.kind,
        row.person_id,
        row.name,
        SeekRequest(row.rule, int(row.size), row.preset, bool(row.rated), row.color, row.opening),
        float(row.rating),
        bool(row.provisional),
        int(row.created_ms),
    )
