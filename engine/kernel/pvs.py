"""Compiled searches over the ``core`` state: renju's forbidden-move test, the static
evaluation, move generation, the VCF threat search and the principal variation search.

All functions take the state, the rule's tables, the transposition table and the
move-ordering heuristics as arrays, so numba can cache them. ``search`` drives them from
Python: it seeds the state from a ``Board``, runs iterative deepening with aspiration
windows and turns cell indexes back into points."""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
from numba import njit

from engine import core
from engine.core import (
    C_BLOCK4,
    C_BLOCK4_FLEX3,
    C_FIVE,
    C_FLEX3,
    C_FLEX3_2X,
    C_FLEX4,
    I_DEFENCE,
    I_HASH,
    I_NODE_LIMIT,
    I_NODES,
    I_NOISE,
    I_PLY,
    I_RENJU,
    I_ROOT_COLOR,
    I_SEED,
    I_SEL_DEPTH,
    I_SIZE,
    I_STOPPED,
    I_STRIDE,
    I_THREAT_LIMIT,
    MAX_PLY,
    PAD,
    WALL,
    State,
    Tables,
    place,
    remove,
)
from engine.patterns import B4, F3, F4, F5, OL

MATE = 30000
MATE_BOUND = MATE - 1000
INF = 32000
EVAL_LIMIT = 20000
DOUBLE_THREE_BONUS = 1500
OPEN_THREE_PRESSURE = 60

MAX_MOVES = 512
BRANCH_LIMIT = 12  # moves tried at an interior node when nothing forces the reply
ROOT_BRANCH_LIMIT = 48
LEAF_VCF_DEPTH = 6  # fours in a row tried at the leaves
ROOT_VCF_DEPTH = 24
ROOT_VCT_DEPTH = 5

TT_EXACT = 1
TT_LOWER = 2
TT_UPPER = 3


class Tt(NamedTuple):
    keys: np.ndarray  # int64[n]
    data: np.ndarray  # int64[n]: move | depth << 16 | flag << 24 | (score + 2**20) << 26


class Heuristics(NamedTuple):
    history: np.ndarray  # int32[2, cells]
    killers: np.ndarray  # int32[MAX_PLY + 64, 2]
    moves: np.ndarray  # int32[MAX_PLY + 64, MAX_MOVES]: move lists per ply
    scores: np.ndarray  # int32[MAX_PLY + 64, MAX_MOVES]
    vcf_fail: np.ndarray  # int64[2**16]: hashes of positions where VCF failed
    vcf_line: np.ndarray  # int32[MAX_PLY + 64]: the winning VCF line found last
    pv: np.ndarray  # int32[MAX_PLY + 64, MAX_PLY + 64]: triangular PV table
    pv_len: np.ndarray  # int32[MAX_PLY + 64]


def new_tt(megabytes: int) -> Tt:
    entries = 1
    while entries * 16 * 2 <= megabytes * 1024 * 1024:
        entries *= 2
    return Tt(np.zeros(entries, dtype=np.int64), np.zeros(entries, dtype=np.int64))


def new_heuristics(cells: int) -> Heuristics:
    depth = MAX_PLY + 64
    return Heuristics(
        history=np.zeros((2, cells), dtype=np.int32),
        killers=np.zeros((depth, 2), dtype=np.int32),
        moves=np.zeros((depth, MAX_MOVES), dtype=np.int32),
        scores=np.zeros((depth, MAX_MOVES), dtype=np.int32),
        vcf_fail=np.zeros(1 << 16, dtype=np.int64),
        vcf_line=np.zeros(depth, dtype=np.int32),
        pv=np.zeros((depth, depth), dtype=np.int32),
        pv_len=np.zeros(depth, dtype=np.int32),
    )


