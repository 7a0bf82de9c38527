"""Threat searches: victory by continuous fours (VCF) and by continuous threats (VCT,
fours and open threes) for the side to move."""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.kernel.cells import first_cell_of_class, five_cells, winning_flex4_cell
from engine.kernel.forbidden import forbidden_at
from engine.kernel.heuristics import MAX_MOVES, Heuristics
from engine.kernel.movepick import generate
from engine.kernel.patterns import F5
from engine.kernel.signatures import HEURISTICS_T, I64, STATE_T, TABLES_T
from engine.kernel.state import (
    I_HASH,
    I_NODE_LIMIT,
    I_NODES,
    I_RENJU,
    I_STRIDE,
    I_THREAT_LIMIT,
    I_VCF_LIMIT,
    MAX_PLY,
    PAD,
    WALL,
    State,
    at,
    candidate_box,
    place,
    remove,
    side_to_move,
)
from engine.kernel.tables import (
    C_BLOCK4,
    C_BLOCK4_FLEX3,
    C_FIVE,
    C_FLEX3,
    C_FLEX3_2X,
    C_FLEX4,
    Tables,
)

LEAF_VCF_DEPTH = 6  # fours in a row tried at the leaves
ROOT_VCF_DEPTH = 24
# Nodes a VCF may take: at the root, at the main search's leaves and inside a VCT. In
# crowded positions where a side has twenty fours to make, a VCF of even six fours runs to
# millions of nodes (and of two dozen, for hours); a capped search reports no win.
ROOT_VCF_NODES = 200_000
LEAF_VCF_NODES = 20_000
ROOT_VCT_DEPTH = 5
VCF_BUDGET_MASK = 63  # low bits of a VCF failure entry: the budget that failed


@njit(cache=True)
def five_point_after_four(st: State, tb: Tables, side: int, i: int) -> int:
    """The point completing the four just made at ``i``."""
    for d in range(4):
        step = st.dirs[d]
        for sign in (-1, 1):
            for k in range(1, 5):
                j = i + sign * k * step
                c = st.cells[at(j)]
                if c == WALL:
                    break
                if c == 0 and st.shape[side, d, at(j)] == F5:
                    return j
    return -1


@njit(cache=True, inline="always")
def _vcf_halted(st: State) -> bool:
    """Out of time, or past the node cap of the enclosing ``capped_vcf``."""
    limit = st.info[I_VCF_LIMIT]
    return st.stop[0] != 0 or (limit > 0 and st.info[I_NODES] >= limit)


@njit(I64(STATE_T, TABLES_T, HEURISTICS_T, I64, I64), cache=True)  # type: ignore[call-overload]
def vcf(st: State, tb: Tables, hs: Heuristics, ply: int, budget: int) -> int:
    """Victory by continuous fours for the side to move: plies to the win, or 0.

    Every attacking move is a four, so the defender's reply is forced; the defender's
    own fours end the line (they would have to be answered). Failed positions are
    remembered by hash so transpositions of the same fours are not searched twice."""
    st.info[I_NODES] += 1
    color = side_to_move(st)
    me = color - 1
    op = 2 - color
    if _vcf_halted(st):
        # Report no win (a win found later in the line would be unproven).
        return 0
    if st.class_count[me, C_FIVE] > 0:
        hs.vcf_line[ply] = first_cell_of_class(st, me, C_FIVE)
        hs.vcf_line[ply + 1] = -1
        return 1
    if st.class_count[op, C_FIVE] > 0:
        return 0
    flex4 = winning_flex4_cell(st, me)
    if flex4 >= 0:
        hs.vcf_line[ply] = flex4
        hs.vcf_line[ply + 1] = -1
        return 3
    if budget <= 0 or ply >= MAX_PLY:
        return 0
    if st.class_count[me, C_BLOCK4] + st.class_count[me, C_BLOCK4_FLEX3] == 0:
        return 0
    # A position where no win by at most ``budget`` fours exists has none with fewer:
    # the table keeps the largest failed budget with the position's key.
    key = (st.info[I_HASH] ^ (np.int64(color) << 60)) & ~np.int64(VCF_BUDGET_MASK)
    slot = at(key & (hs.vcf_fail.shape[0] - 1))
    entry = hs.vcf_fail[slot]
    if (entry & ~np.int64(VCF_BUDGET_MASK)) == key and (entry & VCF_BUDGET_MASK) >= budget:
        return 0
    renju = st.info[I_RENJU] != 0
    stride = st.info[I_STRIDE]
    # One scan collects the fours; those that also make an open three go first, since
    # they usually finish the attack. The scan ends once every four the class counts
    # announce is found; the list lives in this ply's row of the move lists.
    wanted = st.class_count[me, C_BLOCK4] + st.class_count[me, C_BLOCK4_FLEX3]
    if wanted > 64:
        wanted = 64
    fours = hs.moves[ply]
    count = 0
    strong = 0
    x0, x1, y0, y1 = candidate_box(st)
    for y in range(y0, y1 + 1):
        base = (y + PAD) * stride + PAD
        for x in range(x0, x1 + 1):
            i = base + x
            if st.cells[at(i)] != 0:
                continue
            klass = st.klass[me, at(i)]
            if klass == C_BLOCK4_FLEX3:
                fours[at(count)] = fours[at(strong)]
                fours[at(strong)] = i
                strong += 1
                count += 1
            elif klass == C_BLOCK4:
                fours[at(count)] = i
                count += 1
            else:
                continue
            if count == wanted:
                break
        if count == wanted:
            break
    for n in range(count):
        i = fours[n]
        if renju and color == 1 and forbidden_at(st, i):
            continue
        place(st, tb, i, color)
        block = five_point_after_four(st, tb, me, i)
        if block < 0:
            remove(st, tb)
            continue
        if renju and color == 2 and forbidden_at(st, block):
            # Black cannot block on a forbidden point: the four wins.
            remove(st, tb)
            hs.vcf_line[ply] = i
            hs.vcf_line[ply + 1] = -1
            return 3
        place(st, tb, block, 3 - color)
        result = vcf(st, tb, hs, ply + 2, budget - 1)
        remove(st, tb)
        remove(st, tb)
        if result > 0:
            hs.vcf_line[ply] = i
            hs.vcf_line[ply + 1] = block
            return result + 2
        if _vcf_halted(st):
            return 0
    if not _vcf_halted(st):
        # Only a finished search proves there is no win here.
        hs.vcf_fail[slot] = key | min(budget, VCF_BUDGET_MASK)
    return 0


