"""Reading puzzle positions from ``tests/positions/*.txt``.

A puzzle file has ``size``, ``rule``, ``black`` and ``white`` stone lists (point names),
a ``kind`` (win, block, vcf or avoid) and either ``expect`` (moves that solve it) or
``forbidden`` (moves that must not be played)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine import Board, Point, parse_point

POSITIONS = Path(__file__).resolve().parent.parent / "positions"


@dataclass
class Puzzle:
    name: str
    board: Board
    kind: str
    expect: list[Point] = field(default_factory=list)
    forbidden: list[Point] = field(default_factory=list)


def load_puzzle(path: Path) -> Puzzle:
    fields: dict[str, list[str]] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            key, *values = line.split()
            fields[key] = values
    size = int(fields["size"][0])
    black = [parse_point(p, size) for p in fields.get("black", [])]
    white = [parse_point(p, size) for p in fields.get("white", [])]
    if len(black) not in (len(white), len(white) + 1):
        raise ValueError(f"{path.name}: {len(black)} black and {len(white)} white stones")
    moves: list[Point] = []
    for k in range(len(black)):
        moves.append(black[k])
        if k < len(white):
            moves.append(white[k])
    board = Board.from_moves(moves, size=size, rule=fields["rule"][0])
    return Puzzle(
        name=path.stem,
        board=board,
        kind=fields["kind"][0],
        expect=[parse_point(p, size) for p in fields.get("expect", [])],
        forbidden=[parse_point(p, size) for p in fields.get("forbidden", [])],
    )


def all_puzzles() -> list[Puzzle]:
    return [load_puzzle(path) for path in sorted(POSITIONS.glob("*.txt"))]
