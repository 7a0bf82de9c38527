"""Since when each human seat of a game has been without a connected socket.

The publisher tells ``observe`` which seats are connected whenever a socket joins or
leaves a game (and when a player arrives to find the opponent gone); a seat first seen
absent starts its countdown then, and a seat seen connected again stops it. The view
shows the countdown (``abandon``) and the model's ``claim_victory`` reads it. The starts
are kept by an ``absence_records`` store: in the database for a server, so a countdown
survives a restart and all servers of a deployment share it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy.engine import Engine

from webapp.game.absence_records import AbsenceRecords, MemoryAbsences, StoredAbsences
from webapp.game.types import Seat


class Absence:
    def __init__(self, records: AbsenceRecords | None = None) -> None:
        self.records: AbsenceRecords = records if records is not None else MemoryAbsences()

    @classmethod
    def stored(cls, engine: Engine, writing: Any = None) -> Absence:
        """Kept in the database of ``engine`` (``writing``: held around each write)."""
        return cls(StoredAbsences(engine, writing))

    def observe(
        self, game_id: str, humans: Iterable[Seat], connected: Iterable[Seat], now: int
    ) -> dict[Seat, int]:
        """Record who of ``humans`` is connected at ``now``; return the seats gone and
        since when."""
        present = set(connected)
        stored = self.records.load(game_id)
        back = [seat.value for seat in humans if seat in present and seat.value in stored]
        if back:
            self.records.stop(game_id, back)
        gone: dict[Seat, int] = {}
        for seat in humans:
            if seat in present:
                continue
            since = stored.get(seat.value)
            if since is None:
                since = self.records.start(game_id, seat.value, now)
            gone[seat] = since
        return gone

    def gone_since(self, game_id: str) -> dict[Seat, int]:
        return {Seat(seat): since for seat, since in self.records.load(game_id).items()}

    def forget(self, game_id: str) -> None:
        self.records.forget(game_id)

    def games(self) -> dict[str, dict[Seat, int]]:
        """Every game with a seat gone, and since when (to re-arm timers after a start)."""
        return {
            game_id: {Seat(seat): since for seat, since in gone.items()}
            for game_id, gone in self.records.games().items()
        }
