"""The searcher: puzzles from data files, mate distances, determinism, limits, the stop
flag, progress callbacks and legality on every size and rule."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from engine import MATE, Board, Color, Limit, Rule, Searcher
from engine.search.result import MATE_BOUND
from tests.engine.puzzles import Puzzle, all_puzzles

PUZZLES = all_puzzles()
ROOT = Path(__file__).resolve().parents[2]


def five_points(board: Board, color: Color) -> list[tuple[int, int]]:
    points = []
    for point in board.empty_points():
        trial = board.copy()
        # Play the point for ``color`` regardless of whose turn it is.
        if trial.turn is not color:
            continue
        trial.push(point)
        outcome = trial.outcome()
        if outcome is not None and outcome.winner is color and outcome.reason == "five":
            points.append(point)
    return points


def forced_playout(board: Board, attacker: Color, plies: int = 40) -> Board:
    """The attacker plays the engine's moves; the defender answers fours by force and
    otherwise defends with the engine too."""
    board = board.copy()
    searcher = Searcher()
    for _ in range(plies):
        if board.is_game_over():
            break
        if board.turn is attacker:
            board.push(searcher.search(board, Limit(time=0.3)).move)
        else:
            threats = five_points_for_opponent(board)
            if threats:
                board.push(threats[0])
            else:
                board.push(Searcher().search(board, Limit(time=0.3)).move)
    return board


def five_points_for_opponent(board: Board) -> list[tuple[int, int]]:
    """Points where the side not to move would make five (the defender's blocks)."""
    blocks = []
    for point in board.empty_points():
        probe = board.copy()
        probe._grid[point[1]][point[0]] = int(board.turn.other)  # test-only probe
        if probe._five_through(point[0], point[1], board.turn.other):
            blocks.append(point)
    return blocks


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.name for p in PUZZLES])
def test_puzzle(puzzle: Puzzle) -> None:
    board = puzzle.board
    result = Searcher().search(board, Limit(time=1.0))
    assert board.legal_moves() and result.move in board.legal_moves()
    if puzzle.kind == "win":
        assert result.move in puzzle.expect
        assert result.score == MATE - 1
    elif puzzle.kind == "block":
        assert result.move in puzzle.expect
    elif puzzle.kind == "vcf":
        assert result.score >= MATE_BOUND, "the search should prove the win"
        attacker = board.turn
        final = forced_playout(board, attacker)
        outcome = final.outcome()
        assert outcome is not None and outcome.winner is attacker
    elif puzzle.kind == "avoid":
        assert result.move not in puzzle.forbidden
        assert not board.is_forbidden(result.move)
    else:
        pytest.fail(f"unknown puzzle kind {puzzle.kind}")


def test_faster_win_scores_higher_than_slower() -> None:
    win_now = next(p for p in PUZZLES if p.kind == "win").board
    vcf = next(p for p in PUZZLES if p.kind == "vcf").board
    now = Searcher().search(win_now, Limit(time=0.5)).score
    later = Searcher().search(vcf, Limit(time=0.5)).score
    assert now == MATE - 1
    assert MATE_BOUND <= later < now


def test_losing_side_delays_the_loss() -> None:
    # White cannot stop black's open four: the loss is scored, and white still blocks.
    board = Board.from_moves([(5, 7), (0, 0), (6, 7), (0, 2), (7, 7), (0, 4), (8, 7)])
    result = Searcher().search(board, Limit(time=0.5))
    assert result.score <= -MATE_BOUND
    assert result.move in [(4, 7), (9, 7)]


def test_a_lost_renju_black_plays_near_the_stones_not_in_a_corner() -> None:
    # White's four can only be blocked on a point forbidden to black: black is lost
    # whatever it plays, and still plays a move of the fight.
    moves = [(7, 7), (9, 9), (6, 6), (8, 10), (8, 6), (10, 9), (7, 6), (9, 6), (5, 6),
             (4, 6), (7, 5), (7, 4), (6, 7), (7, 9), (8, 9), (5, 7)]  # fmt: skip
    board = Board.from_moves(moves, rule="renju")
    result = Searcher().search(board, Limit(time=0.5))
    assert result.score <= -MATE_BOUND
    assert result.move in board.legal_moves()
    assert result.pv[0] == result.move
    distance = min(max(abs(result.move[0] - x), abs(result.move[1] - y)) for x, y in moves)
    assert distance <= 2, result.move


