"""The plain-Python threat searches (``engine.search.threats``): forced wins by fours and
by threats, their lines replayed on a real board, single moves checked, every winning
move listed, the defender's replies and the moves that hold."""

from __future__ import annotations

from pathlib import Path

from engine import Board, Color, Searcher
from engine.kernel.state import index_point
from engine.kernel.threats import ROOT_VCT_DEPTH, root_vct
from engine.search.threats import ThreatKind, ThreatLimits, ThreatSearch
from tests.engine.puzzles import load_puzzle

POSITIONS = Path(__file__).resolve().parents[1] / "positions"
CORNERS = [(0, 0), (14, 0), (0, 14), (14, 14)]


def double_three_board() -> Board:
    """Black to move: (8, 7) makes two open threes at once (a win by threats, no fours);
    white's stones are in the corners."""
    black = [(6, 7), (7, 7), (8, 5), (8, 6)]
    moves: list[tuple[int, int]] = []
    for b, w in zip(black, CORNERS, strict=True):
        moves += [b, w]
    return Board.from_moves(moves)


def replay_wins(board: Board, line: list[tuple[int, int]]) -> None:
    attacker = board.turn
    trial = board.copy()
    for move in line:
        trial.push(move)
    outcome = trial.outcome()
    assert outcome is not None and outcome.winner is attacker


def test_vcf_line_replays_to_a_five() -> None:
    board = load_puzzle(POSITIONS / "vcf_selfplay_1.txt").board
    win = ThreatSearch().find_win(board)
    assert win is not None and win.kind is ThreatKind.VCF
    assert win.line[0] == win.move and len(win.line) == win.plies
    replay_wins(board, win.line)
    # Every attacking move of a VCF is a four: the defender's reply blocks it (the last
    # one may be an open four, with two points to block).
    for k in range(0, len(win.line) - 1, 2):
        trial = Board.from_moves(board.moves + win.line[: k + 1])
        blocks = [p for p in trial.legal_moves() if five_after(trial, p, board.turn)]
        assert win.line[k + 1] in blocks
        assert len(blocks) == 1 or k + 3 == len(win.line)


def five_after(board: Board, point: tuple[int, int], color: Color) -> bool:
    """Whether ``color`` (not to move in ``board``) would make five at ``point``."""
    trial = board.copy()
    trial.push(next(p for p in trial.legal_moves() if p != point and far(p, point)))
    trial.push(point)
    outcome = trial.outcome()
    return outcome is not None and outcome.winner is color


def far(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) > 12


def test_vct_by_double_three_and_its_line() -> None:
    board = double_three_board()
    search = ThreatSearch()
    assert search.find_win(board, line=False) is not None
    win = search.move_wins(board, (8, 7))
    assert win is not None and win.kind is ThreatKind.VCT
    replay_wins(board, win.line)
    # Fours only: no win, there is no three on the board.
    assert ThreatSearch(ThreatLimits(vct=False)).find_win(board) is None


def test_vct_follows_the_defenders_counter_four() -> None:
    # The double three of ``double_three_board``, but white has a four to make first:
    # (4, 10) after (1..3, 10), black (0, 10) at the other end. Black blocks it at
    # (5, 10) and the threes still win.
    black = [(6, 7), (7, 7), (8, 5), (8, 6), (0, 10)]
    white = [(1, 10), (2, 10), (3, 10), (14, 0), (14, 14)]
    board = Board.from_moves([m for pair in zip(black, white, strict=True) for m in pair])
    win = ThreatSearch().move_wins(board, (8, 7))
    assert win is not None and win.kind is ThreatKind.VCT
    assert len(win.line) == win.plies
    replay_wins(board, win.line)
    # The defence that lasts longest is the counter-four, met by the block.
    assert win.line[1:3] in ([(4, 10), (5, 10)], [(5, 10), (4, 10)])
    assert ThreatSearch().find_win(board) is not None
    # The searchers' quick root check stops at the counter-four; the complete one wins.
    searcher = Searcher()
    state, tables = searcher._prepare(board)
    hs = searcher._heuristics
    assert hs is not None
    assert root_vct(state, tables, hs, ROOT_VCT_DEPTH, 20_000, False) == 0
    assert root_vct(state, tables, hs, ROOT_VCT_DEPTH, 20_000, True) > 0
    assert index_point(state, int(hs.vcf_line[0])) == (8, 7)


def test_quiet_and_illegal_moves_do_not_win() -> None:
    board = double_three_board()
    search = ThreatSearch()
    assert search.move_wins(board, (3, 3)) is None
    assert search.move_wins(board, (7, 7)) is None  # occupied


def test_winning_moves_lists_only_wins() -> None:
    board = load_puzzle(POSITIONS / "vcf_selfplay_2.txt").board
    search = ThreatSearch(ThreatLimits(vct_nodes=5_000))
    wins = search.winning_moves(board)
    assert wins and [w.plies for w in wins] == sorted(w.plies for w in wins)
    for win in wins[:3]:
        again = search.move_wins(board, win.move)
        assert again is not None
        replay_wins(board, again.line)
    assert len(search.winning_moves(board, most=1)) == 1


def test_threat_and_holding_moves() -> None:
    # Black's open three (5..7, 7): white holds only on its two ends; a block one point
    # further leaves black an open four.
    board = Board.from_moves([(5, 7), (0, 0), (6, 7), (14, 14), (7, 7)])
    search = ThreatSearch()
    threat = search.threatens(board)
    assert threat is not None and threat.move in ((4, 7), (8, 7))
    assert search.holding_moves(board, most=40) == [(4, 7), (8, 7)]
    assert search.holding_moves(board, most=1) == [(4, 7)]
    assert search.defence_reply(board) in ((4, 7), (8, 7))
    # With black's double three on the board, nothing holds.
    lost = double_three_board()
    lost.pop()
    assert search.holding_moves(lost) == []


def test_defence_reply_blocks_the_four() -> None:
    board = load_puzzle(POSITIONS / "vcf_selfplay_1.txt").board
    win = ThreatSearch().find_win(board)
    assert win is not None
    after = board.copy()
    after.push(win.line[0])
    assert ThreatSearch().defence_reply(after) == win.line[1]


def test_finished_game_has_no_win() -> None:
    board = Board.from_moves(
        [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0)]
    )
    assert board.is_game_over()
    search = ThreatSearch()
    assert search.find_win(board) is None
    assert search.winning_moves(board) == []
    assert search.holding_moves(board) == []
