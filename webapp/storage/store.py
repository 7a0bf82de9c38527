"""The game store: reads and writes games, moves and seats through SQLAlchemy.

The game service (``games``) is its only caller. Records leave the store as plain
dataclasses so no session outlives a call. Every change goes through ``update``, a
compare-and-set on ``games.version``: of two writers that read the same version exactly
one commits and the other gets ``StaleVersionError``, whatever the number of server
processes. SQLite (the default, in the instance folder) and PostgreSQL both work."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    Table,
    and_,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, selectinload, sessionmaker

from webapp.storage import review_tables  # noqa: F401  (its table joins ``create_all``)
from webapp.storage.tables import Base, Game, Move, Seat, utcnow

# The mapped classes' tables, typed as tables for SQLAlchemy Core statements.
GAMES = cast(Table, Game.__table__)
MOVES = cast(Table, Move.__table__)
SEATS = cast(Table, Seat.__table__)


class StaleVersionError(RuntimeError):
    """The game changed since the caller read it; nothing was written."""


class GameNotFoundError(LookupError):
    """No game has this id."""


@dataclass
class MoveRecord:
    ply: int
    x: int
    y: int
    color: str
    eval_score: int | None = None
    depth: int | None = None
    nodes: int | None = None
    think_ms: int | None = None


@dataclass
class SeatRecord:
    color: str
    kind: str
    token_hash: str | None = None
    level: int | None = None
    name: str = "Guest"
    player_id: str | None = None


@dataclass
class GameRecord:
    id: str
    mode: str
    size: int
    rule: str
    status: str
    version: int = 0
    settings: dict[str, Any] = field(default_factory=dict)
    clock: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    takeback_by: str | None = None
    rematch_id: str | None = None
    rematch_of: str | None = None
    offers: dict[str, Any] | None = None
    moves: list[MoveRecord] = field(default_factory=list)
    seats: dict[str, SeatRecord] = field(default_factory=dict)
    created_at: datetime | None = None
    updated_at: datetime | None = None

    @property
    def points(self) -> list[tuple[int, int]]:
        return [(m.x, m.y) for m in self.moves]


# Columns of ``games`` that ``update`` may change.
UPDATABLE = frozenset(
    {"status", "settings", "clock", "result", "takeback_by", "rematch_id", "offers"}
)


def _record(game: Any, moves: Iterable[MoveRecord], seats: Iterable[SeatRecord]) -> GameRecord:
    """A record from a ``games`` row (an ORM object or a Core row) and its moves and seats."""
    return GameRecord(
        id=game.id,
        mode=game.mode,
        size=game.size,
        rule=game.rule,
        status=game.status,
        version=game.version,
        settings=dict(game.settings or {}),
        clock=dict(game.clock) if game.clock else None,
        result=dict(game.result) if game.result else None,
        takeback_by=game.takeback_by,
        rematch_id=game.rematch_id,
        rematch_of=game.rematch_of,
        offers=dict(game.offers) if game.offers else None,
        moves=list(moves),
        seats={seat.color: seat for seat in seats},
        created_at=game.created_at,
        updated_at=game.updated_at,
    )


def _moment(epoch_ms: int) -> datetime:
    return datetime.fromtimestamp(epoch_ms / 1000, UTC)


def _orm_record(game: Game) -> GameRecord:
    return _record(
        game,
        (
            MoveRecord(m.ply, m.x, m.y, m.color, m.eval_score, m.depth, m.nodes, m.think_ms)
            for m in game.moves
        ),
        (
            SeatRecord(s.color, s.kind, s.token_hash, s.level, s.name, s.player_id)
            for s in game.seats
        ),
    )


def _move_values(game_id: str, move: MoveRecord) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "ply": move.ply,
        "x": move.x,
        "y": move.y,
        "color": move.color,
        "created_at": utcnow(),
        "eval_score": move.eval_score,
        "depth": move.depth,
        "nodes": move.nodes,
        "think_ms": move.think_ms,
    }


def _move_row(game_id: str, move: MoveRecord) -> Move:
    return Move(**_move_values(game_id, move))


def make_engine(url: str) -> Engine:
    """An SQLAlchemy engine; SQLite gets WAL and a busy timeout so threads can share it."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL is still safe against crashes of the app; it skips an
            # fsync per commit, and every move is a commit.
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    # Connections beyond the pool's size are closed when handed back, and every new one
    # costs the database a process: keep enough open for a busy server's threads.
    return create_engine(url, pool_pre_ping=True, pool_size=16, max_overflow=16)


def add_missing_columns(engine: Engine) -> None:
    """Add the columns (and their indexes) a database made by an older version lacks
    (``create_all`` makes only missing tables): each is nullable, so old rows read as
    before."""
    for table in (GAMES, SEATS):
        existing = {column["name"] for column in inspect(engine).get_columns(table.name)}
        with engine.begin() as connection:
            for column in table.columns:
                if column.name not in existing and column.nullable:
                    kind = column.type.compile(dialect=engine.dialect)
                    connection.exec_driver_sql(
                        f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}"
                    )
            for index in table.indexes:
                index.create(connection, checkfirst=True)


