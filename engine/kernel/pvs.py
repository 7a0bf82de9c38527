"""The principal variation search: negamax with alpha-beta, null windows, the
transposition table and a VCF probe at the leaves, made selective the way modern engines
are: late moves are reduced by a table that grows with depth and move number, and near the
leaves quiet moves are pruned by count and by futility (a static score too far below
alpha for a quiet move to make up). Threats, forced replies and the first moves are never
reduced or pruned."""

from __future__ import annotations

from numba import njit

from engine.kernel.borrow import borrowed
from engine.kernel.cells import first_cell_of_class, five_cells, winning_flex4_cell
from engine.kernel.evaluation import evaluate
from engine.kernel.forbidden import forbidden_at
from engine.kernel.heuristics import Heuristics
from engine.kernel.movepick import BRANCH_LIMIT, PV_BRANCH_LIMIT, ROOT_BRANCH_LIMIT, generate
from engine.kernel.prefetch import prefetch_row
from engine.kernel.quiescence import quiescence
from engine.kernel.scores import INF, MATE, MATE_BOUND
from engine.kernel.search_params import (
    LMR_DEPTHS,
    LMR_MOVES,
    P_FHR_MARGIN,
    P_FUTILITY_1,
    P_LMP_1,
    P_NULL_REDUCTION,
    P_PROBCUT_MARGIN,
    P_RFP_DEPTH,
    P_RFP_MARGIN,
)
from engine.kernel.signatures import HEURISTICS_T, I64, STATE_T, TABLES_T, TT_T
from engine.kernel.state import (
    I_NODE_LIMIT,
    I_NODES,
    I_NULL_PLY,
    I_PLY,
    I_RENJU,
    I_SEL_DEPTH,
    I_STOPPED,
    MAX_PLY,
    State,
    place,
    remove,
    side_to_move,
    stone_back,
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
from engine.kernel.threats import LEAF_VCF_DEPTH, LEAF_VCF_NODES, capped_vcf
from engine.kernel.tt import TT_EXACT, TT_LOWER, TT_UPPER, Tt, table_key, tt_store

# The margins, counts and reductions below are read from ``tb.search`` and ``tb.lmr``
# (``engine.kernel.search_params``, whose defaults are the shipped search). "The static
# score" is the evaluation, or the table's score where its bound lies beyond it:
# - move-count pruning: at depth d <= 4 (non-PV) quiet moves after the first LMP_d go;
# - futility: at depth d <= 3 (non-PV) quiet moves go when the static score + margin_d
#   <= alpha;
# - reverse futility: at depth d <= RFP_DEPTH (non-PV, no threat against us) a static
#   score RFP_MARGIN * d above beta is taken as a fail high without a search;
# - ProbCut: from PROBCUT_DEPTH, the first PROBCUT_MOVES moves that are threats or the
#   table move are searched PROBCUT_REDUCTION plies shallower against beta + the margin;
# - fail-high reduction: off the principal variation, where the static score stands
#   FHR_MARGIN a ply above beta (and no threat of the opponent's could overturn it),
#   every move but our fours is searched a ply shallower: the node will most likely fail
#   high;
# - null move: searched NULL_REDUCTION plies shallower, plus depth / NULL_DEPTH_DIVISOR.
# - distract prune: up to DISTRACT_DEPTH, under a threat of the opponent's, moves far from
#   both sides' last stones that block none of its fours are not searched.
PROBCUT_DEPTH = 6
PROBCUT_MOVES = 3
PROBCUT_REDUCTION = 3
NULL_DEPTH_DIVISOR = 5
DISTRACT_DEPTH = 4
# A leaf that must answer an open three is searched a ply up to this ply from the root.
THREE_ANSWER_PLY = 48


@njit(cache=True, inline="always")
def _update_pv(hs: Heuristics, ply: int, move: int) -> None:
    hs.pv[ply, ply] = move
    child_len = hs.pv_len[ply + 1]
    for k in range(ply + 1, child_len):
        hs.pv[ply, k] = hs.pv[ply + 1, k]
    hs.pv_len[ply] = child_len if child_len > ply + 1 else ply + 1


@njit(cache=True, inline="always")
def _prefetch_child(st: State, tt: Tt, color: int) -> None:
    """Start loading the table slot of the position just entered, where the side to
    move is ``color``'s opponent, before the child's probe needs it."""
    prefetch_row(tt.slots, table_key(st, 3 - color) & (tt.slots.shape[0] - 1))


@njit(cache=True)
def _drop_root_skips(hs: Heuristics, count: int) -> int:
    """Remove the root moves a multi-PV search has already chosen from the root's move
    list, keeping the order; the new count."""
    moves = hs.moves[0]
    kept = 0
    for n in range(count):
        if hs.root_skip[moves[n]] == 0:
            moves[kept] = moves[n]
            kept += 1
    return kept


@njit(cache=True, inline="always")
def _far_from(st: State, cell: int, x: int, y: int) -> bool:
    """Whether ``cell`` (a stone, or -1 for none) lies more than four cells from
    ``(x, y)`` along the longer axis; False when there is no stone."""
    if cell < 0:
        return False
    return max(abs(st.column[cell] - x), abs(st.row[cell] - y)) > 4


@njit(cache=True, inline="always")
def _check_stop(st: State) -> bool:
    if st.info[I_STOPPED] != 0:
        return True
    nodes = st.info[I_NODES]
    limit = st.info[I_NODE_LIMIT]
    # Reading the shared flag costs one load; checking it at every node keeps stops prompt.
    if (limit > 0 and nodes >= limit) or st.stop[0] != 0:
        st.info[I_STOPPED] = 1
        return True
    return False


@njit(
    I64(STATE_T, TABLES_T, TT_T, HEURISTICS_T, I64, I64, I64, I64),  # type: ignore[call-overload]
    cache=True,
    nogil=True,
)
def pvs(
    st: State,
    tb: Tables,
    tt: Tt,
    hs: Heuristics,
    depth: int,
    alpha: int,
    beta: int,
    ply: int,
) -> int:
    # Step 1. Count the node, honour stop requests and node limits.
    hs.pv_len[ply] = ply
    st.info[I_NODES] += 1
    if _check_stop(st):
        return 0
    if ply > st.info[I_SEL_DEPTH]:
        st.info[I_SEL_DEPTH] = ply
    color = side_to_move(st)
    me = color - 1
    op = 2 - color
    renju = st.info[I_RENJU] != 0

    # Step 2. Immediate results: our five, the opponent's four that must be blocked,
    # our open four.
    if st.class_count[me, C_FIVE] > 0:
        hs.pv[ply, ply] = first_cell_of_class(st, me, C_FIVE)
        hs.pv_len[ply] = ply + 1
        return MATE - ply - 1
    if st.class_count[op, C_FIVE] > 0:
        fives = hs.moves[ply, :2]
        found = five_cells(st, op, fives)
        block = fives[0]
        lost = found >= 2 or (renju and color == 1 and forbidden_at(st, block))
        if lost and ply > 0:
            return -(MATE - ply - 2)
        place(st, tb, block, color)
        _prefetch_child(st, tt, color)
        score = -pvs(st, tb, tt, hs, depth, -beta, -alpha, ply + 1)
        remove(st, tb)
        if lost:
            score = -(MATE - ply - 2)
        _update_pv(hs, ply, block)
        return score
    flex4 = winning_flex4_cell(st, me)
    if flex4 >= 0:
        hs.pv[ply, ply] = flex4
        hs.pv_len[ply] = ply + 1
        return MATE - ply - 3
    if ply >= MAX_PLY - 8:
        return evaluate(st, tb)

    # Step 3. Transposition table.
    key = table_key(st, color)
    slot = key & (tt.slots.shape[0] - 1)
    tt_move = -1
    tt_depth = -64
    tt_score = 0
    tt_flag = 0
    data = tt.slots[slot, 1]
    if tt.slots[slot, 0] ^ data == key:
        tt_move = int(data & 0xFFFF) - 1
        tt_depth = int((data >> 16) & 0xFF) - 64
        tt_flag = int((data >> 24) & 0x3)
        tt_score = int(data >> 26) - (1 << 20)
        if tt_score >= MATE_BOUND:
            tt_score -= ply
        elif tt_score <= -MATE_BOUND:
            tt_score += ply
        if ply > 0 and tt_depth >= depth:
            if tt_flag == TT_EXACT:
                return tt_score
            if tt_flag == TT_LOWER and tt_score >= beta:
                return tt_score
            if tt_flag == TT_UPPER and tt_score <= alpha:
                return tt_score

    # Step 4. Leaves: a threat search, then the quiescence of fours over the static
    # evaluation. A leaf that must answer an open three with no four of its own is
    # searched a ply instead: the blocks decide it, not the static score's price for the
    # threat (two open threes at once are then seen as lost).
    if (
        depth <= 0
        and st.class_count[op, C_FLEX4] > 0
        and st.class_count[me, C_BLOCK4] + st.class_count[me, C_BLOCK4_FLEX3] == 0
        and ply < THREE_ANSWER_PLY
    ):
        depth = 1
    if depth <= 0:
        # A win by fours at a leaf starts with a four that also makes a three; without
        # one the threat search is skipped (plain fours alone rarely win in a few moves,
        # and trying them cost more than half the search's time for few wins).
        if st.class_count[me, C_BLOCK4_FLEX3] > 0:
            win = capped_vcf(st, tb, hs, ply, LEAF_VCF_DEPTH, LEAF_VCF_NODES)
            if win > 0:
                return MATE - ply - win
        return quiescence(st, tb, hs, alpha, beta, ply, 0)

    # The grandchildren's killers start empty: a killer is then a refutation found under
    # this node's other children, not one left by another part of the tree.
    hs.killers[ply + 2, 0] = 0
    hs.killers[ply + 2, 1] = 0

    # Step 5. Pruning before the moves, off the principal variation. Reverse futility: a
    # shallow node whose static score stands a margin per ply above beta fails high at
    # once, unless the opponent has an open three to answer or a four-three to make (a
    # win faster than the static score can see). Null move: when the opponent has no
    # threat that two moves in a row would turn into a win (no four, open three,
    # four-three or double three to make) and we stand above beta, passing is searched
    # shallower; if even that holds beta, a real move almost surely would too: in
    # freestyle a stone never hurts its owner, and in the other rules (overlines, renju's
    # forbidden points) it rarely does.
    defending = st.class_count[op, C_FLEX4] > 0
    pv_node = beta - alpha > 1
    # Only non-PV nodes below the root that answer no open three use the static score.
    takes_static = not pv_node and ply > 0 and not defending
    static = evaluate(st, tb) if takes_static else 0
    # A table entry's score is the better estimate where its bound lies beyond the static
    # score (a lower bound above it, an upper bound below it, or an exact score); reverse
    # futility, the null move, the fail-high reduction and futility then read it.
    if (
        takes_static
        and tt_flag != 0
        and abs(tt_score) < MATE_BOUND
        and (
            tt_flag == TT_EXACT
            or (tt_flag == TT_LOWER and tt_score > static)
            or (tt_flag == TT_UPPER and tt_score < static)
        )
    ):
        static = tt_score
    prunable = not pv_node and ply > 0 and beta < MATE_BOUND
    if (
        prunable
        and depth <= tb.search[P_RFP_DEPTH]
        and not defending
        and st.class_count[op, C_BLOCK4_FLEX3] == 0
        and static - tb.search[P_RFP_MARGIN] * depth >= beta
    ):
        return static
    quiet_opponent = (
        not defending
        and st.class_count[op, C_BLOCK4_FLEX3] == 0
        and st.class_count[op, C_FLEX3_2X] == 0
        and st.class_count[op, C_BLOCK4] == 0
    )
    if prunable and quiet_opponent and depth >= 3 and st.info[I_NULL_PLY] != ply and static >= beta:
        saved_null_ply = st.info[I_NULL_PLY]
        st.info[I_NULL_PLY] = ply + 1
        st.info[I_PLY] += 1
        _prefetch_child(st, tt, color)
        reduction = tb.search[P_NULL_REDUCTION] + depth // NULL_DEPTH_DIVISOR
        null_score = -pvs(st, tb, tt, hs, depth - 1 - reduction, -beta, -beta + 1, ply + 1)
        st.info[I_PLY] -= 1
        st.info[I_NULL_PLY] = saved_null_ply
        if st.info[I_STOPPED] != 0:
            return 0
        if null_score >= beta:
            return beta if null_score >= MATE_BOUND else null_score

    # Step 6. Generate and order the moves; without a table move a deep node is searched
    # one ply shallower (its subtree is unknown, the search there is mostly for ordering).
    if tt_move < 0 and depth >= 5 and not defending:
        depth -= 1
    keep = ROOT_BRANCH_LIMIT if ply == 0 else PV_BRANCH_LIMIT if pv_node else BRANCH_LIMIT
    count = generate(st, hs, ply, tt_move, keep)
    if ply == 0 and hs.root_skip_count[0] > 0:
        count = _drop_root_skips(hs, count)
    if count == 0:
        return 0 if ply > 0 else evaluate(st, tb)

    probcut_margin = tb.search[P_PROBCUT_MARGIN]
    # Step 6b. ProbCut: at a deep non-PV node, when one of the first moves (the table move
    # or a threat) holds a margin above beta in a much shallower search, the full search
    # would almost surely fail high too.
    if (
        not pv_node
        and ply > 0
        and depth >= PROBCUT_DEPTH
        and not defending
        and abs(beta) < MATE_BOUND - probcut_margin
        and not (tt_depth >= depth - PROBCUT_REDUCTION and tt_score < beta + probcut_margin)
    ):
        raised = beta + probcut_margin
        for n in range(min(count, PROBCUT_MOVES)):
            move = hs.moves[ply, n]
            if move != tt_move and st.klass[me, move] < C_FLEX3:
                continue
            place(st, tb, move, color)
            _prefetch_child(st, tt, color)
            score = -pvs(
                st, tb, tt, hs, depth - 1 - PROBCUT_REDUCTION, -raised, -raised + 1, ply + 1
            )
            remove(st, tb)
            if st.info[I_STOPPED] != 0:
                return 0
            if score >= raised:
                tt_store(tt, key, move, depth - PROBCUT_REDUCTION, TT_LOWER, score, ply)
                return score

    # Step 7. Principal variation search over the moves, quiet late moves reduced or,
    # near the leaves, pruned.
    likely_high = (
        prunable
        and depth >= 2
        and not defending
        and st.class_count[op, C_BLOCK4_FLEX3] == 0
        and static - tb.search[P_FHR_MARGIN] * depth >= beta
    )
    # Distract prune: under a threat of the opponent's (an open three or a four-three to
    # make), a move near the leaves that blocks none of its fours and lies far from both
    # sides' last stones only puts the answer off; it is not searched.
    distracted = (
        (defending or st.class_count[op, C_BLOCK4_FLEX3] > 0)
        and depth <= DISTRACT_DEPTH
        and ply > 0
    )
    their_last = stone_back(st, 1, 3 - color) if distracted else -1
    my_last = stone_back(st, 2, color) if distracted else -1
    futile = False
    if not pv_node and not defending and 1 <= depth <= 3 and ply > 0:
        futile = static + tb.search[P_FUTILITY_1 + depth - 1] <= alpha
    best = -INF
    best_move = hs.moves[ply, 0]
    original_alpha = alpha
    for n in range(count):
        move = hs.moves[ply, n]
        # Forcing moves (our fours, blocks of their four-threes) are searched in full;
        # threes and blocks of plain fours are reduced a ply less than quiet moves.
        mine = st.klass[me, move]
        theirs = st.klass[op, move]
        # Against an open three, our fours that do not block it only delay the answer:
        # late ones are reduced like threats.
        forcing = (
            (theirs >= C_BLOCK4) if defending else (mine >= C_BLOCK4 or theirs >= C_BLOCK4_FLEX3)
        )
        quiet = mine < C_FLEX3 and theirs < C_BLOCK4 and not defending and move != tt_move
        if n > 0 and quiet and not pv_node and best > -MATE_BOUND and ply > 0:
            if depth <= 4 and n >= tb.search[P_LMP_1 + depth - 1]:
                continue
            if futile:
                continue
        if (
            distracted
            and n > 0
            and best > -MATE_BOUND
            and theirs < C_BLOCK4
            and _far_from(st, their_last, st.column[move], st.row[move])
            and _far_from(st, my_last, st.column[move], st.row[move])
        ):
            continue
        place(st, tb, move, color)
        _prefetch_child(st, tt, color)
        child = depth - 2 if likely_high and mine < C_BLOCK4 else depth - 1
        if n == 0:
            score = -pvs(st, tb, tt, hs, child, -beta, -alpha, ply + 1)
        else:
            reduction = 0
            if depth >= 3 and not forcing:
                reduction = tb.lmr[min(depth, LMR_DEPTHS - 1), min(n, LMR_MOVES - 1)]
                if pv_node or not quiet:
                    reduction -= 1
                if reduction < 0:
                    reduction = 0
                if reduction > child - 1:
                    reduction = child - 1
            score = -pvs(st, tb, tt, hs, child - reduction, -alpha - 1, -alpha, ply + 1)
            if score > alpha and reduction > 0:
                score = -pvs(st, tb, tt, hs, child, -alpha - 1, -alpha, ply + 1)
            if alpha < score < beta:
                score = -pvs(st, tb, tt, hs, child, -beta, -alpha, ply + 1)
        remove(st, tb)
        if st.info[I_STOPPED] != 0:
            break
        if score > best:
            best = score
            best_move = move
            if score > alpha:
                alpha = score
                _update_pv(hs, ply, move)
                if score >= beta:
                    if move != hs.killers[ply, 0]:
                        hs.killers[ply, 1] = hs.killers[ply, 0]
                        hs.killers[ply, 0] = move
                    hs.history[me, move] += depth * depth
                    break
    if st.info[I_STOPPED] != 0:
        # Stopped: the best of the moves searched in full. At the root, -INF says that no
        # move was, so the caller cannot take a meaningless 0 for a score.
        if best > -INF or ply == 0:
            return best
        return 0

    # Step 8. Store the result (not a multi-PV root's: it is the best of some moves only).
    if ply == 0 and hs.root_skip_count[0] > 0:
        return best
    if best >= beta:
        flag = TT_LOWER
    elif best > original_alpha:
        flag = TT_EXACT
    else:
        flag = TT_UPPER
    tt_store(tt, key, best_move, depth, flag, best, ply)
    return best


@njit(
    I64(STATE_T, TABLES_T, TT_T, HEURISTICS_T, I64, I64, I64),  # type: ignore[call-overload]
    cache=True,
    nogil=True,
)
def search_root(
    st: State, tb: Tables, tt: Tt, hs: Heuristics, depth: int, alpha: int, beta: int
) -> int:
    """``pvs`` at the root, over borrowed structs (``borrow``): the entry point from Python."""
    return pvs(borrowed(st), borrowed(tb), borrowed(tt), borrowed(hs), depth, alpha, beta, 0)
