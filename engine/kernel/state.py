"""The compiled board state that the searchers work on: cells, window keys, shapes,
combined threat classes, scores, hash and move stack, all numpy arrays updated
incrementally by ``place`` and ``remove``.

Only the four lines through a move change, so a move updates the window keys of the ten
cells around it in each direction (eight where overlines win: ``tables.window_reach``) and
looks their shapes up in the tables from ``patterns``. Each empty cell then has, per side,
a ``class`` (five, open four, four with an open three, four, double three, open three,
none) and a ``value`` used for ordering and evaluation. The searches in the other
``engine.kernel`` modules read and change this state; ``engine.search.searcher`` is their
plain-Python face. Every function here runs compiled under numba, or as plain Python with
``NUMBA_DISABLE_JIT=1``."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.kernel.patterns import HALF, NUM_PATTERNS, key_slot
from engine.kernel.tables import (
    NUM_CLASSES,
    Tables,
    packed_class,
    packed_value,
    packed_weight,
    window_reach,
)

WALL = 3
PAD = HALF
MAX_PLY = 256
# What one step of a direction's shape adds to a cell's combination index.
COMBO_WEIGHT = np.array([NUM_PATTERNS**3, NUM_PATTERNS**2, NUM_PATTERNS, 1], dtype=np.int64)

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
I_UNDO = 15  # entries in the undo log
I_BOUNDS = 16  # the stones' bounding box, packed (``pack_bounds``)
I_VCF_LIMIT = 17  # node count at which a VCF gives up (0: no limit; see threats.capped_vcf)
I_COUNT = 18
# The bounds of a board with no stones: an empty range in both axes.
NO_BOUNDS = 0xFF | (0xFF << 16)
# What a stone takes off its own cell's ``near`` count, so that one test
# (``near > 0``) finds the empty cells near the stones.
NEAR_OCCUPIED = 1 << 12
# Undo log entries each place may write at most: both sides' shapes of every empty cell on
# the four lines through the stone.
UNDO_PER_MOVE = 2 * 4 * 2 * HALF


class State(NamedTuple):
    """Mutable search state for one board size and rule."""

    cells: np.ndarray  # int8[n]: 0 empty, 1 black, 2 white, 3 wall
    keys: np.ndarray  # int64[4, n]: window key per direction
    shape: np.ndarray  # uint8[2, 4, n]: shape per side and direction
    value: np.ndarray  # int32[2, n]: ordering value per side
    klass: np.ndarray  # int8[2, n]: combined class per side
    combo: np.ndarray  # int32[2, n]: the four shapes as an index of the combination tables
    class_count: np.ndarray  # int32[2, NUM_CLASSES]: empty cells of each class per side
    eval_sum: np.ndarray  # int64[2, 2]: evaluation weights over empty cells, per side and
    # role (0 to move, 1 waiting; ``Tables.eval_cells``)
    near: np.ndarray  # int16[n]: stones within two steps along the lines, less
    # NEAR_OCCUPIED on a stone's own cell
    dirs: np.ndarray  # int64[4]: index offsets of the four directions
    column: np.ndarray  # int64[n]: each index's column, padding included
    row: np.ndarray  # int64[n]: each index's row, padding included
    stack: np.ndarray  # int32[cells + MAX_PLY + 64]: every stone placed, in order
    info: np.ndarray  # int64[I_COUNT]: scalars (see I_*)
    stop: np.ndarray  # int8[1]: set by another thread to stop the search
    # What ``remove`` puts back: every shape ``place`` changed (cell, side, direction and
    # old shape packed in one entry), where each ply's entries start, and the class counts
    # and evaluation sums before each ply's stone.
    undo: np.ndarray  # int32[stack length * UNDO_PER_MOVE]
    frames: np.ndarray  # int32[stack length]
    saved_counts: np.ndarray  # int32[stack length, 2, NUM_CLASSES]
    saved_eval: np.ndarray  # int64[stack length, 2, 2]
    saved_bounds: np.ndarray  # int64[stack length]: ``I_BOUNDS`` before each ply's stone


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
    info[I_BOUNDS] = NO_BOUNDS
    depth = size * size + MAX_PLY + 64
    return State(
        cells=cells,
        keys=np.zeros((4, n), dtype=np.int64),
        shape=np.zeros((2, 4, n), dtype=np.uint8),
        value=np.zeros((2, n), dtype=np.int32),
        klass=np.zeros((2, n), dtype=np.int8),
        combo=np.zeros((2, n), dtype=np.int32),
        class_count=np.zeros((2, NUM_CLASSES), dtype=np.int32),
        eval_sum=np.zeros((2, 2), dtype=np.int64),
        near=np.zeros(n, dtype=np.int16),
        dirs=np.array([1, stride, stride + 1, stride - 1], dtype=np.int64),
        column=np.arange(n, dtype=np.int64) % stride,
        row=np.arange(n, dtype=np.int64) // stride,
        stack=np.zeros(depth, dtype=np.int32),
        info=info,
        stop=np.zeros(1, dtype=np.int8),
        undo=np.zeros(depth * UNDO_PER_MOVE, dtype=np.int32),
        frames=np.zeros(depth, dtype=np.int32),
        saved_counts=np.zeros((depth, 2, NUM_CLASSES), dtype=np.int32),
        saved_eval=np.zeros((depth, 2, 2), dtype=np.int64),
        saved_bounds=np.zeros(depth, dtype=np.int64),
    )


def clone_state(state: State) -> State:
    """A copy of ``state`` with arrays of its own (the stop flag too)."""
    return State._make(array.copy() for array in state)


@njit(cache=True, inline="always")
def _copy_flat(dst: np.ndarray, src: np.ndarray) -> None:
    flat_dst = dst.reshape(-1)
    flat_src = src.reshape(-1)
    for k in range(flat_src.shape[0]):
        flat_dst[k] = flat_src[k]


@njit(cache=True)
def copy_into(dst: State, src: State) -> None:
    """Make ``dst`` (a clone of a state of the same board) the position ``src`` holds."""
    _copy_flat(dst.cells, src.cells)
    _copy_flat(dst.keys, src.keys)
    _copy_flat(dst.shape, src.shape)
    _copy_flat(dst.value, src.value)
    _copy_flat(dst.klass, src.klass)
    _copy_flat(dst.combo, src.combo)
    _copy_flat(dst.class_count, src.class_count)
    _copy_flat(dst.eval_sum, src.eval_sum)
    _copy_flat(dst.near, src.near)
    _copy_flat(dst.info, src.info)
    ply = src.info[I_PLY]
    dst.stack[:ply] = src.stack[:ply]
    dst.frames[:ply] = src.frames[:ply]
    dst.saved_counts[:ply] = src.saved_counts[:ply]
    dst.saved_eval[:ply] = src.saved_eval[:ply]
    dst.saved_bounds[:ply] = src.saved_bounds[:ply]
    top = src.info[I_UNDO]
    dst.undo[:top] = src.undo[:top]


def point_index(state: State, x: int, y: int) -> int:
    return int((y + PAD) * state.info[I_STRIDE] + x + PAD)


def index_point(state: State, index: int) -> tuple[int, int]:
    stride = int(state.info[I_STRIDE])
    return (index % stride - PAD, index // stride - PAD)


@njit(cache=True, inline="always")
def pack_bounds(x0: int, x1: int, y0: int, y1: int) -> int:
    """The columns ``x0..x1`` and rows ``y0..y1`` (padded coordinates) as one number."""
    return x0 | (x1 << 8) | (y0 << 16) | (y1 << 24)


@njit(cache=True, inline="always")
def _grow_bounds(bounds: int, x: int, y: int) -> int:
    x0 = min(bounds & 0xFF, x)
    x1 = max((bounds >> 8) & 0xFF, x)
    y0 = min((bounds >> 16) & 0xFF, y)
    y1 = max((bounds >> 24) & 0xFF, y)
    return pack_bounds(x0, x1, y0, y1)


@njit(cache=True, inline="always")
def candidate_box(st: State) -> tuple[int, int, int, int]:
    """The board columns ``x0..x1`` and rows ``y0..y1`` (0-based, inclusive) that hold
    every empty cell within two steps of a stone: the stones' box widened by two."""
    size = st.info[I_SIZE]
    bounds = st.info[I_BOUNDS]
    x0 = max((bounds & 0xFF) - PAD - 2, 0)
    x1 = min(((bounds >> 8) & 0xFF) - PAD + 2, size - 1)
    y0 = max(((bounds >> 16) & 0xFF) - PAD - 2, 0)
    y1 = min(((bounds >> 24) & 0xFF) - PAD + 2, size - 1)
    return x0, x1, y0, y1


