"""Move-ordering memory and per-ply scratch arrays of a search: history, killers, move
lists, the triangular PV table, the threat searches' failure tables and line, and the root
moves a multi-PV search leaves out."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.kernel.state import MAX_PLY

MAX_MOVES = 512


class Heuristics(NamedTuple):
    history: np.ndarray  # int32[2, cells]
    killers: np.ndarray  # int32[MAX_PLY + 64, 2]
    moves: np.ndarray  # int32[MAX_PLY + 64, MAX_MOVES]: move lists per ply
    scores: np.ndarray  # int32[MAX_PLY + 64, MAX_MOVES]
    vcf_fail: np.ndarray  # int64[2**20]: hashes of positions where VCF failed
    vct_fail: np.ndarray  # int64[2**18]: hashes (with the budget) where VCT failed
    vcf_line: np.ndarray  # int32[MAX_PLY + 64]: the winning VCF line found last
    pv: np.ndarray  # int32[MAX_PLY + 64, MAX_PLY + 64]: triangular PV table
    pv_len: np.ndarray  # int32[MAX_PLY + 64]
    # Multi-PV: root moves the search leaves out (the lines already chosen), by cell, and
    # how many there are (0: a plain search).
    root_skip: np.ndarray  # int8[cells]
    root_skip_count: np.ndarray  # int32[1]


def new_heuristics(cells: int) -> Heuristics:
    depth = MAX_PLY + 64
    return Heuristics(
        history=np.zeros((2, cells), dtype=np.int32),
        killers=np.zeros((depth, 2), dtype=np.int32),
        moves=np.zeros((depth, MAX_MOVES), dtype=np.int32),
        scores=np.zeros((depth, MAX_MOVES), dtype=np.int32),
        vcf_fail=np.zeros(1 << 20, dtype=np.int64),
        vct_fail=np.zeros(1 << 18, dtype=np.int64),
        vcf_line=np.zeros(depth, dtype=np.int32),
        pv=np.zeros((depth, depth), dtype=np.int32),
        pv_len=np.zeros(depth, dtype=np.int32),
        root_skip=np.zeros(cells, dtype=np.int8),
        root_skip_count=np.zeros(1, dtype=np.int32),
    )


def age_heuristics(hs: Heuristics) -> None:
    """Ready memory kept from an earlier search for the next one: old history still
    orders moves well but must not swamp the new search, and old killers belong to other
    positions."""
    hs.history[:] //= 8
    hs.killers[:] = 0


def clear_heuristics(hs: Heuristics) -> None:
    """Zero every array where it is (a new game)."""
    for array in hs:
        array.fill(0)