@njit(cache=True, inline="always")
def capped_vcf(st: State, tb: Tables, hs: Heuristics, ply: int, budget: int, nodes: int) -> int:
    """``vcf`` within ``nodes`` nodes (and within any cap an enclosing call has set)."""
    saved = st.info[I_VCF_LIMIT]
    limit = st.info[I_NODES] + nodes
    if 0 < saved < limit:
        limit = saved
    st.info[I_VCF_LIMIT] = limit
    win = vcf(st, tb, hs, ply, budget)
    st.info[I_VCF_LIMIT] = saved
    return win


@njit(I64(STATE_T, TABLES_T, HEURISTICS_T, I64, I64, I64), cache=True)  # type: ignore[call-overload]
def vct(st: State, tb: Tables, hs: Heuristics, ply: int, budget: int, complete: int) -> int:
    """Victory by continuous threats for the side to move: plies to the win, or 0.

    Attacking moves are open threes, and with ``complete`` fours as well; ``budget``
    counts the threats in a row. A four has one forced reply; an open three must be
    answered, so every defence (blocking points and the defender's own fours) is tried
    and the attack holds only if it wins against all of them. With ``complete``, when
    the defender answers with a four the attacker blocks it and the defender must still
    meet the threat that was there; without, a defender's four ends the line (sound, but
    it misses the wins that go through a block). The quick form is the searchers' root
    check, the complete one the threat analysis's (``engine.search.threats``)."""
    st.info[I_NODES] += 1
    if st.info[I_NODES] >= st.info[I_THREAT_LIMIT] or st.stop[0] != 0:
        return 0
    color = side_to_move(st)
    me = color - 1
    op = 2 - color
    renju = st.info[I_RENJU] != 0
    # The moves to try, kept in this ply's row of the score lists (the VCF below uses
    # the move lists' row).
    tries = hs.scores[ply]
    count = 0
    # Positions where no win within ``budget`` threats was found, whichever side made
    # the last four.
    key = (
        st.info[I_HASH]
        ^ (np.int64(color) << 59)
        ^ (np.int64(complete) << 58)
        ^ (np.int64(budget) << 52)
    )
    slot = key & (hs.vct_fail.shape[0] - 1)
    if complete != 0 and st.class_count[op, C_FIVE] > 0 and st.class_count[me, C_FIVE] == 0:
        # The defender's counter-four: the block is forced and spends no threat; the
        # defender must then still meet a threat of ours.
        if st.class_count[op, C_FIVE] > 1 or ply >= MAX_PLY - 16:
            return 0
        if hs.vct_fail[slot] == key:
            return 0
        block = first_cell_of_class(st, op, C_FIVE)
        if renju and color == 1 and forbidden_at(st, block):
            return 0
        tries[0] = block
        count = 1
    else:
        win = capped_vcf(st, tb, hs, ply, LEAF_VCF_DEPTH + 4, LEAF_VCF_NODES)
        if win > 0:
            return win
        if budget <= 0 or ply >= MAX_PLY - 16:
            return 0
        if st.class_count[op, C_FIVE] > 0 or st.class_count[op, C_FLEX4] > 0:
            return 0
        if st.class_count[me, C_FLEX3] + st.class_count[me, C_FLEX3_2X] == 0:
            return 0
        if hs.vct_fail[slot] == key:
            return 0
        budget -= 1
        stride = st.info[I_STRIDE]
        x0, x1, y0, y1 = candidate_box(st)
        # Threes first (double threes before single ones), then the fours that may set
        # up the next threat.
        for wanted in (C_FLEX3_2X, C_FLEX3, C_BLOCK4_FLEX3, C_BLOCK4):
            if complete == 0 and wanted != C_FLEX3_2X and wanted != C_FLEX3:
                break
            for y in range(y0, y1 + 1):
                base = (y + PAD) * stride + PAD
                for x in range(x0, x1 + 1):
                    i = base + x
                    if st.cells[i] != 0 or st.klass[me, i] != wanted or count >= MAX_MOVES:
                        continue
                    if renju and color == 1 and forbidden_at(st, i):
                        continue
                    tries[count] = i
                    count += 1
    reply_ply = ply + 1
    for t in range(count):
        i = tries[t]
        place(st, tb, i, color)
        # Every defence must lose; the defender's moves come from the generator, which
        # lists only blocks and counter-fours while we threaten.
        if complete != 0 and st.class_count[me, C_FIVE] == 0 and st.class_count[me, C_FLEX4] == 0:
            remove(st, tb)  # no threat left (after a block, say): the defender is free
            continue
        if st.class_count[me, C_FIVE] > 0:
            # A four: the block is the only reply (none against two fives).
            replies = five_cells(st, me, hs.moves[reply_ply, :2])
            if replies > 1 or (renju and color == 2 and forbidden_at(st, hs.moves[reply_ply, 0])):
                replies = 0
        else:
            replies = generate(st, hs, reply_ply, -1, MAX_MOVES)
        longest = 0
        holds = True
        for n in range(replies):
            reply = hs.moves[reply_ply, n]
            place(st, tb, reply, 3 - color)
            result = vct(st, tb, hs, ply + 2, budget, complete)
            remove(st, tb)
            if result == 0:
                holds = False
                break
            if result > longest:
                longest = result
        remove(st, tb)
        if replies == 0:
            # No defence at all, not even a legal block: the threat wins outright.
            hs.vcf_line[ply] = i
            hs.vcf_line[ply + 1] = -1
            return 5
        if holds:
            hs.vcf_line[ply] = i
            hs.vcf_line[ply + 1] = -1
            return longest + 2
    if st.stop[0] == 0 and st.info[I_NODES] < st.info[I_THREAT_LIMIT]:
        hs.vct_fail[slot] = key
    return 0