def _numba_types() -> tuple[object, object, object, object]:
    """Numba types of the state, tables, table and heuristics, for explicit signatures:
    recursive compiled functions are only safe to cache with one."""
    state = core.new_state(7, False)
    tables = Tables(
        np.zeros((2, 1), dtype=np.uint8),
        np.zeros(1, dtype=np.int32),
        np.zeros(1, dtype=np.int8),
        np.zeros((3, 1), dtype=np.int64),
    )
    return (
        numba.typeof(state),
        numba.typeof(tables),
        numba.typeof(new_tt(1)),
        numba.typeof(new_heuristics(1)),
    )


STATE_T, TABLES_T, TT_T, HEURISTICS_T = _numba_types()
I64 = numba.int64


# -- renju ---------------------------------------------------------------------------------


@njit(cache=True)
def _run(cells: np.ndarray, i: int, step: int) -> int:
    length = 1
    j = i - step
    while cells[j] == 1:
        length += 1
        j -= step
    j = i + step
    while cells[j] == 1:
        length += 1
        j += step
    return length


@njit(cache=True)
def _run_start(cells: np.ndarray, i: int, step: int) -> int:
    j = i
    while cells[j - step] == 1:
        j -= step
    return j


@njit(numba.boolean(numba.int8[::1], numba.int64[::1], I64), cache=True)
def is_forbidden(cells: np.ndarray, dirs: np.ndarray, i: int) -> bool:
    """Renju: whether black may not play empty cell ``i`` (overline, double four or
    double three, unless it makes exactly five). ``cells`` is restored on return."""
    if cells[i] != 0:
        return False
    busy = 0
    for d in range(4):
        step = dirs[d]
        count = 0
        for k in range(1, 6):
            if cells[i + k * step] == 1:
                count += 1
            elif cells[i + k * step] == 3:
                break
        for k in range(1, 6):
            if cells[i - k * step] == 1:
                count += 1
            elif cells[i - k * step] == 3:
                break
        if count >= 4:
            busy = 2
            break
        if count >= 2:
            busy += 1
    if busy < 2:
        return False
    cells[i] = 1
    five = False
    over = False
    for d in range(4):
        length = _run(cells, i, dirs[d])
        if length == 5:
            five = True
        elif length > 5:
            over = True
    result = False
    if not five:
        if over:
            result = True
        else:
            fours = 0
            threes = 0
            for d in range(4):
                step = dirs[d]
                # Fours through i: points making exactly five, grouped by their four stones.
                group_a = np.full(8, -1, dtype=np.int64)
                group_b = np.full(8, -1, dtype=np.int64)
                groups = 0
                for k in range(-4, 5):
                    q = i + k * step
                    if k == 0 or cells[q] != 0:
                        continue
                    cells[q] = 1
                    if _run(cells, q, step) == 5:
                        s = _run_start(cells, q, step)
                        e = s + 4 * step
                        if (s <= i <= e) if step > 0 else (e <= i <= s):
                            if q == s:
                                a, b = s + step, e
                            elif q == e:
                                a, b = s, e - step
                            else:
                                a, b = -q - 1, q
                            seen = False
                            for g in range(groups):
                                if group_a[g] == a and group_b[g] == b:
                                    seen = True
                            if not seen:
                                group_a[groups] = a
                                group_b[groups] = b
                                groups += 1
                    cells[q] = 0
                if groups > 0:
                    fours += groups
                    continue
                # An open three: a non-forbidden move makes a straight four through i.
                for k in range(-4, 5):
                    q = i + k * step
                    if k == 0 or cells[q] != 0:
                        continue
                    cells[q] = 1
                    straight = False
                    if _run(cells, i, step) == 4:
                        s = _run_start(cells, i, step)
                        left = s - step
                        right = s + 4 * step
                        straight = (
                            cells[left] == 0
                            and cells[right] == 0
                            and cells[left - step] != 1
                            and cells[right + step] != 1
                        )
                    cells[q] = 0
                    if straight and not is_forbidden(cells, dirs, q):
                        threes += 1
                        break
            result = fours >= 2 or threes >= 2
    cells[i] = 0
    return result


