"""Seed 000's AI as a Gomocup brain: negamax with alpha-beta at depth 2 (a test opponent).

Follows the blog post's ``ChessAI``: candidate moves are empty points next to a stone
(radius 1) ordered by closeness to the centre (``pos_score``); a position is scored by
scanning every stone's four 9-cell lines (``getLine``/``analysisLine``), counting fives,
fours, threes and twos for both sides and turning the counts into a score (``getScore``).
The only addition is a deadline from ``INFO timeout_turn`` so it answers in time. Run as
``python tests/opponents/seed000_brain.py``; ``protocol_loop`` beside it speaks the
protocol."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import contextlib

from protocol_loop import Grid, Point, SearchTimeout, run

SEARCH_DEPTH = 2
SCORE_MAX = 0x7FFFFFFF
SCORE_MIN = -SCORE_MAX
SCORE_FIVE = 10000
EMPTY = 0
NONE, STWO, TWO, STHREE, THREE, SFOUR, FOUR, FIVE = range(8)
CHESS_TYPE_NUM = 8
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class ChessAI:
    def __init__(self, size: int) -> None:
        self.len = size
        self.record = [[[0, 0, 0, 0] for _ in range(size)] for _ in range(size)]
        self.count = [[0] * CHESS_TYPE_NUM for _ in range(2)]
        centre = size // 2
        self.pos_score = [
            [centre - max(abs(x - centre), abs(y - centre)) for x in range(size)]
            for y in range(size)
        ]
        self.deadline = float("inf")
        self.bestmove: Point | None = None
        self.maxdepth = SEARCH_DEPTH

    def reset(self) -> None:
        for row in self.record:
            for cell in row:
                cell[0] = cell[1] = cell[2] = cell[3] = 0
        for counts in self.count:
            for i in range(CHESS_TYPE_NUM):
                counts[i] = 0

    def has_neighbor(self, board: Grid, x: int, y: int, radius: int) -> bool:
        for i in range(y - radius, y + radius + 1):
            for j in range(x - radius, x + radius + 1):
                if 0 <= i < self.len and 0 <= j < self.len and board[i][j] != 0:
                    return True
        return False

    def genmove(self, board: Grid, turn: int) -> list[tuple[int, int, int]]:
        moves = []
        for y in range(self.len):
            for x in range(self.len):
                if board[y][x] == 0 and self.has_neighbor(board, x, y, 1):
                    moves.append((self.pos_score[y][x], x, y))
        moves.sort(reverse=True)
        return moves

    def _search(self, board: Grid, turn: int, depth: int, alpha: int, beta: int) -> int:
        if time.perf_counter() > self.deadline:
            raise SearchTimeout
        score = self.evaluate(board, turn)
        if depth <= 0 or abs(score) >= SCORE_FIVE:
            return score
        moves = self.genmove(board, turn)
        if not moves:
            return score
        bestmove = None
        for _, x, y in moves:
            board[y][x] = turn
            op_turn = 2 if turn == 1 else 1
            try:
                score = -self._search(board, op_turn, depth - 1, -beta, -alpha)
            finally:
                board[y][x] = 0
            if score > alpha:
                alpha = score
                bestmove = (x, y)
                if depth == self.maxdepth:
                    self.bestmove = bestmove
                if alpha >= beta:
                    break
        return alpha

    def find_best(self, board: Grid, deadline: float) -> Point:
        self.deadline = deadline
        self.bestmove = None
        with contextlib.suppress(SearchTimeout):
            self._search(board, 1, SEARCH_DEPTH, SCORE_MIN, SCORE_MAX)
        if self.bestmove is None:
            _, x, y = self.genmove(board, 1)[0]
            return (x, y)
        return self.bestmove

    # -- evaluation (getScore / evaluate / analysisLine as in the post) ------------------

    def get_score(self, mine: list[int], opp: list[int]) -> tuple[int, int]:
        mscore, oscore = 0, 0
        if mine[FIVE] > 0:
            return (SCORE_FIVE, 0)
        if opp[FIVE] > 0:
            return (0, SCORE_FIVE)
        if mine[SFOUR] >= 2:
            mine[FOUR] += 1
        if opp[SFOUR] >= 2:
            opp[FOUR] += 1
        if mine[FOUR] > 0:
            return (9050, 0)
        if mine[SFOUR] > 0:
            return (9040, 0)
        if opp[FOUR] > 0:
            return (0, 9030)
        if opp[SFOUR] > 0 and opp[THREE] > 0:
            return (0, 9020)
        if mine[THREE] > 0 and opp[SFOUR] == 0:
            return (9010, 0)
        if opp[THREE] > 1 and mine[THREE] == 0 and mine[STHREE] == 0:
            return (0, 9000)
        if opp[SFOUR] > 0:
            oscore += 400
        if mine[THREE] > 1:
            mscore += 500
        elif mine[THREE] > 0:
            mscore += 100
        if opp[THREE] > 1:
            oscore += 2000
        elif opp[THREE] > 0:
            oscore += 400
        mscore += mine[STHREE] * 10 + mine[TWO] * 6 + mine[STWO] * 2
        oscore += opp[STHREE] * 10 + opp[TWO] * 6 + opp[STWO] * 2
        return (mscore, oscore)

    def evaluate(self, board: Grid, turn: int) -> int:
        self.reset()
        mine, opponent = (1, 2) if turn == 1 else (2, 1)
        for y in range(self.len):
            row = board[y]
            for x in range(self.len):
                if row[x] == mine:
                    self.evaluate_point(board, x, y, mine, opponent)
                elif row[x] == opponent:
                    self.evaluate_point(board, x, y, opponent, mine)
        mscore, oscore = self.get_score(self.count[mine - 1], self.count[opponent - 1])
        return mscore - oscore

    def evaluate_point(self, board: Grid, x: int, y: int, mine: int, opponent: int) -> None:
        count = self.count[mine - 1]
        for i in range(4):
            if self.record[y][x][i] == 0:
                self.analysis_line(board, x, y, i, DIRECTIONS[i], mine, opponent, count)

    def get_line(self, board: Grid, x: int, y: int, d: Point, opponent: int) -> list[int]:
        line = [0] * 9
        tx, ty = x - 5 * d[0], y - 5 * d[1]
        for i in range(9):
            tx += d[0]
            ty += d[1]
            if tx < 0 or tx >= self.len or ty < 0 or ty >= self.len:
                line[i] = opponent  # the edge blocks like an opponent stone
            else:
                line[i] = board[ty][tx]
        return line

    def set_record(self, x: int, y: int, left: int, right: int, di: int, d: Point) -> None:
        tx, ty = x + (-5 + left) * d[0], y + (-5 + left) * d[1]
        for _ in range(left, right + 1):
            tx += d[0]
            ty += d[1]
            self.record[ty][tx][di] = 1

    def analysis_line(
        self,
        board: Grid,
        x: int,
        y: int,
        di: int,
        d: Point,
        mine: int,
        opponent: int,
        count: list[int],
    ) -> None:
        empty = EMPTY
        left_idx = right_idx = 4
        line = self.get_line(board, x, y, d, opponent)
        while right_idx < 8 and line[right_idx + 1] == mine:
            right_idx += 1
        while left_idx > 0 and line[left_idx - 1] == mine:
            left_idx -= 1
        left_range, right_range = left_idx, right_idx
        while right_range < 8 and line[right_range + 1] != opponent:
            right_range += 1
        while left_range > 0 and line[left_range - 1] != opponent:
            left_range -= 1
        chess_range = right_range - left_range + 1
        if chess_range < 5:
            self.set_record(x, y, left_range, right_range, di, d)
            return
        self.set_record(x, y, left_idx, right_idx, di, d)
        m_range = right_idx - left_idx + 1
        if m_range >= 5:
            count[FIVE] += 1
        if m_range == 4:
            left_empty = line[left_idx - 1] == empty
            right_empty = line[right_idx + 1] == empty
            if left_empty and right_empty:
                count[FOUR] += 1
            elif left_empty or right_empty:
                count[SFOUR] += 1
        if m_range == 3:
            left_empty = right_empty = left_four = right_four = False
            if line[left_idx - 1] == empty:
                if line[left_idx - 2] == mine:  # MXMMM
                    self.set_record(x, y, left_idx - 2, left_idx - 1, di, d)
                    count[SFOUR] += 1
                    left_four = True
                left_empty = True
            if line[right_idx + 1] == empty:
                if line[right_idx + 2] == mine:  # MMMXM
                    self.set_record(x, y, right_idx + 1, right_idx + 2, di, d)
                    count[SFOUR] += 1
                    right_four = True
                right_empty = True
            if left_four or right_four:
                pass
            elif left_empty and right_empty:
                if chess_range > 5:
                    count[THREE] += 1
                else:
                    count[STHREE] += 1
            elif left_empty or right_empty:
                count[STHREE] += 1
        if m_range == 2:
            left_empty = right_empty = left_three = right_three = False
            if line[left_idx - 1] == empty:
                if line[left_idx - 2] == mine:
                    self.set_record(x, y, left_idx - 2, left_idx - 1, di, d)
                    if line[left_idx - 3] == empty:
                        if line[right_idx + 1] == empty:  # XMXMMX
                            count[THREE] += 1
                        else:  # XMXMMP
                            count[STHREE] += 1
                        left_three = True
                    elif line[left_idx - 3] == opponent and line[right_idx + 1] == empty:
                        count[STHREE] += 1  # PMXMMX
                        left_three = True
                left_empty = True
            if line[right_idx + 1] == empty:
                if line[right_idx + 2] == mine:
                    if line[right_idx + 3] == mine:  # MMXMM
                        self.set_record(x, y, right_idx + 1, right_idx + 2, di, d)
                        count[SFOUR] += 1
                        right_three = True
                    elif line[right_idx + 3] == empty:
                        if left_empty:  # XMMXMX
                            count[THREE] += 1
                        else:  # PMMXMX
                            count[STHREE] += 1
                        right_three = True
                    elif left_empty:  # XMMXMP
                        count[STHREE] += 1
                        right_three = True
                right_empty = True
            if left_three or right_three:
                pass
            elif left_empty and right_empty:  # XMMX
                count[TWO] += 1
            elif left_empty or right_empty:  # PMMX, XMMP
                count[STWO] += 1
        if m_range == 1:
            left_empty = False
            if line[left_idx - 1] == empty:
                if (
                    line[left_idx - 2] == mine
                    and line[left_idx - 3] == empty
                    and line[right_idx + 1] == opponent
                ):
                    count[STWO] += 1  # XMXMP
                left_empty = True
            if line[right_idx + 1] == empty:
                if line[right_idx + 2] == mine:
                    if line[right_idx + 3] == empty:
                        if left_empty:  # XMXMX
                            count[TWO] += 1
                        else:  # PMXMX
                            count[STWO] += 1
                elif (
                    line[right_idx + 2] == empty
                    and line[right_idx + 3] == mine
                    and line[right_idx + 4] == empty
                ):
                    count[TWO] += 1  # XMXXMX


_ais: dict[int, ChessAI] = {}


def choose(grid: Grid, history: list[Point], deadline: float) -> Point:
    size = len(grid)
    ai = _ais.setdefault(size, ChessAI(size))
    return ai.find_best(grid, deadline)


if __name__ == "__main__":
    raise SystemExit(
        run(choose, 'name="seed000", version="1.0", author="seed 000 blog", country="CN"')
    )
