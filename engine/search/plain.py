"""A plain-Python negamax with alpha-beta: the reference the benchmark measures us against.

It searches the way the project's seed posts do (seed 000): every empty point next to a
stone is a candidate, candidates nearer the centre first, and a leaf is scored by scanning
the whole board, here counting each five-cell window that holds stones of one colour
only. No tables, no compilation, no pruning beyond alpha-beta. ``engine.tools.bench`` runs it
and the compiled ``engine.search.Searcher`` at the same depth on the same positions."""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.game.board import Board
from engine.game.errors import GameOverError
from engine.game.points import Point

WIN_SCORE = 1_000_000
# Score of a five-cell window holding k stones of one colour and none of the other.
WINDOW_SCORES = (0, 1, 10, 100, 1000, WIN_SCORE)
DIRECTIONS: tuple[Point, ...] = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass(frozen=True)
class PlainResult:
    move: Point
    score: int
    depth: int
    nodes: int
    time: float


class PlainSearcher:
    """Fixed-depth negamax over a list-of-lists grid (0 empty, 1 black, 2 white)."""

    def __init__(self) -> None:
        self.nodes = 0
        self._size = 15
        self._grid: list[list[int]] = []
        self._windows: list[list[Point]] = []

    def search(self, board: Board, depth: int) -> PlainResult:
        if board.is_game_over():
            raise GameOverError("the game is over: there is nothing to search")
        if depth < 1:
            raise ValueError("depth must be at least 1")
        start = time.perf_counter()
        self.nodes = 0
        self._size = board.size
        self._grid = [[board.cell(x, y) for x in range(board.size)] for y in range(board.size)]
        self._windows = self._all_windows(board.size)
        color = int(board.turn)
        best_move: Point | None = None
        alpha, beta = -WIN_SCORE - 1, WIN_SCORE + 1
        for move in self._candidates():
            x, y = move
            self._grid[y][x] = color
            if self._five_through(x, y, color):
                score = WIN_SCORE
            else:
                score = -self._negamax(3 - color, depth - 1, -beta, -alpha)
            self._grid[y][x] = 0
            if best_move is None or score > alpha:
                alpha, best_move = score, move
        if best_move is None:
            best_move = board.legal_moves()[0]
        return PlainResult(best_move, alpha, depth, self.nodes, time.perf_counter() - start)

    def _negamax(self, color: int, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if depth == 0:
            return self._evaluate(color)
        candidates = self._candidates()
        if not candidates:
            return 0
        for x, y in candidates:
            self._grid[y][x] = color
            if self._five_through(x, y, color):
                score = WIN_SCORE
            else:
                score = -self._negamax(3 - color, depth - 1, -beta, -alpha)
            self._grid[y][x] = 0
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
        return alpha

    def _candidates(self) -> list[Point]:
        size, grid = self._size, self._grid
        centre = size // 2
        found: list[tuple[int, Point]] = []
        for y in range(size):
            for x in range(size):
                if grid[y][x]:
                    continue
                near = False
                for ny in range(max(0, y - 1), min(size, y + 2)):
                    row = grid[ny]
                    for nx in range(max(0, x - 1), min(size, x + 2)):
                        if row[nx]:
                            near = True
                            break
                    if near:
                        break
                if near:
                    found.append((max(abs(x - centre), abs(y - centre)), (x, y)))
        if not found:
            return [(centre, centre)] if not grid[centre][centre] else []
        found.sort()
        return [p for _, p in found]

    def _evaluate(self, color: int) -> int:
        grid = self._grid
        totals = [0, 0, 0]
        for window in self._windows:
            black = white = 0
            for x, y in window:
                v = grid[y][x]
                if v == 1:
                    black += 1
                elif v == 2:
                    white += 1
            if black and not white:
                totals[1] += WINDOW_SCORES[black]
            elif white and not black:
                totals[2] += WINDOW_SCORES[white]
        return totals[color] - totals[3 - color]

    def _five_through(self, x: int, y: int, color: int) -> bool:
        size, grid = self._size, self._grid
        for dx, dy in DIRECTIONS:
            run = 1
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while 0 <= cx < size and 0 <= cy < size and grid[cy][cx] == color:
                    run += 1
                    cx, cy = cx + sign * dx, cy + sign * dy
            if run >= 5:
                return True
        return False

    @staticmethod
    def _all_windows(size: int) -> list[list[Point]]:
        windows: list[list[Point]] = []
        for y in range(size):
            for x in range(size):
                for dx, dy in DIRECTIONS:
                    end_x, end_y = x + 4 * dx, y + 4 * dy
                    if 0 <= end_x < size and 0 <= end_y < size:
                        windows.append([(x + k * dx, y + k * dy) for k in range(5)])
        return windows
