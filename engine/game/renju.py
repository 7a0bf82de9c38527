"""Renju's forbidden points for black, by the rule's recursive definition.

A black move is forbidden when it makes an overline (six or more), two or more fours, or
two or more open threes, unless it also makes exactly five. A three is open only if one
further move that is not itself forbidden turns it into a straight four. The board calls
this module; the compiled core has its own copy of the same logic for the search, and the
tests check the two agree."""

from __future__ import annotations

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
BLACK = 1


def _run_length(grid: list[list[int]], size: int, x: int, y: int, dx: int, dy: int) -> int:
    """Length of the black run through (x, y) in one direction (the cell must be black)."""
    length = 1
    for sign in (1, -1):
        cx, cy = x + sign * dx, y + sign * dy
        while 0 <= cx < size and 0 <= cy < size and grid[cy][cx] == BLACK:
            length += 1
            cx, cy = cx + sign * dx, cy + sign * dy
    return length


def _line_empties(
    grid: list[list[int]], size: int, x: int, y: int, dx: int, dy: int, reach: int
) -> list[tuple[int, int]]:
    points = []
    for k in range(-reach, reach + 1):
        cx, cy = x + k * dx, y + k * dy
        if k and 0 <= cx < size and 0 <= cy < size and grid[cy][cx] == 0:
            points.append((cx, cy))
    return points


def _fours(grid: list[list[int]], size: int, x: int, y: int, dx: int, dy: int) -> int:
    """Number of distinct fours through black stone (x, y) in one direction: empty points
    that would make exactly five with it, grouped by the four stones they complete."""
    groups: set[frozenset[tuple[int, int]]] = set()
    for qx, qy in _line_empties(grid, size, x, y, dx, dy, 4):
        grid[qy][qx] = BLACK
        if _run_length(grid, size, qx, qy, dx, dy) == 5 and _same_run(
            grid, size, qx, qy, x, y, dx, dy
        ):
            stones = frozenset(_run_cells(grid, size, qx, qy, dx, dy)) - {(qx, qy)}
            groups.add(stones)
        grid[qy][qx] = 0
    return len(groups)


def _same_run(
    grid: list[list[int]], size: int, ax: int, ay: int, bx: int, by: int, dx: int, dy: int
) -> bool:
    return (bx, by) in _run_cells(grid, size, ax, ay, dx, dy)


def _run_cells(
    grid: list[list[int]], size: int, x: int, y: int, dx: int, dy: int
) -> list[tuple[int, int]]:
    cells = [(x, y)]
    for sign in (1, -1):
        cx, cy = x + sign * dx, y + sign * dy
        while 0 <= cx < size and 0 <= cy < size and grid[cy][cx] == BLACK:
            cells.append((cx, cy))
            cx, cy = cx + sign * dx, cy + sign * dy
    return cells


def _is_straight_four(grid: list[list[int]], size: int, x: int, y: int, dx: int, dy: int) -> bool:
    """Whether the black run through (x, y) is four stones with both ends making exactly five."""
    cells = _run_cells(grid, size, x, y, dx, dy)
    if len(cells) != 4:
        return False
    for sign in (1, -1):
        # The end cell beyond the run, then the cell beyond that must not be black.
        ex, ey = x, y
        while (ex, ey) in cells:
            ex, ey = ex + sign * dx, ey + sign * dy
        if not (0 <= ex < size and 0 <= ey < size) or grid[ey][ex] != 0:
            return False
        fx, fy = ex + sign * dx, ey + sign * dy
        if 0 <= fx < size and 0 <= fy < size and grid[fy][fx] == BLACK:
            return False
    return True


def _is_open_three(grid: list[list[int]], size: int, x: int, y: int, dx: int, dy: int) -> bool:
    """Whether some non-forbidden move turns the line through (x, y) into a straight four."""
    for qx, qy in _line_empties(grid, size, x, y, dx, dy, 4):
        grid[qy][qx] = BLACK
        straight = _is_straight_four(grid, size, x, y, dx, dy)
        grid[qy][qx] = 0
        if straight and not is_forbidden(grid, size, qx, qy):
            return True
    return False


def _may_be_forbidden(grid: list[list[int]], size: int, x: int, y: int) -> bool:
    """Cheap filter: a forbidden move needs black stones in two lines, or many in one."""
    busy_lines = 0
    for dx, dy in DIRECTIONS:
        count = 0
        for k in range(-5, 6):
            cx, cy = x + k * dx, y + k * dy
            if k and 0 <= cx < size and 0 <= cy < size and grid[cy][cx] == BLACK:
                count += 1
        if count >= 4:
            return True
        if count >= 2:
            busy_lines += 1
    return busy_lines >= 2


def is_forbidden(grid: list[list[int]], size: int, x: int, y: int) -> bool:
    """Whether black playing the empty point (x, y) is forbidden. ``grid[y][x]`` holds 0
    for empty, 1 for black and 2 for white; it is restored before returning."""
    if grid[y][x] != 0 or not _may_be_forbidden(grid, size, x, y):
        return False
    grid[y][x] = BLACK
    try:
        runs = [_run_length(grid, size, x, y, dx, dy) for dx, dy in DIRECTIONS]
        if 5 in runs:
            return False
        if any(run > 5 for run in runs):
            return True
        fours = 0
        threes = 0
        for dx, dy in DIRECTIONS:
            line_fours = _fours(grid, size, x, y, dx, dy)
            if line_fours:
                fours += line_fours
            elif _is_open_three(grid, size, x, y, dx, dy):
                threes += 1
        return fours >= 2 or threes >= 2
    finally:
        grid[y][x] = 0