@njit(cache=True)
def _maybe_forbidden(st: State, i: int) -> bool:
    """Cheap filter before the full test: black's shapes at ``i`` could break a rule."""
    strong = 0
    for d in range(4):
        s = st.shape[0, d, i]
        if s == OL or s == F4:  # noqa: SIM109 (plain comparisons compile best)
            return True
        if s == B4 or s == F3:  # noqa: SIM109
            strong += 1
    return strong >= 2


@njit(cache=True)
def forbidden_at(st: State, i: int) -> bool:
    if st.info[I_RENJU] == 0 or st.cells[i] != 0:
        return False
    if not _maybe_forbidden(st, i):
        return False
    return is_forbidden(st.cells, st.dirs, i)


# -- evaluation ----------------------------------------------------------------------------


@njit(cache=True)
def side_to_move(st: State) -> int:
    return 1 + (st.info[I_PLY] & 1)


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


# -- move generation -----------------------------------------------------------------------


@njit(cache=True)
def _first_cell_of_class(st: State, side: int, klass: int) -> int:
    size = st.info[I_SIZE]
    stride = st.info[I_STRIDE]
    for y in range(size):
        base = (y + PAD) * stride + PAD
        for x in range(size):
            i = base + x
            if st.cells[i] == 0 and st.klass[side, i] == klass:
                return i
    return -1


@njit(cache=True)
def _five_cells(st: State, side: int, out: np.ndarray) -> int:
    """Empty cells where ``side`` makes five; returns how many (up to out's length)."""
    size = st.info[I_SIZE]
    stride = st.info[I_STRIDE]
    count = 0
    for y in range(size):
        base = (y + PAD) * stride + PAD
        for x in range(size):
            i = base + x
            if st.cells[i] == 0 and st.klass[side, i] == C_FIVE:
                out[count] = i
                count += 1
                if count == out.shape[0]:
                    return count
    return count


@njit(cache=True)
def _winning_flex4_cell(st: State, side: int) -> int:
    """A cell where ``side`` makes an open four or two fours (and may play), or -1."""
    if st.class_count[side, C_FLEX4] == 0:
        return -1
    renju_black = side == 0 and st.info[I_RENJU] != 0
    size = st.info[I_SIZE]
    stride = st.info[I_STRIDE]
    for y in range(size):
        base = (y + PAD) * stride + PAD
        for x in range(size):
            i = base + x
            if (
                st.cells[i] == 0
                and st.klass[side, i] == C_FLEX4
                and not (renju_black and forbidden_at(st, i))
            ):
                return i
    return -1


@njit(cache=True)
def _has_winning_flex4(st: State, side: int) -> bool:
    return _winning_flex4_cell(st, side) >= 0


@njit(cache=True)
def generate(st: State, hs: Heuristics, ply: int, tt_move: int, keep: int) -> int:
    """Fill ``hs.moves[ply]`` with the best ``keep`` candidate moves for the side to move,
    best first, and return how many there are.

    When the opponent threatens an open four, only our fours and the points that break
    the threat are candidates, and all of them are kept; otherwise every empty point near
    the stones competes for the ``keep`` places."""
    color = side_to_move(st)
    me = color - 1
    op = 2 - color
    size = st.info[I_SIZE]
    stride = st.info[I_STRIDE]
    renju_black = st.info[I_RENJU] != 0 and color == 1
    defending = st.class_count[op, C_FLEX4] > 0
    if defending or keep > MAX_MOVES:
        keep = MAX_MOVES
    moves = hs.moves[ply]
    scores = hs.scores[ply]
    count = 0
    for y in range(size):
        base = (y + PAD) * stride + PAD
        for x in range(size):
            i = base + x
            if st.cells[i] != 0 or st.near[i] == 0:
                continue
            mine = st.klass[me, i]
            theirs = st.klass[op, i]
            if defending and mine < C_BLOCK4 and theirs < C_BLOCK4:
                continue
            score = st.value[me, i] + st.value[op, i] + (st.value[me, i] >> 2)
            score += hs.history[me, i] >> 6
            if i == tt_move:
                score = 1 << 28
            elif i == hs.killers[ply, 0]:
                score += 1 << 20
            elif i == hs.killers[ply, 1]:
                score += 1 << 19
            if count == keep and scores[count - 1] >= score:
                continue
            # Only moves that make the list pay for the renju test.
            if renju_black and forbidden_at(st, i):
                continue
            # Insertion into the sorted list, dropping the last when it is full.
            k = count if count < keep else keep - 1
            while k > 0 and scores[k - 1] < score:
                moves[k] = moves[k - 1]
                scores[k] = scores[k - 1]
                k -= 1
            moves[k] = i
            scores[k] = score
            if count < keep:
                count += 1
    return count