def test_fixed_node_limit_is_deterministic() -> None:
    board = Board.from_moves([(7, 7), (8, 8), (8, 7), (6, 7), (7, 8), (9, 9)])
    first = Searcher().search(board, Limit(nodes=30000))
    second = Searcher().search(board, Limit(nodes=30000))
    assert (first.move, first.score, first.nodes, first.depth) == (
        second.move,
        second.score,
        second.nodes,
        second.depth,
    )
    assert first.nodes >= 30000 - 5000


def test_a_search_stopped_mid_iteration_keeps_a_finished_score() -> None:
    # White to move against black's open two with a stone far away: behind at every depth.
    # Node limits that stop the search at many points of its last iteration (a window
    # re-search included) must report a score some finished iteration or window gave, not
    # the 0 of a root that finished no move.
    board = Board.from_moves([(7, 7), (14, 14), (8, 8)])
    searcher = Searcher(tt_mb=16)
    finished = searcher.search(board, Limit(depth=8))
    assert finished.score < -300
    for nodes in range(400_000, 560_000, 20_000):
        searcher.clear()
        result = searcher.search(board, Limit(nodes=nodes))
        assert result.depth > 8
        assert result.score < -300, (nodes, result.depth, result.score, result.move)


def test_depth_limit_and_progress_callback() -> None:
    seen: list[int] = []
    searcher = Searcher(on_iteration=lambda info: seen.append(info.depth))
    board = Board.from_moves([(7, 7), (8, 8), (6, 8)])
    result = searcher.search(board, Limit(depth=5))
    assert result.depth == 5
    assert seen == [1, 2, 3, 4, 5]
    assert result.pv and result.pv[0] == result.move


def test_time_limit_is_respected() -> None:
    board = Board.from_moves([(7, 7), (8, 8), (6, 8), (9, 9)])
    start = time.perf_counter()
    Searcher().search(board, Limit(time=0.3))
    assert time.perf_counter() - start < 0.3 + 0.15


def test_setting_up_counts_against_the_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    class SlowToSetUp(Searcher):
        def _prepare(self, board: Board) -> Any:
            time.sleep(0.2)
            return super()._prepare(board)

    intervals: list[float] = []

    class Timer(threading.Timer):
        def __init__(self, interval: float, function: Any) -> None:
            intervals.append(interval)
            super().__init__(interval, function)

    monkeypatch.setattr("engine.search.searcher.threading.Timer", Timer)
    board = Board.from_moves([(7, 7), (8, 8)])
    result = SlowToSetUp().search(board, Limit(time=0.5))
    # The stop is set for what is left of the 0.5 s, not for another 0.5 s after the setup.
    assert len(intervals) == 1
    assert 0.0 < intervals[0] <= 0.3 + 0.01
    assert result.move in board.legal_moves()


def test_a_new_iteration_starts_within_the_share_or_with_spend_all_until_the_time() -> None:
    assert Limit(time=1.0).may_deepen(0.4, 0.45)
    assert not Limit(time=1.0).may_deepen(0.5, 0.45)
    assert Limit(time=1.0, spend_all=True).may_deepen(0.9, 0.45)
    assert not Limit(time=1.0, spend_all=True).may_deepen(1.0, 0.45)
    assert Limit(depth=3).may_deepen(100.0, 0.45)


def test_spend_all_keeps_deepening_until_the_time_is_up() -> None:
    # Two stones: black's forced win in freestyle lies far beyond any search of 0.4 s,
    # so nothing ends the search early (with four stones a fast machine finds one).
    board = Board.from_moves([(7, 7), (8, 8)])
    searcher = Searcher()
    searcher.search(board, Limit(depth=2))  # load the core before timing
    searcher.clear()
    start = time.perf_counter()
    spent = searcher.search(board, Limit(time=0.4, spend_all=True))
    elapsed = time.perf_counter() - start
    assert abs(spent.score) < MATE_BOUND
    assert 0.38 <= elapsed < 0.4 + 0.15
    assert spent.move in board.legal_moves()