@njit(cache=True, nogil=True)
def root_vct(
    st: State, tb: Tables, hs: Heuristics, budget: int, node_limit: int, complete: bool
) -> int:
    """VCT for the side to move at the root, within ``node_limit`` nodes; the first move
    is left in ``hs.vcf_line[0]``. The ``complete`` search (counter-fours followed, fours
    as threats) deepens one threat at a time, so the wins with the fewest threats come
    first and the deeper tries reuse the shallower failures."""
    st.info[I_THREAT_LIMIT] = st.info[I_NODES] + node_limit
    if not complete:
        return vct(st, tb, hs, 0, budget, 0)
    for threats in range(1, budget + 1):
        win = vct(st, tb, hs, 0, threats, 1)
        if win > 0 or st.info[I_NODES] >= st.info[I_THREAT_LIMIT] or st.stop[0] != 0:
            return win
    return 0


@njit(cache=True, nogil=True)
def root_vcf(st: State, tb: Tables, hs: Heuristics, budget: int, cap: int = ROOT_VCF_NODES) -> int:
    """VCF for the side to move at the root, within ``cap`` nodes (a timed search passes
    fewer than ``ROOT_VCF_NODES`` when its time is short); the line is left in
    ``hs.vcf_line`` (and within a quarter of the node limit of a search that has one, so
    that the search itself keeps most of its nodes)."""
    nodes = cap
    limit = st.info[I_NODE_LIMIT]
    if limit > 0:
        nodes = min(nodes, max(limit // 4, 1000))
    return capped_vcf(st, tb, hs, 0, budget, nodes)
