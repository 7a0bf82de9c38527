"""Points on the board and their names.

A ``Point`` is ``(x, y)`` from the top-left corner, 0-based, as in the Gomocup protocol.
Its human name has a column letter from the left and a row number from the bottom, so
``h8`` is the centre of a 15x15 board. ``parse_point`` and ``point_name`` are a pair;
``parse_point`` also accepts the protocol form ``"7,7"``."""

from __future__ import annotations

import re

from engine.game.errors import InvalidPointError

Point = tuple[int, int]

COLUMNS = "abcdefghijklmnopqrstuvwxyz"
MIN_SIZE = 7
MAX_SIZE = 22

_NAME_RE = re.compile(r"^\s*([a-zA-Z])\s*(\d{1,2})\s*$")
_PAIR_RE = re.compile(r"^\s*(-?\d{1,3})\s*,\s*(-?\d{1,3})\s*$")


def point_name(point: Point, size: int = 15) -> str:
    """Name a point, e.g. ``(7, 7)`` on 15x15 is ``h8``."""
    x, y = point
    if not (0 <= x < size and 0 <= y < size):
        raise InvalidPointError(f"point {x},{y} is off a {size}x{size} board")
    return f"{COLUMNS[x]}{size - y}"


def parse_point(text: str, size: int = 15) -> Point:
    """Parse ``h8`` or ``7,7`` into ``(x, y)``; raise ``InvalidPointError`` if it does not
    name a point on a board of this size."""
    match = _NAME_RE.match(text)
    if match:
        x = COLUMNS.index(match.group(1).lower())
        y = size - int(match.group(2))
    else:
        match = _PAIR_RE.match(text)
        if not match:
            raise InvalidPointError(f"cannot read a point from {text!r}: use 'h8' or '7,7'")
        x, y = int(match.group(1)), int(match.group(2))
    if not (0 <= x < size and 0 <= y < size):
        raise InvalidPointError(f"{text.strip()!r} is off a {size}x{size} board")
    return (x, y)