def test_clear_zeroes_the_tables_in_place_and_forgets_like_a_fresh_searcher() -> None:
    board = Board.from_moves([(7, 7), (8, 8), (6, 8), (9, 9), (5, 9)])
    fresh = Searcher(tt_mb=8).search(board, Limit(nodes=30_000))
    searcher = Searcher(tt_mb=8)
    searcher.search(Board.from_moves([(7, 7), (7, 8), (8, 7)]), Limit(depth=6))
    tt, heuristics = searcher._tt, searcher._heuristics
    assert tt is not None and heuristics is not None
    assert tt.slots.any() and heuristics.history.any()
    searcher.clear()
    # The same arrays, emptied: nothing is allocated again inside the next search's time.
    assert searcher._tt is tt and searcher._heuristics is heuristics
    assert not tt.slots.any()
    assert not any(array.any() for array in heuristics)
    again = searcher.search(board, Limit(nodes=30_000))
    assert (again.move, again.score, again.nodes, again.pv) == (
        fresh.move,
        fresh.score,
        fresh.nodes,
        fresh.pv,
    )


def test_stop_flag_ends_an_unlimited_search() -> None:
    searcher = Searcher()
    board = Board.from_moves([(7, 7), (8, 8), (6, 8), (9, 9)])
    results = []
    worker = threading.Thread(target=lambda: results.append(searcher.search(board, Limit())))
    worker.start()
    time.sleep(0.5)
    searcher.stop()
    worker.join(timeout=5)
    assert not worker.is_alive()
    assert results and results[0].move in board.legal_moves()


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
@pytest.mark.parametrize("size", [7, 9, 15, 19, 20, 22])
def test_legal_moves_on_every_size_and_rule(size: int, rule: str) -> None:
    board = Board(size, rule)
    searcher = Searcher()
    for _ in range(12):
        if board.is_game_over():
            break
        move = searcher.search(board, Limit(nodes=3000)).move
        assert move in board.legal_moves()
        board.push(move)


def test_renju_black_never_plays_forbidden_moves_in_self_play() -> None:
    board = Board(15, Rule.RENJU)
    searcher = Searcher(seed=3, noise=40)
    while not board.is_game_over() and board.move_count < 60:
        move = searcher.search(board, Limit(nodes=4000)).move
        if board.turn is Color.BLACK:
            assert not board.is_forbidden(move)
        board.push(move)
    outcome = board.outcome()
    assert outcome is None or outcome.reason != "forbidden"


def test_any_whole_number_seeds_the_noise() -> None:
    # Training games seed their searchers with numbers in the billions; the mix must not
    # overflow the kernel's 64-bit scalars, and the same seed plays the same move.
    board = Board.from_moves([(7, 7), (8, 8)])
    moves = {
        Searcher(seed=seed, noise=40).search(board, Limit(nodes=2000)).move
        for seed in (41_000_123, 41_000_123, 2**70)
    }
    assert moves <= set(board.legal_moves())
    first = Searcher(seed=41_000_123, noise=40).search(board, Limit(nodes=2000)).move
    again = Searcher(seed=41_000_123, noise=40).search(board, Limit(nodes=2000)).move
    assert first == again


def test_game_over_board_cannot_be_searched() -> None:
    board = Board.from_moves(
        [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0)]
    )
    with pytest.raises(ValueError):
        Searcher().search(board, Limit(depth=1))


def test_engine_imports_no_web_code() -> None:
    web = {"flask", "flask_socketio", "socketio", "webapp", "sqlalchemy", "engineio"}
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in web, f"{path} imports {name}"


def test_search_runs_with_jit_disabled() -> None:
    code = (
        "from engine import Board, Limit, Searcher\n"
        "b = Board.from_moves([(7, 7), (8, 8), (8, 7)], size=9)\n"
        "r = Searcher().search(b, Limit(nodes=200))\n"
        "print(r.move in b.legal_moves())\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
