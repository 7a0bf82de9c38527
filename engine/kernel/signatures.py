"""Numba types of the kernel's structs, for explicit signatures: recursive compiled
functions are only safe to cache with one."""

from __future__ import annotations

import numba
import numpy as np

from engine.kernel.heuristics import new_heuristics
from engine.kernel.state import new_state
from engine.kernel.tables import Tables
from engine.kernel.tt import new_tt


def _numba_types() -> tuple[object, object, object, object]:
    """Numba types of the state, tables, table and heuristics, for explicit signatures:
    recursive compiled functions are only safe to cache with one."""
    state = new_state(7, False)
    tables = Tables(
        np.zeros(1, dtype=np.uint8),
        np.zeros(1, dtype=np.int32),
        np.zeros(1, dtype=np.int8),
        np.zeros(1, dtype=np.int32),
        np.zeros((3, 1), dtype=np.int64),
        np.zeros((1, 2), dtype=np.int32),
        np.zeros(1, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros((1, 1), dtype=np.int64),
    )
    return (
        numba.typeof(state),
        numba.typeof(tables),
        numba.typeof(new_tt(1)),
        numba.typeof(new_heuristics(1)),
    )


STATE_T, TABLES_T, TT_T, HEURISTICS_T = _numba_types()
I64 = numba.int64