@njit(cache=True)
def _refresh_cell(st: State, tb: Tables, j: int) -> None:
    """Recompute the shapes of empty cell ``j`` in all four directions, for both sides,
    then its combination, value and class."""
    for side in range(2):
        combo = 0
        for d in range(4):
            # int(): as plain Python (NUMBA_DISABLE_JIT=1) uint8 arithmetic would wrap.
            shape = (int(tb.shapes[st.keys[d, j]]) >> (4 * side)) & 15
            st.shape[side, d, j] = shape
            combo = combo * NUM_PATTERNS + shape
        old_combo = st.combo[side, j]
        st.combo[side, j] = combo
        st.eval_sum[side, 0] += tb.eval_cells[combo, 0] - tb.eval_cells[old_combo, 0]
        st.eval_sum[side, 1] += tb.eval_cells[combo, 1] - tb.eval_cells[old_combo, 1]
        st.value[side, j] = tb.combo_value[combo]
        new_class = tb.combo_class[combo]
        st.class_count[side, st.klass[side, j]] -= 1
        st.class_count[side, new_class] += 1
        st.klass[side, j] = new_class


@njit(cache=True, inline="always")
def at(index: int) -> np.uint64:
    """``index`` as an unsigned index: compiled code then skips the test for a negative
    index counting from the end, which every signed index pays. Only for indexing."""
    return np.uint64(index)


