"""The compiled board state that the searchers work on: cells, window keys, shapes,
combined threat classes, scores, hash and move stack, all numpy arrays updated
incrementally by ``place`` and ``remove``.

Only the four lines through a move change, so a move updates the window keys of the ten
cells around it in each direction and looks their shapes up in the tables from
``patterns``. Each empty cell then has, per side, a ``class`` (five, open four, four with
an open three, four, double three, open three, none) and a ``value`` used for ordering and
evaluation. The searches in the other ``engine.kernel`` modules read and change this
state; ``engine.search.searcher`` is their plain-Python face. Every function here runs compiled
under numba, or as plain Python with ``NUMBA_DISABLE_JIT=1``."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.kernel.patterns import HALF, NUM_PATTERNS, key_slot
from engine.kernel.tables import NUM_CLASSES, Tables

WALL = 3
PAD = HALF
MAX_PLY = 256

# Slots of the ``info`` array of scalars.
I_SIZE = 0
I_STRIDE = 1
I_PLY = 2
I_NODES = 3
I_HASH = 4
I_RENJU = 5
I_NODE_LIMIT = 6
I_STOPPED = 7
I_SEL_DEPTH = 8
I_NOISE = 9
I_SEED = 10
I_ROOT_COLOR = 11
I_DEFENCE = 12  # defence factor in 1/100
I_THREAT_LIMIT = 13  # node count at which a threat search gives up
I_NULL_PLY = 14  # ply of the node reached by a null move (no second one there)
I_COUNT = 16


class State(NamedTuple):
    """Mutable search state for one board size and rule."""

    cells: np.ndarray  # int8[n]: 0 empty, 1 black, 2 white, 3 wall
    keys: np.ndarray  # int64[4, n]: window key per direction
    shape: np.ndarray  # uint8[2, 4, n]: shape per side and direction
    value: np.ndarray  # int32[2, n]: ordering value per side
    klass: np.ndarray  # int8[2, n]: combined class per side
    class_count: np.ndarray  # int32[2, NUM_CLASSES]: empty cells of each class per side
    value_sum: np.ndarray  # int64[2]: sum of values over empty cells per side
    near: np.ndarray  # int16[n]: stones within two steps along the lines
    dirs: np.ndarray  # int64[4]: index offsets of the four directions
    stack: np.ndarray  # int32[cells + MAX_PLY + 64]: every stone placed, in order
    info: np.ndarray  # int64[I_COUNT]: scalars (see I_*)
    stop: np.ndarray  # int8[1]: set by another thread to stop the search


def new_state(size: int, renju: bool) -> State:
    stride = size + 2 * PAD
    n = stride * stride
    cells = np.full(n, WALL, dtype=np.int8)
    for y in range(size):
        start = (y + PAD) * stride + PAD
        cells[start : start + size] = 0
    info = np.zeros(I_COUNT, dtype=np.int64)
    info[I_SIZE] = size
    info[I_STRIDE] = stride
    info[I_RENJU] = 1 if renju else 0
    info[I_DEFENCE] = 100
    return State(
        cells=cells,
        keys=np.zeros((4, n), dtype=np.int64),
        shape=np.zeros((2, 4, n), dtype=np.uint8),
        value=np.zeros((2, n), dtype=np.int32),
        klass=np.zeros((2, n), dtype=np.int8),
        class_count=np.zeros((2, NUM_CLASSES), dtype=np.int32),
        value_sum=np.zeros(2, dtype=np.int64),
        near=np.zeros(n, dtype=np.int16),
        dirs=np.array([1, stride, stride + 1, stride - 1], dtype=np.int64),
        stack=np.zeros(size * size + MAX_PLY + 64, dtype=np.int32),
        info=info,
        stop=np.zeros(1, dtype=np.int8),
    )


def point_index(state: State, x: int, y: int) -> int:
    return int((y + PAD) * state.info[I_STRIDE] + x + PAD)


def index_point(state: State, index: int) -> tuple[int, int]:
    stride = int(state.info[I_STRIDE])
    return (index % stride - PAD, index // stride - PAD)


@njit(cache=True)
def _refresh_cell(st: State, tb: Tables, j: int) -> None:
    """Recompute shapes, class and value of empty cell ``j`` for both sides."""
    for side in range(2):
        s0 = tb.shapes[side, st.keys[0, j]]
        s1 = tb.shapes[side, st.keys[1, j]]
        s2 = tb.shapes[side, st.keys[2, j]]
        s3 = tb.shapes[side, st.keys[3, j]]
        st.shape[side, 0, j] = s0
        st.shape[side, 1, j] = s1
        st.shape[side, 2, j] = s2
        st.shape[side, 3, j] = s3
        combo = ((s0 * NUM_PATTERNS + s1) * NUM_PATTERNS + s2) * NUM_PATTERNS + s3
        new_value = tb.combo_value[combo]
        new_class = tb.combo_class[combo]
        st.value_sum[side] += new_value - st.value[side, j]
        st.value[side, j] = new_value
        old_class = st.klass[side, j]
        if new_class != old_class:
            st.class_count[side, old_class] -= 1
            st.class_count[side, new_class] += 1
            st.klass[side, j] = new_class


@njit(cache=True)
def _refresh_direction(st: State, tb: Tables, j: int, d: int) -> None:
    """Empty cell ``j``'s window in direction ``d`` changed: look its shape up again and,
    for a side whose shape there is new, recompute the cell's class and value."""
    key = st.keys[d, j]
    for side in range(2):
        shape = tb.shapes[side, key]
        if shape == st.shape[side, d, j]:
            continue
        st.shape[side, d, j] = shape
        combo = (
            (st.shape[side, 0, j] * NUM_PATTERNS + st.shape[side, 1, j]) * NUM_PATTERNS
            + st.shape[side, 2, j]
        ) * NUM_PATTERNS + st.shape[side, 3, j]
        new_value = tb.combo_value[combo]
        new_class = tb.combo_class[combo]
        st.value_sum[side] += new_value - st.value[side, j]
        st.value[side, j] = new_value
        old_class = st.klass[side, j]
        if new_class != old_class:
            st.class_count[side, old_class] -= 1
            st.class_count[side, new_class] += 1
            st.klass[side, j] = new_class


