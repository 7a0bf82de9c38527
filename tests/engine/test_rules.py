"""Board rules: coordinates, push/pop, outcomes under the three rules, renju's forbidden
moves, and named errors for bad input."""

from __future__ import annotations

import numpy as np
import pytest

from engine import (
    Board,
    Color,
    GameOverError,
    IllegalMoveError,
    InvalidBoardError,
    InvalidPointError,
    Rule,
    UnknownRuleError,
    parse_point,
    point_name,
)
from engine.game import renju
from engine.kernel import state as kstate
from engine.kernel.forbidden import is_forbidden as compiled_is_forbidden
from engine.kernel.tables import rule_tables


def grid_with(black: list[tuple[int, int]], white: list[tuple[int, int]] = (), size: int = 15):
    grid = [[0] * size for _ in range(size)]
    for x, y in black:
        grid[y][x] = 1
    for x, y in white:
        grid[y][x] = 2
    return grid


def test_point_names_round_trip() -> None:
    assert point_name((7, 7), 15) == "h8"
    assert point_name((0, 14), 15) == "a1"
    assert point_name((0, 0), 15) == "a15"
    assert parse_point("h8", 15) == (7, 7)
    assert parse_point("7,7", 15) == (7, 7)
    assert parse_point(" A15 ", 15) == (0, 0)
    for size in (7, 15, 22):
        for point in [(0, 0), (size - 1, size - 1), (3, size - 2)]:
            assert parse_point(point_name(point, size), size) == point


@pytest.mark.parametrize("text", ["", "z99", "h16", "15,0", "-1,3", "hello", "7;7"])
def test_bad_point_names_raise(text: str) -> None:
    with pytest.raises(InvalidPointError):
        parse_point(text, 15)


def test_bad_sizes_and_rules_raise() -> None:
    for size in (6, 23, 0, "15"):
        with pytest.raises(InvalidBoardError):
            Board(size)  # type: ignore[arg-type]
    with pytest.raises(UnknownRuleError, match="freestyle"):
        Board(15, "gomoku-pro")


def test_illegal_moves_raise_and_change_nothing() -> None:
    board = Board(15)
    board.push((7, 7))
    with pytest.raises(IllegalMoveError, match="occupied"):
        board.push((7, 7))
    with pytest.raises(IllegalMoveError, match="off"):
        board.push((15, 3))
    with pytest.raises(IllegalMoveError):
        board.push((1, 2, 3))  # type: ignore[arg-type]
    assert board.moves == [(7, 7)]
    assert board.turn is Color.WHITE


def test_push_pop_and_five_in_freestyle() -> None:
    board = Board(15)
    moves = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)]
    for move in moves:
        board.push(move)
    assert board.outcome() is None
    board.push((4, 0))
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is Color.BLACK and outcome.reason == "five"
    assert outcome.line == ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0))
    with pytest.raises(GameOverError):
        board.push((9, 9))
    assert board.pop() == (4, 0)
    assert board.outcome() is None and board.turn is Color.BLACK


def _overline_board(rule: str) -> Board:
    # Black: a1 b1 c1 e1 f1 (x = 0, 1, 2, 4, 5 on the bottom row); white far away.
    moves = [(0, 14), (0, 0), (1, 14), (2, 0), (2, 14), (4, 0), (4, 14), (6, 0), (5, 14), (8, 0)]
    return Board.from_moves(moves, size=15, rule=rule)


def test_overline_wins_only_in_freestyle() -> None:
    free = _overline_board("freestyle")
    free.push((3, 14))
    assert free.outcome() is not None and free.outcome().winner is Color.BLACK
    standard = _overline_board("standard")
    standard.push((3, 14))
    assert standard.outcome() is None
    renju_board = _overline_board("renju")
    assert renju_board.is_forbidden((3, 14))
    renju_board.push((3, 14))
    outcome = renju_board.outcome()
    assert outcome is not None and outcome.winner is Color.WHITE and outcome.reason == "forbidden"


def test_renju_white_overline_wins() -> None:
    moves = [(0, 0), (0, 14), (2, 0), (1, 14), (4, 0), (2, 14), (6, 0), (4, 14), (8, 0), (5, 14)]
    board = Board.from_moves(moves, size=15, rule="renju")
    board.push((10, 0))
    board.push((3, 14))
    outcome = board.outcome()
    assert outcome is not None and outcome.winner is Color.WHITE and outcome.reason == "five"