def _swap_seats(connection: Any, game_id: str) -> None:
    """Exchange everything but the colour between a game's black and white seat rows."""
    rows = {
        row.color: row._mapping
        for row in connection.execute(select(SEATS).where(SEATS.c.game_id == game_id))
    }
    if set(rows) != {"black", "white"}:
        return
    kept = ("game_id", "color")
    for color, other in (("black", "white"), ("white", "black")):
        values = {key: value for key, value in rows[other].items() if key not in kept}
        connection.execute(
            update(SEATS).where(SEATS.c.game_id == game_id, SEATS.c.color == color).values(**values)
        )


class Store:
    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        # SQLite takes one writer at a time and makes the others retry after growing
        # sleeps, which under a burst of moves leaves some waiting for seconds: this
        # process's writers queue on a lock instead. Other databases lock rows themselves.
        self._writing: contextlib.AbstractContextManager[Any] = (
            threading.Lock() if url.startswith("sqlite") else contextlib.nullcontext()
        )
        Base.metadata.create_all(self.engine)
        add_missing_columns(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    @property
    def writing(self) -> contextlib.AbstractContextManager[Any]:
        """Held around every write (on SQLite, this process's writers take turns)."""
        return self._writing

    def _session(self) -> Session:
        return self._sessions()

    # -- reading ------------------------------------------------------------------------

    def load(self, game_id: str) -> GameRecord:
        # Core queries, not the ORM: this runs for every move of every game. The three
        # reads are one snapshot, so the moves and seats are those of the version read:
        # PostgreSQL reads at repeatable read; SQLite's driver only opens a transaction
        # before a write, so one is opened here (ended by the pool's rollback).
        games, moves, seats = GAMES, MOVES, SEATS
        with self.engine.connect() as connection:
            if connection.dialect.name == "postgresql":
                connection = connection.execution_options(isolation_level="REPEATABLE READ")
            elif connection.dialect.name == "sqlite":
                connection.exec_driver_sql("BEGIN")
            game = connection.execute(select(games).where(games.c.id == game_id)).first()
            if game is None:
                raise GameNotFoundError(f"no game {game_id!r}")
            move_rows = connection.execute(
                select(
                    moves.c.ply,
                    moves.c.x,
                    moves.c.y,
                    moves.c.color,
                    moves.c.eval_score,
                    moves.c.depth,
                    moves.c.nodes,
                    moves.c.think_ms,
                )
                .where(moves.c.game_id == game_id)
                .order_by(moves.c.ply)
            ).all()
            seat_rows = connection.execute(
                select(
                    seats.c.color,
                    seats.c.kind,
                    seats.c.token_hash,
                    seats.c.level,
                    seats.c.name,
                    seats.c.player_id,
                )
                .where(seats.c.game_id == game_id)
                .order_by(seats.c.color)
            ).all()
        return _record(
            game, (MoveRecord(*row) for row in move_rows), (SeatRecord(*row) for row in seat_rows)
        )

    def find(self, game_id: str) -> GameRecord | None:
        try:
            return self.load(game_id)
        except GameNotFoundError:
            return None

    def list_games(
        self,
        *,
        status: str | None = None,
        limit: int = 20,
        updated_after_ms: int | None = None,
        played_after_ms: int | None = None,
    ) -> list[GameRecord]:
        """The latest games, newest first; ``updated_after_ms`` (epoch ms) leaves out the
        games nothing happened in since, ``played_after_ms`` those nobody moved in since
        (a game of two engines, which starts itself: nothing happened in since)."""
        query = (
            select(Game)
            .options(selectinload(Game.moves), selectinload(Game.seats))
            .order_by(Game.created_at.desc())
            .limit(limit)
        )
        if status is not None:
            query = query.where(Game.status == status)
        if updated_after_ms is not None:
            query = query.where(Game.updated_at > _moment(updated_after_ms))
        if played_after_ms is not None:
            since = _moment(played_after_ms)
            engines = and_(Game.mode == "aivai", Game.updated_at > since)
            query = query.where(or_(Game.moved_at > since, engines))
        with self._session() as session:
            return [_orm_record(g) for g in session.scalars(query)]

    def finished_games(self, limit: int = 10_000) -> list[GameRecord]:
        """The latest ``limit`` finished games, oldest first, with their seats but without
        their moves: what the player ratings (``ratings``) are computed from."""
        query = (
            select(Game)
            .options(selectinload(Game.seats))
            .where(Game.status == "finished")
            .order_by(Game.updated_at.desc())
            .limit(limit)
        )
        with self._session() as session:
            records = [
                GameRecord(
                    id=g.id,
                    mode=g.mode,
                    size=g.size,
                    rule=g.rule,
                    status=g.status,
                    version=g.version,
                    settings=dict(g.settings or {}),
                    result=dict(g.result) if g.result else None,
                    seats={
                        s.color: SeatRecord(s.color, s.kind, s.token_hash, s.level, s.name)
                        for s in g.seats
                    },
                    created_at=g.created_at,
                    updated_at=g.updated_at,
                )
                for g in session.scalars(query)
            ]
        records.reverse()
        return records

    def active_game_ids(self) -> list[str]:
        return self.game_ids("active")

    def game_ids(self, status: str) -> list[str]:
        """The ids of the games in ``status``."""
        with self._session() as session:
            return list(session.scalars(select(Game.id).where(Game.status == status)))

    def version_of(self, game_id: str) -> int | None:
        """The game's current version (None if there is no such game): a cheap check
        for a long search whether its position is still the game's."""
        with self._session() as session:
            return session.scalar(select(Game.version).where(Game.id == game_id))

    def ai_turns(self) -> list[tuple[str, int, str, int, float]]:
        """Every active game whose side to move is an AI seat, as (id, version, colour,
        level, defence): what the queue workers' watchdog checks is being played."""
        counts = select(Move.game_id, func.count().label("plies")).group_by(Move.game_id).subquery()
        query = (
            select(Game.id, Game.version, Game.settings, counts.c.plies, Seat.color, Seat.level)
            .join(Seat, Seat.game_id == Game.id)
            .outerjoin(counts, counts.c.game_id == Game.id)
            .where(Game.status == "active", Seat.kind == "ai")
        )
        turns = []
        with self._session() as session:
            for game_id, version, settings, plies, color, level in session.execute(query):
                to_move = "black" if (plies or 0) % 2 == 0 else "white"
                if color == to_move:
                    defence = float((settings or {}).get("defence", 1.0))
                    turns.append((game_id, int(version), color, int(level or 3), defence))
        return turns

    # -- writing ------------------------------------------------------------------------

    def create(self, record: GameRecord) -> GameRecord:
        now = utcnow()
        with self._writing, self._session() as session, session.begin():
            game = Game(
                id=record.id,
                mode=record.mode,
                size=record.size,
                rule=record.rule,
                status=record.status,
                version=record.version,
                created_at=now,
                updated_at=now,
                settings=record.settings,
                clock=record.clock,
                result=record.result,
                takeback_by=record.takeback_by,
                rematch_id=record.rematch_id,
                rematch_of=record.rematch_of,
                offers=record.offers,
            )
            session.add(game)
            session.flush()
            session.add_all(_move_row(record.id, m) for m in record.moves)
            session.add_all(
                Seat(
                    game_id=record.id,
                    color=s.color,
                    kind=s.kind,
                    token_hash=s.token_hash,
                    level=s.level,
                    name=s.name,
                    player_id=s.player_id,
                )
                for s in record.seats.values()
            )
        return self.load(record.id)

    def update(
        self,
        game_id: str,
        expected_version: int,
        *,
        changes: dict[str, Any] | None = None,
        truncate_to: int | None = None,
        add_moves: Iterable[MoveRecord] = (),
        seat_tokens: dict[str, str] | None = None,
        seat_holders: dict[str, tuple[str | None, str]] | None = None,
        swap_seats: bool = False,
    ) -> int:
        """Apply a change if the game is still at ``expected_version``; return the new
        version. ``truncate_to`` keeps only the first that many moves (undo);
        ``seat_tokens`` binds free seats to token hashes, ``seat_holders`` names who took
        them (person id and display name, see ``players.identity``); ``swap_seats``
        exchanges who sits at black and at white (an opening's swap). Raise ``StaleVersionError``
        (and write nothing) if another writer got there first."""
        changes = dict(changes or {})
        unknown = set(changes) - UPDATABLE
        if unknown:
            raise ValueError(f"cannot update game columns {sorted(unknown)}")
        games, moves, seats = GAMES, MOVES, SEATS
        rows = [_move_values(game_id, m) for m in add_moves]
        now = utcnow()
        if rows:
            changes["moved_at"] = now
        with self._writing, self.engine.begin() as connection:
            outcome = connection.execute(
                update(games)
                .where(games.c.id == game_id, games.c.version == expected_version)
                .values(version=games.c.version + 1, updated_at=now, **changes)
            )
            if outcome.rowcount != 1:
                if connection.execute(select(games.c.id).where(games.c.id == game_id)).first():
                    raise StaleVersionError(
                        f"game {game_id} changed since version {expected_version}"
                    )
                raise GameNotFoundError(f"no game {game_id!r}")
            if truncate_to is not None:
                connection.execute(
                    delete(moves).where(moves.c.game_id == game_id, moves.c.ply > truncate_to)
                )
            if rows:
                connection.execute(insert(moves), rows)
            holders = seat_holders or {}
            for color, token_hash in (seat_tokens or {}).items():
                holder: dict[str, Any] = {}
                if color in holders:
                    holder = {"player_id": holders[color][0], "name": holders[color][1]}
                claimed = connection.execute(
                    update(seats)
                    .where(
                        seats.c.game_id == game_id,
                        seats.c.color == color,
                        seats.c.token_hash.is_(None),
                    )
                    .values(token_hash=token_hash, **holder)
                )
                if claimed.rowcount != 1:
                    raise StaleVersionError(f"the {color} seat of {game_id} is taken")
            if swap_seats:
                _swap_seats(connection, game_id)
        return expected_version + 1