@njit(cache=True)
def place(st: State, tb: Tables, i: int, color: int) -> None:
    """Put a stone of ``color`` (1 black, 2 white) on empty cell ``i`` and push it."""
    # The cell leaves the pool of empty cells: drop its contributions.
    for side in range(2):
        st.value_sum[side] -= st.value[side, i]
        st.class_count[side, st.klass[side, i]] -= 1
    st.cells[i] = color
    ply = st.info[I_PLY]
    st.stack[ply] = i
    st.info[I_PLY] = ply + 1
    st.info[I_HASH] ^= tb.zobrist[color, i]
    # Only the window of direction d changes for the cells on line d through i.
    for d in range(4):
        step = st.dirs[d]
        for sign in (-1, 1):
            for k in range(1, HALF + 1):
                j = i + sign * k * step
                offset = -sign * k  # where i sits as seen from j
                st.keys[d, j] |= color << (2 * key_slot(offset))
                if k <= 2:
                    st.near[j] += 1
                cell = st.cells[j]
                if cell == WALL:
                    break
                if cell == 0:
                    _refresh_direction(st, tb, j, d)


@njit(cache=True)
def remove(st: State, tb: Tables) -> int:
    """Take back the last stone placed and return its cell."""
    ply = st.info[I_PLY] - 1
    i = st.stack[ply]
    st.info[I_PLY] = ply
    color = st.cells[i]
    st.info[I_HASH] ^= tb.zobrist[color, i]
    st.cells[i] = 0
    for d in range(4):
        step = st.dirs[d]
        for sign in (-1, 1):
            for k in range(1, HALF + 1):
                j = i + sign * k * step
                offset = -sign * k
                st.keys[d, j] &= ~(np.int64(3) << (2 * key_slot(offset)))
                if k <= 2:
                    st.near[j] -= 1
                cell = st.cells[j]
                if cell == WALL:
                    break
                if cell == 0:
                    _refresh_direction(st, tb, j, d)
    # The cell rejoins the pool of empty cells with its shapes recomputed.
    for side in range(2):
        st.class_count[side, st.klass[side, i]] += 1
        st.value[side, i] = 0
    _refresh_cell(st, tb, i)
    return i


@njit(cache=True)
def init_walls(st: State, tb: Tables) -> None:
    """Set the window keys that see the border, then every empty cell's shapes."""
    n = st.cells.shape[0]
    for i in range(n):
        if st.cells[i] != 0:
            continue
        for d in range(4):
            step = st.dirs[d]
            key = np.int64(0)
            for offset in range(-HALF, HALF + 1):
                if offset == 0:
                    continue
                j = i + offset * step
                cell = WALL if j < 0 or j >= n else st.cells[j]
                key |= np.int64(cell) << (2 * key_slot(offset))
            st.keys[d, i] = key
    for side in range(2):
        for c in range(st.class_count.shape[1]):
            st.class_count[side, c] = 0
        st.value_sum[side] = 0
    for i in range(n):
        if st.cells[i] == 0:
            for side in range(2):
                st.value[side, i] = 0
                st.klass[side, i] = 0
                st.class_count[side, 0] += 1
            _refresh_cell(st, tb, i)


@njit(cache=True)
def side_to_move(st: State) -> int:
    """1 (black) or 2 (white): black moves at even plies."""
    return 1 + (st.info[I_PLY] & 1)