# -- threat search -------------------------------------------------------------------------


@njit(cache=True)
def _five_point_after_four(st: State, tb: Tables, side: int, i: int) -> int:
    """The point completing the four just made at ``i``."""
    for d in range(4):
        step = st.dirs[d]
        for sign in (-1, 1):
            for k in range(1, 5):
                j = i + sign * k * step
                c = st.cells[j]
                if c == WALL:
                    break
                if c == 0 and st.shape[side, d, j] == F5:
                    return j
    return -1


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
    if st.stop[0] != 0:
        # Out of time: report no win (a win found later in the line would be unproven).
        return 0
    if st.class_count[me, C_FIVE] > 0:
        hs.vcf_line[ply] = _first_cell_of_class(st, me, C_FIVE)
        hs.vcf_line[ply + 1] = -1
        return 1
    if st.class_count[op, C_FIVE] > 0:
        return 0
    flex4 = _winning_flex4_cell(st, me)
    if flex4 >= 0:
        hs.vcf_line[ply] = flex4
        hs.vcf_line[ply + 1] = -1
        return 3
    if budget <= 0 or ply >= MAX_PLY:
        return 0
    if st.class_count[me, C_BLOCK4] + st.class_count[me, C_BLOCK4_FLEX3] == 0:
        return 0
    key = st.info[I_HASH] ^ (np.int64(color) << 60) ^ (np.int64(budget) << 52)
    slot = key & (hs.vcf_fail.shape[0] - 1)
    if hs.vcf_fail[slot] == key:
        return 0
    renju = st.info[I_RENJU] != 0
    size = st.info[I_SIZE]
    stride = st.info[I_STRIDE]
    # One scan collects the fours; those that also make an open three go first, since
    # they usually finish the attack.
    fours = np.empty(64, dtype=np.int64)
    count = 0
    strong = 0
    for y in range(size):
        base = (y + PAD) * stride + PAD
        for x in range(size):
            i = base + x
            if st.cells[i] != 0:
                continue
            klass = st.klass[me, i]
            if klass == C_BLOCK4_FLEX3 and count < 64:
                fours[count] = fours[strong]
                fours[strong] = i
                strong += 1
                count += 1
            elif klass == C_BLOCK4 and count < 64:
                fours[count] = i
                count += 1
    for n in range(count):
        i = fours[n]
        if renju and color == 1 and forbidden_at(st, i):
            continue
        place(st, tb, i, color)
        block = _five_point_after_four(st, tb, me, i)
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
    if st.stop[0] == 0:
        # Only a finished search proves there is no win here.
        hs.vcf_fail[slot] = key
    return 0


# -- principal variation search ------------------------------------------------------------


@njit(cache=True)
def _tt_store(
    tt: Tt, key: np.int64, move: int, depth: int, flag: int, score: int, ply: int
) -> None:
    if score >= MATE_BOUND:
        score += ply
    elif score <= -MATE_BOUND:
        score -= ply
    slot = key & (tt.keys.shape[0] - 1)
    old = tt.data[slot]
    if tt.keys[slot] == key and move < 0:
        move = (old & 0xFFFF) - 1
    packed = (
        np.int64(move + 1)
        | (np.int64(depth + 64) << 16)
        | (np.int64(flag) << 24)
        | (np.int64(score + (1 << 20)) << 26)
    )
    tt.keys[slot] = key
    tt.data[slot] = packed


