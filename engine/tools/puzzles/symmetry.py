"""The key of a position up to the board's eight symmetries (rotations and reflections),
so that mirror images of one position are mined as one puzzle. Neighbours: ``puzzle``
stores the key, ``miner`` de-duplicates by it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from engine.game.points import Point

Transform = Callable[[int, int, int], Point]

TRANSFORMS: tuple[Transform, ...] = (
    lambda x, y, n: (x, y),
    lambda x, y, n: (n - 1 - x, y),
    lambda x, y, n: (x, n - 1 - y),
    lambda x, y, n: (n - 1 - x, n - 1 - y),
    lambda x, y, n: (y, x),
    lambda x, y, n: (n - 1 - y, x),
    lambda x, y, n: (y, n - 1 - x),
    lambda x, y, n: (n - 1 - y, n - 1 - x),
)


def canonical_stones(
    moves: Sequence[Point], size: int
) -> tuple[tuple[Point, ...], tuple[Point, ...]]:
    """Black's and White's stones, sorted, under the symmetry that orders them least."""
    black, white = moves[0::2], moves[1::2]
    images = []
    for transform in TRANSFORMS:
        images.append(
            (
                tuple(sorted(transform(x, y, size) for x, y in black)),
                tuple(sorted(transform(x, y, size) for x, y in white)),
            )
        )
    return min(images)


def position_key(moves: Sequence[Point], size: int, rule: str, goal: str) -> str:
    """A short stable key: equal for a position and its mirror images (same size, rule,
    goal and side to move), different otherwise."""
    black, white = canonical_stones(moves, size)
    text = f"{size}|{rule}|{goal}|{black}|{white}"
    return hashlib.sha256(text.encode()).hexdigest()[:20]
