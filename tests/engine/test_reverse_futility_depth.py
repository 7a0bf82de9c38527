"""Reverse futility reaches a remaining depth of 6: off the principal variation, a node
whose static score stands the margin a ply above beta fails high without a search up to
that depth, and is searched from the next."""

from __future__ import annotations

import pytest

from engine.kernel.evaluation import evaluate
from engine.kernel.heuristics import new_heuristics
from engine.kernel.pvs import pvs
from engine.kernel.search_params import P_RFP_DEPTH, P_RFP_MARGIN
from engine.kernel.state import I_NODES, side_to_move
from engine.kernel.tables import C_BLOCK4_FLEX3, C_FLEX4, rule_tables
from engine.kernel.tt import new_tt
from engine.tools.bench_positions import bench_boards
from tests.engine.kernel_position import kernel_position

SHIPPED_DEPTH = 6


def _node(depth: int) -> tuple[int, int, int]:
    """Search ``quiet-17`` one ply below the root at ``depth`` with a null window whose
    beta lies just under the static score less the margin at that depth; the score, the
    nodes and the static score."""
    board = dict(bench_boards())["quiet-17"]
    state, tables = kernel_position(board.moves, board.size)
    op = 2 - side_to_move(state)
    assert state.class_count[op, C_FLEX4] == 0
    assert state.class_count[op, C_BLOCK4_FLEX3] == 0
    static = int(evaluate(state, tables))
    beta = static - int(tables.search[P_RFP_MARGIN]) * depth
    hs = new_heuristics(state.cells.shape[0])
    score = int(pvs(state, tables, new_tt(4), hs, depth, beta - 1, beta, 1))
    return score, int(state.info[I_NODES]), static


def test_the_shipped_depth() -> None:
    assert int(rule_tables("freestyle", 15).search[P_RFP_DEPTH]) == SHIPPED_DEPTH


@pytest.mark.parametrize("depth", range(1, SHIPPED_DEPTH + 1))
def test_up_to_the_depth_the_node_fails_high_at_once(depth: int) -> None:
    score, nodes, static = _node(depth)
    assert (score, nodes) == (static, 1)


def test_one_ply_deeper_the_node_is_searched() -> None:
    _, nodes, _ = _node(SHIPPED_DEPTH + 1)
    assert nodes > 1
