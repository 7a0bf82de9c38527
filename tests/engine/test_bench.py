"""``gomoku bench`` prints its figures, the bench positions are sound, and the plain-Python
reference searcher finds the obvious moves."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Board, GameOverError
from engine.search.plain import WIN_SCORE, PlainSearcher
from engine.tools.bench_positions import BENCH_POSITIONS, bench_boards

ROOT = Path(__file__).resolve().parents[2]


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    """``gomoku bench`` with ``args``, run as a real subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "webapp.cli", "bench", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )


def test_bench_quick_json_has_the_figures() -> None:
    done = bench("--quick", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    print({k: v for k, v in figures.items() if k != "positions"})
    for key in ("nps", "depth_1s", "compile_s", "speedup_vs_plain", "positions"):
        assert key in figures
    assert figures["compile_s"] >= 0
    assert figures["depth_1s"] >= 1
    assert len(figures["positions"]) == 3
    for row in figures["positions"]:
        assert row["plain_nodes"] > 0 and row["depth"] >= 1
        Board.from_moves([], size=15).check_move(tuple(row["move"]))


def test_bench_times_its_searches_with_the_threads_asked_for() -> None:
    done = bench("--quick", "--json", "--threads", "2")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["threads"] == 2 and figures["nps"] > 0
    refused = bench("--threads", "0")
    assert refused.returncode == 2 and "--threads" in refused.stderr


def test_bench_positions_are_legal_unfinished_games() -> None:
    boards = bench_boards()
    assert len(boards) >= 10
    assert len({name for name, _ in BENCH_POSITIONS}) == len(BENCH_POSITIONS)
    for _, board in boards:
        assert not board.is_game_over()
        assert board.move_count >= 3


def test_plain_searcher_takes_a_win_and_blocks_a_four() -> None:
    # Black's four on row 3 is closed at (2, 3): (7, 3) wins for black, so white must take it.
    four = [(3, 3), (2, 3), (4, 3), (5, 10), (5, 3), (9, 10), (6, 3)]
    reply = PlainSearcher().search(Board.from_moves(four), 2)
    assert reply.move == (7, 3)
    assert reply.nodes > 0 and reply.depth == 2
    win = PlainSearcher().search(Board.from_moves([*four, (0, 0)]), 2)
    assert win.move == (7, 3)
    assert win.score == WIN_SCORE


def test_plain_searcher_refuses_finished_games() -> None:
    board = Board.from_moves(
        [(0, 0), (0, 5), (1, 0), (1, 5), (2, 0), (2, 5), (3, 0), (3, 5), (4, 0)]
    )
    with pytest.raises(GameOverError):
        PlainSearcher().search(board, 2)
