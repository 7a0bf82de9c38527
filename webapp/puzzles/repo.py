"""Puzzles, puzzle ratings and attempts in the database (tables in
``storage.puzzle_tables``, read with Core queries whose rows carry the columns by name),
and the finished games the miner reads. Values leave as plain dataclasses; a finished
attempt changes the ratings once (a compare-and-set on the attempt's ``finished_at``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, func, insert, select, update

from engine.tools.puzzles.miner import GameRecord
from engine.tools.puzzles.puzzle import Puzzle
from webapp.players.glicko2 import INITIAL_VOLATILITY, Glicko2Rating
from webapp.storage.puzzle_tables import PuzzleAttemptRow, PuzzlePlayerRow, PuzzleRow
from webapp.storage.tables import Game, Move

PUZZLE_RD = 200.0  # a new puzzle's rating starts from its mined difficulty, fairly sure


@dataclass(frozen=True)
class StoredPuzzle:
    id: int
    puzzle: Puzzle
    rating: Glicko2Rating
    attempts: int
    solved: int


@dataclass(frozen=True)
class PuzzlePlayer:
    visitor: str
    rating: Glicko2Rating
    streak: int = 0
    best_streak: int = 0
    attempts: int = 0
    solved: int = 0


@dataclass(frozen=True)
class Attempt:
    id: int
    visitor: str
    puzzle_id: int
    played: list[tuple[int, int]]
    line: list[tuple[int, int]]
    solved: bool | None
    finished: bool


def _points(values: Iterable[Any]) -> list[tuple[int, int]]:
    return [(int(p[0]), int(p[1])) for p in values]


def _stored(row: Any) -> StoredPuzzle:
    puzzle = Puzzle.from_json(
        {
            "key": row.key,
            "size": row.size,
            "rule": row.rule,
            "moves": row.moves,
            "goal": row.goal,
            "kind": row.kind,
            "solution": row.solution,
            "plies": row.plies,
            "nodes": row.nodes,
            "difficulty": row.difficulty,
            "source": row.source,
        }
    )
    rating = Glicko2Rating(row.rating, row.rd, row.volatility)
    return StoredPuzzle(row.id, puzzle, rating, row.attempts, row.solved)


def _attempt(row: Any) -> Attempt:
    return Attempt(
        row.id,
        row.visitor,
        row.puzzle_id,
        _points(row.played or []),
        _points(row.line or []),
        row.solved,
        row.finished_at is not None,
    )


class PuzzleRepo:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        for table in (PuzzleRow, PuzzlePlayerRow, PuzzleAttemptRow):
            table.__table__.create(engine, checkfirst=True)  # type: ignore[attr-defined]

    # -- puzzles ------------------------------------------------------------------------

    def count(self) -> int:
        with self.engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(PuzzleRow)).scalar_one())

    def keys(self) -> set[str]:
        with self.engine.connect() as connection:
            return set(connection.scalars(select(PuzzleRow.key)))

    def add(self, puzzles: Iterable[Puzzle]) -> int:
        """Store the puzzles whose key is new; returns how many were added."""
        known = self.keys()
        rows = []
        for puzzle in puzzles:
            if puzzle.key in known:
                continue
            known.add(puzzle.key)
            data = puzzle.to_json()
            rows.append(
                {
                    **data,
                    "difficulty": puzzle.difficulty,
                    "rating": puzzle.difficulty,
                    "rd": PUZZLE_RD,
                    "volatility": INITIAL_VOLATILITY,
                    "attempts": 0,
                    "solved": 0,
                    "created_at": datetime.now(UTC),
                }
            )
        if rows:
            with self.engine.begin() as connection:
                connection.execute(insert(PuzzleRow), rows)
        return len(rows)

    def get(self, puzzle_id: int) -> StoredPuzzle | None:
        with self.engine.connect() as connection:
            row = connection.execute(select(PuzzleRow).where(PuzzleRow.id == puzzle_id)).first()
        return None if row is None else _stored(row)

    def near(self, rating: float, exclude: set[int], limit: int = 8) -> list[StoredPuzzle]:
        """Up to ``limit`` puzzles rated nearest ``rating``, leaving out ``exclude``."""
        query = select(PuzzleRow).order_by(func.abs(PuzzleRow.rating - rating), PuzzleRow.id)
        if exclude:
            query = query.where(PuzzleRow.id.not_in(sorted(exclude)))
        with self.engine.connect() as connection:
            rows = connection.execute(query.limit(limit)).all()
        return [_stored(r) for r in rows]

    # -- players ------------------------------------------------------------------------

    def player(self, visitor: str) -> PuzzlePlayer:
        with self.engine.connect() as connection:
            row = connection.execute(
                select(PuzzlePlayerRow).where(PuzzlePlayerRow.visitor == visitor)
            ).first()
        if row is None:
            return PuzzlePlayer(visitor, Glicko2Rating())
        found = row
        return PuzzlePlayer(
            visitor,
            Glicko2Rating(found.rating, found.rd, found.volatility),
            found.streak,
            found.best_streak,
            found.attempts,
            found.solved,
        )

    # -- attempts -----------------------------------------------------------------------

    def start_attempt(self, visitor: str, puzzle: StoredPuzzle) -> Attempt:
        line = [list(p) for p in puzzle.puzzle.solution]
        with self.engine.begin() as connection:
            result = connection.execute(
                insert(PuzzleAttemptRow).values(
                    visitor=visitor,
                    puzzle_id=puzzle.id,
                    played=[],
                    line=line,
                    started_at=datetime.now(UTC),
                )
            )
            key = result.inserted_primary_key
        assert key is not None
        return Attempt(int(key[0]), visitor, puzzle.id, [], _points(line), None, False)

    def attempt(self, attempt_id: int) -> Attempt | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                select(PuzzleAttemptRow).where(PuzzleAttemptRow.id == attempt_id)
            ).first()
        return None if row is None else _attempt(row)

    def attempted_ids(self, visitor: str) -> set[int]:
        with self.engine.connect() as connection:
            return set(
                connection.scalars(
                    select(PuzzleAttemptRow.puzzle_id).where(PuzzleAttemptRow.visitor == visitor)
                )
            )

    def open_attempt(self, visitor: str) -> Attempt | None:
        """The visitor's latest unfinished attempt, if any."""
        query = (
            select(PuzzleAttemptRow)
            .where(PuzzleAttemptRow.visitor == visitor, PuzzleAttemptRow.finished_at.is_(None))
            .order_by(PuzzleAttemptRow.id.desc())
            .limit(1)
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else _attempt(row)

    def save_progress(
        self, attempt_id: int, played: list[tuple[int, int]], line: list[tuple[int, int]]
    ) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                update(PuzzleAttemptRow)
                .where(PuzzleAttemptRow.id == attempt_id, PuzzleAttemptRow.finished_at.is_(None))
                .values(played=[list(p) for p in played], line=[list(p) for p in line])
            )

    def finish(
        self,
        attempt: Attempt,
        played: list[tuple[int, int]],
        solved: bool,
        player: PuzzlePlayer,
        puzzle_rating: Glicko2Rating,
    ) -> bool:
        """End ``attempt`` and write the new ratings, in one transaction, unless it has
        already ended (then nothing changes and the answer is False)."""
        now = datetime.now(UTC)
        with self.engine.begin() as connection:
            ended = connection.execute(
                update(PuzzleAttemptRow)
                .where(PuzzleAttemptRow.id == attempt.id, PuzzleAttemptRow.finished_at.is_(None))
                .values(played=[list(p) for p in played], solved=solved, finished_at=now)
            )
            if ended.rowcount != 1:
                return False
            connection.execute(
                update(PuzzleRow)
                .where(PuzzleRow.id == attempt.puzzle_id)
                .values(
                    rating=puzzle_rating.rating,
                    rd=puzzle_rating.rd,
                    volatility=puzzle_rating.volatility,
                    attempts=PuzzleRow.attempts + 1,
                    solved=PuzzleRow.solved + (1 if solved else 0),
                )
            )
            values = {
                "rating": player.rating.rating,
                "rd": player.rating.rd,
                "volatility": player.rating.volatility,
                "streak": player.streak,
                "best_streak": player.best_streak,
                "attempts": player.attempts,
                "solved": player.solved,
                "updated_at": now,
            }
            changed = connection.execute(
                update(PuzzlePlayerRow)
                .where(PuzzlePlayerRow.visitor == player.visitor)
                .values(**values)
            )
            if changed.rowcount == 0:
                connection.execute(insert(PuzzlePlayerRow).values(visitor=player.visitor, **values))
        return True

    # -- games to mine ------------------------------------------------------------------

    def finished_games(self, limit: int = 10_000) -> list[GameRecord]:
        """The moves of the latest ``limit`` finished games, for the miner."""
        with self.engine.connect() as connection:
            games = connection.execute(
                select(Game.id, Game.size, Game.rule)
                .where(Game.status == "finished")
                .order_by(Game.updated_at.desc())
                .limit(limit)
            ).all()
            records = []
            for game_id, size, rule in games:
                moves = connection.execute(
                    select(Move.x, Move.y).where(Move.game_id == game_id).order_by(Move.ply)
                ).all()
                records.append(
                    GameRecord(int(size), str(rule), [(int(x), int(y)) for x, y in moves], "site")
                )
        return records