@njit(cache=True)
def tt_move_of(tt: Tt, key: np.int64) -> int:
    slot = key & (tt.keys.shape[0] - 1)
    if tt.keys[slot] != key:
        return -1
    return int(tt.data[slot] & 0xFFFF) - 1


@njit(cache=True)
def _update_pv(hs: Heuristics, ply: int, move: int) -> None:
    hs.pv[ply, ply] = move
    child_len = hs.pv_len[ply + 1]
    for k in range(ply + 1, child_len):
        hs.pv[ply, k] = hs.pv[ply + 1, k]
    hs.pv_len[ply] = child_len if child_len > ply + 1 else ply + 1


@njit(cache=True)
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
        hs.pv[ply, ply] = _first_cell_of_class(st, me, C_FIVE)
        hs.pv_len[ply] = ply + 1
        return MATE - ply - 1
    if st.class_count[op, C_FIVE] > 0:
        fives = np.empty(2, dtype=np.int64)
        found = _five_cells(st, op, fives)
        block = fives[0]
        lost = found >= 2 or (renju and color == 1 and forbidden_at(st, block))
        if lost and ply > 0:
            return -(MATE - ply - 2)
        place(st, tb, block, color)
        score = -pvs(st, tb, tt, hs, depth, -beta, -alpha, ply + 1)
        remove(st, tb)
        if lost:
            score = -(MATE - ply - 2)
        _update_pv(hs, ply, block)
        return score
    flex4 = _winning_flex4_cell(st, me)
    if flex4 >= 0:
        hs.pv[ply, ply] = flex4
        hs.pv_len[ply] = ply + 1
        return MATE - ply - 3
    if ply >= MAX_PLY - 8:
        return evaluate(st)

    # Step 3. Transposition table.
    key = st.info[I_HASH] ^ (np.int64(color) << 61)
    slot = key & (tt.keys.shape[0] - 1)
    tt_move = -1
    if tt.keys[slot] == key:
        data = tt.data[slot]
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

    # Step 4. Leaves: a threat search, then the static evaluation.
    if depth <= 0:
        # A win by fours needs a four that also makes a three, or several fours to
        # choose from; without them the threat search is skipped.
        if st.class_count[me, C_BLOCK4_FLEX3] > 0 or st.class_count[me, C_BLOCK4] >= 3:
            win = vcf(st, tb, hs, ply, LEAF_VCF_DEPTH)
            if win > 0:
                return MATE - ply - win
        return evaluate(st)

    # Step 5. Generate and order the moves.
    defending = st.class_count[op, C_FLEX4] > 0
    count = generate(st, hs, ply, tt_move, ROOT_BRANCH_LIMIT if ply == 0 else BRANCH_LIMIT)
    if count == 0:
        return 0 if ply > 0 else evaluate(st)

    # Step 6. Principal variation search over the moves.
    best = -INF
    best_move = hs.moves[ply, 0]
    original_alpha = alpha
    for n in range(count):
        move = hs.moves[ply, n]
        threat = st.klass[me, move] >= C_FLEX3 or st.klass[op, move] >= C_BLOCK4
        place(st, tb, move, color)
        if n == 0:
            score = -pvs(st, tb, tt, hs, depth - 1, -beta, -alpha, ply + 1)
        else:
            reduction = 1 if (depth >= 3 and n >= 4 and not threat and not defending) else 0
            score = -pvs(st, tb, tt, hs, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1)
            if score > alpha and reduction > 0:
                score = -pvs(st, tb, tt, hs, depth - 1, -alpha - 1, -alpha, ply + 1)
            if alpha < score < beta:
                score = -pvs(st, tb, tt, hs, depth - 1, -beta, -alpha, ply + 1)
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
        return best if best > -INF else 0

    # Step 7. Store the result.
    if best >= beta:
        flag = TT_LOWER
    elif best > original_alpha:
        flag = TT_EXACT
    else:
        flag = TT_UPPER
    _tt_store(tt, key, best_move, depth, flag, best, ply)
    return best


