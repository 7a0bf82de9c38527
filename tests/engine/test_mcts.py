"""Behaviour of the MCTS player (``engine.search.mcts``): legal moves on every rule and size,
renju's forbidden points, the tactics it must never miss, the small-board move lists,
repeatability, tree reuse and the searcher controls it shares with the negamax
``Searcher``."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from engine import MATE, Board, GameOverError, IterationInfo, Limit, Rule, parse_point
from engine.kernel import mcts_tree as core
from engine.kernel.playouts import KIND_ALL, KIND_ATTACK, classify_moves, new_walk
from engine.search.mcts import MctsOptions, MctsSearcher
from engine.search.mcts_nodes import MOVE, VISITS, WINS, NodePool, Position, cell_of, point_of
from engine.search.result import MATE_BOUND

ROOT = Path(__file__).resolve().parents[2]

# Black has made a closed three across and a closed three down meeting at (8, 7): playing
# there makes two fours, a win in freestyle and a forbidden point for black in renju.
DOUBLE_FOUR_POSITION = [
    (5, 7), (4, 7), (6, 7), (8, 3), (7, 7), (0, 0),
    (8, 4), (14, 0), (8, 5), (0, 14), (8, 6), (14, 14),
]  # fmt: skip


@pytest.mark.parametrize("size", [7, 9, 15])
@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_plays_only_legal_moves(size: int, rule: str) -> None:
    rng = random.Random(size * 31 + len(rule))
    board = Board(size, rule)
    searcher = MctsSearcher(seed=size)
    for _ in range(12 if size > 7 else 8):
        if board.is_game_over():
            break
        # Random moves build varied positions; the searcher answers each one.
        board.push(rng.choice(board.legal_moves()))
        if board.is_game_over():
            break
        legal = set(board.legal_moves())
        result = searcher.search(board, Limit(nodes=150))
        assert result.move in legal
        assert result.pv and result.pv[0] == result.move
        board.push(result.move)


def test_double_four_wins_in_freestyle() -> None:
    board = Board.from_moves(DOUBLE_FOUR_POSITION, size=15, rule="freestyle")
    result = MctsSearcher(seed=1).search(board, Limit(nodes=200))
    assert result.move == (8, 7)
    assert result.score >= MATE_BOUND


def test_never_plays_renju_forbidden_point() -> None:
    board = Board.from_moves(DOUBLE_FOUR_POSITION, size=15, rule="renju")
    assert board.is_forbidden((8, 7))
    searcher = MctsSearcher(seed=1)
    for nodes in (50, 400):
        result = searcher.search(board, Limit(nodes=nodes))
        assert result.move != (8, 7)
        assert not board.is_forbidden(result.move)
        assert result.move in board.legal_moves()


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_takes_a_win_in_one(rule: str) -> None:
    # Black: four in a row on the bottom line with one end blocked; white elsewhere.
    moves = [(3, 14), (2, 14), (4, 14), (10, 3), (5, 14), (11, 5), (6, 14), (3, 3)]
    board = Board.from_moves(moves, size=15, rule=rule)
    result = MctsSearcher(seed=2).search(board, Limit(nodes=100))
    assert result.move == (7, 14)
    assert result.score == MATE - 1


@pytest.mark.parametrize("size", [7, 15])
def test_blocks_a_four(size: int) -> None:
    # White has four down column 1 with the top end blocked; black has nothing that wins.
    far = size - 1
    moves = [(1, 0), (1, 1), (far, far), (1, 2), (far - 2, 1), (1, 3), (far, 3), (1, 4)]
    board = Board.from_moves(moves, size=size)
    result = MctsSearcher(seed=3).search(board, Limit(nodes=200))
    assert result.move == (1, 5)


def test_same_seed_and_node_limit_repeat() -> None:
    board = Board.from_moves([(7, 7), (8, 8), (7, 8), (8, 7), (6, 9)], size=15)
    first = MctsSearcher(seed=42).search(board, Limit(nodes=600))
    second = MctsSearcher(seed=42).search(board, Limit(nodes=600))
    assert first.nodes == second.nodes == 600
    assert (first.move, first.score, first.pv, first.depth) == (
        second.move,
        second.score,
        second.pv,
        second.depth,
    )


def test_tree_is_kept_for_the_following_position() -> None:
    board = Board.from_moves([(7, 7), (8, 8), (7, 8)], size=15)
    searcher = MctsSearcher(seed=5)
    first = searcher.search(board, Limit(nodes=3000))
    assert searcher.reused_visits == 0
    assert len(first.pv) >= 2
    board.push(first.pv[0])
    board.push(first.pv[1])
    searcher.search(board, Limit(nodes=100))
    assert searcher.reused_visits > 0
    # An unrelated position starts afresh; so does a cleared searcher.
    searcher.search(Board.from_moves([(3, 3), (4, 4)], size=15), Limit(nodes=50))
    assert searcher.reused_visits == 0
    searcher.clear()
    searcher.search(board, Limit(nodes=50))
    assert searcher.reused_visits == 0


def test_reports_progress_and_stops_on_request() -> None:
    reports: list[IterationInfo] = []
    searcher = MctsSearcher(seed=7, on_iteration=reports.append, report_interval=0.05)
    board = Board.from_moves([(7, 7), (8, 8)], size=15)
    timer = threading.Timer(0.4, searcher.stop)
    timer.start()
    started = time.perf_counter()
    result = searcher.search(board, Limit())
    elapsed = time.perf_counter() - started
    timer.join()
    assert elapsed < 3.0
    assert result.nodes > 0
    assert result.move in board.legal_moves()
    assert len(reports) >= 2
    assert reports[-1].move == result.move
    assert all(r.nodes <= result.nodes for r in reports)


def test_empty_board_and_finished_game() -> None:
    assert MctsSearcher().search(Board(9), Limit(nodes=10)).move == (4, 4)
    won = Board.from_moves([(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0)])
    with pytest.raises(GameOverError):
        MctsSearcher().search(won, Limit(nodes=10))


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        MctsOptions(exploration=-1)
    with pytest.raises(ValueError):
        MctsSearcher(tree_mb=0)
    for fallible in (-0.1, 1.5):
        with pytest.raises(ValueError):
            MctsOptions(fallible=fallible)


@pytest.mark.slow
def test_works_without_the_compiler() -> None:
    code = (
        "from engine import Board, Limit\n"
        "from engine.search.mcts import MctsSearcher\n"
        "b = Board.from_moves([(3, 3), (2, 2)], size=7, rule='renju')\n"
        "print(MctsSearcher(seed=1).search(b, Limit(nodes=30)).move in b.legal_moves())\n"
        # Freestyle on a small board also runs the traps and the fallible playouts.
        "b = Board.from_moves([(3, 3), (2, 2), (3, 4), (4, 4)], size=7)\n"
        "print(MctsSearcher(seed=1).search(b, Limit(nodes=30)).move in b.legal_moves())\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"]


def test_rule_objects_are_accepted() -> None:
    board = Board.from_moves([(3, 3), (2, 2)], size=7, rule=Rule.STANDARD)
    assert MctsSearcher(seed=1).search(board, Limit(nodes=20)).move in board.legal_moves()


def test_finds_a_long_win_by_fours() -> None:
    # From self-play: black wins by continuous fours in 9 plies (tests/positions).
    black = ["h8", "k6", "k9", "k8", "j8", "i10", "h6", "f9", "i6", "h7", "g7", "f8", "g10"]
    white = ["i9", "g9", "i11", "k7", "i8", "j9", "h9", "g5", "g6", "g8", "j7", "f11", "i5"]
    moves = [parse_point(name, 15) for pair in zip(black, white, strict=True) for name in pair]
    board = Board.from_moves(moves, size=15)
    result = MctsSearcher(seed=4).search(board, Limit(nodes=200))
    assert result.score >= MATE_BOUND
    board.push(result.move)
    assert not board.is_game_over()


def test_finds_a_win_by_threes() -> None:
    # Black's (7, 7) makes two open threes; white's stones are far off.
    moves = [(5, 7), (0, 0), (6, 7), (14, 0), (7, 5), (0, 14), (7, 6), (14, 14)]
    board = Board.from_moves(moves, size=15)
    result = MctsSearcher(seed=6).search(board, Limit(nodes=2000))
    assert result.score >= MATE_BOUND
    assert result.move in board.legal_moves()


def test_reserve_keeps_quiet_moves_beside_plain_fours() -> None:
    # Black's closed three on the edge gives two plain fours and no winning threat.
    board = Board.from_moves([(0, 3), (6, 0), (1, 3), (6, 6), (2, 3), (0, 6)], size=7)
    position = Position.from_board(board)
    fours = {cell_of((3, 3), 7), cell_of((4, 3), 7)}

    def classify(reserve: bool) -> tuple[set[int], int]:
        walk = new_walk(position.st, position.cands)
        count, kind = classify_moves(walk, position.tables, 1, reserve)
        return {int(c) for c in walk.moves[:count]}, kind

    assert classify(False) == (fours, KIND_ATTACK)
    kept, kind = classify(True)
    assert kind == KIND_ALL
    assert fours < kept


def _root_rates(board: Board, greedy: float, iterations: int) -> dict[tuple[int, int], float]:
    """Win rates of the root's children after ``iterations`` tree iterations in which the
    opponent is a greedy attacker with probability ``greedy``."""
    position = Position.from_board(board)
    tree = NodePool(1 << 16)
    meta = np.zeros(core.META_LEN, dtype=np.int64)
    meta[core.META_USED] = tree.used
    meta[core.META_CAPACITY] = tree.capacity
    meta[core.META_ROOT_SIDE] = int(board.turn)
    meta[core.META_SIZE] = board.size
    meta[core.META_MAX_CHILDREN] = 32
    core.seed_random(7)
    settings = core.TreeSettings(0.5, 1.0, 0.5, 0.0, greedy)
    walk = new_walk(position.st, position.cands)
    core.run_iterations(iterations, settings, walk, position.tables, meta, tree.nodes)
    visits, wins, moves = tree.arrays[VISITS], tree.arrays[WINS], tree.arrays[MOVE]
    return {
        point_of(int(moves[child]), board.size): float(wins[child]) / int(visits[child])
        for child in tree.children(0)
        if visits[child] > 0
    }


def test_a_greedy_opponent_is_expected_to_answer_a_four_with_its_own() -> None:
    # Each side has a closed three on its edge; white, to move, can make a four first.
    board = Board.from_moves([(0, 6), (0, 0), (1, 6), (1, 0), (2, 6), (2, 0), (6, 3)], size=7)
    rational = _root_rates(board, 0.0, 3000)
    greedy = _root_rates(board, 1.0, 3000)
    # Against a greedy attacker the four wins at once: black makes its own and loses.
    assert greedy[(3, 0)] > 0.95
    assert max(greedy, key=greedy.__getitem__) in {(3, 0), (4, 0)}
    # Against good defence the four is blocked and wins nothing by itself.
    assert rational[(3, 0)] < 0.9


def test_greedy_must_be_a_probability() -> None:
    for greedy in (-0.5, 1.01):
        with pytest.raises(ValueError):
            MctsOptions(greedy=greedy)
