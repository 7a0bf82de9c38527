"""The plain-Python threat searches (``engine.search.threats``): a VCF's line replays to
a five, a double open three is a VCT but no VCF, quiet and finished positions have none,
and renju black's threes are not trusted."""

from __future__ import annotations

from engine import Board
from engine.search.threats import ThreatKind, find_forced_win, find_vcf, find_vct
from tests.engine.puzzles import POSITIONS, load_puzzle

CORNERS = [(0, 0), (14, 0), (0, 14), (14, 14)]


def _board(black: list[tuple[int, int]], white: list[tuple[int, int]], rule: str) -> Board:
    moves: list[tuple[int, int]] = []
    for k, stone in enumerate(black):
        moves.append(stone)
        if k < len(white):
            moves.append(white[k])
    return Board.from_moves(moves, size=15, rule=rule)


def test_vcf_line_replays_to_the_attackers_five() -> None:
    board = load_puzzle(POSITIONS / "vcf_selfplay_1.txt").board
    attacker = board.turn
    win = find_vcf(board)
    assert win is not None
    assert win.kind is ThreatKind.VCF
    assert win.plies == 9
    assert win.attacker_moves == 5
    assert win.move == win.line[0]
    replay = board.copy()
    for point in win.line:
        replay.push(point)
    if len(win.line) == win.plies - 2:
        # The line ends with an open four: whatever the defender plays, a five follows.
        assert replay.outcome() is None
        replay.push(replay.legal_moves()[0])
        five = find_vcf(replay)
        assert five is not None and five.plies == 1
        replay.push(five.move)
    else:
        assert len(win.line) == win.plies
    outcome = replay.outcome()
    assert outcome is not None and outcome.winner == attacker
    assert win.to_json()["kind"] == "vcf"


def test_a_four_is_a_vcf_of_one_ply() -> None:
    board = _board([(3, 7), (4, 7), (5, 7), (6, 7), (9, 9)], [*CORNERS, (2, 7)], "freestyle")
    win = find_forced_win(board)
    assert win is not None
    assert (win.kind, win.plies, win.line) == (ThreatKind.VCF, 1, [(7, 7)])


def test_a_double_open_three_is_a_vct_and_no_vcf() -> None:
    board = _board([(5, 7), (6, 7), (7, 5), (7, 6)], CORNERS, "freestyle")
    assert find_vcf(board) is None
    win = find_vct(board)
    assert win is not None
    assert win.kind is ThreatKind.VCT
    assert win.plies >= 5
    assert win.move in board.legal_moves()
    both = find_forced_win(board)
    assert both is not None and both.kind is ThreatKind.VCT


def test_quiet_and_finished_positions_have_no_forced_win() -> None:
    quiet = Board.from_moves([(7, 7), (8, 8)], size=15, rule="freestyle")
    assert find_forced_win(quiet) is None
    over = _board([(3, 7), (4, 7), (5, 7), (6, 7), (7, 7)], CORNERS, "freestyle")
    assert over.is_game_over()
    assert find_vcf(over) is None
    assert find_vct(over) is None


def test_renju_black_threes_are_not_trusted() -> None:
    board = _board([(5, 7), (6, 7), (7, 4), (7, 5)], CORNERS, "renju")
    assert find_vct(board) is None
