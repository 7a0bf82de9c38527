"""Off the principal variation, a table entry whose bound lies beyond the static score
stands in for it: reverse futility then reads the better estimate."""

from __future__ import annotations

import pytest

from engine.kernel.evaluation import evaluate
from engine.kernel.heuristics import new_heuristics
from engine.kernel.pvs import pvs
from engine.kernel.scores import MATE
from engine.kernel.search_params import P_RFP_DEPTH, P_RFP_MARGIN
from engine.kernel.state import I_NODES, side_to_move
from engine.kernel.tables import C_BLOCK4_FLEX3, C_FLEX4, rule_tables
from engine.kernel.tt import TT_EXACT, TT_LOWER, TT_UPPER, new_tt, table_key, tt_store
from engine.tools.bench_positions import bench_boards
from tests.engine.kernel_position import kernel_position

# Reverse futility's margin a ply, as shipped.
MARGIN = int(rule_tables("freestyle", 15).search[P_RFP_MARGIN])


def _node(flag: int, offset: int) -> tuple[int, int, int]:
    """Search ``quiet-17`` at depth 1 below the root with a null window well above its
    static score, after storing a depth-0 entry (too shallow to answer by itself) whose
    score is the static score plus ``offset`` (no entry for flag 0). Returns the score,
    the nodes and the static score."""
    board = dict(bench_boards())["quiet-17"]
    state, tables = kernel_position(board.moves, board.size)
    color = side_to_move(state)
    op = 2 - color
    # Reverse futility applies: no open three to answer, no four-three to fear.
    assert state.class_count[op, C_FLEX4] == 0
    assert state.class_count[op, C_BLOCK4_FLEX3] == 0
    assert tables.search[P_RFP_DEPTH] >= 1
    static = int(evaluate(state, tables))
    tt = new_tt(4)
    if flag:
        tt_store(tt, table_key(state, color), -1, 0, flag, static + offset, 1)
    beta = static + 3 * MARGIN
    hs = new_heuristics(state.cells.shape[0])
    score = int(pvs(state, tables, tt, hs, 1, beta - 1, beta, 1))
    return score, int(state.info[I_NODES]), static


def test_a_lower_bound_above_the_static_score_fails_high_at_once() -> None:
    score, nodes, static = _node(TT_LOWER, 10 * MARGIN)
    assert (score, nodes) == (static + 10 * MARGIN, 1)


def test_an_exact_score_stands_in_too() -> None:
    score, nodes, static = _node(TT_EXACT, 10 * MARGIN)
    assert (score, nodes) == (static + 10 * MARGIN, 1)


@pytest.mark.parametrize(
    ("flag", "why"),
    [
        (0, "no entry"),
        (TT_UPPER, "an upper bound above the static score says nothing more"),
    ],
)
def test_otherwise_the_node_is_searched(flag: int, why: str) -> None:
    score, nodes, static = _node(flag, 10 * MARGIN)
    assert nodes > 1, why
    assert score != static + 10 * MARGIN, why


def test_a_mate_score_in_the_table_is_not_taken_for_an_estimate() -> None:
    static = _node(0, 0)[2]
    score, nodes, _ = _node(TT_LOWER, MATE - 10 - static)
    assert nodes > 1
    assert score < MATE - 100
