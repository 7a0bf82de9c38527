"""A leaf that must answer an open three, with no four of its own, is searched a ply: the
blocks decide it, so two open threes at once are seen as lost there."""

from __future__ import annotations

from engine.kernel.heuristics import new_heuristics
from engine.kernel.pvs import THREE_ANSWER_PLY, pvs
from engine.kernel.scores import INF, MATE_BOUND
from engine.kernel.state import I_NODES, side_to_move
from engine.kernel.tables import C_FLEX4
from engine.kernel.tt import new_tt
from tests.engine.kernel_position import kernel_position

# Black's stones stand apart in the corners, with no two in a line near each other.
BLACK = [(0, 0), (14, 14), (0, 14), (14, 0), (3, 13), (13, 3)]
# White's open three along row 7, and another along column 11.
ROW_THREE = [(5, 7), (6, 7), (7, 7)]
COLUMN_THREE = [(11, 2), (11, 3), (11, 4)]
WHITE_QUIET = [(1, 10), (9, 13), (12, 10)]


def _leaf(white: list[tuple[int, int]], ply: int) -> tuple[int, int]:
    """Search black's move at depth 0 (a leaf) ``ply`` plies from the root with a full
    window; the score and the nodes."""
    moves = [stone for pair in zip(BLACK, white, strict=True) for stone in pair]
    state, tables = kernel_position(moves)
    assert side_to_move(state) == 1
    assert state.class_count[1, C_FLEX4] > 0  # white threatens an open four
    score = pvs(state, tables, new_tt(4), new_heuristics(state.cells.shape[0]), 0, -INF, INF, ply)
    return int(score), int(state.info[I_NODES])


def test_two_open_threes_at_a_leaf_are_lost() -> None:
    score, _ = _leaf(ROW_THREE + COLUMN_THREE, 1)
    assert score <= -MATE_BOUND


def test_one_open_three_at_a_leaf_is_answered() -> None:
    score, nodes = _leaf(ROW_THREE + WHITE_QUIET, 1)
    assert -MATE_BOUND < score < MATE_BOUND
    # Past the ply bound the leaf goes to the quiescence: the node and one stand-pat.
    deep_score, deep_nodes = _leaf(ROW_THREE + WHITE_QUIET, THREE_ANSWER_PLY)
    assert deep_nodes == 2
    assert nodes > deep_nodes
    assert deep_score > -MATE_BOUND


def test_two_open_threes_past_the_ply_bound_stay_a_static_score() -> None:
    score, nodes = _leaf(ROW_THREE + COLUMN_THREE, THREE_ANSWER_PLY)
    assert nodes == 2
    assert score > -MATE_BOUND
