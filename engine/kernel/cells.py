"""Scans of the board for cells of a given class: the five to complete, the winning four."""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernel.forbidden import forbidden_at
from engine.kernel.state import I_RENJU, I_STRIDE, PAD, State, at, candidate_box
from engine.kernel.tables import C_FIVE, C_FLEX4


@njit(cache=True)
def first_cell_of_class(st: State, side: int, klass: int) -> int:
    stride = st.info[I_STRIDE]
    x0, x1, y0, y1 = candidate_box(st)
    for y in range(y0, y1 + 1):
        base = (y + PAD) * stride + PAD
        for x in range(x0, x1 + 1):
            i = base + x
            if st.cells[at(i)] == 0 and st.klass[side, at(i)] == klass:
                return i
    return -1


@njit(cache=True)
def five_cells(st: State, side: int, out: np.ndarray) -> int:
    """Empty cells where ``side`` makes five; returns how many (up to out's length)."""
    stride = st.info[I_STRIDE]
    wanted = min(out.shape[0], st.class_count[side, C_FIVE])
    count = 0
    if wanted == 0:
        return 0
    x0, x1, y0, y1 = candidate_box(st)
    for y in range(y0, y1 + 1):
        base = (y + PAD) * stride + PAD
        for x in range(x0, x1 + 1):
            i = base + x
            if st.cells[at(i)] == 0 and st.klass[side, at(i)] == C_FIVE:
                out[count] = i
                count += 1
                if count == wanted:
                    return count
    return count


@njit(cache=True, inline="always")
def winning_flex4_cell(st: State, side: int) -> int:
    """A cell where ``side`` makes an open four or two fours (and may play), or -1."""
    if st.class_count[side, C_FLEX4] == 0:
        return -1
    renju_black = side == 0 and st.info[I_RENJU] != 0
    stride = st.info[I_STRIDE]
    x0, x1, y0, y1 = candidate_box(st)
    for y in range(y0, y1 + 1):
        base = (y + PAD) * stride + PAD
        for x in range(x0, x1 + 1):
            i = base + x
            if (
                st.cells[at(i)] == 0
                and st.klass[side, at(i)] == C_FLEX4
                and not (renju_black and forbidden_at(st, i))
            ):
                return i
    return -1