@njit(cache=True, inline="always")
def _reshape(st: State, tb: Tables, d: int, j: int, key: int, top: int) -> int:
    """Look up the shapes of empty cell ``j`` in direction ``d`` again (its window key
    there has just become ``key``) and move its combination, value, class and the sums
    with them, logging each old shape at ``top`` of the undo log; returns the new top.
    Only that direction's shape can change; the combination index moves by the change
    times the direction's weight, and one packed word per combination
    (``Tables.combo_pack``) gives the new weights, value and class."""
    packed = int(tb.shapes[at(key)])
    weight = COMBO_WEIGHT[d]
    at_j = at(j)
    for side in range(2):
        new_shape = (packed >> (4 * side)) & 15
        old_shape = int(st.shape[side, d, at_j])
        if new_shape == old_shape:
            continue
        st.undo[at(top)] = j | (side << 16) | (d << 17) | (old_shape << 20)
        top += 1
        st.shape[side, d, at_j] = new_shape
        old_index = int(st.combo[side, at_j])
        index = old_index + (new_shape - old_shape) * weight
        st.combo[side, at_j] = index
        new_word = tb.combo_pack[at(index)]
        old_word = tb.combo_pack[at(old_index)]
        st.value[side, at_j] = packed_value(new_word)
        st.eval_sum[side, 0] += packed_weight(new_word, 0) - packed_weight(old_word, 0)
        st.eval_sum[side, 1] += packed_weight(new_word, 1) - packed_weight(old_word, 1)
        new_class = packed_class(new_word)
        old_class = st.klass[side, at_j]
        if new_class != old_class:
            st.class_count[side, at(old_class)] -= 1
            st.class_count[side, at(new_class)] += 1
            st.klass[side, at_j] = new_class
    return top


@njit(cache=True, inline="always")
def place(st: State, tb: Tables, i: int, color: int) -> None:
    """Put a stone of ``color`` (1 black, 2 white) on empty cell ``i`` and push it.

    One walk along each line through ``i`` (up to the border) sets the new stone into
    the window keys of the cells that see it and refreshes the shapes of the empty ones:
    only their shape in that line's direction can change. What changes is logged for
    ``remove``."""
    ply = st.info[I_PLY]
    top = st.info[I_UNDO]
    at_ply = at(ply)
    at_i = at(i)
    st.frames[at_ply] = top
    st.saved_bounds[at_ply] = st.info[I_BOUNDS]
    st.info[I_BOUNDS] = _grow_bounds(st.info[I_BOUNDS], st.column[at_i], st.row[at_i])
    for side in range(2):
        for c in range(NUM_CLASSES):
            st.saved_counts[at_ply, side, c] = st.class_count[side, c]
        st.saved_eval[at_ply, side, 0] = st.eval_sum[side, 0]
        st.saved_eval[at_ply, side, 1] = st.eval_sum[side, 1]
    # The cell leaves the pool of empty cells: drop its contributions.
    for side in range(2):
        combo = at(st.combo[side, at_i])
        st.eval_sum[side, 0] -= tb.eval_cells[combo, 0]
        st.eval_sum[side, 1] -= tb.eval_cells[combo, 1]
        st.class_count[side, at(st.klass[side, at_i])] -= 1
    st.cells[at_i] = color
    st.near[at_i] -= NEAR_OCCUPIED
    st.stack[at_ply] = i
    st.info[I_PLY] = ply + 1
    st.info[I_HASH] ^= tb.zobrist[at(color), at_i]
    reach = window_reach(tb)
    for d in range(4):
        step = st.dirs[d]
        for sign in (-1, 1):
            for k in range(1, reach + 1):
                j = i + sign * k * step
                at_j = at(j)
                offset = -sign * k  # where i sits as seen from j
                key = st.keys[d, at_j] | (color << (2 * key_slot(offset)))
                st.keys[d, at_j] = key
                if k <= 2:
                    st.near[at_j] += 1
                cell = st.cells[at_j]
                if cell == WALL:
                    break
                if cell == 0:
                    top = _reshape(st, tb, d, j, key, top)
    st.info[I_UNDO] = top


