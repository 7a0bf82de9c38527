"""Solving puzzles: the next puzzle near the visitor's rating, a move checked against the
forced line (or, when it leaves the line, re-checked live by ``checker``), the
defender's reply, the end of an attempt with both Glicko-2 ratings updated once, and
the views the page receives. The visitor's id comes from the caller (``routes``)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.game.board import Board
from engine.game.color import Color
from engine.game.errors import GomokuError
from engine.game.points import Point
from engine.tools.puzzles.puzzle import Goal
from webapp.players.glicko2 import GameResult, Glicko2Rating, update
from webapp.puzzles.checker import LiveChecker
from webapp.puzzles.repo import Attempt, PuzzlePlayer, PuzzleRepo, StoredPuzzle

NEAREST = 3  # the next puzzle is drawn from this many nearest the visitor's rating


class PuzzleError(ValueError):
    """A request the puzzle service refuses; nothing changed. ``status`` is the HTTP code."""

    def __init__(self, message: str, code: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status


@dataclass(frozen=True)
class Outcome:
    """What one move did: ``status`` is ``continue``, ``solved`` or ``failed``."""

    status: str
    reply: Point | None
    refutation: list[Point]


def _points(points: list[Point]) -> list[list[int]]:
    return [[x, y] for x, y in points]


def _rating_json(rating: Glicko2Rating) -> dict[str, Any]:
    return {
        "rating": round(rating.rating),
        "rd": round(rating.rd),
        "provisional": rating.provisional,
    }


class PuzzleService:
    def __init__(
        self, repo: PuzzleRepo, checker: LiveChecker, rng: random.Random | None = None
    ) -> None:
        self.repo = repo
        self.checker = checker
        self.rng = rng or random.Random()

    # -- views ----------------------------------------------------------------------------

    def player_json(self, player: PuzzlePlayer) -> dict[str, Any]:
        return {
            **_rating_json(player.rating),
            "streak": player.streak,
            "best_streak": player.best_streak,
            "attempts": player.attempts,
            "solved": player.solved,
        }

    def attempt_json(self, attempt: Attempt, stored: StoredPuzzle) -> dict[str, Any]:
        puzzle = stored.puzzle
        to_move = Color.BLACK if len(puzzle.moves) % 2 == 0 else Color.WHITE
        view: dict[str, Any] = {
            "attempt": attempt.id,
            "puzzle": {
                "id": stored.id,
                "size": puzzle.size,
                "rule": puzzle.rule,
                "moves": _points(puzzle.moves),
                "goal": puzzle.goal.value,
                "kind": puzzle.kind.value,
                "to_move": to_move.name.lower(),
                "plies": puzzle.plies,
                **_rating_json(stored.rating),
                "attempts": stored.attempts,
                "solved": stored.solved,
            },
            "played": _points(attempt.played),
            "finished": attempt.finished,
        }
        if attempt.finished:
            view["solution"] = _points(puzzle.solution)
            view["solved"] = attempt.solved
        return view

    # -- choosing -------------------------------------------------------------------------

    def next_attempt(self, visitor: str) -> dict[str, Any]:
        """The visitor's open attempt (a reload resumes it), else a new one at a puzzle
        near their rating that they have not tried (any, once they have tried all)."""
        open_attempt = self.repo.open_attempt(visitor)
        if open_attempt is not None:
            stored = self.repo.get(open_attempt.puzzle_id)
            if stored is not None:
                return self._with_player(visitor, self.attempt_json(open_attempt, stored))
        player = self.repo.player(visitor)
        tried = self.repo.attempted_ids(visitor)
        candidates = self.repo.near(player.rating.rating, tried) or self.repo.near(
            player.rating.rating, set()
        )
        if not candidates:
            raise PuzzleError("there are no puzzles yet", "no_puzzles", 404)
        stored = self.rng.choice(candidates[:NEAREST])
        attempt = self.repo.start_attempt(visitor, stored)
        return self._with_player(visitor, self.attempt_json(attempt, stored))

    def _with_player(self, visitor: str, view: dict[str, Any]) -> dict[str, Any]:
        view["player"] = self.player_json(self.repo.player(visitor))
        return view

    # -- solving --------------------------------------------------------------------------

    def _open(self, visitor: str, attempt_id: int) -> tuple[Attempt, StoredPuzzle]:
        attempt = self.repo.attempt(attempt_id)
        if attempt is None or attempt.visitor != visitor:
            raise PuzzleError("there is no such attempt", "no_attempt", 404)
        if attempt.finished:
            raise PuzzleError("this attempt is over: ask for the next puzzle", "finished", 409)
        stored = self.repo.get(attempt.puzzle_id)
        if stored is None:
            raise PuzzleError("there is no such puzzle", "no_puzzle", 404)
        return attempt, stored

    def play(self, visitor: str, attempt_id: int, move: Point) -> dict[str, Any]:
        """Play the visitor's ``move`` in their attempt; the answer says whether it goes
        on (with the defender's reply), is solved, or failed (with the solution)."""
        attempt, stored = self._open(visitor, attempt_id)
        puzzle = stored.puzzle
        board = Board.from_moves(puzzle.moves + attempt.played, size=puzzle.size, rule=puzzle.rule)
        if move not in board.legal_moves():
            raise PuzzleError(f"{list(move)} is not a legal move here", "illegal_move")
        if puzzle.goal is Goal.WIN:
            outcome, line = self._attack(board, move, attempt.line)
        else:
            outcome, line = self._defend(board, move, puzzle.solution[0]), []
        played = [*attempt.played, move]
        if outcome.reply is not None:
            played.append(outcome.reply)
        if outcome.status == "continue":
            self.repo.save_progress(attempt.id, played, line)
            view = self.attempt_json(
                Attempt(attempt.id, visitor, stored.id, played, line, None, False), stored
            )
            view.update({"status": "continue", "reply": list(outcome.reply or ())})
            return self._with_player(visitor, view)
        return self._finish(attempt, stored, played, outcome)

    def _attack(self, board: Board, move: Point, line: list[Point]) -> tuple[Outcome, list[Point]]:
        """The visitor attacks: the stored line's move, or any move still proven to win."""
        if line and move == line[0]:
            rest = line[1:]
        else:
            win = self.checker.move_wins(board, move)
            if win is None:
                return Outcome("failed", None, []), []
            rest = win.line[1:]
        board.push(move)
        if board.is_game_over() or not rest:
            return Outcome("solved", None, []), []
        reply = rest[0]
        try:
            board.push(reply)
        except GomokuError:
            return Outcome("solved", None, []), []
        return Outcome("continue", reply, []), rest[1:]

    def _defend(self, board: Board, move: Point, holding: Point) -> Outcome:
        """The visitor defends: only the mined holding move does (every other one was
        proven to lose); after another, the opponent's win is shown if found live."""
        board.push(move)
        if move == holding or board.is_game_over():
            return Outcome("solved", None, [])
        win = self.checker.winning_line(board)
        return Outcome("failed", None, win.line if win is not None else [])

    def resign(self, visitor: str, attempt_id: int) -> dict[str, Any]:
        """Give up: the attempt fails and the solution is shown."""
        attempt, stored = self._open(visitor, attempt_id)
        return self._finish(attempt, stored, attempt.played, Outcome("failed", None, []))

    def _finish(
        self, attempt: Attempt, stored: StoredPuzzle, played: list[Point], outcome: Outcome
    ) -> dict[str, Any]:
        solved = outcome.status == "solved"
        player = self.repo.player(attempt.visitor)
        new_rating = update(player.rating, [GameResult(stored.rating, 1.0 if solved else 0.0)])
        puzzle_rating = update(stored.rating, [GameResult(player.rating, 0.0 if solved else 1.0)])
        streak = player.streak + 1 if solved else 0
        after = PuzzlePlayer(
            attempt.visitor,
            new_rating,
            streak,
            max(player.best_streak, streak),
            player.attempts + 1,
            player.solved + (1 if solved else 0),
        )
        if not self.repo.finish(attempt, played, solved, after, puzzle_rating):
            raise PuzzleError("this attempt is over: ask for the next puzzle", "finished", 409)
        done = Attempt(attempt.id, attempt.visitor, stored.id, played, [], solved, True)
        view = self.attempt_json(done, stored)
        view.update(
            {
                "status": outcome.status,
                "reply": list(outcome.reply) if outcome.reply else [],
                "refutation": _points(outcome.refutation),
                "change": round(new_rating.rating - player.rating.rating),
                "player": self.player_json(after),
            }
        )
        view["puzzle"].update(_rating_json(puzzle_rating))
        return view
