"""Piskvork PSQ files: export a game for download and import one to continue playing.

A PSQ file starts with a header such as ``Piskvorky 15x15, 11:11, 0``, then one line per
move ``x,y,time_ms`` with 1-based coordinates, then trailing lines (``-1``, brain names)
that carry no moves. Some tools write 0-based coordinates; ``parse_psq`` tells the two
apart from the coordinates themselves and refuses files where both readings fail. The
pages blueprint serves exports; the API imports."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine import MAX_SIZE, MIN_SIZE, Board, GomokuError

MAX_PSQ_CHARS = 20_000

_HEADER_RE = re.compile(r"^\s*piskvorky\s+(\d{1,2})\s*x\s*(\d{1,2})\b", re.IGNORECASE)
_MOVE_RE = re.compile(r"^\s*(-?\d{1,3})\s*,\s*(-?\d{1,3})(?:\s*,\s*(-?\d{1,9}))?\s*$")


class PsqError(ValueError):
    """A PSQ text that cannot be read as a game: ``reason`` names why for the pages (which
    translate it), ``params`` fill in the figures."""

    def __init__(self, message: str, reason: str, **params: int | str) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: dict[str, int | str] = dict(params)


@dataclass(frozen=True)
class PsqGame:
    size: int
    moves: list[tuple[int, int]]
    times_ms: list[int]


def format_psq(size: int, moves: Sequence[tuple[int, int]], times_ms: Sequence[int] = ()) -> str:
    """The PSQ text of a game: 1-based coordinates, the standard header, ``-1`` at the end."""
    lines = [f"Piskvorky {size}x{size}, 11:11, 0"]
    for index, (x, y) in enumerate(moves):
        spent = times_ms[index] if index < len(times_ms) else 0
        lines.append(f"{x + 1},{y + 1},{max(0, int(spent))}")
    lines.append("-1")
    return "\n".join(lines) + "\n"


def parse_psq(text: str, *, rule: str = "freestyle") -> PsqGame:
    """Read a PSQ text; raise ``PsqError`` with the reason if it is not a playable game."""
    if not isinstance(text, str) or not text.strip():
        raise PsqError("the PSQ text is empty", "empty")
    if len(text) > MAX_PSQ_CHARS:
        raise PsqError(
            f"the PSQ text is longer than {MAX_PSQ_CHARS} characters",
            "too_long",
            limit=MAX_PSQ_CHARS,
        )
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    header = _HEADER_RE.match(lines[0])
    if not header:
        raise PsqError("the first line must look like 'Piskvorky 15x15, 11:11, 0'", "header")
    width, height = int(header.group(1)), int(header.group(2))
    if width != height:
        raise PsqError(
            f"only square boards are supported, not {width}x{height}",
            "not_square",
            width=width,
            height=height,
        )
    size = width
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise PsqError(
            f"board size {size} is not supported: use {MIN_SIZE} to {MAX_SIZE}",
            "size",
            size=size,
            low=MIN_SIZE,
            high=MAX_SIZE,
        )
    raw: list[tuple[int, int]] = []
    times: list[int] = []
    for line in lines[1:]:
        match = _MOVE_RE.match(line)
        if not match:
            break  # "-1", brain names or a blank line end the moves
        raw.append((int(match.group(1)), int(match.group(2))))
        times.append(max(0, int(match.group(3) or 0)))
    moves = _to_zero_based(raw, size)
    try:
        Board.from_moves(moves, size=size, rule=rule)
    except GomokuError as error:
        raise PsqError(
            f"the PSQ moves are not a legal game: {error}", "illegal", detail=str(error)
        ) from None
    return PsqGame(size, moves, times)


def _to_zero_based(raw: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    values = [v for point in raw for v in point]
    if not values:
        return []
    low, high = min(values), max(values)
    if low >= 1 and high <= size:
        # Standard 1-based; the only reading when a coordinate equals the size.
        return [(x - 1, y - 1) for x, y in raw]
    if low >= 0 and high <= size - 1:
        return list(raw)
    raise PsqError(f"the PSQ moves do not fit a {size}x{size} board", "off_board", size=size)
