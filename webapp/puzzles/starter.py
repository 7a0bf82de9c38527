"""The starter set: puzzles mined from self-play when the package was built, shipped as
``data/starter.json`` (made by ``gomoku puzzles mine --selfplay N --out …``). A database
without puzzles gets them at the server's start; a second start, or a second server
racing the first, adds nothing (puzzles are unique by their position key)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.exc import IntegrityError

from engine.tools.puzzles.command import read_puzzles
from engine.tools.puzzles.puzzle import Puzzle
from webapp.puzzles.repo import PuzzleRepo

STARTER_FILE = Path(__file__).resolve().parent / "data" / "starter.json"


def starter_puzzles(path: Path = STARTER_FILE) -> list[Puzzle]:
    return read_puzzles(path.read_text(encoding="utf-8"))


def load_starter(repo: PuzzleRepo, path: Path = STARTER_FILE) -> int:
    """Add the starter set to an empty puzzle table; returns how many were added."""
    if repo.count() > 0:
        return 0
    try:
        return repo.add(starter_puzzles(path))
    except IntegrityError:
        return 0  # another server process loaded them at the same moment
