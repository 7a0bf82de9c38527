"""The board: stones, whose turn it is, the rules, and the result.

``Board`` is the plain-Python value that every part of the product passes around: the
web app validates moves with it, the Gomocup adapter rebuilds positions with it, and the
searchers read it before they copy it into their compiled state. ``push`` and ``pop``
play and take back moves; the result is found incrementally by looking only at the four
lines through the last move. Renju's forbidden points are found by ``renju`` beside it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from engine.game import renju
from engine.game.color import Color
from engine.game.errors import GameOverError, IllegalMoveError, InvalidBoardError
from engine.game.points import MAX_SIZE, MIN_SIZE, Point, point_name
from engine.game.rules import Rule

DIRECTIONS: tuple[Point, ...] = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winner`` is None for a draw (a full board)."""

    winner: Color | None
    reason: str  # "five", "forbidden" or "full"
    line: tuple[Point, ...] = ()


class Board:
    """A Gomoku position with its move history.

    Moves are validated: ``push`` raises ``IllegalMoveError`` for an occupied or off-board
    point and ``GameOverError`` after the game ended. In renju a forbidden black move is
    legal to play but loses at once, as the rule says."""

    def __init__(self, size: int = 15, rule: Rule | str = Rule.FREESTYLE) -> None:
        if isinstance(size, bool) or not isinstance(size, int):
            raise InvalidBoardError(f"board size must be an integer, not {size!r}")
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise InvalidBoardError(
                f"board size {size} is not supported: use {MIN_SIZE} to {MAX_SIZE}"
            )
        self.size = size
        self.rule = Rule.from_name(rule)
        self._grid: list[list[int]] = [[0] * size for _ in range(size)]
        self._moves: list[Point] = []
        self._outcome: Outcome | None = None

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_moves(
        cls, moves: Iterable[Point], *, size: int = 15, rule: Rule | str = Rule.FREESTYLE
    ) -> Board:
        board = cls(size, rule)
        for move in moves:
            board.push(move)
        return board

    def copy(self) -> Board:
        other = Board(self.size, self.rule)
        other._grid = [row[:] for row in self._grid]
        other._moves = self._moves[:]
        other._outcome = self._outcome
        return other

    # -- reading ------------------------------------------------------------------------

    @property
    def moves(self) -> list[Point]:
        """The moves played so far, black first (a copy)."""
        return self._moves[:]

    @property
    def move_count(self) -> int:
        return len(self._moves)

    @property
    def turn(self) -> Color:
        return Color.BLACK if len(self._moves) % 2 == 0 else Color.WHITE

    def on_board(self, point: Point) -> bool:
        x, y = point
        return 0 <= x < self.size and 0 <= y < self.size

    def stone_at(self, point: Point) -> Color | None:
        x, y = point
        value = self._grid[y][x]
        return Color(value) if value else None

    def cell(self, x: int, y: int) -> int:
        """The raw cell code: 0 empty, 1 black, 2 white (``x``, ``y`` must be on the board)."""
        return self._grid[y][x]

    def peek(self) -> Point | None:
        return self._moves[-1] if self._moves else None

    def empty_points(self) -> Iterator[Point]:
        for y in range(self.size):
            row = self._grid[y]
            for x in range(self.size):
                if not row[x]:
                    yield (x, y)

    def is_empty(self) -> bool:
        return not self._moves

    def outcome(self) -> Outcome | None:
        """The result if the game has ended, else None."""
        return self._outcome

    def is_game_over(self) -> bool:
        return self._outcome is not None

    def is_forbidden(self, point: Point) -> bool:
        """Whether black may not play this empty point under renju (always False otherwise)."""
        if not self.rule.has_forbidden or not self.on_board(point):
            return False
        x, y = point
        if self._grid[y][x]:
            return False
        return renju.is_forbidden(self._grid, self.size, x, y)

    def forbidden_points(self) -> list[Point]:
        """The empty points forbidden to black, for the board to show. Empty unless the
        rule is renju."""
        if not self.rule.has_forbidden:
            return []
        return [
            (x, y)
            for (x, y) in self.empty_points()
            if renju.is_forbidden(self._grid, self.size, x, y)
        ]

    def legal_moves(self) -> list[Point]:
        """Empty points the side to move may play without losing on a forbidden move."""
        if self._outcome is not None:
            return []
        points = list(self.empty_points())
        if self.rule.has_forbidden and self.turn is Color.BLACK:
            forbidden = set(self.forbidden_points())
            points = [p for p in points if p not in forbidden]
        return points

    def check_move(self, point: Point) -> None:
        """Raise ``IllegalMoveError`` (or ``GameOverError``) if ``point`` cannot be played."""
        if self._outcome is not None:
            raise GameOverError("the game is over: no more moves can be played")
        if (
            not isinstance(point, tuple | list)
            or len(point) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in point)
        ):
            raise IllegalMoveError(f"a move must be a pair of integers x,y, not {point!r}")
        x, y = point
        if not self.on_board((x, y)):
            raise IllegalMoveError(f"{x},{y} is off the {self.size}x{self.size} board")
        if self._grid[y][x]:
            raise IllegalMoveError(f"{point_name((x, y), self.size)} ({x},{y}) is already occupied")

    # -- playing ------------------------------------------------------------------------

    def push(self, point: Point) -> None:
        """Play ``point`` for the side to move."""
        self.check_move(point)
        x, y = int(point[0]), int(point[1])
        color = self.turn
        forbidden = (
            self.rule.has_forbidden
            and color is Color.BLACK
            and renju.is_forbidden(self._grid, self.size, x, y)
        )
        self._grid[y][x] = int(color)
        self._moves.append((x, y))
        if forbidden:
            self._outcome = Outcome(Color.WHITE, "forbidden", ((x, y),))
            return
        line = self._five_through(x, y, color)
        if line:
            self._outcome = Outcome(color, "five", line)
        elif len(self._moves) == self.size * self.size:
            self._outcome = Outcome(None, "full")

    def pop(self) -> Point:
        """Take back the last move and return it."""
        if not self._moves:
            raise IllegalMoveError("there is no move to take back")
        x, y = self._moves.pop()
        self._grid[y][x] = 0
        self._outcome = None
        return (x, y)

    def _five_through(self, x: int, y: int, color: Color) -> tuple[Point, ...]:
        exact = self.rule.exact_five(color is Color.BLACK)
        for dx, dy in DIRECTIONS:
            run = [(x, y)]
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while self.on_board((cx, cy)) and self._grid[cy][cx] == color:
                    run.append((cx, cy))
                    cx, cy = cx + sign * dx, cy + sign * dy
            if len(run) == 5 or (len(run) > 5 and not exact):
                return tuple(sorted(run))
        return ()

    # -- display ------------------------------------------------------------------------

    def __str__(self) -> str:
        marks = {0: ".", 1: "X", 2: "O"}
        return "\n".join(" ".join(marks[v] for v in row) for row in self._grid)

    def __repr__(self) -> str:
        return f"Board(size={self.size}, rule={self.rule.value!r}, moves={self._moves!r})"
