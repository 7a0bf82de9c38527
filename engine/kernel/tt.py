"""The transposition table: per slot the position's hash and one packed ``int64`` of data,
side by side so a probe reads one cache line.

The first word holds the hash XOR the data, so an entry is valid only when both words
belong to the same write: searches running in parallel threads share one table without
locks, and a slot torn by two threads writing at once reads as a miss, never as another
position's move or score."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.kernel.scores import MATE_BOUND
from engine.kernel.state import I_HASH, State

TT_EXACT = 1
TT_LOWER = 2
TT_UPPER = 3


class Tt(NamedTuple):
    # int64[n, 2]: the key XOR the data, then the data:
    # move | depth << 16 | flag << 24 | (score + 2**20) << 26
    slots: np.ndarray


def new_tt(megabytes: int) -> Tt:
    entries = 1
    while entries * 16 * 2 <= megabytes * 1024 * 1024:
        entries *= 2
    return Tt(np.zeros((entries, 2), dtype=np.int64))


@njit(cache=True, inline="always")
def table_key(st: State, color: int) -> np.int64:
    """The table key of the position with ``color`` to move: the stones' hash with the
    side to move mixed in."""
    return st.info[I_HASH] ^ (np.int64(color) << 61)


@njit(cache=True)
def tt_store(tt: Tt, key: np.int64, move: int, depth: int, flag: int, score: int, ply: int) -> None:
    if score >= MATE_BOUND:
        score += ply
    elif score <= -MATE_BOUND:
        score -= ply
    slot = key & (tt.slots.shape[0] - 1)
    old = tt.slots[slot, 1]
    if tt.slots[slot, 0] ^ old == key and move < 0:
        move = (old & 0xFFFF) - 1
    packed = (
        np.int64(move + 1)
        | (np.int64(depth + 64) << 16)
        | (np.int64(flag) << 24)
        | (np.int64(score + (1 << 20)) << 26)
    )
    tt.slots[slot, 0] = key ^ packed
    tt.slots[slot, 1] = packed


@njit(cache=True)
def tt_move_of(tt: Tt, key: np.int64) -> int:
    slot = key & (tt.slots.shape[0] - 1)
    data = tt.slots[slot, 1]
    if tt.slots[slot, 0] ^ data != key:
        return -1
    return int(data & 0xFFFF) - 1
