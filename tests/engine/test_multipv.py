"""Multi-PV search (``Searcher(multipv=N)``): N distinct legal moves best first, the first
line the single-PV search's own, forced wins reported as mates, a line per depth reported,
the plain search untouched, and the same under ``NUMBA_DISABLE_JIT=1``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import MATE, Board, Limit, Searcher
from engine.search.multipv import MAX_MULTIPV
from engine.search.result import MATE_BOUND, IterationInfo
from engine.tools.bench_positions import bench_boards
from tests.engine.puzzles import all_puzzles

ROOT = Path(__file__).resolve().parents[2]
BENCH = [board for _, board in bench_boards()]


@pytest.mark.parametrize("index", [0, 1, 4, 12])
@pytest.mark.parametrize("count", [2, 3, 5])
def test_lines_are_distinct_legal_and_best_first(index: int, count: int) -> None:
    board = BENCH[index]
    result = Searcher(multipv=count).search(board, Limit(depth=6))
    moves = [line.move for line in result.lines]
    assert len(moves) == count
    assert len(set(moves)) == count
    legal = set(board.legal_moves())
    assert all(move in legal for move in moves)
    scores = [line.score for line in result.lines]
    assert scores == sorted(scores, reverse=True)
    for line in result.lines:
        assert line.pv[0] == line.move
        assert line.depth == 6
        # Each line is a playable sequence from the position.
        trial = board.copy()
        for point in line.pv:
            if trial.is_game_over():
                break
            trial.push(point)
    first = result.lines[0]
    assert (result.move, result.score, result.pv) == (first.move, first.score, first.pv)


@pytest.mark.parametrize("index", range(len(BENCH)))
def test_first_line_is_the_single_pv_search(index: int) -> None:
    board = BENCH[index]
    single = Searcher().search(board, Limit(depth=7))
    multi = Searcher(multipv=3).search(board, Limit(depth=7))
    assert multi.lines[0].move == single.move
    assert multi.lines[0].score == single.score
    assert multi.move == single.move


def test_single_pv_search_has_no_lines_and_is_unchanged_by_an_earlier_multi_pv() -> None:
    board = BENCH[2]
    fresh = Searcher(tt_mb=8).search(board, Limit(nodes=40_000))
    assert fresh.lines == []
    reused = Searcher(tt_mb=8, multipv=4)
    reused.search(board, Limit(depth=4))
    reused.multipv = 1
    reused.clear()
    again = reused.search(board, Limit(nodes=40_000))
    assert (again.move, again.score, again.nodes) == (fresh.move, fresh.score, fresh.nodes)


def test_forced_win_is_the_first_line_as_a_mate() -> None:
    puzzle = next(p for p in all_puzzles() if p.kind == "vcf")
    result = Searcher(multipv=3).search(puzzle.board, Limit(depth=6))
    first = result.lines[0]
    assert first.score >= MATE_BOUND
    assert first.mate is not None and first.mate == MATE - first.score
    assert first.mate % 2 == 1  # the winner's own move ends it
    assert len(result.lines) == 3
    assert len({line.move for line in result.lines}) == 3
    assert result.lines[1].score <= first.score


def test_a_forced_reply_is_the_only_line() -> None:
    # Black has an open four... blocked at one end: white's only move is the other end.
    board = Board.from_moves([(5, 7), (0, 0), (6, 7), (0, 2), (7, 7), (4, 7), (8, 7)])
    result = Searcher(multipv=4).search(board, Limit(depth=4))
    assert [line.move for line in result.lines][:1] == [(9, 7)]
    assert len({line.move for line in result.lines}) == len(result.lines)


def test_every_depth_is_reported_with_its_lines() -> None:
    seen: list[IterationInfo] = []
    Searcher(multipv=3, on_iteration=seen.append).search(BENCH[1], Limit(depth=5))
    assert [info.depth for info in seen] == [1, 2, 3, 4, 5]
    assert all(len(info.lines) == 3 for info in seen)
    data = seen[-1].to_json()
    assert isinstance(data["lines"], list) and len(data["lines"]) == 3
    assert "lines" not in IterationInfo(1, 0, (7, 7), [(7, 7)], 1, 1, 0.0).to_json()


def test_a_stopped_search_keeps_whole_lines() -> None:
    result = Searcher(multipv=3).search(BENCH[4], Limit(nodes=30_000))
    assert 1 <= len(result.lines) <= 3
    assert len({line.move for line in result.lines}) == len(result.lines)
    assert result.move == result.lines[0].move


def test_empty_board_and_bad_counts() -> None:
    result = Searcher(multipv=3).search(Board(15), Limit(depth=3))
    assert result.move == (7, 7) and result.lines[0].move == (7, 7)
    for bad in (0, MAX_MULTIPV + 1):
        with pytest.raises(ValueError, match="multipv"):
            Searcher(multipv=bad)


def test_multi_pv_runs_with_jit_disabled() -> None:
    code = (
        "from engine import Board, Limit, Searcher\n"
        "b = Board.from_moves([(4, 4), (5, 5), (5, 4)], size=9)\n"
        "r = Searcher(multipv=3).search(b, Limit(depth=2))\n"
        "print(len({line.move for line in r.lines}), r.move == r.lines[0].move)\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3", "True"]


@pytest.mark.parametrize("count", [1, 3])
def test_a_search_that_goes_on_from_a_deeper_one_reports_whole_lines(count: int) -> None:
    # The analysis board searches a position in slices with one searcher, so the first
    # iterations of a slice find their children in the table, searched deeper before.
    board = BENCH[2]
    reports: list[IterationInfo] = []
    searcher = Searcher(multipv=count)
    searcher.search(board, Limit(depth=9))
    searcher.on_iteration = reports.append
    searcher.search(board, Limit(depth=7))
    assert [info.depth for info in reports] == list(range(1, 8))
    for info in reports[2:]:
        lines = info.lines if count > 1 else [info]
        assert len(lines) == count
        for line in lines:
            assert len(line.pv) >= min(info.depth, 3), (info.depth, line.pv)
            trial = board.copy()
            for move in line.pv:
                assert move in trial.legal_moves()
                trial.push(move)
                if trial.is_game_over():
                    break
