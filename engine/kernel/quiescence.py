"""The leaves' quiescence: the static score, or better, the score after one of the side to
move's fours and its forced block, a few fours in a row."""

from __future__ import annotations

from numba import njit

from engine.kernel.cells import five_cells, winning_flex4_cell
from engine.kernel.evaluation import evaluate
from engine.kernel.heuristics import Heuristics
from engine.kernel.scores import MATE
from engine.kernel.signatures import HEURISTICS_T, I64, STATE_T, TABLES_T
from engine.kernel.state import (
    I_NODES,
    I_RENJU,
    I_STRIDE,
    MAX_PLY,
    PAD,
    State,
    at,
    candidate_box,
    place,
    remove,
    side_to_move,
    stone_back,
)
from engine.kernel.tables import C_BLOCK4, C_BLOCK4_FLEX3, C_FIVE, Tables
from engine.kernel.threats import five_point_after_four

QUIESCENCE_FOURS = 4  # fours in a row at most
QUIESCENCE_WIDTH = 12  # fours tried at one step
QUIESCENCE_PLAIN = 2  # the first fours of a row may be plain; later ones must make a three
LOCAL_SQUARE = 2  # a four is tried only within this many steps of the side's last stone
LOCAL_LINE = 4  # or on one of its lines within this many


@njit(cache=True, inline="always")
def _near(st: State, i: int, x: int, y: int) -> bool:
    """Whether cell ``i`` lies within LOCAL_SQUARE steps of the column and row ``x``,
    ``y``, or within LOCAL_LINE along one of the lines through them."""
    dx = abs(st.column[at(i)] - x)
    dy = abs(st.row[at(i)] - y)
    far = dx if dx > dy else dy
    return far <= LOCAL_SQUARE or (far <= LOCAL_LINE and (dx == 0 or dy == 0 or dx == dy))


@njit(I64(STATE_T, TABLES_T, HEURISTICS_T, I64, I64, I64, I64), cache=True)  # type: ignore[call-overload]
def quiescence(
    st: State, tb: Tables, hs: Heuristics, alpha: int, beta: int, ply: int, fours: int
) -> int:
    """The side to move's score at a leaf: stand pat on the static score, or play a four
    (the opponent's block is forced) and go on; ``fours`` counts those played so far.
    Only fours near the side's own last stone are tried: an attack goes on where it is."""
    st.info[I_NODES] += 1
    color = side_to_move(st)
    me = color - 1
    op = 2 - color
    if st.class_count[me, C_FIVE] > 0:
        return MATE - ply - 1
    if st.class_count[op, C_FIVE] > 0:
        cells = hs.moves[ply, :2]
        if five_cells(st, op, cells) >= 2:
            return -(MATE - ply - 2)
        place(st, tb, cells[0], color)
        score = -quiescence(st, tb, hs, -beta, -alpha, ply + 1, fours)
        remove(st, tb)
        return score
    if winning_flex4_cell(st, me) >= 0:
        return MATE - ply - 3
    stand = evaluate(st, tb)
    if (
        stand >= beta
        or fours >= QUIESCENCE_FOURS
        or ply >= MAX_PLY - 8
        or st.info[I_RENJU] != 0
        or st.class_count[me, C_BLOCK4] + st.class_count[me, C_BLOCK4_FLEX3] == 0
    ):
        return stand
    best = stand
    if stand > alpha:
        alpha = stand
    # After the first QUIESCENCE_PLAIN fours, only fours that also make an open three go on.
    plain = fours < QUIESCENCE_PLAIN
    wanted = st.class_count[me, C_BLOCK4_FLEX3]
    if plain:
        wanted += st.class_count[me, C_BLOCK4]
    if wanted > QUIESCENCE_WIDTH:
        wanted = QUIESCENCE_WIDTH
    if wanted == 0:
        return stand
    # The side's own last stone (two back; a stale entry after a null move is no stone
    # of ours, and then every four is near enough).
    lx = -1
    ly = -1
    last = stone_back(st, 2, color)
    if last >= 0:
        lx = st.column[at(last)]
        ly = st.row[at(last)]
    moves = hs.moves[ply]
    count = 0
    stride = st.info[I_STRIDE]
    x0, x1, y0, y1 = candidate_box(st)
    for y in range(y0, y1 + 1):
        base = (y + PAD) * stride + PAD
        for x in range(x0, x1 + 1):
            i = base + x
            if st.cells[at(i)] != 0:
                continue
            klass = st.klass[me, at(i)]
            if klass == C_BLOCK4_FLEX3 or (klass == C_BLOCK4 and plain):
                if lx >= 0 and not _near(st, i, lx, ly):
                    continue
                moves[at(count)] = i
                count += 1
                if count == wanted:
                    break
        if count == wanted:
            break
    for n in range(count):
        i = moves[n]
        place(st, tb, i, color)
        block = five_point_after_four(st, tb, me, i)
        if block < 0:
            remove(st, tb)
            continue
        place(st, tb, block, 3 - color)
        score = quiescence(st, tb, hs, alpha, beta, ply + 2, fours + 1)
        remove(st, tb)
        remove(st, tb)
        if score > best:
            best = score
            if score > alpha:
                alpha = score
                if score >= beta:
                    break
    return best
