"""The fixed positions ``gomoku bench`` searches, as data: freestyle 15x15 move lists.

Six are Gomocup 2026 openings (3 to 11 stones) and eight are middle games reached from
other openings by a plain depth-2 alpha-beta player; three of those hold a forced win
(the searcher solves them at once), the "quiet" ones do not. Moves are point names (``h8``
is the centre), black first. ``engine.tools.bench`` reads them; keeping them in the package
means the benchmark needs no data files."""

from __future__ import annotations

from engine.game.board import Board
from engine.game.points import parse_point

BENCH_SIZE = 15

BENCH_POSITIONS: list[tuple[str, str]] = [
    ("opening-01", "l2 i3 h5"),
    ("opening-02", "g2 g5 e7 b7 d3"),
    ("opening-04", "h8 h9 i11 j9 j7"),
    ("opening-06", "h8 h9 k11 j10 h10"),
    ("opening-07", "n2 l4 n6 j4 k6 m4 k4"),
    ("opening-09", "m3 n4 o5 o6 n7 m8 l7 k5 k4 k7 i6"),
    ("middle-18", "h8 i9 k6 g9 k9 h9 f9 k7 j8 g8 i7 h6 l10 m11 j6 g7 g10 g6"),
    ("middle-19", "h8 i9 k8 j7 g6 i8 h5 h9 k6 i10 i7 g9 j9 g10 f11 g8 h7 f7 g7"),
    ("middle-22", "h8 h9 h11 i11 j9 i10 i9 j10 i8 g8 f7 k9 h12 k10 h10 l10 m10 l8 m7 j11 k12 l9"),
    ("middle-23", "h8 h9 k9 i7 f9 i8 i9 j7 g10 k7 h7 k6 l5 l7 m7 j5 m8 j6 j8 i6 g7 h6 g8"),
    ("middle-24", "h8 i9 k7 i7 f8 i8 i6 h7 g6 h6 f7 j8 k9 g5 f4 i10 i11 j10 h5 e8 k8 h9 j7 g7"),
    ("quiet-16", "h8 h9 k9 i7 f9 i8 i9 j7 g10 k7 h7 k6 l5 l7 m7 j5"),
    ("quiet-17", "h8 i9 k7 i7 f8 i8 i6 h7 g6 h6 f7 j8 k9 g5 f4 i10 i11"),
    (
        "middle-30",
        "h8 i9 k10 k9 l6 i7 l9 j8 h6 i8 i6 i10 i11 l10 m11 h10 g11 g10 f10 h9 j7 g9 j9 f11 "
        "e12 k8 k6 j6 e9 m8",
    ),
]


def bench_boards() -> list[tuple[str, Board]]:
    """Every bench position as a fresh ``Board``."""
    return [
        (
            name,
            Board.from_moves([parse_point(m, BENCH_SIZE) for m in moves.split()], size=BENCH_SIZE),
        )
        for name, moves in BENCH_POSITIONS
    ]
