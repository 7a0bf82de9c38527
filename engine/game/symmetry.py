"""Symmetries of a position: which points are the same move seen in a mirror.

Renju's opening rules forbid offering two fifth moves that are symmetrical: one move
that a rotation or reflection of the position (stones and their colours kept) turns into
the other. ``symmetries`` finds the rotations and reflections, each with the shift that
maps the stones onto themselves (about any centre, not only the board's: the edges are
far from an opening), and ``equivalent`` says whether two points are images of each
other under one of them. Plain Python over ``Board`` values; the web game model refuses
symmetrical offers with it and the opening choices (``engine.search.opening_choices``)
avoid them."""

from __future__ import annotations

from collections.abc import Iterable

from engine.game.board import Board
from engine.game.color import Color
from engine.game.points import Point

# The eight orientations of the square as (xx, xy, yx, yy): x' = xx*x + xy*y, y' = yx*x + yy*y.
ORIENTATIONS: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 1),
    (0, -1, 1, 0),
    (-1, 0, 0, -1),
    (0, 1, -1, 0),
    (-1, 0, 0, 1),
    (1, 0, 0, -1),
    (0, 1, 1, 0),
    (0, -1, -1, 0),
)

Transform = tuple[tuple[int, int, int, int], Point]


def _apply(transform: Transform, point: Point) -> Point:
    (xx, xy, yx, yy), (dx, dy) = transform
    x, y = point
    return (xx * x + xy * y + dx, yx * x + yy * y + dy)


def _stones(board: Board) -> dict[Point, Color]:
    stones: dict[Point, Color] = {}
    for point in board.moves:
        color = board.stone_at(point)
        if color is not None:
            stones[point] = color
    return stones


def symmetries(board: Board) -> list[Transform]:
    """The rotations and reflections (with a shift) other than the identity that map the
    position onto itself, colours kept. An empty board has none worth naming."""
    stones = _stones(board)
    if not stones:
        return []
    anchor = next(iter(stones))
    found: list[Transform] = []
    for orientation in ORIENTATIONS:
        image = _apply((orientation, (0, 0)), anchor)
        for target, color in stones.items():
            if color is not stones[anchor]:
                continue
            shift = (target[0] - image[0], target[1] - image[1])
            transform = (orientation, shift)
            if transform == (ORIENTATIONS[0], (0, 0)):
                continue
            if all(stones.get(_apply(transform, p)) is c for p, c in stones.items()):
                found.append(transform)
    return found


def equivalent(board: Board, first: Point, second: Point) -> bool:
    """Whether ``second`` is ``first`` seen through a symmetry of the position (a point is
    not equivalent to itself unless it is the same point)."""
    if first == second:
        return True
    return any(_apply(t, first) == second for t in symmetries(board))


def images(board: Board, points: Iterable[Point]) -> set[Point]:
    """``points`` and every point a symmetry of the position turns them into."""
    transforms = symmetries(board)
    return {image for point in points for image in (point, *(_apply(t, point) for t in transforms))}


def distinct(board: Board, points: Iterable[Point]) -> list[Point]:
    """``points`` in order, without any that repeats or mirrors an earlier one."""
    transforms = symmetries(board)
    kept: list[Point] = []
    for point in points:
        images = {point, *(_apply(t, point) for t in transforms)}
        if not any(other in images for other in kept):
            kept.append(point)
    return kept
