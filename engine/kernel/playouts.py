"""MCTS playouts on the kernel state: the candidate moves, the move choice shared by the
tree and the playouts, and the heavy playout itself.

A playout reads each candidate cell's combined class (``state.klass``) for both sides and
its playout weight (``tables.playout_value`` at ``state.combo``), the same per-cell
knowledge the negamax search uses, and moves with the kernel's ``place``. Candidates are
the empty cells within two steps (in any direction, knight moves too) of a stone, kept in
an unordered list updated as stones are placed. Every function here runs compiled under
numba, or as plain Python with ``NUMBA_DISABLE_JIT=1``."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.kernel.forbidden import forbidden_at
from engine.kernel.state import I_RENJU, I_STRIDE, State, clone_state, place
from engine.kernel.tables import C_BLOCK4, C_BLOCK4_FLEX3, C_FIVE, C_FLEX4, Tables

PLAYOUT_MOVE_CAP = 200

# Kinds of move lists, from ``classify_moves``.
KIND_NONE = 0  # no legal move
KIND_WIN = 1  # a five: moves[0]
KIND_BLOCK = 2  # the opponent has a five to make: its five points
KIND_ATTACK = 3  # our winning threats and fours
KIND_DEFEND = 4  # the opponent has a winning threat: fours of either side
KIND_ALL = 5  # every candidate


class Candidates(NamedTuple):
    """Empty cells near the stones, in no particular order."""

    cells: np.ndarray  # int32[n]: the candidate cells, ``total[0]`` of them
    pos: np.ndarray  # int32[n]: where a cell sits in ``cells``, or -1
    total: np.ndarray  # int64[1]: how many


class Walk(NamedTuple):
    """A search's root position and the working copy each iteration walks down from it."""

    root: State
    root_cands: Candidates
    st: State
    cands: Candidates
    moves: np.ndarray  # int64[n]: scratch move list
    scores: np.ndarray  # float64[n]: its weights


def new_candidates(cells: int) -> Candidates:
    return Candidates(
        np.zeros(cells, dtype=np.int32),
        np.full(cells, -1, dtype=np.int32),
        np.zeros(1, dtype=np.int64),
    )


def new_walk(root: State, root_cands: Candidates) -> Walk:
    n = root.cells.shape[0]
    cands = Candidates._make(array.copy() for array in root_cands)
    return Walk(
        root,
        root_cands,
        clone_state(root),
        cands,
        np.zeros(n, dtype=np.int64),
        np.zeros(n, dtype=np.float64),
    )


@njit(cache=True, nogil=True)
def add_candidates(st: State, cands: Candidates, c: int) -> None:
    """Take ``c`` (just played) out of the candidates and add its empty neighbours."""
    cells, pos, total = cands.cells, cands.pos, cands.total
    p = pos[c]
    if p >= 0:
        last = cells[total[0] - 1]
        cells[p] = last
        pos[last] = p
        pos[c] = -1
        total[0] -= 1
    board = st.cells
    w = st.info[I_STRIDE]
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            q = c + dy * w + dx
            if board[q] == 0 and pos[q] < 0:
                pos[q] = total[0]
                cells[total[0]] = q
                total[0] += 1


@njit(cache=True, nogil=True)
def copy_candidates(dst: Candidates, src: Candidates) -> None:
    dst.cells[:] = src.cells
    dst.pos[:] = src.pos
    dst.total[0] = src.total[0]


@njit(cache=True, nogil=True)
def is_winning_threat(klass: int) -> bool:
    """A four with an open three, an open four or two fours: wins unless met by a four."""
    return C_BLOCK4_FLEX3 <= klass <= C_FLEX4


@njit(cache=True, nogil=True)
def renju_black(st: State, colour: int) -> bool:
    """Whether ``colour``'s moves must pass renju's forbidden-move test."""
    return colour == 1 and st.info[I_RENJU] != 0


