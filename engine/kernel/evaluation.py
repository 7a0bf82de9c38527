"""The static evaluation: the side to move's score from the per-cell values and classes
that the state keeps up to date, weighed by the defence factor."""

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
)

DOUBLE_THREE_BONUS = 1500
OPEN_THREE_PRESSURE = 60


@njit(cache=True)
def evaluate(st: State) -> int:
    """Static score for the side to move. The root side weighs the opponent's prospects
    by the defence factor (seed 002); the side to move's prospects count a little more,
    since it gets to act on them first."""
    color = side_to_move(st)
    root = st.info[I_ROOT_COLOR]
    other = 3 - root
    root_weight = 5 if color == root else 4
    other_weight = 5 if color == other else 4
    defence = st.info[I_DEFENCE]
    from_root = (
        root_weight * 100 * st.value_sum[root - 1]
        - other_weight * defence * st.value_sum[other - 1]
    ) // 1600
    score = from_root if color == root else -from_root
    # Threats the static sum undervalues. A double open three for the side to move wins
    # when the opponent has no four to interpose; an opponent's open three with no four
    # of ours to answer it costs us the initiative.
    me = color - 1
    op = 2 - color
    op_fours = (
        st.class_count[op, C_BLOCK4]
        + st.class_count[op, C_BLOCK4_FLEX3]
        + st.class_count[op, C_FLEX4]
    )
    my_fours = (
        st.class_count[me, C_BLOCK4]
        + st.class_count[me, C_BLOCK4_FLEX3]
        + st.class_count[me, C_FLEX4]
    )
    renju_black = st.info[I_RENJU] != 0 and color == 1
    if op_fours == 0 and st.class_count[me, C_FLEX3_2X] > 0 and not renju_black:
        score += DOUBLE_THREE_BONUS
    if my_fours == 0 and st.class_count[op, C_FLEX4] > 0:
        score -= OPEN_THREE_PRESSURE
    noise = st.info[I_NOISE]
    if noise > 0:
        mixed = (st.info[I_HASH] ^ st.info[I_SEED]) * np.int64(6364136223846793005)
        score += (mixed >> 33) % (2 * noise + 1) - noise
    if score > EVAL_LIMIT:
        score = EVAL_LIMIT
    elif score < -EVAL_LIMIT:
        score = -EVAL_LIMIT
    return score