def test_renju_double_three_is_forbidden() -> None:
    grid = grid_with([(4, 7), (5, 7), (6, 8), (6, 9)])
    assert renju.is_forbidden(grid, 15, 6, 7)


def test_renju_double_three_with_a_false_three_is_allowed() -> None:
    # Row 7 reads X..XXX..X after the move: adding to either end makes a six, so the row
    # can never become a straight four and is no three at all for black.
    grid = grid_with([(1, 7), (4, 7), (5, 7), (9, 7), (6, 8), (6, 9)])
    assert not renju.is_forbidden(grid, 15, 6, 7)


def test_renju_three_whose_straight_four_point_is_forbidden_is_not_a_three() -> None:
    # The row three h8-i8 (+ the move at j8) can only become a straight four at g8 or k8.
    # Both are made forbidden by vertical overlines, so the row is not a true three, and
    # the move with one true three is allowed.
    black = [(7, 7), (8, 7), (9, 8), (9, 9)]
    for column in (6, 10):
        black += [(column, 4), (column, 5), (column, 6), (column, 8), (column, 9)]
    white = [(6, 3), (6, 10), (10, 3), (10, 10)]
    grid = grid_with(black, white)
    assert renju.is_forbidden(grid, 15, 6, 7)  # the overline point itself
    assert not renju.is_forbidden(grid, 15, 9, 7)


def test_renju_four_four_in_one_line_is_forbidden() -> None:
    # X.X?X.X -> X.XXX.X has two fours in one line.
    grid = grid_with([(1, 7), (3, 7), (5, 7), (7, 7)])
    assert renju.is_forbidden(grid, 15, 4, 7)


def test_renju_four_four_across_lines_is_forbidden_but_five_wins() -> None:
    grid = grid_with([(1, 7), (2, 7), (3, 7), (5, 4), (5, 5), (5, 6), (0, 7)])
    assert renju.is_forbidden(grid, 15, 4, 7) is False  # makes exactly five
    grid = grid_with([(1, 7), (2, 7), (3, 7), (4, 4), (4, 5), (4, 6)], [(0, 7), (4, 3)])
    assert renju.is_forbidden(grid, 15, 4, 7)  # two fours, no five


def test_renju_four_three_is_allowed() -> None:
    grid = grid_with([(1, 7), (2, 7), (3, 7), (4, 5), (4, 6)], [(0, 7)])
    assert not renju.is_forbidden(grid, 15, 4, 7)


def test_forbidden_points_listed_only_for_renju() -> None:
    moves = [(4, 7), (0, 0), (5, 7), (0, 2), (6, 8), (0, 4), (6, 9), (0, 6)]
    assert Board.from_moves(moves, size=15, rule="renju").forbidden_points() == [(6, 7)]
    assert Board.from_moves(moves, size=15, rule="freestyle").forbidden_points() == []


def test_compiled_forbidden_test_agrees_with_reference() -> None:
    rng = np.random.default_rng(3)
    size = 15
    tables = rule_tables("renju", size)
    checked = forbidden = 0
    for _ in range(40):
        grid = [[0] * size for _ in range(size)]
        state = kstate.new_state(size, True)
        kstate.init_walls(state, tables)
        # Dense black clusters make forbidden shapes common.
        cx, cy = (int(v) for v in rng.integers(4, 11, size=2))
        for _stone in range(int(rng.integers(8, 22))):
            x = int(np.clip(cx + rng.integers(-4, 5), 0, size - 1))
            y = int(np.clip(cy + rng.integers(-4, 5), 0, size - 1))
            if grid[y][x] == 0:
                color = 1 if rng.random() < 0.7 else 2
                grid[y][x] = color
                kstate.place(state, tables, kstate.point_index(state, x, y), color)
        for y in range(size):
            for x in range(size):
                if grid[y][x] == 0:
                    expected = renju.is_forbidden(grid, size, x, y)
                    index = kstate.point_index(state, x, y)
                    assert compiled_is_forbidden(state.cells, state.dirs, index) == expected
                    checked += 1
                    forbidden += expected
    assert forbidden > 10 and checked > 1000


def test_rule_lookup() -> None:
    assert Rule.from_name("RENJU") is Rule.RENJU
    assert Rule.from_gomocup(0) is Rule.FREESTYLE
    assert Rule.from_gomocup(1) is Rule.STANDARD
    assert Rule.from_gomocup(4) is Rule.RENJU
    assert Rule.RENJU.exact_five(True) and not Rule.RENJU.exact_five(False)