@njit(cache=True, inline="always")
def remove(st: State, tb: Tables) -> int:
    """Take back the last stone placed and return its cell: its bits leave the window
    keys, and the shapes, combinations, values, classes and sums ``place`` changed are
    put back from the undo log (the stone's own cell kept its while it was occupied)."""
    ply = st.info[I_PLY] - 1
    at_ply = at(ply)
    i = int(st.stack[at_ply])
    at_i = at(i)
    st.info[I_PLY] = ply
    color = st.cells[at_i]
    st.info[I_HASH] ^= tb.zobrist[at(color), at_i]
    st.cells[at_i] = 0
    st.near[at_i] += NEAR_OCCUPIED
    reach = window_reach(tb)
    for d in range(4):
        step = st.dirs[d]
        for sign in (-1, 1):
            for k in range(1, reach + 1):
                j = i + sign * k * step
                at_j = at(j)
                offset = -sign * k
                st.keys[d, at_j] &= ~(np.int64(3) << (2 * key_slot(offset)))
                if k <= 2:
                    st.near[at_j] -= 1
                if st.cells[at_j] == WALL:
                    break
    start = st.frames[at_ply]
    for n in range(st.info[I_UNDO] - 1, start - 1, -1):
        entry = int(st.undo[at(n)])
        j = at(entry & 0xFFFF)
        side = (entry >> 16) & 1
        d = (entry >> 17) & 3
        old_shape = (entry >> 20) & 15
        index = int(st.combo[side, j]) + (old_shape - int(st.shape[side, d, j])) * COMBO_WEIGHT[d]
        st.shape[side, d, j] = old_shape
        st.combo[side, j] = index
        word = tb.combo_pack[at(index)]
        st.value[side, j] = packed_value(word)
        st.klass[side, j] = packed_class(word)
    st.info[I_UNDO] = start
    st.info[I_BOUNDS] = st.saved_bounds[at_ply]
    for side in range(2):
        for c in range(NUM_CLASSES):
            st.class_count[side, c] = st.saved_counts[at_ply, side, c]
        st.eval_sum[side, 0] = st.saved_eval[at_ply, side, 0]
        st.eval_sum[side, 1] = st.saved_eval[at_ply, side, 1]
    return i


@njit(cache=True)
def init_walls(st: State, tb: Tables) -> None:
    """Set the window keys that see the border, then every empty cell's shapes, and the
    stones' bounding box."""
    n = st.cells.shape[0]
    bounds = NO_BOUNDS
    for i in range(n):
        if st.cells[i] == 1 or st.cells[i] == 2:
            bounds = _grow_bounds(bounds, st.column[i], st.row[i])
    st.info[I_BOUNDS] = bounds
    reach = window_reach(tb)
    for i in range(n):
        if st.cells[i] != 0:
            continue
        for d in range(4):
            step = st.dirs[d]
            key = np.int64(0)
            for offset in range(-reach, reach + 1):
                if offset == 0:
                    continue
                j = i + offset * step
                cell = WALL if j < 0 or j >= n else st.cells[j]
                key |= np.int64(cell) << (2 * key_slot(offset))
            st.keys[d, i] = key
    for side in range(2):
        for c in range(st.class_count.shape[1]):
            st.class_count[side, c] = 0
        st.eval_sum[side, 0] = 0
        st.eval_sum[side, 1] = 0
    for i in range(n):
        if st.cells[i] == 0:
            for side in range(2):
                st.value[side, i] = 0
                st.klass[side, i] = 0
                st.combo[side, i] = 0
                st.class_count[side, 0] += 1
                st.eval_sum[side, 0] += tb.eval_cells[0, 0]
                st.eval_sum[side, 1] += tb.eval_cells[0, 1]
            _refresh_cell(st, tb, i)


@njit(cache=True, inline="always")
def side_to_move(st: State) -> int:
    """1 (black) or 2 (white): black moves at even plies."""
    return 1 + (st.info[I_PLY] & 1)


@njit(cache=True, inline="always")
def stone_back(st: State, back: int, owner: int) -> int:
    """The cell of the stone placed ``back`` plies ago when it is ``owner``'s, else -1
    (before the first stone, or a stale stack entry left by a null move)."""
    k = st.info[I_PLY] - back
    if k < 0:
        return -1
    cell = int(st.stack[at(k)])
    if st.cells[at(cell)] != owner:
        return -1
    return cell
