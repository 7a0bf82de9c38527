"""The VCF searches stay within their node caps in crowded positions, where a side has
twenty fours to make and an uncapped VCF would run for hours."""

from __future__ import annotations

import pytest

import engine.search.searcher as searcher_module
from engine import Board, Limit, Searcher
from engine.kernel.heuristics import Heuristics, new_heuristics
from engine.kernel.state import (
    I_NODES,
    I_VCF_LIMIT,
    State,
    init_walls,
    new_state,
    place,
    point_index,
)
from engine.kernel.tables import C_BLOCK4, Tables, rule_tables
from engine.kernel.threats import LEAF_VCF_NODES, ROOT_VCF_NODES, capped_vcf, root_vcf, vcf

# A self-play game at 134 plies (black to move): black has 22 fours to make and no win by
# them. Before the caps, the root VCF here ran for more than twenty minutes.
CROWDED = (
    "8,8 6,7 9,7 7,9 9,9 7,8 7,10 8,10 6,8 7,7 7,6 5,6 4,5 4,7 5,7 6,5 7,4 9,6 9,10 6,9 5,10 3,6 "
    "6,11 9,8 3,8 4,9 5,9 4,8 4,10 3,10 2,5 5,11 3,5 1,5 2,4 4,6 2,6 10,5 8,7 2,3 4,4 5,3 1,7 0,8 "
    "8,5 8,6 2,8 2,7 4,13 5,12 3,4 1,4 4,3 5,2 5,5 6,4 4,2 4,1 3,2 3,3 2,11 11,6 3,12 10,6 12,6 "
    "1,10 2,12 3,11 2,10 2,9 2,13 2,14 4,11 1,14 3,13 5,13 4,14 4,12 10,4 11,5 12,5 11,4 11,3 "
    "11,7 11,8 12,8 0,6 3,9 9,5 6,3 6,6 6,1 6,2 12,3 13,2 12,7 9,4 11,2 5,1 7,3 9,3 13,9 14,10 "
    "11,11 9,11 13,7 8,4 7,5 13,8 13,4 10,1 9,1 8,2 10,9 10,7 12,9 12,10 11,9 14,9 11,10 10,11 "
    "11,12 11,13 9,12 10,2 13,12 12,11 12,12 10,12 10,10 14,6 13,13 14,14 9,2"
)


def crowded_moves() -> list[tuple[int, int]]:
    return [(int(x), int(y)) for x, y in (p.split(",") for p in CROWDED.split())]


def crowded_board() -> Board:
    board = Board(15)
    for move in crowded_moves():
        board.push(move)
    return board


def crowded_state() -> tuple[State, Tables, Heuristics]:
    tables = rule_tables("freestyle", 15)
    state = new_state(15, False)
    init_walls(state, tables)
    for ply, (x, y) in enumerate(crowded_moves()):
        place(state, tables, point_index(state, x, y), 1 + ply % 2)
    return state, tables, new_heuristics(state.cells.shape[0])


def test_the_crowded_position_is_what_the_test_needs() -> None:
    state, _, _ = crowded_state()
    assert len(crowded_moves()) % 2 == 0  # black to move
    assert state.class_count[0, C_BLOCK4] >= 20


def test_root_vcf_gives_up_at_its_node_cap_and_clears_it() -> None:
    state, tables, hs = crowded_state()
    assert root_vcf(state, tables, hs, 24) == 0
    assert ROOT_VCF_NODES <= state.info[I_NODES] <= ROOT_VCF_NODES + 1
    assert state.info[I_VCF_LIMIT] == 0
    # Nothing was recorded as proven: the same search again takes as long.
    state.info[I_NODES] = 0
    assert root_vcf(state, tables, hs, 24) == 0
    assert state.info[I_NODES] >= ROOT_VCF_NODES


def test_an_inner_cap_never_outlasts_the_enclosing_one() -> None:
    state, tables, hs = crowded_state()
    state.info[I_NODES] = 0
    state.info[I_VCF_LIMIT] = 5_000
    assert capped_vcf(state, tables, hs, 0, 24, LEAF_VCF_NODES) == 0
    assert 5_000 <= state.info[I_NODES] <= 5_001
    assert state.info[I_VCF_LIMIT] == 5_000


def test_uncapped_vcf_is_unchanged_within_small_budgets() -> None:
    state, tables, hs = crowded_state()
    state.info[I_VCF_LIMIT] = 0
    state.info[I_NODES] = 0
    assert vcf(state, tables, hs, 0, 3) == 0
    assert 0 < state.info[I_NODES] < LEAF_VCF_NODES


def test_a_node_limited_search_of_the_crowded_position_keeps_most_of_its_nodes() -> None:
    board = crowded_board()
    result = Searcher(seed=1).search(board, Limit(nodes=60_000))
    assert result.depth >= 3
    assert result.nodes <= 60_000 + 2_000
    assert result.move in board.legal_moves()


def test_a_timed_search_of_the_crowded_position_keeps_most_of_its_time() -> None:
    # Here the root VCF runs to its whole cap of 200,000 nodes, about a third of a second:
    # under a short time limit it must stop well before that and leave the search its time.
    board = crowded_board()
    searcher = Searcher(seed=1)
    searcher.search(board, Limit(depth=1))  # load the core before timing
    searcher.clear()
    result = searcher.search(board, Limit(time=0.3, spend_all=True))
    assert result.depth >= 3
    assert result.move in board.legal_moves()


def test_the_root_vcf_cap_follows_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    caps: list[int] = []

    def recording(st: State, tb: Tables, hs: Heuristics, budget: int, cap: int) -> int:
        caps.append(cap)
        return 0

    monkeypatch.setattr(searcher_module, "root_vcf", recording)
    board = crowded_board()
    Searcher(seed=1).search(board, Limit(time=0.1))
    Searcher(seed=1).search(board, Limit(time=10.0))
    Searcher(seed=1).search(board, Limit(depth=1))
    assert caps == [
        searcher_module.ROOT_VCF_MIN_NODES,
        ROOT_VCF_NODES,
        ROOT_VCF_NODES,
    ]
    assert int(0.3 * searcher_module.ROOT_VCF_NODES_PER_S) > searcher_module.ROOT_VCF_MIN_NODES
