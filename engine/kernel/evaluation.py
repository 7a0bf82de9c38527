"""The static evaluation: the side to move's score from the sums of per-cell weights that
the state keeps up to date (one table for the side to move's cells, one for the side that
waits, the same in the shipped weights: ``weights``), plus side-to-move threat terms read
from the class counts, with the opponent's part weighed by the defence factor."""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernel.scores import EVAL_LIMIT
from engine.kernel.state import (
    I_DEFENCE,
    I_HASH,
    I_NOISE,
    I_RENJU,
    I_ROOT_COLOR,
    I_SEED,
    State,
    side_to_move,
)
from engine.kernel.tables import (
    C_BLOCK4,
    C_BLOCK4_FLEX3,
    C_FLEX3_2X,
    C_FLEX4,
    Tables,
)
from engine.kernel.weights import (
    T_DOUBLE_THREE,
    T_OUR_FOUR_THREE,
    T_TEMPO,
    T_THEIR_DOUBLE_THREE,
    T_THEIR_FOUR_THREE,
    T_THEIR_THREE,
    T_THEIR_THREE_COUNTERED,
    WEIGHT_UNIT,
)


@njit(cache=True, inline="always")
def cell_score(st: State, defence: int) -> int:
    """The sum of the per-cell weights for the side to move, in points: ours as the side
    to move minus theirs as the side that waits. The root side weighs the opponent's part
    by ``defence`` (in 1/100; seed 002's defence factor)."""
    color = side_to_move(st)
    me = color - 1
    op = 2 - color
    if color == st.info[I_ROOT_COLOR]:
        total = 100 * st.eval_sum[me, 0] - defence * st.eval_sum[op, 1]
    else:
        total = defence * st.eval_sum[me, 0] - 100 * st.eval_sum[op, 1]
    return total // (100 * WEIGHT_UNIT)


@njit(cache=True, inline="always")
def threat_bits(st: State) -> int:
    """The side to move's yes/no threat features as bits (bit ``weights.T_*``)."""
    color = side_to_move(st)
    me = color - 1
    op = 2 - color
    counts = st.class_count
    op_fours = counts[op, C_BLOCK4] + counts[op, C_BLOCK4_FLEX3] + counts[op, C_FLEX4]
    my_fours = counts[me, C_BLOCK4] + counts[me, C_BLOCK4_FLEX3] + counts[me, C_FLEX4]
    renju = st.info[I_RENJU] != 0
    bits = 1 << T_TEMPO
    # A double open three for the side to move wins when the opponent has no four to
    # interpose; an opponent's open three with no four of ours to answer it costs us the
    # initiative.
    if op_fours == 0 and counts[me, C_FLEX3_2X] > 0 and not (renju and me == 0):
        bits |= 1 << T_DOUBLE_THREE
    if counts[op, C_FLEX4] > 0:
        bits |= 1 << (T_THEIR_THREE if my_fours == 0 else T_THEIR_THREE_COUNTERED)
    if counts[op, C_BLOCK4_FLEX3] > 0:
        bits |= 1 << T_THEIR_FOUR_THREE
    if counts[op, C_FLEX3_2X] > 0 and not (renju and op == 0):
        bits |= 1 << T_THEIR_DOUBLE_THREE
    if counts[me, C_BLOCK4_FLEX3] > 0:
        bits |= 1 << T_OUR_FOUR_THREE
    return bits


@njit(cache=True, inline="always")
def evaluate(st: State, tb: Tables) -> int:
    """Static score for the side to move: the cell weights, the threat terms, then the
    weak levels' noise, within ``EVAL_LIMIT``."""
    score = cell_score(st, st.info[I_DEFENCE])
    bits = threat_bits(st)
    for k in range(tb.eval_threats.shape[0]):
        if (bits >> k) & 1:
            score += tb.eval_threats[k]
    noise = st.info[I_NOISE]
    if noise > 0:
        mixed = (st.info[I_HASH] ^ st.info[I_SEED]) * np.int64(6364136223846793005)
        score += (mixed >> 33) % (2 * noise + 1) - noise
    if score > EVAL_LIMIT:
        score = EVAL_LIMIT
    elif score < -EVAL_LIMIT:
        score = -EVAL_LIMIT
    return score
