"""Renju's forbidden moves for black (overline, double four, double three) on the kernel
state, tested exactly by placing stones, with a cheap filter from the cell's shapes."""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from engine.kernel.patterns import B4, F3, F3S, F4, OL
from engine.kernel.signatures import I64
from engine.kernel.state import I_RENJU, State


@njit(cache=True)
def _run(cells: np.ndarray, i: int, step: int) -> int:
    length = 1
    j = i - step
    while cells[j] == 1:
        length += 1
        j -= step
    j = i + step
    while cells[j] == 1:
        length += 1
        j += step
    return length


@njit(cache=True)
def _run_start(cells: np.ndarray, i: int, step: int) -> int:
    j = i
    while cells[j - step] == 1:
        j -= step
    return j


@njit(numba.boolean(numba.int8[::1], numba.int64[::1], I64), cache=True)
def is_forbidden(cells: np.ndarray, dirs: np.ndarray, i: int) -> bool:
    """Renju: whether black may not play empty cell ``i`` (overline, double four or
    double three, unless it makes exactly five). ``cells`` is restored on return."""
    if cells[i] != 0:
        return False
    busy = 0
    for d in range(4):
        step = dirs[d]
        count = 0
        for k in range(1, 6):
            if cells[i + k * step] == 1:
                count += 1
            elif cells[i + k * step] == 3:
                break
        for k in range(1, 6):
            if cells[i - k * step] == 1:
                count += 1
            elif cells[i - k * step] == 3:
                break
        if count >= 4:
            busy = 2
            break
        if count >= 2:
            busy += 1
    if busy < 2:
        return False
    cells[i] = 1
    five = False
    over = False
    for d in range(4):
        length = _run(cells, i, dirs[d])
        if length == 5:
            five = True
        elif length > 5:
            over = True
    result = False
    if not five:
        if over:
            result = True
        else:
            fours = 0
            threes = 0
            for d in range(4):
                step = dirs[d]
                # Fours through i: points making exactly five, grouped by their four stones.
                group_a = np.full(8, -1, dtype=np.int64)
                group_b = np.full(8, -1, dtype=np.int64)
                groups = 0
                for k in range(-4, 5):
                    q = i + k * step
                    if k == 0 or cells[q] != 0:
                        continue
                    cells[q] = 1
                    if _run(cells, q, step) == 5:
                        s = _run_start(cells, q, step)
                        e = s + 4 * step
                        if (s <= i <= e) if step > 0 else (e <= i <= s):
                            if q == s:
                                a, b = s + step, e
                            elif q == e:
                                a, b = s, e - step
                            else:
                                a, b = -q - 1, q
                            seen = False
                            for g in range(groups):
                                if group_a[g] == a and group_b[g] == b:
                                    seen = True
                            if not seen:
                                group_a[groups] = a
                                group_b[groups] = b
                                groups += 1
                    cells[q] = 0
                if groups > 0:
                    fours += groups
                    continue
                # An open three: a non-forbidden move makes a straight four through i.
                for k in range(-4, 5):
                    q = i + k * step
                    if k == 0 or cells[q] != 0:
                        continue
                    cells[q] = 1
                    straight = False
                    if _run(cells, i, step) == 4:
                        s = _run_start(cells, i, step)
                        left = s - step
                        right = s + 4 * step
                        straight = (
                            cells[left] == 0
                            and cells[right] == 0
                            and cells[left - step] != 1
                            and cells[right + step] != 1
                        )
                    cells[q] = 0
                    if straight and not is_forbidden(cells, dirs, q):
                        threes += 1
                        break
            result = fours >= 2 or threes >= 2
    cells[i] = 0
    return result


@njit(cache=True)
def _maybe_forbidden(st: State, i: int) -> bool:
    """Cheap filter before the full test: black's shapes at ``i`` could break a rule."""
    strong = 0
    for d in range(4):
        s = st.shape[0, d, i]
        if s == OL or s == F4:  # noqa: SIM109 (plain comparisons compile best)
            return True
        if s == B4 or s == F3 or s == F3S:  # noqa: SIM109
            strong += 1
    return strong >= 2


@njit(cache=True)
def forbidden_at(st: State, i: int) -> bool:
    if st.info[I_RENJU] == 0 or st.cells[i] != 0:
        return False
    if not _maybe_forbidden(st, i):
        return False
    return is_forbidden(st.cells, st.dirs, i)