@njit(I64(STATE_T, TABLES_T, HEURISTICS_T, I64, I64), cache=True)  # type: ignore[call-overload]
def vct(st: State, tb: Tables, hs: Heuristics, ply: int, budget: int) -> int:
    """Victory by continuous threats for the side to move: plies to the win, or 0.

    Attacking moves are fours and open threes. A four has one forced reply; an open three
    must be answered, so every defence (blocking points and the defender's own fours)
    is tried and the attack holds only if it wins against all of them. A defender's
    four ends the line, which keeps the search sound but conservative."""
    st.info[I_NODES] += 1
    if st.info[I_NODES] >= st.info[I_THREAT_LIMIT] or st.stop[0] != 0:
        return 0
    color = side_to_move(st)
    me = color - 1
    op = 2 - color
    win = vcf(st, tb, hs, ply, LEAF_VCF_DEPTH + 4)
    if win > 0:
        return win
    if budget <= 0 or ply >= MAX_PLY - 16:
        return 0
    if st.class_count[op, C_FIVE] > 0 or st.class_count[op, C_FLEX4] > 0:
        return 0
    if st.class_count[me, C_FLEX3] + st.class_count[me, C_FLEX3_2X] == 0:
        return 0
    key = st.info[I_HASH] ^ (np.int64(color) << 59) ^ (np.int64(budget) << 52)
    slot = key & (hs.vcf_fail.shape[0] - 1)
    if hs.vcf_fail[slot] == key:
        return 0
    renju = st.info[I_RENJU] != 0
    size = st.info[I_SIZE]
    stride = st.info[I_STRIDE]
    reply_ply = ply + 1
    for wanted in (C_FLEX3_2X, C_FLEX3):
        for y in range(size):
            base = (y + PAD) * stride + PAD
            for x in range(size):
                i = base + x
                if st.cells[i] != 0 or st.klass[me, i] != wanted:
                    continue
                if renju and color == 1 and forbidden_at(st, i):
                    continue
                place(st, tb, i, color)
                # Every defence must lose; the defender's moves come from the generator,
                # which lists only blocks and counter-fours while we threaten.
                count = generate(st, hs, reply_ply, -1, MAX_MOVES)
                holds = count > 0
                longest = 0
                for n in range(count):
                    reply = hs.moves[reply_ply, n]
                    place(st, tb, reply, 3 - color)
                    result = vct(st, tb, hs, ply + 2, budget - 1)
                    remove(st, tb)
                    if result == 0:
                        holds = False
                        break
                    if result > longest:
                        longest = result
                remove(st, tb)
                if count == 0:
                    # No defence at all, not even a legal block: the threat wins outright.
                    hs.vcf_line[ply] = i
                    hs.vcf_line[ply + 1] = -1
                    return 5
                if holds:
                    hs.vcf_line[ply] = i
                    hs.vcf_line[ply + 1] = -1
                    return longest + 2
    if st.stop[0] == 0 and st.info[I_NODES] < st.info[I_THREAT_LIMIT]:
        hs.vcf_fail[slot] = key
    return 0


@njit(cache=True, nogil=True)
def root_vct(st: State, tb: Tables, hs: Heuristics, budget: int, node_limit: int) -> int:
    """VCT for the side to move at the root, within ``node_limit`` nodes; the first move
    is left in ``hs.vcf_line[0]``."""
    st.info[I_THREAT_LIMIT] = st.info[I_NODES] + node_limit
    return vct(st, tb, hs, 0, budget)


@njit(cache=True, nogil=True)
def root_vcf(st: State, tb: Tables, hs: Heuristics, budget: int) -> int:
    """VCF for the side to move at the root; the line is left in ``hs.vcf_line``."""
    return vcf(st, tb, hs, 0, budget)


# Re-exported so tests can reach classes by name.
__all__ = [
    "C_BLOCK4",
    "C_BLOCK4_FLEX3",
    "C_FIVE",
    "C_FLEX3",
    "C_FLEX3_2X",
    "C_FLEX4",
    "F4",
    "MATE",
    "MATE_BOUND",
    "Heuristics",
    "Tt",
]
