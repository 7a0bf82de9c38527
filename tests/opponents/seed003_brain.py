"""Seed 003's AI as a Gomocup brain: negamax alpha-beta at depth 2 (a test opponent).

Follows the blog post's ``ai``/``backtrack``: candidates are the empty points with a stone
next to them, the neighbours of the last move searched first (``order``); a leaf is scored
by ``evaluation``, which matches the post's ``shape_score`` table on every stone's four
lines (``cal_score``, one best shape per line, doubled where shapes cross) and returns
own score minus the opponent's times ``ratio * 0.1``. Stone lists become sets and the
five check looks only through the stones the search placed, which gives the same answers
faster. A deadline from ``INFO timeout_turn`` is the only addition. Run as
``python tests/opponents/seed003_brain.py [--ratio R]``."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import contextlib

from protocol_loop import Grid, Point, SearchTimeout, run

DEPTH = 2
RATIO = 1.0
SHAPE_SCORE: list[tuple[int, tuple[int, ...]]] = [
    (50, (0, 1, 1, 0, 0)),
    (50, (0, 0, 1, 1, 0)),
    (200, (1, 1, 0, 1, 0)),
    (500, (0, 0, 1, 1, 1)),
    (500, (1, 1, 1, 0, 0)),
    (5000, (0, 1, 1, 1, 0)),
    (5000, (0, 1, 0, 1, 1, 0)),
    (5000, (0, 1, 1, 0, 1, 0)),
    (5000, (1, 1, 1, 0, 1)),
    (5000, (1, 1, 0, 1, 1)),
    (5000, (1, 0, 1, 1, 1)),
    (5000, (1, 1, 1, 1, 0)),
    (5000, (0, 1, 1, 1, 1)),
    (500000, (0, 1, 1, 1, 1, 0)),
    (99999999, (1, 1, 1, 1, 1)),
]
Shape = tuple[int, tuple[Point, ...], Point]


class Seed003:
    def __init__(self, size: int, ratio: float) -> None:
        self.size = size
        self.ratio = ratio
        self.all_points = [(i, j) for i in range(size) for j in range(size)]
        self.ai: set[Point] = set()
        self.human: set[Point] = set()
        self.order_list: list[Point] = []  # ai + human stones in play order
        self.best: Point | None = None
        self.deadline = float("inf")
        self.search_count = 0

    # -- the search (backtrack) ---------------------------------------------------------

    def ai_move(self, grid: Grid, history: list[Point], deadline: float) -> Point:
        self.ai = {(x, y) for y, row in enumerate(grid) for x, v in enumerate(row) if v == 1}
        self.human = {(x, y) for y, row in enumerate(grid) for x, v in enumerate(row) if v == 2}
        self.order_list = list(history)
        self.best = None
        self.deadline = deadline
        with contextlib.suppress(SearchTimeout):
            self.backtrack(True, DEPTH, -99999999, 99999999)
        if self.best is None:
            blank = [p for p in self.all_points if p not in self.ai and p not in self.human]
            self.order(blank)
            near = [p for p in blank if self.has_neighbour(p)]
            self.best = (near or blank)[0]
        return self.best

    def backtrack(self, is_me: bool, depth: int, alpha: float, beta: float) -> float:
        if time.perf_counter() > self.deadline:
            raise SearchTimeout
        if self.placed_five() or depth == 0:
            return self.evaluation(is_me)
        taken = self.ai | self.human
        blank = [p for p in self.all_points if p not in taken]
        self.order(blank)
        for step in blank:
            self.search_count += 1
            if not self.has_neighbour(step):
                continue
            mine = self.ai if is_me else self.human
            mine.add(step)
            self.order_list.append(step)
            try:
                value = -self.backtrack(not is_me, depth - 1, -beta, -alpha)
            finally:
                mine.discard(step)
                self.order_list.pop()
            if value > alpha:
                if depth == DEPTH:
                    self.best = step
                if value >= beta:
                    return beta
                alpha = value
        return alpha

    def order(self, blank: list[Point]) -> None:
        """Search the neighbours of the last move first, as the post's ``order`` does."""
        if not self.order_list:
            return
        lx, ly = self.order_list[-1]
        for i in range(-1, 2):
            for j in range(-1, 2):
                if i == 0 and j == 0:
                    continue
                p = (lx + i, ly + j)
                if p in blank:
                    blank.remove(p)
                    blank.insert(0, p)

    def has_neighbour(self, p: Point) -> bool:
        for i in range(-1, 2):
            for j in range(-1, 2):
                if i == 0 and j == 0:
                    continue
                q = (p[0] + i, p[1] + j)
                if q in self.ai or q in self.human:
                    return True
        return False

    def placed_five(self) -> bool:
        """``is_win(list_ai) or is_win(list_human)``: the position at the root has no five,
        so only lines through stones placed by the search need looking at."""
        for p in self.order_list[len(self.order_list) - DEPTH :]:
            stones = self.ai if p in self.ai else self.human
            for dx, dy in ((0, 1), (1, 0), (1, 1), (1, -1)):
                run_length = 1
                for sign in (1, -1):
                    k = 1
                    while (p[0] + sign * k * dx, p[1] + sign * k * dy) in stones:
                        run_length += 1
                        k += 1
                if run_length >= 5:
                    return True
        return False

    # -- the evaluation ---------------------------------------------------------------

    def evaluation(self, is_me: bool) -> float:
        my, enemy = (self.ai, self.human) if is_me else (self.human, self.ai)
        my_score = self.side_score(my, enemy)
        enemy_score = self.side_score(enemy, my)
        return my_score - enemy_score * self.ratio * 0.1

    def side_score(self, my: set[Point], enemy: set[Point]) -> int:
        shapes: list[Shape] = []
        total = 0
        for m, n in my:
            for d in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                total += self.cal_score(m, n, d, enemy, my, shapes)
        return total

    def cal_score(
        self, m: int, n: int, d: Point, enemy: set[Point], my: set[Point], shapes: list[Shape]
    ) -> int:
        dx, dy = d
        for _, points, direction in shapes:
            if direction == d and (m, n) in points:
                return 0
        best: tuple[int, tuple[Point, ...] | None] = (0, None)
        for offset in range(-5, 1):
            pos = []
            for i in range(6):
                q = (m + (i + offset) * dx, n + (i + offset) * dy)
                pos.append(2 if q in enemy else 1 if q in my else 0)
            shape5, shape6 = tuple(pos[:5]), tuple(pos)
            for score, shape in SHAPE_SCORE:
                if (shape5 == shape or shape6 == shape) and score > best[0]:
                    best = (
                        score,
                        tuple((m + (k + offset) * dx, n + (k + offset) * dy) for k in range(5)),
                    )
        add = 0
        if best[1] is not None:
            for score, points, _ in shapes:
                if best[0] > 10 and score > 10:
                    for p1 in points:
                        for p2 in best[1]:
                            if p1 == p2:
                                add += score + best[0]
            shapes.append((best[0], best[1], d))
        return add + best[0]


_brains: dict[int, Seed003] = {}


def main(argv: list[str]) -> int:
    ratio = RATIO
    if len(argv) == 2 and argv[0] == "--ratio":
        ratio = float(argv[1])

    def choose(grid: Grid, history: list[Point], deadline: float) -> Point:
        brain = _brains.setdefault(len(grid), Seed003(len(grid), ratio))
        return brain.ai_move(grid, history, deadline)

    return run(choose, 'name="seed003", version="1.0", author="seed 003 blog", country="CN"')


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
