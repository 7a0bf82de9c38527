"""Swap2: the decisions of ``engine.search.swap2`` and the brain's SWAP2BOARD answers, the
latter over the pipes of a real ``gomoku pbrain`` subprocess."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator

import pytest

from engine import Board, Limit, Searcher
from engine.protocol.gomocup import BrainProcess
from engine.search.swap2 import (
    OPENINGS,
    Swap2Action,
    choose_after_five,
    choose_after_three,
    decide,
    fallback,
    searches_needed,
)

BRAIN = [sys.executable, "-m", "webapp.cli", "pbrain"]
START_TIMEOUT = 120.0  # the first START may compile the search core
LIMIT_MS = 1000
NODES = Limit(nodes=20_000)

# Black has an open three on the diagonal and white a stone far away: black is winning.
BLACK_AHEAD_3 = [(7, 7), (14, 14), (8, 8)]
BLACK_AHEAD_5 = [*BLACK_AHEAD_3, (0, 14), (9, 9)]
# Black's stones are scattered in the corners while white has two in the middle, to move.
WHITE_AHEAD_5 = [(0, 0), (7, 7), (14, 0), (8, 7), (0, 14)]


def send_block(process: BrainProcess, stones: list[tuple[int, int]]) -> str:
    process.send("SWAP2BOARD")
    for x, y in stones:
        process.send(f"{x},{y}")
    process.send("DONE")
    # The manager's clock: the answer must come within the turn limit.
    return process.read_reply(LIMIT_MS / 1000)


def placed(reply: str) -> list[tuple[int, int]]:
    stones = []
    for word in reply.split():
        x, y = (int(v) for v in word.split(","))
        stones.append((x, y))
    return stones


@pytest.fixture
def brain() -> Iterator[BrainProcess]:
    process = BrainProcess(BRAIN, name="ours")
    try:
        process.start(15, timeout=START_TIMEOUT)
        process.info("timeout_turn", LIMIT_MS)
        yield process
    finally:
        process.kill()


# -- the decisions ----------------------------------------------------------------------


def test_the_opening_is_three_legal_stones_from_the_list() -> None:
    decision = decide(Board(15), Searcher(tt_mb=4), NODES)
    assert decision.action is Swap2Action.OPEN
    assert len(decision.stones) == 3
    Board.from_moves(list(decision.stones), size=15)  # raises if not legal
    offsets = tuple((x - 7, y - 7) for x, y in decision.stones)
    assert offsets in OPENINGS


def test_the_chooser_takes_the_winning_side_after_three() -> None:
    decision = choose_after_three(Board.from_moves(BLACK_AHEAD_3), Searcher(tt_mb=4), NODES)
    assert decision.action is Swap2Action.SWAP
    assert decision.stones == ()
    assert decision.score > 0


def test_the_chooser_takes_the_winning_side_after_five() -> None:
    searcher = Searcher(tt_mb=4)
    black_ahead = choose_after_five(Board.from_moves(BLACK_AHEAD_5), searcher, NODES)
    assert black_ahead.action is Swap2Action.SWAP
    white_ahead = choose_after_five(Board.from_moves(WHITE_AHEAD_5), searcher, NODES)
    assert white_ahead.action is Swap2Action.STAY
    assert len(white_ahead.stones) == 1
    Board.from_moves(WHITE_AHEAD_5).check_move(white_ahead.stones[0])


def test_decisions_are_deterministic_under_a_node_limit() -> None:
    for moves in ([], [(7, 7), (8, 7), (9, 9)], [(7, 7), (8, 7), (9, 9), (8, 8), (8, 6)]):
        board = Board.from_moves(moves)
        first = decide(board, Searcher(tt_mb=4), NODES)
        again = decide(board, Searcher(tt_mb=4), NODES)
        assert first == again


@pytest.mark.parametrize("moves", [BLACK_AHEAD_3, WHITE_AHEAD_5, [(7, 7), (8, 7), (9, 9)]])
def test_a_search_stopped_before_its_first_iteration_decides_nothing(
    moves: list[tuple[int, int]],
) -> None:
    # A one-node search finishes no iteration (a deadline hit while the process is held
    # up does the same): its score of 0 must not read as an even position.
    board = Board.from_moves(moves)
    assert Searcher(tt_mb=4).search(board, Limit(nodes=1)).depth == 0
    assert decide(board, Searcher(tt_mb=4), Limit(nodes=1)) == fallback(board)


def test_only_zero_three_or_five_stones_are_decided() -> None:
    with pytest.raises(ValueError):
        decide(Board.from_moves([(7, 7)]), Searcher(tt_mb=4), NODES)
    with pytest.raises(ValueError):
        searches_needed(4)


# -- the protocol ------------------------------------------------------------------------


def test_no_stones_get_three_legal_stones(brain: BrainProcess) -> None:
    stones = placed(send_block(brain, []))
    assert len(stones) == 3
    Board.from_moves(stones, size=15)


def test_three_stones_get_swap_or_our_stones(brain: BrainProcess) -> None:
    opening = [(7, 7), (8, 7), (9, 9)]
    reply = send_block(brain, opening)
    if reply != "SWAP":
        stones = placed(reply)
        assert len(stones) in (1, 2)
        Board.from_moves(opening + stones, size=15)
    assert send_block(brain, BLACK_AHEAD_3) == "SWAP"


def test_five_stones_get_swap_or_a_legal_move(brain: BrainProcess) -> None:
    opening = [(7, 7), (8, 7), (9, 9), (8, 8), (8, 6)]
    reply = send_block(brain, opening)
    if reply != "SWAP":
        stones = placed(reply)
        assert len(stones) == 1
        Board.from_moves(opening + stones, size=15)
    assert send_block(brain, BLACK_AHEAD_5) == "SWAP"
    move = placed(send_block(brain, WHITE_AHEAD_5))
    assert len(move) == 1
    Board.from_moves(WHITE_AHEAD_5 + move, size=15)


@pytest.mark.parametrize(
    "lines",
    [
        ["SWAP2BOARD", "7,7", "DONE"],  # neither 0, 3 nor 5 stones
        ["SWAP2BOARD", "7,7", "8,8", "7,7", "DONE"],  # a stone on a stone
        ["SWAP2BOARD", "7,7", "8,8", "20,3", "DONE"],  # off the board
        ["SWAP2BOARD", "7,7", "8,x", "9,9", "DONE"],  # not a point
        ["SWAP2BOARD 3", "DONE"],  # an argument
    ],
)
def test_malformed_blocks_get_an_error_and_the_brain_goes_on(
    brain: BrainProcess, lines: list[str]
) -> None:
    for line in lines:
        brain.send(line)
    assert brain.read_reply(LIMIT_MS / 1000).startswith("ERROR")
    assert len(placed(send_block(brain, []))) == 3
    brain.send("BEGIN")
    assert brain.read_reply(LIMIT_MS / 1000) == "7,7"


def test_a_passed_deadline_gives_a_decision_without_search() -> None:
    searcher = Searcher(tt_mb=4)
    past = time.perf_counter()
    opening = decide(Board(15), searcher, NODES, deadline=past)
    assert opening == fallback(Board(15))
    assert opening.action is Swap2Action.OPEN and len(opening.stones) == 3
    three = Board.from_moves(BLACK_AHEAD_3)
    assert decide(three, searcher, NODES, deadline=past).action is Swap2Action.SWAP
