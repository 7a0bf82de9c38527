"""The distract prune's distance test, and the search's answers to a threat near the
leaves, where the prune works."""

from __future__ import annotations

import pytest

from engine import Board, Limit, Searcher
from engine.kernel.pvs import _far_from
from engine.kernel.state import (
    I_PLY,
    State,
    init_walls,
    new_state,
    place,
    point_index,
    remove,
    stone_back,
)
from engine.kernel.tables import rule_tables
from engine.search.result import MATE_BOUND


def setup(stones: list[tuple[int, int, int]]) -> State:
    """A state with the given (x, y, colour) stones, in that order."""
    tables = rule_tables("freestyle", 15)
    state = new_state(15, False)
    init_walls(state, tables)
    for x, y, color in stones:
        place(state, tables, point_index(state, x, y), color)
    return state


def far(st: State, back: int, owner: int, x: int, y: int) -> bool:
    i = point_index(st, x, y)
    return bool(_far_from(st, stone_back(st, back, owner), int(st.column[i]), int(st.row[i])))


def test_distance_is_from_the_owners_stone_along_the_longer_axis() -> None:
    # Black (7, 7), white (7, 8), black (2, 2): black's last stone is one ply back,
    # white's two.
    st = setup([(7, 7, 1), (7, 8, 2), (2, 2, 1)])
    assert far(st, 1, 1, 7, 7)  # five columns and rows away
    assert far(st, 1, 1, 2, 7)  # five rows away, same column
    assert not far(st, 1, 1, 6, 6)  # four away
    assert not far(st, 1, 1, 6, 3)  # four columns and one row away
    assert far(st, 1, 1, 6, 14)  # four columns but twelve rows: the longer axis rules
    assert far(st, 2, 2, 7, 13)
    assert not far(st, 2, 2, 11, 12)


def test_no_stone_of_the_owner_there_is_never_far() -> None:
    st = setup([(7, 7, 1), (7, 8, 2), (2, 2, 1)])
    assert stone_back(st, 1, 1) == point_index(st, 2, 2)
    assert stone_back(st, 2, 2) == point_index(st, 7, 8)
    assert stone_back(st, 1, 2) == -1
    assert not far(st, 1, 2, 14, 14)  # the last stone is black's, not white's
    assert not far(st, 4, 1, 14, 14)  # before the first stone
    # After a null move the ply moves on without a stone: the entry left on the stack
    # is a stone taken back, whose cell is empty.
    tables = rule_tables("freestyle", 15)
    place(st, tables, point_index(st, 12, 12), 2)
    remove(st, tables)
    st.info[I_PLY] += 1
    assert stone_back(st, 1, 2) == -1
    assert not far(st, 1, 2, 0, 0)
    st.info[I_PLY] -= 1


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5, 6])
def test_an_open_three_is_answered_at_every_shallow_depth(depth: int) -> None:
    # White's open three on row 7 (x = 6, 7, 8) with black to move; black has stones far
    # away in the corner, where a move only puts off the answer.
    moves = [(1, 1), (6, 7), (1, 3), (7, 7), (13, 1), (8, 7)]
    board = Board.from_moves(moves)
    result = Searcher().search(board, Limit(depth=depth))
    assert result.score > -MATE_BOUND
    assert result.move in [(5, 7), (9, 7), (4, 7), (10, 7)]