@njit(cache=True, nogil=True)
def classify_moves(walk: Walk, tb: Tables, me: int, reserve: bool) -> tuple[int, int]:
    """Fill ``walk.moves``/``walk.scores`` with the moves worth considering for ``me`` and
    return (count, kind), kind one of the ``KIND_*``. With ``reserve``, plain fours (no
    winning threat among them) do not narrow the list to fours: a four kept in reserve
    can outweigh one cashed at once."""
    # The arrays are read into locals first: reaching them through the structs inside the
    # loops costs compiled code far more.
    st = walk.st
    cand = walk.cands.cells
    ncand = walk.cands.total[0]
    moves = walk.moves
    scores = walk.scores
    mine = st.klass[me - 1]
    theirs = st.klass[2 - me]
    weight = tb.playout_value
    check_forbidden = renju_black(st, me)
    n_block = 0
    n_attack = 0
    n_winning = 0
    opp_threat = False
    # First pass: read every candidate once.
    for i in range(ncand):
        c = cand[i]
        my_class = mine[c]
        if my_class == C_FIVE:
            moves[0] = c
            scores[0] = 1.0
            return 1, KIND_WIN
        op_class = theirs[c]
        if op_class == C_FIVE:
            n_block += 1
        elif is_winning_threat(op_class):
            opp_threat = True
        if my_class >= C_BLOCK4:
            n_attack += 1
            if is_winning_threat(my_class):
                n_winning += 1
    kind = KIND_ALL
    if n_block > 0:
        kind = KIND_BLOCK
    elif n_attack > 0 and not opp_threat and (n_winning > 0 or not reserve):
        kind = KIND_ATTACK
    elif opp_threat:
        kind = KIND_DEFEND
    my_combo = st.combo[me - 1]
    op_combo = st.combo[2 - me]
    n = 0
    for i in range(ncand):
        c = cand[i]
        my_class = mine[c]
        op_class = theirs[c]
        if kind == KIND_BLOCK:
            keep = op_class == C_FIVE
        elif kind == KIND_ATTACK:
            keep = my_class >= C_BLOCK4
        elif kind == KIND_DEFEND:
            keep = op_class >= C_BLOCK4 or my_class >= C_BLOCK4
        else:
            keep = True
        if not keep or (check_forbidden and forbidden_at(st, c)):
            continue
        score = 1.0 + weight[my_combo[c]] + 0.9 * weight[op_combo[c]]
        if kind == KIND_ATTACK and is_winning_threat(my_class):
            score += 10000.0
        moves[n] = c
        scores[n] = score
        n += 1
    if n == 0:
        return 0, KIND_NONE
    return n, kind


@njit(cache=True, nogil=True)
def roulette(scores: np.ndarray, n: int) -> int:
    """An index below ``n`` drawn with chances proportional to ``scores``."""
    total = 0.0
    for i in range(n):
        total += scores[i]
    r = np.random.random() * total
    for i in range(n):
        r -= scores[i]
        if r <= 0.0:
            return i
    return n - 1


@njit(cache=True, nogil=True)
def counterattack(walk: Walk, side: int) -> int:
    """The mistake of a defender keen on its own attack: a cell where ``side`` makes a four
    (the first found from a random start), or -1. Forbidden cells are skipped."""
    ncand = walk.cands.total[0]
    if ncand == 0:
        return -1
    klass = walk.st.klass[side - 1]
    cells = walk.cands.cells
    check_forbidden = renju_black(walk.st, side)
    start = np.random.randint(ncand)
    for k in range(ncand):
        c = cells[(start + k) % ncand]
        if klass[c] >= C_BLOCK4 and not (check_forbidden and forbidden_at(walk.st, c)):
            return int(c)
    return -1


@njit(cache=True, nogil=True)
def play(walk: Walk, tb: Tables, c: int, side: int) -> None:
    """``side`` plays ``c`` on the working copy."""
    place(walk.st, tb, c, side)
    add_candidates(walk.st, walk.cands, c)


@njit(cache=True, nogil=True)
def playout(walk: Walk, tb: Tables, side: int, fallible_side: int, fallible: float) -> int:
    """Play the working copy out with the heavy policy, ``side`` to move; return the winner
    (0 for a draw) and leave the number of moves played in the working copy's ply.
    With probability ``fallible``, ``fallible_side`` answers a four with a four of its own
    instead of blocking (and loses)."""
    for _ in range(PLAYOUT_MOVE_CAP):
        if walk.cands.total[0] == 0:
            return 0
        n, kind = classify_moves(walk, tb, side, False)
        if kind == KIND_WIN:
            return side
        if kind == KIND_NONE:
            return 3 - side  # every move is forbidden, or the only block is
        if kind == KIND_BLOCK and n >= 2:
            # Two fives to block: the opponent wins next move whatever we do.
            return 3 - side
        c = walk.moves[roulette(walk.scores, n)]
        if kind == KIND_BLOCK and side == fallible_side and np.random.random() < fallible:
            other = counterattack(walk, side)
            if other >= 0:
                c = other
        play(walk, tb, c, side)
        side = 3 - side
    return 0
