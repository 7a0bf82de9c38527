"""Opening books for matches: read the Gomocup offset format into moves on a board.

Each non-empty line of an offset file is one opening, ``x,y, x,y, ...`` with every pair an
offset from the board centre; stones alternate, black first. ``engine.tools.match`` plays each
opening with both colours. Lines starting with ``#`` are comments."""

from __future__ import annotations

from pathlib import Path

from engine.game.board import Board
from engine.game.errors import GomokuError, InvalidBoardError
from engine.game.points import Point
from engine.game.rules import Rule


class OpeningFormatError(InvalidBoardError):
    """An opening line that does not parse or does not fit the board."""


def parse_opening(line: str, size: int = 15, rule: Rule | str = Rule.FREESTYLE) -> list[Point]:
    """The moves of one offset-format line on a ``size`` board, checked to be playable."""
    numbers = [part.strip() for part in line.replace(" ", "").split(",") if part.strip()]
    if len(numbers) % 2:
        raise OpeningFormatError(f"opening {line.strip()!r} has an odd number of coordinates")
    try:
        values = [int(n) for n in numbers]
    except ValueError:
        raise OpeningFormatError(f"opening {line.strip()!r} has a non-integer offset") from None
    centre = size // 2
    moves = [(centre + values[i], centre + values[i + 1]) for i in range(0, len(values), 2)]
    try:
        board = Board.from_moves(moves, size=size, rule=rule)
    except GomokuError as error:
        raise OpeningFormatError(f"opening {line.strip()!r} is not playable: {error}") from None
    if board.is_game_over():
        raise OpeningFormatError(f"opening {line.strip()!r} already ends the game")
    return moves


def parse_openings(
    text: str, size: int = 15, rule: Rule | str = Rule.FREESTYLE
) -> list[list[Point]]:
    openings: list[list[Point]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            openings.append(parse_opening(line, size, rule))
        except OpeningFormatError as error:
            raise OpeningFormatError(f"line {number}: {error}") from None
    return openings


def load_openings(
    path: str | Path, size: int = 15, rule: Rule | str = Rule.FREESTYLE
) -> list[list[Point]]:
    """All openings of an offset-format file, in file order."""
    return parse_openings(Path(path).read_text(encoding="utf-8"), size, rule)
