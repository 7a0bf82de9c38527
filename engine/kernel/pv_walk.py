"""The principal variation's tail from the transposition table.

A node answered by the table returns its score without a line, so an iteration whose
children were already searched deeper (a search that goes on from an earlier one, the
second and later lines of a multi-PV search) can end with a one-move principal variation.
Following the table's best moves from the end of the line recovers the rest, the way
engines print a line that outlives the search tree."""

from __future__ import annotations

from numba import njit

from engine.kernel.forbidden import forbidden_at
from engine.kernel.heuristics import Heuristics
from engine.kernel.state import I_RENJU, MAX_PLY, State, place, remove, side_to_move
from engine.kernel.tables import C_FIVE, Tables
from engine.kernel.tt import Tt, table_key, tt_move_of


@njit(cache=True)
def extend_root_pv(st: State, tb: Tables, tt: Tt, hs: Heuristics, limit: int) -> int:
    """Extend the root's line (``hs.pv[0]``, ``hs.pv_len[0]`` moves) with the table's
    moves, up to ``limit`` moves in all, and return its new length. The line stops at a
    five, at a move the table does not know, and at a point that is taken or forbidden.
    The state is left as it was."""
    length = int(hs.pv_len[0])
    if limit > MAX_PLY:
        limit = MAX_PLY
    placed = 0
    over = False
    # Play the known line.
    for k in range(length):
        move = hs.pv[0, k]
        color = side_to_move(st)
        if move < 0 or st.cells[move] != 0 or over:
            over = True
            break
        over = st.klass[color - 1, move] == C_FIVE
        place(st, tb, move, color)
        placed += 1
    # Then follow the table.
    while not over and placed == length and length < limit:
        color = side_to_move(st)
        move = tt_move_of(tt, table_key(st, color))
        if move < 0 or move >= st.cells.shape[0] or st.cells[move] != 0:
            break
        if st.info[I_RENJU] != 0 and color == 1 and forbidden_at(st, move):
            break
        over = st.klass[color - 1, move] == C_FIVE
        place(st, tb, move, color)
        hs.pv[0, length] = move
        length += 1
        placed += 1
    for _ in range(placed):
        remove(st, tb)
    hs.pv_len[0] = length
    return length
