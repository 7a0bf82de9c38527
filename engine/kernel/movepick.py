"""Move generation and ordering: candidate moves near the stones, scored from both sides'
per-cell values, the TT move, killers and history; only forcing replies when the
opponent threatens an open four."""

from __future__ import annotations

from numba import njit

from engine.kernel.forbidden import forbidden_at
from engine.kernel.heuristics import MAX_MOVES, Heuristics
from engine.kernel.state import (
    I_RENJU,
    I_STRIDE,
    PAD,
    State,
    at,
    candidate_box,
    side_to_move,
)
from engine.kernel.tables import (
    C_BLOCK4,
    C_FLEX4,
)

BRANCH_LIMIT = 12  # moves tried at an interior node when nothing forces the reply
PV_BRANCH_LIMIT = 16  # the same at a node of the principal variation below the root
ROOT_BRANCH_LIMIT = 48


@njit(cache=True, inline="always")
def generate(st: State, hs: Heuristics, ply: int, tt_move: int, keep: int) -> int:
    """Fill ``hs.moves[ply]`` with the best ``keep`` candidate moves for the side to move,
    best first, and return how many there are.

    When the opponent threatens an open four, only our fours and the points that break
    the threat are candidates, and all of them are kept; otherwise every empty point near
    the stones competes for the ``keep`` places."""
    color = side_to_move(st)
    me = color - 1
    op = 2 - color
    stride = st.info[I_STRIDE]
    x0, x1, y0, y1 = candidate_box(st)
    renju_black = st.info[I_RENJU] != 0 and color == 1
    defending = st.class_count[op, C_FLEX4] > 0
    if defending or keep > MAX_MOVES:
        keep = MAX_MOVES
    moves = hs.moves[ply]
    scores = hs.scores[ply]
    count = 0
    for y in range(y0, y1 + 1):
        base = (y + PAD) * stride + PAD
        for x in range(x0, x1 + 1):
            i = base + x
            at_i = at(i)
            if st.near[at_i] <= 0:  # occupied, or no stone near
                continue
            mine = st.klass[me, at_i]
            theirs = st.klass[op, at_i]
            if defending and mine < C_BLOCK4 and theirs < C_BLOCK4:
                continue
            score = st.value[me, at_i] + st.value[op, at_i] + (st.value[me, at_i] >> 2)
            score += hs.history[me, at_i] >> 6
            if i == tt_move:
                score = 1 << 28
            elif i == hs.killers[ply, 0]:
                score += 1 << 20
            elif i == hs.killers[ply, 1]:
                score += 1 << 19
            if count == keep and scores[at(count - 1)] >= score:
                continue
            # Only moves that make the list pay for the renju test.
            if renju_black and forbidden_at(st, i):
                continue
            # Insertion into the sorted list, dropping the last when it is full.
            k = count if count < keep else keep - 1
            while k > 0 and scores[at(k - 1)] < score:
                moves[at(k)] = moves[at(k - 1)]
                scores[at(k)] = scores[at(k - 1)]
                k -= 1
            moves[at(k)] = i
            scores[at(k)] = score
            if count < keep:
                count += 1
    return count
