"""Line shapes at an empty point, by exact definitions, and the lookup tables built from them.

The shape of a point in one direction is what the line becomes if the side plays there:

    F5  # XX.XX -> XXXXX      playing here makes five
    OL  # XXX.XX -> six       an overline that does not win under this rule
    F4  # .XX.X. -> .XXXX.    two points would then make five (open four)
    B4  # OXX.X. -> OXXXX.    one point would then make five (four)
    F3S # ..XX_..             an open three two points would make an open four
    F3  # .X.X_.              an open three one point would make an open four
    B3  # OX.X... one more move makes a four (closed three)
    F2B # ...X_...            an open two four points would make an open three
    F2A # ..X._...            the same with three points
    F2  # .X.._...            the same with one or two points
    B2  # one more move makes a closed three
    F1  # one more move makes an open two;    B1: one more move makes a closed two
    DEAD  # no five through this point can ever be made in this line

The open twos and threes are split by how many ways they grow, as the classical model the
shipped evaluation comes from splits them (``engine.tools.fold_weights``); the split
shapes take numbers after the others, and ``COARSE_OF`` maps each shape to the one it
splits from. Only fives through the point itself count, and "five" follows the rule:
exactly five in standard, and for black in renju. ``classify`` applies the definitions
literally to a whole line; the compiled core instead looks shapes up in a table indexed by
the ten cells around the point (five each side are enough: a five through the point spans
at most four cells to one side, and exactness needs one more). ``build_table`` fills that
table with ``classify`` itself, and the tests check table lookups against ``classify`` on
whole lines.

Where five or more stones win, nothing needs that fifth cell: ``short_table`` keeps the
eight inner cells' part of the table, sixteen times smaller (64 KB, so it stays in the
processor's cache), and the board state then updates only four cells each side of a
move."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
from numba import boolean, int8, int64, njit

DEAD, B1, F1, B2, F2, B3, F3, B4, F4, F5, OL, F2A, F2B, F3S = range(14)
PATTERN_NAMES: tuple[str, ...] = ("DEAD", "B1", "F1", "B2", "F2", "B3", "F3", "B4", "F4")
PATTERN_NAMES += ("F5", "OL", "F2A", "F2B", "F3S")
NUM_PATTERNS = 14
# The shape each shape splits from (the open twos and open threes not told apart), and
# how many such coarse shapes there are.
COARSE_OF = (*range(11), F2, F2, F3)
NUM_COARSE = 11

EMPTY, OWN, OPPONENT, WALL = 0, 1, 2, 3
HALF = 5  # cells looked at on each side of the point
KEY_BITS = 4 * HALF
TABLE_SIZE = 1 << KEY_BITS
# Cells each side that decide a shape when an overline counts as five, and the size of
# the table over them (``short_table``).
SHORT_HALF = 4
SHORT_TABLE_SIZE = 1 << (4 * SHORT_HALF)


@njit(cache=True)
def _run_through(line: np.ndarray, pos: int) -> int:
    """Length of the run of own stones through ``pos`` (which holds an own stone)."""
    n = line.shape[0]
    length = 1
    k = pos - 1
    while k >= 0 and line[k] == OWN:
        length += 1
        k -= 1
    k = pos + 1
    while k < n and line[k] == OWN:
        length += 1
        k += 1
    return length


@njit(cache=True)
def _five_points(line: np.ndarray, pos: int, exact: bool) -> int:
    """How many empty points would complete a five through ``pos`` (capped at 2)."""
    n = line.shape[0]
    count = 0
    for q in range(max(0, pos - 4), min(n, pos + 5)):
        if line[q] != EMPTY:
            continue
        line[q] = OWN
        # The new run must include pos: every cell between q and pos is own.
        lo, hi = min(q, pos), max(q, pos)
        connected = True
        for k in range(lo, hi + 1):
            if line[k] != OWN:
                connected = False
                break
        if connected:
            length = _run_through(line, pos)
            if length == 5 or (length > 5 and not exact):
                count += 1
        line[q] = EMPTY
        if count >= 2:
            return 2
    return count


# Recursive compiled functions need an explicit signature to be cached safely.
@njit(int64(int8[:], int64, boolean, int64, int64), cache=True)
def _best_after(line: np.ndarray, pos: int, exact: bool, moves: int, start: int) -> int:
    """The most five points through ``pos`` reachable by adding ``moves`` more own stones
    (chosen as a set, so candidates are taken in increasing position from ``start``)."""
    if moves == 0:
        return _five_points(line, pos, exact)
    n = line.shape[0]
    best = 0
    for q in range(max(start, pos - 4), min(n, pos + 5)):
        if line[q] != EMPTY:
            continue
        line[q] = OWN
        value = _best_after(line, pos, exact, moves - 1, q + 1)
        line[q] = EMPTY
        if value > best:
            best = value
            if best >= 2:
                return 2
    return best


@njit(cache=True)
def _placed_shape(line: np.ndarray, pos: int, exact: bool) -> int:
    """The coarse shape through ``pos``, which already holds an own stone."""
    length = _run_through(line, pos)
    if length == 5 or (length > 5 and not exact):
        return F5
    if length > 5:
        return OL
    for extra in range(4):
        best = _best_after(line, pos, exact, extra, 0)
        if best > 0:
            # extra 0 -> F4/B4, 1 -> F3/B3, 2 -> F2/B2, 3 -> F1/B1
            return (F4 if best >= 2 else B4) - 2 * extra
    return DEAD


@njit(cache=True)
def _points_to(line: np.ndarray, pos: int, exact: bool, wanted: int) -> int:
    """How many empty cells within four of ``pos`` (an own stone) would, taken by one
    more own stone, turn the shape through ``pos`` into ``wanted``."""
    n = line.shape[0]
    count = 0
    for q in range(max(0, pos - 4), min(n, pos + 5)):
        if line[q] != EMPTY:
            continue
        line[q] = OWN
        if _placed_shape(line, pos, exact) == wanted:
            count += 1
        line[q] = EMPTY
    return count


@njit(cache=True)
def classify(line: np.ndarray, pos: int, exact: bool) -> int:
    """Shape at empty ``pos`` with the open twos and open threes split by how many ways
    they grow: an open three with two or more cells that make an open four is ``F3S``;
    an open two with four or more cells that make an open three ``F2B``, three ``F2A``."""
    line[pos] = OWN
    shape = _placed_shape(line, pos, exact)
    if shape == F3:
        if _points_to(line, pos, exact, F4) >= 2:
            shape = F3S
    elif shape == F2:
        threes = _points_to(line, pos, exact, F3)
        if threes >= 4:
            shape = F2B
        elif threes == 3:
            shape = F2A
    line[pos] = EMPTY
    return shape


@njit(cache=True)
def classify_coarse(line: np.ndarray, pos: int, exact: bool) -> int:
    """Shape at empty ``pos`` for the side whose stones are ``OWN`` (1) in ``line``, the
    open twos and open threes not split.

    ``line`` holds EMPTY, OWN, OPPONENT or WALL; it is restored before returning. With
    ``exact`` only exactly five counts as a five."""
    line[pos] = OWN
    shape = _placed_shape(line, pos, exact)
    line[pos] = EMPTY
    return shape


@njit(cache=True)
def key_slot(offset: int) -> int:
    """Bit slot of the cell at ``offset`` (-5..-1, 1..5) from the point, in a window key:
    the eight inner cells take the low slots (-4..-1, then 1..4) and the two outer ones
    the top two, so a key of the inner cells alone indexes ``short_table``."""
    if offset == -HALF:
        return 2 * SHORT_HALF
    if offset == HALF:
        return 2 * SHORT_HALF + 1
    return offset + SHORT_HALF if offset < 0 else offset + SHORT_HALF - 1


@njit(cache=True)
def _fill_table(table: np.ndarray, exact: bool) -> None:
    window = np.zeros(2 * HALF + 1, dtype=np.int8)
    for key in range(TABLE_SIZE):
        valid = True
        for offset in range(-HALF, HALF + 1):
            if offset == 0:
                window[HALF] = EMPTY
                continue
            value = (key >> (2 * key_slot(offset))) & 3
            window[offset + HALF] = value
        # Walls are only meaningful as a solid border: beyond a wall there is only wall.
        for offset in range(1, HALF):
            if window[HALF + offset] == WALL and window[HALF + offset + 1] != WALL:
                valid = False
            if window[HALF - offset] == WALL and window[HALF - offset - 1] != WALL:
                valid = False
        if valid:
            table[key] = classify(window, HALF, exact)


def _cache_dir() -> Path:
    here = Path(__file__).resolve().parent / "__pycache__"
    try:
        here.mkdir(exist_ok=True)
        if os.access(here, os.W_OK):
            return here
    except OSError:
        pass
    fallback = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "gomoku"
    fallback.mkdir(parents=True, exist_ok=True)
    return fallback


_TABLES: dict[bool, np.ndarray] = {}


def build_table(exact: bool) -> np.ndarray:
    """Shape of the centre point for ``OWN`` under every window key (cached on disk)."""
    if exact in _TABLES:
        return _TABLES[exact]
    path = _cache_dir() / f"patterns_v3_{'exact' if exact else 'free'}.npy"
    table: np.ndarray | None = None
    if path.exists():
        try:
            loaded = np.load(path)
            if loaded.shape == (TABLE_SIZE,) and loaded.dtype == np.uint8:
                table = loaded
        except (OSError, ValueError):
            table = None
    if table is None:
        table = np.zeros(TABLE_SIZE, dtype=np.uint8)
        _fill_table(table, exact)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
        try:
            np.save(tmp, table)
            tmp.replace(path)
        except OSError:
            pass
    _TABLES[exact] = table
    return table


def short_table(table: np.ndarray) -> np.ndarray:
    """The part of a full table (``build_table``, or packed shapes of both sides) that a
    key of the eight inner cells indexes, for rules where an overline is a five for both
    sides: there a shape never depends on the outer cells, and a wall on an inner cell
    has a wall beyond it."""
    keys = np.arange(SHORT_TABLE_SIZE, dtype=np.int64)
    full = keys.copy()
    for offset in (-HALF, HALF):
        inner = offset - 1 if offset > 0 else offset + 1
        wall = ((keys >> (2 * key_slot(inner))) & 3) == WALL
        full |= np.where(wall, WALL, EMPTY).astype(np.int64) << (2 * key_slot(offset))
    return table[full]


def swap_colours(table: np.ndarray) -> np.ndarray:
    """The same table seen from the other side: OWN and OPPONENT swapped in every key."""
    keys = np.arange(TABLE_SIZE, dtype=np.int64)
    swapped = np.zeros(TABLE_SIZE, dtype=np.int64)
    for slot in range(2 * HALF):
        cell = (keys >> (2 * slot)) & 3
        cell = np.where(cell == OWN, OPPONENT, np.where(cell == OPPONENT, OWN, cell))
        swapped |= cell << (2 * slot)
    return table[swapped]
