"""The puzzle miner (``engine.tools.puzzles``): a self-play game's final attack gives
puzzles whose solution the engine proves again (unique first move, a line that ends in
five); a position with several winning moves is rejected; mirror images are one puzzle;
the file format round-trips; ``gomoku puzzles mine`` writes a file from self-play."""

from __future__ import annotations

import json
from pathlib import Path

from engine import Board
from engine.search.threats import ThreatKind, ThreatSearch
from engine.tools.puzzles.command import main, read_puzzles, spread, write_puzzles
from engine.tools.puzzles.miner import GameRecord, PuzzleMiner, verify
from engine.tools.puzzles.puzzle import Goal, Puzzle, difficulty
from engine.tools.puzzles.symmetry import TRANSFORMS, position_key
from tests.engine.puzzles import load_puzzle

POSITIONS = Path(__file__).resolve().parents[1] / "positions"

# Self-play game 0 of the Gomocup 2026 openings (black wins by fours at move 45).
GAME = [
    (11, 13), (8, 12), (7, 10), (7, 13), (8, 14), (7, 11), (9, 13), (8, 10), (9, 11), (9, 9),
    (10, 8), (8, 9), (8, 11), (10, 9), (11, 9), (6, 9), (7, 9), (6, 10), (6, 11), (9, 12),
    (5, 13), (9, 7), (10, 12), (11, 11), (10, 13), (8, 13), (10, 10), (10, 11), (11, 10),
    (7, 8), (9, 10), (4, 8), (5, 9), (8, 7), (12, 8), (13, 7), (12, 10), (13, 10), (13, 11),
    (14, 12), (13, 13), (12, 13), (5, 10), (10, 5), (9, 6), (8, 8), (8, 6), (6, 8), (5, 8),
    (6, 7), (6, 6), (7, 7), (5, 7), (10, 7),
]  # fmt: skip


def mined() -> list[Puzzle]:
    return PuzzleMiner().mine(GameRecord(15, "freestyle", GAME))


def test_mined_puzzles_are_proven_by_the_engine() -> None:
    puzzles = mined()
    wins = [puzzle for puzzle in puzzles if puzzle.goal is Goal.WIN]
    assert wins, "the final attack of this game holds puzzles"
    # A defence puzzle (the move before the attack, where one reply alone holds) is
    # proven again too.
    assert all(verify(puzzle) for puzzle in puzzles if puzzle.goal is Goal.DEFEND)
    search = ThreatSearch()
    for puzzle in wins:
        board = puzzle.board()
        # The first move is the only threat move that wins...
        wins = search.winning_moves(board)
        assert [w.move for w in wins] == puzzle.solution[:1]
        # ...and the recorded line, played out on the rules board, is a five for the
        # side to move, every defender reply in it forced or the longest defence.
        trial = board.copy()
        for move in puzzle.solution:
            trial.push(move)
        outcome = trial.outcome()
        assert outcome is not None and outcome.winner is board.turn
        assert len(puzzle.solution) == puzzle.plies >= 5
        assert puzzle.nodes > 0
        assert puzzle.difficulty == difficulty(Goal.WIN, puzzle.kind, puzzle.plies, puzzle.nodes)
        assert verify(puzzle)


def test_a_position_with_several_winning_moves_is_rejected() -> None:
    board = load_puzzle(POSITIONS / "vcf_selfplay_1.txt").board
    assert len(ThreatSearch().winning_moves(board, most=2)) == 2
    game = GameRecord(15, "freestyle", board.moves)
    assert PuzzleMiner().win_puzzle(game, len(board.moves)) is None
    # A puzzle claiming one of those moves does not verify either.
    first = ThreatSearch().find_win(board)
    assert first is not None
    claimed = Puzzle(
        "x", 15, "freestyle", board.moves, Goal.WIN, ThreatKind.VCF, first.line, 9, 1, "test"
    )
    assert not verify(claimed)
    # The miner keeps only what a fresh search proves.
    miner = PuzzleMiner()
    kept: list[Puzzle] = []
    miner._keep(kept, claimed)
    assert kept == []
    good = mined()[0]
    miner._keep(kept, good)
    assert kept == [good]


def test_a_wrong_solution_does_not_verify() -> None:
    puzzle = mined()[0]
    board = puzzle.board()
    other = next(p for p in board.legal_moves() if p != puzzle.solution[0])
    wrong = Puzzle(**{**puzzle.__dict__, "solution": [other, *puzzle.solution[1:]]})
    assert not verify(wrong)


def test_mirror_images_are_one_puzzle() -> None:
    size = 15
    for transform in TRANSFORMS:
        image = [transform(x, y, size) for x, y in GAME]
        assert position_key(image, size, "freestyle", "win") == position_key(
            GAME, size, "freestyle", "win"
        )
    assert position_key(GAME, size, "freestyle", "win") != position_key(
        GAME, size, "standard", "win"
    )
    assert position_key(GAME, size, "freestyle", "win") != position_key(
        GAME[:-1], size, "freestyle", "win"
    )
    miner = PuzzleMiner()
    first = miner.mine(GameRecord(15, "freestyle", GAME))
    mirrored = [TRANSFORMS[5](x, y, size) for x, y in GAME]
    keys = {p.key for p in first}
    assert keys and not keys & {p.key for p in miner.mine(GameRecord(15, "freestyle", mirrored))}
    # A fresh miner finds the mirrored puzzles again, under the same keys.
    again = PuzzleMiner().mine(GameRecord(15, "freestyle", mirrored))
    assert keys & {p.key for p in again}


def test_illegal_and_unfinished_games_give_nothing() -> None:
    miner = PuzzleMiner()
    assert miner.mine(GameRecord(15, "freestyle", [(7, 7), (7, 7)])) == []
    assert miner.mine(GameRecord(15, "freestyle", [(7, 7), (8, 8), (9, 9)])) == []


def test_difficulty_grows_with_length_effort_and_threes() -> None:
    assert difficulty(Goal.WIN, ThreatKind.VCF, 7, 100) > difficulty(
        Goal.WIN, ThreatKind.VCF, 5, 100
    )
    assert difficulty(Goal.WIN, ThreatKind.VCF, 5, 10_000) > difficulty(
        Goal.WIN, ThreatKind.VCF, 5, 100
    )
    assert difficulty(Goal.WIN, ThreatKind.VCT, 5, 100) > difficulty(
        Goal.WIN, ThreatKind.VCF, 5, 100
    )


def test_file_round_trip_and_spread(tmp_path: Path) -> None:
    puzzles = mined()
    path = tmp_path / "p.json"
    write_puzzles(path, puzzles)
    again = read_puzzles(path.read_text())
    assert sorted(p.key for p in again) == sorted(p.key for p in puzzles)
    assert [p.difficulty for p in again] == sorted(p.difficulty for p in again)
    assert again[0].board().moves == Board.from_moves(again[0].moves).moves
    assert len(spread(again, 1)) == 1
    try:
        read_puzzles(json.dumps({"version": 99, "puzzles": []}))
    except ValueError:
        pass
    else:
        raise AssertionError("an unknown version must be refused")


def test_command_mines_self_play_into_a_file(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "starter.json"
    assert main(["mine", "--selfplay", "1", "--nodes", "3000", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "1 games" in printed and "puzzles" in printed
    for puzzle in read_puzzles(out.read_text()):
        assert verify(puzzle)
    assert main(["mine"]) == 2
