"""The parallel search: helper threads share the transposition table, which reads a slot
torn by two writers as a miss; a timed search with helpers stays legal, in time and counts
their nodes; node-limited searches ignore the helpers and stay exactly repeatable."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from engine import Board, Limit, Searcher
from engine.kernel.tt import TT_EXACT, new_tt, tt_move_of, tt_store
from engine.search.helpers import HELPER_THREAD_PREFIX
from engine.search.result import MATE_BOUND
from tests.engine.puzzles import Puzzle, all_puzzles

PUZZLES = all_puzzles()


def test_a_stored_entry_is_found_and_a_torn_one_is_not() -> None:
    tt = new_tt(1)
    key = np.int64(0x1234_5678_9ABC)
    tt_store(tt, key, 77, 5, TT_EXACT, 12, 0)
    assert tt_move_of(tt, key) == 77
    slot = int(key) & (tt.slots.shape[0] - 1)
    # Another thread's data word over this entry's key word: no longer this position's.
    tt.slots[slot, 1] ^= np.int64(1 << 3)
    assert tt_move_of(tt, key) == -1


@pytest.mark.parametrize("threads", [0, 65])
def test_thread_counts_out_of_range_are_refused(threads: int) -> None:
    with pytest.raises(ValueError, match="threads"):
        Searcher(threads=threads)


def test_node_limited_searches_are_repeatable_with_helpers_configured() -> None:
    board = Board.from_moves([(7, 7), (8, 8), (6, 8), (9, 9), (5, 9)])
    single = Searcher().search(board, Limit(nodes=20_000))
    runs = [Searcher(threads=2).search(board, Limit(nodes=20_000)) for _ in range(2)]
    for result in runs:
        assert (result.move, result.score, result.nodes) == (
            single.move,
            single.score,
            single.nodes,
        )


def test_a_timed_search_with_helpers_is_legal_in_time_and_counts_their_nodes() -> None:
    board = Board.from_moves([(7, 7), (8, 8)])
    searcher = Searcher(threads=2)
    searcher.search(board, Limit(depth=2))  # load the core before timing
    start = time.perf_counter()
    result = searcher.search(board, Limit(time=0.5, spend_all=True))
    elapsed = time.perf_counter() - start
    assert result.move in board.legal_moves()
    assert 0.45 <= elapsed < 0.5 + 0.2
    # The helpers are stopped and joined before the result comes back. (Other tests may
    # leave threads of their own starting or ending, so only the helpers are counted.)
    assert [t.name for t in threading.enumerate() if t.name.startswith(HELPER_THREAD_PREFIX)] == []
    single = Searcher()
    single.search(board, Limit(depth=2))
    alone = single.search(board, Limit(time=0.5, spend_all=True))
    # The helpers' nodes are counted: two threads enter clearly more positions.
    assert result.nodes > 1.2 * alone.nodes


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.name for p in PUZZLES])
def test_the_puzzles_are_solved_with_helpers(puzzle: Puzzle) -> None:
    board = puzzle.board
    result = Searcher(threads=2).search(board, Limit(time=0.5))
    assert result.move in board.legal_moves()
    if puzzle.kind in ("win", "block"):
        assert result.move in puzzle.expect
    elif puzzle.kind == "vcf":
        assert result.score >= MATE_BOUND
    else:
        assert result.move not in puzzle.forbidden
        assert not board.is_forbidden(result.move)
