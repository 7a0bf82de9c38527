"""The table prefetch is only a hint: compiled, it reads nothing into the search and
changes no array; any row of the table may be named."""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernel.prefetch import prefetch_row


@njit(cache=False)
def _touch_rows(table: np.ndarray, rows: np.ndarray) -> int:
    total = 0
    for row in rows:
        prefetch_row(table, row)
        total += table[row, 1]
    return total


def test_prefetching_rows_changes_nothing() -> None:
    table = np.arange(64, dtype=np.int64).reshape(32, 2)
    before = table.copy()
    rows = np.array([0, 5, 31, 5], dtype=np.int64)
    assert _touch_rows(table, rows) == 1 + 11 + 63 + 11
    assert np.array_equal(table, before)
