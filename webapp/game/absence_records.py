"""Where the absences of ``absence`` are kept: in this process's memory
(``MemoryAbsences``, for a service without a database of its own) or in the database's
``absences`` table (``StoredAbsences``, the server's and the workers' choice), so that a
countdown survives a restart and every server of a multi-process deployment reads the
same one. Both answer in seat colours and epoch milliseconds."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Sequence
from typing import Any, Protocol

from sqlalchemy import Table, delete, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from webapp.storage.absence_tables import SeatAbsence

ABSENCES: Table = SeatAbsence.__table__  # type: ignore[assignment]


class AbsenceRecords(Protocol):
    def load(self, game_id: str) -> dict[str, int]:
        """The seats gone in ``game_id`` and since when."""

    def start(self, game_id: str, seat: str, since: int) -> int:
        """Record ``seat`` gone since ``since`` unless it is already; return the start
        that is stored."""

    def stop(self, game_id: str, seats: Sequence[str]) -> None: ...

    def forget(self, game_id: str) -> None: ...

    def games(self) -> dict[str, dict[str, int]]:
        """Every game with a seat gone."""


class MemoryAbsences:
    def __init__(self) -> None:
        self._since: dict[str, dict[str, int]] = {}
        self._lock = threading.Lock()

    def load(self, game_id: str) -> dict[str, int]:
        with self._lock:
            return dict(self._since.get(game_id, {}))

    def start(self, game_id: str, seat: str, since: int) -> int:
        with self._lock:
            return self._since.setdefault(game_id, {}).setdefault(seat, since)

    def stop(self, game_id: str, seats: Sequence[str]) -> None:
        with self._lock:
            gone = self._since.get(game_id, {})
            for seat in seats:
                gone.pop(seat, None)
            if not gone:
                self._since.pop(game_id, None)

    def forget(self, game_id: str) -> None:
        with self._lock:
            self._since.pop(game_id, None)

    def games(self) -> dict[str, dict[str, int]]:
        with self._lock:
            return {game_id: dict(gone) for game_id, gone in self._since.items()}


class StoredAbsences:
    """``writing`` is held around each write (the store's one-writer lock on SQLite)."""

    def __init__(self, engine: Engine, writing: Any = None) -> None:
        self.engine = engine
        self._writing = writing if writing is not None else contextlib.nullcontext()
        SeatAbsence.metadata.create_all(engine, tables=[ABSENCES])

    def load(self, game_id: str) -> dict[str, int]:
        query = select(ABSENCES.c.seat, ABSENCES.c.since_ms).where(ABSENCES.c.game_id == game_id)
        with self.engine.connect() as connection:
            return {seat: int(since) for seat, since in connection.execute(query)}

    def start(self, game_id: str, seat: str, since: int) -> int:
        try:
            with self._writing, self.engine.begin() as connection:
                connection.execute(
                    insert(ABSENCES).values(game_id=game_id, seat=seat, since_ms=since)
                )
            return since
        except IntegrityError:
            # Another server saw the seat go first: its start stands.
            return self.load(game_id).get(seat, since)

    def stop(self, game_id: str, seats: Sequence[str]) -> None:
        if not seats:
            return
        with self._writing, self.engine.begin() as connection:
            connection.execute(
                delete(ABSENCES).where(ABSENCES.c.game_id == game_id, ABSENCES.c.seat.in_(seats))
            )

    def forget(self, game_id: str) -> None:
        with self._writing, self.engine.begin() as connection:
            connection.execute(delete(ABSENCES).where(ABSENCES.c.game_id == game_id))

    def games(self) -> dict[str, dict[str, int]]:
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(ABSENCES.c.game_id, ABSENCES.c.seat, ABSENCES.c.since_ms)
            )
            found: dict[str, dict[str, int]] = {}
            for game_id, seat, since in rows:
                found.setdefault(game_id, {})[seat] = int(since)
            return found
