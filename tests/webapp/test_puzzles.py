"""Puzzles on the site: the starter set fills an empty database once; the solving flow
(the stored line's move and the defender's reply, a wrong move, a deviation re-checked
live, a defence) with both ratings and the streak changed once per attempt; refusals
that change nothing; the JSON API; ``gomoku puzzles mine --games-from-db``."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine import Board
from engine.search.threats import ThreatSearch
from engine.tools.puzzles.miner import GameRecord, PuzzleMiner, verify
from engine.tools.puzzles.puzzle import Goal, Puzzle
from tests.engine.test_puzzle_miner import GAME
from webapp.puzzles.checker import LiveChecker
from webapp.puzzles.repo import PuzzleRepo
from webapp.puzzles.service import PuzzleError, PuzzleService
from webapp.puzzles.starter import STARTER_FILE, load_starter, starter_puzzles
from webapp.storage.store import make_engine


@pytest.fixture
def repo(tmp_path: Path) -> PuzzleRepo:
    return PuzzleRepo(make_engine(f"sqlite:///{tmp_path / 'p.sqlite3'}"))


def service_with(repo: PuzzleRepo, puzzles: list[Puzzle]) -> PuzzleService:
    repo.add(puzzles)
    return PuzzleService(repo, LiveChecker(), random.Random(1))


def win_puzzle() -> Puzzle:
    return PuzzleMiner().mine(GameRecord(15, "freestyle", GAME))[0]


def test_starter_file_is_shipped_and_proven() -> None:
    puzzles = starter_puzzles()
    assert STARTER_FILE.name == "starter.json" and len(puzzles) >= 20
    assert {p.goal for p in puzzles} == {Goal.WIN, Goal.DEFEND}
    assert len({p.key for p in puzzles}) == len(puzzles)
    for puzzle in random.Random(3).sample(puzzles, 4):
        assert verify(puzzle), puzzle.key


def test_starter_set_loads_into_an_empty_database_once(repo: PuzzleRepo) -> None:
    count = len(starter_puzzles())
    assert load_starter(repo) == count
    assert load_starter(repo) == 0
    assert repo.count() == count


def test_fresh_app_has_puzzles(client: Any) -> None:
    page = client.get("/puzzles")
    assert page.status_code == 200 and b"puzzles.js" in page.data
    first = client.post("/api/v1/puzzles/next", json={})
    assert first.status_code == 200
    data = first.get_json()
    assert data["puzzle"]["moves"] and data["played"] == [] and not data["finished"]
    assert "solution" not in data
    # A reload resumes the same attempt.
    assert client.post("/api/v1/puzzles/next", json={}).get_json()["attempt"] == data["attempt"]
    me = client.get("/api/v1/puzzles/me").get_json()
    assert me["rating"] == 1500 and me["streak"] == 0


def test_api_refuses_bad_input(client: Any) -> None:
    attempt = client.post("/api/v1/puzzles/next", json={}).get_json()["attempt"]
    url = f"/api/v1/puzzles/attempts/{attempt}/move"
    assert client.post(url, json={"x": "a", "y": 1}).status_code == 400
    assert client.post(url, data="nope").status_code == 400
    assert (
        client.post("/api/v1/puzzles/attempts/999999/move", json={"x": 1, "y": 1}).status_code
        == 404
    )
    board = client.post("/api/v1/puzzles/next", json={}).get_json()["puzzle"]["moves"]
    taken = board[0]
    refused = client.post(url, json={"x": taken[0], "y": taken[1]})
    assert refused.status_code == 400 and refused.get_json()["code"] == "illegal_move"
    assert client.post("/api/v1/puzzles/next", json={}).get_json()["played"] == []


def test_solving_along_the_line_updates_ratings_once(repo: PuzzleRepo) -> None:
    puzzle = win_puzzle()
    puzzles = service_with(repo, [puzzle])
    view = puzzles.next_attempt("v1")
    attempt = view["attempt"]
    line = puzzle.solution
    for k in range(0, len(line) - 1, 2):
        step = puzzles.play("v1", attempt, line[k])
        assert step["status"] == "continue"
        assert step["reply"] == list(line[k + 1])  # the defender answers along the line
    done = puzzles.play("v1", attempt, line[-1])
    assert done["status"] == "solved" and done["solved"] is True
    assert done["solution"] == [list(p) for p in line]
    player = repo.player("v1")
    assert player.rating.rating > 1500 and player.streak == 1 and player.attempts == 1
    stored = repo.near(0, set())[0]
    assert stored.attempts == 1 and stored.solved == 1
    assert stored.rating.rating < puzzle.difficulty
    # The attempt is over: another move or giving up changes nothing.
    with pytest.raises(PuzzleError) as refused:
        puzzles.play("v1", attempt, line[0])
    assert refused.value.status == 409
    with pytest.raises(PuzzleError):
        puzzles.resign("v1", attempt)
    assert repo.player("v1") == player
    # Someone else cannot play it.
    with pytest.raises(PuzzleError) as other:
        puzzles.play("v2", attempt, line[0])
    assert other.value.status == 404


def test_a_wrong_move_fails_and_resets_the_streak(repo: PuzzleRepo) -> None:
    puzzle = win_puzzle()
    puzzles = service_with(repo, [puzzle])
    attempt = puzzles.next_attempt("v1")["attempt"]
    board = puzzle.board()
    wrong = next(p for p in board.legal_moves() if max(abs(p[0] - 7), abs(p[1] - 7)) == 7)
    failed = puzzles.play("v1", attempt, wrong)
    assert failed["status"] == "failed" and failed["solved"] is False
    assert failed["solution"] == [list(p) for p in puzzle.solution]
    assert failed["change"] < 0
    player = repo.player("v1")
    assert player.rating.rating < 1500 and player.streak == 0 and player.solved == 0
    assert repo.near(0, set())[0].rating.rating > puzzle.difficulty


def test_giving_up_counts_as_a_failure(repo: PuzzleRepo) -> None:
    puzzles = service_with(repo, [win_puzzle()])
    attempt = puzzles.next_attempt("v1")["attempt"]
    assert puzzles.resign("v1", attempt)["status"] == "failed"
    assert repo.player("v1").attempts == 1


def deviation() -> tuple[Puzzle, int, tuple[int, int]]:
    """A starter puzzle, a step of its line (an attacker's ply after the first) and a move
    other than the line's that still wins there, as the live check sees it."""
    checker = LiveChecker()
    for puzzle in starter_puzzles():
        if puzzle.goal is not Goal.WIN:
            continue
        for ply in range(2, len(puzzle.solution) - 1, 2):
            board = Board.from_moves(puzzle.moves + puzzle.solution[:ply])
            for win in ThreatSearch().winning_moves(board):
                if win.move != puzzle.solution[ply] and checker.move_wins(board, win.move):
                    return puzzle, ply, win.move
    raise AssertionError("no starter puzzle has a second way to win along its line")


def test_a_deviation_that_still_wins_is_accepted(repo: PuzzleRepo) -> None:
    puzzle, ply, move = deviation()
    puzzles = service_with(repo, [puzzle])
    attempt = puzzles.next_attempt("v1")["attempt"]
    for k in range(0, ply, 2):
        assert puzzles.play("v1", attempt, puzzle.solution[k])["status"] == "continue"
    step = puzzles.play("v1", attempt, move)
    assert step["status"] in ("continue", "solved")
    while step["status"] == "continue":
        # The defender's reply came from the live check's own line: go on winning.
        current = Board.from_moves(puzzle.moves + [(p[0], p[1]) for p in step["played"]])
        win = LiveChecker().winning_line(current)
        assert win is not None
        step = puzzles.play("v1", attempt, win.move)
    assert step["status"] == "solved"
    assert repo.player("v1").streak == 1


def test_defence_puzzle(repo: PuzzleRepo) -> None:
    defence = next(p for p in starter_puzzles() if p.goal is Goal.DEFEND)
    puzzles = service_with(repo, [defence])
    attempt = puzzles.next_attempt("v1")["attempt"]
    assert puzzles.play("v1", attempt, defence.solution[0])["status"] == "solved"
    other = service_with(repo, [])
    attempt = other.next_attempt("v2")["attempt"]
    board = defence.board()
    wrong = next(p for p in board.legal_moves() if p != defence.solution[0])
    failed = other.play("v2", attempt, wrong)
    assert failed["status"] == "failed"


def test_next_puzzle_is_near_the_visitor_rating(repo: PuzzleRepo) -> None:
    puzzles = service_with(repo, starter_puzzles())
    view = puzzles.next_attempt("v1")
    ratings = sorted(abs(p.rating.rating - 1500) for p in repo.near(1500, set(), limit=200))
    assert abs(view["puzzle"]["rating"] - 1500) <= ratings[2] + 1


def test_mine_games_from_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from webapp.puzzles.command import main
    from webapp.storage.store import GameRecord as StoredGame
    from webapp.storage.store import MoveRecord, Store

    instance = tmp_path / "instance"
    monkeypatch.setenv("GOMOKU_INSTANCE", str(instance))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    instance.mkdir()
    store = Store(f"sqlite:///{instance / 'gomoku.sqlite3'}")
    moves = [
        MoveRecord(i + 1, x, y, "black" if i % 2 == 0 else "white") for i, (x, y) in enumerate(GAME)
    ]
    store.create(
        StoredGame(
            id="g1", mode="friend", size=15, rule="freestyle", status="finished", moves=moves
        )
    )
    store.close()
    assert main(["mine", "--games-from-db"]) == 0
    printed = capsys.readouterr().out
    assert "1 finished games" in printed and "added 2 puzzles" in printed
    assert main(["mine", "--games-from-db"]) == 0
    assert "added 0 puzzles" in capsys.readouterr().out
    assert main(["mine"]) == 2
