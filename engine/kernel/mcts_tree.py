"""The compiled core of the MCTS player: line patterns, heavy playouts and the UCT tree.

``engine.search.mcts`` owns the plain-Python ``MctsSearcher``; it copies a ``Board`` into the
padded arrays described here and calls ``run_iterations`` in short chunks, so that time
limits, ``stop()`` and progress reports stay in Python. Everything below is numba
``@njit(cache=True)`` over numpy arrays and also runs (slowly) with
``NUMBA_DISABLE_JIT=1``.

Board: a flat ``int8`` grid with a wall (3) border of ``PAD`` cells, so line scans need no
bounds checks. Patterns: for every empty cell, direction and colour, the class of the line
if that colour played there (``pat[colour - 1, cell, direction]``), looked up in a table
indexed by the ten cells around it and kept up to date after every move. Tree: a pool of
nodes in parallel arrays; a node's children are one contiguous block."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from engine.kernel.forbidden import is_forbidden as _core_is_forbidden

F = TypeVar("F", bound=Callable[..., Any])


def _compiled(fn: F) -> F:
    # numba is untyped; the cast keeps the plain signature visible to mypy.
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

PAD = 5
WALL = 3
PAT_SLOTS = 7  # four line classes, then the cell's level, value and "may be forbidden"
SLOT_LEVEL = 4
SLOT_VALUE = 5
SLOT_SUSPICIOUS = 6
KEYS = 3**10

# Line classes, from the point of view of a colour about to play the cell.
NONE = 0
CLOSED_TWO = 1
OPEN_TWO = 2
CLOSED_THREE = 3
OPEN_THREE = 4
FOUR = 5
OPEN_FOUR = 6  # two or more points then make five: cannot be stopped in that line
FIVE = 7
OVERLINE = 8  # six or more where only exactly five wins

VALUES = np.array([0, 2, 5, 6, 20, 25, 200, 5000, 0], dtype=np.int64)

# Threat levels of a cell, combining its four lines.
LEVEL_WIN = 5
LEVEL_WINNING_THREAT = 4  # open four, double four, four-three
LEVEL_FOUR = 3
LEVEL_DOUBLE_THREE = 2
LEVEL_THREE = 1

# Proven results stored on nodes, from the view of the player who moved into the node.
PROVEN_WIN = 1
PROVEN_LOSS = -1
PROVEN_DRAW = 2

# meta[] slots shared between Python and the core.
META_USED = 0
META_CAPACITY = 1
META_MAX_DEPTH = 2
META_ROOT_SIDE = 3
META_SIZE = 4
META_RENJU = 5
META_MAX_CHILDREN = 6
META_PLAYOUTS = 7
META_PLAYOUT_MOVES = 8
META_RESERVE = 9  # this side's tree nodes keep quiet moves beside plain fours (0: none)
META_LEN = 10

EXPAND_AT = 2  # a leaf is expanded on its second visit
PLAYOUT_MOVE_CAP = 200


def stride(size: int) -> int:
    return size + 2 * PAD


def cell_of(x: int, y: int, size: int) -> int:
    return (y + PAD) * stride(size) + x + PAD


def point_of(cell: int, size: int) -> tuple[int, int]:
    w = stride(size)
    return (cell % w - PAD, cell // w - PAD)


# -- pattern table ----------------------------------------------------------------------


@_compiled
def build_table(exact: bool) -> I8:
    """Class of every ten-cell neighbourhood (codes 0 empty, 1 own, 2 blocked, base 3,
    offsets -5..-1 then 1..5). Built from neighbourhoods with more own stones down, so a
    class can be read from the classes one stone further on."""
    table = np.zeros(KEYS, dtype=np.int8)
    powers = np.ones(10, dtype=np.int64)
    for i in range(1, 10):
        powers[i] = powers[i - 1] * 3
    own_count = np.zeros(KEYS, dtype=np.int8)
    for key in range(KEYS):
        k = key
        n = 0
        for _ in range(10):
            if k % 3 == 1:
                n += 1
            k //= 3
        own_count[key] = n
    order = np.argsort(-own_count, kind="mergesort")
    line = np.zeros(11, dtype=np.int8)
    for key in order:
        k = key
        for i in range(10):
            line[i if i < 5 else i + 1] = k % 3
            k //= 3
        line[5] = 1
        run = 1
        j = 4
        while j >= 0 and line[j] == 1:
            run += 1
            j -= 1
        j = 6
        while j <= 10 and line[j] == 1:
            run += 1
            j += 1
        if run == 5 or (run > 5 and not exact):
            table[key] = FIVE
            continue
        if run > 5:
            table[key] = OVERLINE
            continue
        fives = 0
        best = NONE
        for j in range(1, 10):
            if j == 5 or line[j] != 0:
                continue
            i = j if j < 5 else j - 1
            child = table[key + powers[i]]
            if child == FIVE:
                fives += 1
            elif child == OPEN_FOUR:
                best = max(best, OPEN_THREE)
            elif child == FOUR:
                best = max(best, CLOSED_THREE)
            elif child == OPEN_THREE:
                best = max(best, OPEN_TWO)
            elif child == CLOSED_THREE:
                best = max(best, CLOSED_TWO)
        if fives >= 2:
            table[key] = OPEN_FOUR
        elif fives == 1:
            table[key] = FOUR
        else:
            table[key] = best
    return table


# -- board state ------------------------------------------------------------------------


@_compiled
def _summarise(pat: I16, side: int, c: int) -> None:
    """Combine the four line classes of a cell into its threat level, value and whether
    the shape may be forbidden to black, so the playouts read three numbers a cell."""
    fours = 0
    threes = 0
    value = 0
    five = False
    open_four = False
    over = False
    for d in range(4):
        k = pat[side, c, d]
        value += VALUES[k]
        if k == FIVE:
            five = True
        elif k == OPEN_FOUR:
            open_four = True
            fours += 1
        elif k == FOUR:
            fours += 1
        elif k == OPEN_THREE:
            threes += 1
        elif k == OVERLINE:
            over = True
    level = 0
    if five:
        level = LEVEL_WIN
    elif open_four or fours >= 2 or (fours == 1 and threes >= 1):
        level = LEVEL_WINNING_THREAT
        value += 300
    elif fours == 1:
        level = LEVEL_FOUR
    elif threes >= 2:
        level = LEVEL_DOUBLE_THREE
        value += 80
    elif threes == 1:
        level = LEVEL_THREE
    pat[side, c, SLOT_LEVEL] = level
    pat[side, c, SLOT_VALUE] = value
    pat[side, c, SLOT_SUSPICIOUS] = 1 if not five and (over or fours >= 2 or threes >= 2) else 0


@_compiled
def _update_cell_line(grid: I8, pat: I16, tables: I8, exact: I8, q: int, d: int, step: int) -> None:
    key_black = 0
    key_white = 0
    power = 1
    for s in range(-5, 6):
        if s == 0:
            continue
        v = grid[q + s * step]
        if v == 1:
            key_black += power
            key_white += 2 * power
        elif v == 2:
            key_black += 2 * power
            key_white += power
        elif v == WALL:
            key_black += 2 * power
            key_white += 2 * power
        power *= 3
    pat[0, q, d] = tables[exact[0], key_black]
    pat[1, q, d] = tables[exact[1], key_white]
    _summarise(pat, 0, q)
    _summarise(pat, 1, q)


@_compiled
def _refresh_around(grid: I8, pat: I16, tables: I8, exact: I8, dirs: I64, c: int) -> None:
    for d in range(4):
        step = dirs[d]
        for s in range(-5, 6):
            q = c + s * step
            if grid[q] == 0:
                _update_cell_line(grid, pat, tables, exact, q, d, step)


@_compiled
def place(grid: I8, pat: I16, tables: I8, exact: I8, dirs: I64, c: int, color: int) -> None:
    grid[c] = color
    _refresh_around(grid, pat, tables, exact, dirs, c)


@_compiled
def unplace(grid: I8, pat: I16, tables: I8, exact: I8, dirs: I64, c: int) -> None:
    grid[c] = 0
    _refresh_around(grid, pat, tables, exact, dirs, c)


@_compiled
def init_patterns(grid: I8, pat: I16, tables: I8, exact: I8, dirs: I64) -> None:
    pat[:, :, :] = 0
    for q in range(grid.shape[0]):
        if grid[q] == 0:
            for d in range(4):
                _update_cell_line(grid, pat, tables, exact, q, d, dirs[d])


@_compiled
def add_candidates(grid: I8, cand: I32, candpos: I32, ncand: I64, c: int, w: int) -> None:
    """Take ``c`` out of the candidate list and add its empty neighbours within two."""
    p = candpos[c]
    if p >= 0:
        last = cand[ncand[0] - 1]
        cand[p] = last
        candpos[last] = p
        candpos[c] = -1
        ncand[0] -= 1
    for dy in range(-2, 3):
        for dx in range(-2, 3):
            q = c + dy * w + dx
            if grid[q] == 0 and candpos[q] < 0:
                candpos[q] = ncand[0]
                cand[ncand[0]] = q
                ncand[0] += 1


# -- renju forbidden points ----------------------------------------------------------------

# The exact, recursive test over the same padded grid (0 empty, 1 black, 2 white, 3 wall):
# one implementation serves both searchers.
is_forbidden = _core_is_forbidden


# -- reading a cell ---------------------------------------------------------------------


@_compiled
def cell_threat(pat: I16, colour: int, c: int) -> tuple[int, int, bool]:
    """(threat level, heuristic value, suspicious) of ``colour`` playing ``c``.
    ``suspicious`` marks shapes that may be forbidden to black in renju."""
    row = pat[colour - 1, c]
    return int(row[SLOT_LEVEL]), int(row[SLOT_VALUE]), row[SLOT_SUSPICIOUS] != 0


@_compiled
def _banned(grid: I8, dirs: I64, renju: bool, colour: int, suspicious: bool, c: int) -> bool:
    return renju and colour == 1 and suspicious and is_forbidden(grid, dirs, c)


@_compiled
def find_five(grid: I8, pat: I16, colour: int, size: int, w: int) -> int:
    """An empty cell where ``colour`` makes five, or -1."""
    for y in range(size):
        base = (y + PAD) * w + PAD
        for x in range(size):
            c = base + x
            if grid[c] == 0:
                for d in range(4):
                    if pat[colour - 1, c, d] == FIVE:
                        return c
    return -1


# -- threat-space search at the root (victory by continuous fours) ----------------------


@_compiled
def _five_points_through(grid: I8, pat: I16, dirs: I64, colour: int, c: int, out: I64) -> int:
    n = 0
    for d in range(4):
        step = dirs[d]
        for s in range(-4, 5):
            q = c + s * step
            if s != 0 and grid[q] == 0 and pat[colour - 1, q, d] == FIVE:
                seen = False
                for i in range(n):
                    if out[i] == q:
                        seen = True
                if not seen and n < out.shape[0]:
                    out[n] = q
                    n += 1
    return n


@_compiled
def _four_moves(
    grid: I8, pat: I16, dirs: I64, me: int, renju: bool, size: int, w: int, out: I64
) -> int:
    """Cells where ``me`` makes a four, winning threats first."""
    n = 0
    for want_winning in (True, False):
        for y in range(size):
            base = (y + PAD) * w + PAD
            for x in range(size):
                c = base + x
                if grid[c] != 0:
                    continue
                level, _, suspicious = cell_threat(pat, me, c)
                if level < LEVEL_FOUR or (level == LEVEL_WINNING_THREAT) != want_winning:
                    continue
                if _banned(grid, dirs, renju, me, suspicious, c):
                    continue
                out[n] = c
                n += 1
    return n


@_compiled
def find_vcf(
    grid: I8,
    pat: I16,
    tables: I8,
    exact: I8,
    dirs: I64,
    me: int,
    renju: bool,
    size: int,
    depth: int,
    max_nodes: int,
) -> int:
    """First move of a win by continuous fours for ``me`` within ``depth`` fours, or -1.
    Neither side may hold a five point on entry. Lines where the defender's block makes a
    four of its own are not pursued. Works on copies; an explicit stack replaces
    recursion, which numba's disk cache cannot hold."""
    w = size + 2 * PAD
    grid = grid.copy()
    pat = pat.copy()
    opp = 3 - me
    moves = np.zeros((depth, size * size), dtype=np.int64)
    count = np.zeros(depth, dtype=np.int64)
    index = np.zeros(depth, dtype=np.int64)
    blocks = np.zeros(depth, dtype=np.int64)
    points = np.zeros(8, dtype=np.int64)
    nodes = 0
    level = 0
    count[0] = _four_moves(grid, pat, dirs, me, renju, size, w, moves[0])
    while level >= 0:
        if index[level] >= count[level] or nodes >= max_nodes:
            if level == 0 or nodes >= max_nodes:
                return -1
            level -= 1
            unplace(grid, pat, tables, exact, dirs, blocks[level])
            unplace(grid, pat, tables, exact, dirs, moves[level, index[level]])
            index[level] += 1
            continue
        nodes += 1
        c = moves[level, index[level]]
        place(grid, pat, tables, exact, dirs, c, me)
        n = _five_points_through(grid, pat, dirs, me, c, points)
        if n >= 2:
            return int(moves[0, index[0]])
        if n == 1:
            block = points[0]
            if renju and opp == 1 and is_forbidden(grid, dirs, block):
                return int(moves[0, index[0]])
            if level + 1 < depth:
                place(grid, pat, tables, exact, dirs, block, opp)
                if _five_points_through(grid, pat, dirs, opp, block, points) == 0:
                    blocks[level] = block
                    level += 1
                    index[level] = 0
                    count[level] = _four_moves(grid, pat, dirs, me, renju, size, w, moves[level])
                    continue
                unplace(grid, pat, tables, exact, dirs, block)
        unplace(grid, pat, tables, exact, dirs, c)
        index[level] += 1
    return -1


# -- move choice shared by the tree and the playouts ------------------------------------


@_compiled
def classify_moves(
    grid: I8,
    pat: I16,
    dirs: I64,
    renju: bool,
    me: int,
    cand: I32,
    ncand: int,
    moves: I64,
    scores: F64,
    reserve: bool,
) -> tuple[int, int]:
    """Fill ``moves``/``scores`` with the moves worth considering for ``me`` and return
    (count, kind). Kinds: 0 no legal move, 1 a winning move (moves[0]), 2 forced blocks of
    a five, 3 own winning threats and fours, 4 defence against a winning threat,
    5 every candidate. With ``reserve``, plain fours (no winning threat among them) do not
    narrow the list to fours: a four kept in reserve can outweigh one cashed at once."""
    opp = 3 - me
    n_block = 0
    n_attack = 0
    n_winning = 0
    opp_threat = False
    n_all = 0
    # First pass: read every candidate once.
    for i in range(ncand):
        c = cand[i]
        my_level, my_value, suspicious = cell_threat(pat, me, c)
        if my_level == LEVEL_WIN:
            moves[0] = c
            scores[0] = 1.0
            return 1, 1
        op_level, op_value, _ = cell_threat(pat, opp, c)
        if op_level == LEVEL_WIN:
            n_block += 1
        if op_level == LEVEL_WINNING_THREAT:
            opp_threat = True
        if my_level >= LEVEL_FOUR:
            n_attack += 1
        if my_level == LEVEL_WINNING_THREAT:
            n_winning += 1
    want_kind = 5
    if n_block > 0:
        want_kind = 2
    elif n_attack > 0 and not opp_threat and (n_winning > 0 or not reserve):
        want_kind = 3
    elif opp_threat:
        want_kind = 4
    n = 0
    for i in range(ncand):
        c = cand[i]
        my_level, my_value, suspicious = cell_threat(pat, me, c)
        op_level, op_value, _ = cell_threat(pat, opp, c)
        if want_kind == 2:
            keep = op_level == LEVEL_WIN
        elif want_kind == 3:
            keep = my_level >= LEVEL_FOUR
        elif want_kind == 4:
            keep = op_level >= LEVEL_FOUR or my_level >= LEVEL_FOUR
        else:
            keep = True
        if not keep:
            continue
        if _banned(grid, dirs, renju, me, suspicious, c):
            continue
        score = 1.0 + my_value + 0.9 * op_value
        if want_kind == 3 and my_level == LEVEL_WINNING_THREAT:
            score += 10000.0
        moves[n] = c
        scores[n] = score
        n += 1
    n_all = n
    if n_all == 0:
        return 0, 0
    return n_all, want_kind


@_compiled
def _roulette(scores: F64, n: int) -> int:
    total = 0.0
    for i in range(n):
        total += scores[i]
    r = np.random.random() * total
    for i in range(n):
        r -= scores[i]
        if r <= 0.0:
            return i
    return n - 1


@_compiled
def _counterattack(
    grid: I8, pat: I16, dirs: I64, renju: bool, side: int, cand: I32, ncand: int
) -> int:
    """The mistake of a defender keen on its own attack: a cell where ``side`` makes a four
    (the first found from a random start), or -1. Forbidden cells are skipped."""
    if ncand == 0:
        return -1
    start = np.random.randint(ncand)
    for k in range(ncand):
        c = cand[(start + k) % ncand]
        level, _, suspicious = cell_threat(pat, side, c)
        if level >= LEVEL_FOUR and not _banned(grid, dirs, renju, side, suspicious, c):
            return int(c)
    return -1


@_compiled
def playout(
    grid: I8,
    pat: I16,
    tables: I8,
    exact: I8,
    dirs: I64,
    renju: bool,
    cand: I32,
    candpos: I32,
    ncand: I64,
    side: int,
    w: int,
    moves: I64,
    scores: F64,
    meta: I64,
    fallible_side: int,
    fallible: float,
) -> int:
    """Play the position out with the heavy policy; return the winner (0 for a draw).
    With probability ``fallible``, ``fallible_side`` answers a four with a four of its own
    instead of blocking (and loses)."""
    for _ in range(PLAYOUT_MOVE_CAP):
        if ncand[0] == 0:
            return 0
        n, kind = classify_moves(grid, pat, dirs, renju, side, cand, ncand[0], moves, scores, False)
        if kind == 1:
            return side
        if kind == 0:
            return 3 - side  # every move is forbidden, or the only block is
        if kind == 2 and n >= 2:
            # Two fives to block: the opponent wins next move whatever we do.
            return 3 - side
        c = moves[_roulette(scores, n)]
        if kind == 2 and side == fallible_side and np.random.random() < fallible:
            other = _counterattack(grid, pat, dirs, renju, side, cand, ncand[0])
            if other >= 0:
                c = other
        meta[META_PLAYOUT_MOVES] += 1
        place(grid, pat, tables, exact, dirs, c, side)
        add_candidates(grid, cand, candpos, ncand, c, w)
        side = 3 - side
    return 0


# -- the tree ---------------------------------------------------------------------------


@_compiled
def _expand(
    node: int,
    grid: I8,
    pat: I16,
    dirs: I64,
    renju: bool,
    side: int,
    cand: I32,
    ncand: I64,
    meta: I64,
    t_move: I32,
    t_first: I32,
    t_nchild: I32,
    t_visits: I32,
    t_wins: F64,
    t_prior: F32,
    t_proven: I8,
    t_pdist: I16,
    t_complete: I8,
    t_expanded: I8,
    moves: I64,
    scores: F64,
) -> bool:
    """Give ``node`` its children. Returns False (leaving it a leaf) if the pool is full."""
    if ncand[0] == 0:
        t_expanded[node] = 1
        t_proven[node] = PROVEN_DRAW
        return True
    n, kind = classify_moves(
        grid, pat, dirs, renju, side, cand, ncand[0], moves, scores, meta[META_RESERVE] == side
    )
    if kind == 0:
        # The side to move has no legal move (renju): the player who moved here wins.
        t_expanded[node] = 1
        t_proven[node] = PROVEN_WIN
        t_pdist[node] = 1
        return True
    limit = meta[META_MAX_CHILDREN]
    if kind == 1 or kind == 2:
        limit = n
    order = np.argsort(-scores[:n], kind="mergesort")
    k = min(n, limit)
    if meta[META_USED] + k > meta[META_CAPACITY]:
        return False
    first = meta[META_USED]
    meta[META_USED] += k
    top = scores[order[0]]
    for i in range(k):
        child = first + i
        j = order[i]
        t_move[child] = moves[j]
        t_first[child] = 0
        t_nchild[child] = 0
        t_visits[child] = 0
        t_wins[child] = 0.0
        t_prior[child] = scores[j] / top
        t_proven[child] = 0
        t_pdist[child] = 0
        t_complete[child] = 0
        t_expanded[child] = 0
    t_first[node] = first
    t_nchild[node] = k
    t_expanded[node] = 1
    t_complete[node] = 1 if kind == 2 else 0
    if kind == 1:
        t_proven[first] = PROVEN_WIN
        t_pdist[first] = 0
        t_proven[node] = PROVEN_LOSS
        t_pdist[node] = 1
    return True


@_compiled
def _select(
    node: int,
    exploration: float,
    bias: float,
    t_first: I32,
    t_nchild: I32,
    t_visits: I32,
    t_wins: F64,
    t_prior: F32,
    t_proven: I8,
    t_pdist: I16,
) -> int:
    first = t_first[node]
    n = t_nchild[node]
    parent_visits = t_visits[node]
    width = min(n, 3 + int(1.5 * np.sqrt(parent_visits)))
    log_n = np.log(parent_visits + 1.0)
    parent_q = t_wins[node] / parent_visits if parent_visits > 0 else 0.5
    fpu = 1.0 - parent_q - 0.1
    best = -1
    best_value = -1e18
    fallback = first
    fallback_dist = -1
    for i in range(first, first + n):
        proven = t_proven[i]
        if proven == PROVEN_WIN:
            return i
        if proven == PROVEN_LOSS:
            if t_pdist[i] > fallback_dist:
                fallback = i
                fallback_dist = t_pdist[i]
            continue
        if i - first >= width:
            continue
        visits = t_visits[i]
        q = t_wins[i] / visits if visits > 0 else fpu
        value = (
            q + exploration * np.sqrt(log_n / (visits + 1.0)) + bias * t_prior[i] / (visits + 1.0)
        )
        if value > best_value:
            best_value = value
            best = i
    if best < 0:
        return int(fallback)
    return best


@_compiled
def _greedy_child(node: int, pat: I16, side: int, t_move: I32, t_first: I32, t_nchild: I32) -> int:
    """A random child of ``node`` among those where ``side`` makes its strongest four (a
    winning one before a plain one), or -1 if no child makes a four."""
    top = LEVEL_FOUR
    count = 0
    choice = -1
    for i in range(t_first[node], t_first[node] + t_nchild[node]):
        level, _, _ = cell_threat(pat, side, t_move[i])
        if level > top:
            top = level
            count = 0
        if level == top:
            # Reservoir sampling: each of the ``count`` equals is kept with chance 1/count.
            count += 1
            if np.random.random() * count < 1.0:
                choice = i
    return choice


@_compiled
def run_iterations(
    count: int,
    exploration: float,
    bias: float,
    draw_score: float,
    fallible: float,
    greedy: float,
    root_grid: I8,
    root_pat: I16,
    root_cand: I32,
    root_candpos: I32,
    root_ncand: I64,
    tables: I8,
    exact: I8,
    dirs: I64,
    meta: I64,
    t_move: I32,
    t_first: I32,
    t_nchild: I32,
    t_visits: I32,
    t_wins: F64,
    t_prior: F32,
    t_proven: I8,
    t_pdist: I16,
    t_complete: I8,
    t_expanded: I8,
) -> int:
    """Run up to ``count`` select-expand-playout-backup iterations from node 0. Returns
    how many ran (fewer once the root is proven). A draw scores ``draw_score`` for the side
    to move at the root and the rest for its opponent; in the playouts that opponent
    counterattacks instead of defending with probability ``fallible``. With probability
    ``greedy`` at each of its tree nodes it is a greedy attacker: it makes its strongest
    four whenever it can, and made to block one of ours it makes its own instead."""
    size = meta[META_SIZE]
    w = size + 2 * PAD
    renju = meta[META_RENJU] == 1
    root_side = meta[META_ROOT_SIDE]
    grid = root_grid.copy()
    pat = root_pat.copy()
    cand = root_cand.copy()
    candpos = root_candpos.copy()
    ncand = root_ncand.copy()
    moves = np.zeros(grid.shape[0], dtype=np.int64)
    scores = np.zeros(grid.shape[0], dtype=np.float64)
    path = np.zeros(size * size + 2, dtype=np.int64)
    done = 0
    for _ in range(count):
        if t_proven[0] != 0:
            break
        grid[:] = root_grid
        pat[:, :, :] = root_pat
        cand[:] = root_cand
        candpos[:] = root_candpos
        ncand[0] = root_ncand[0]
        node = 0
        depth = 0
        side = root_side
        path[0] = 0
        winner = -1
        while True:
            proven = t_proven[node]
            if proven != 0:
                mover = 3 - side
                if proven == PROVEN_WIN:
                    winner = mover
                elif proven == PROVEN_LOSS:
                    winner = side
                else:
                    winner = 0
                break
            if (
                greedy > 0.0
                and side != root_side
                and t_expanded[node] == 1
                and t_complete[node] == 1
                and np.random.random() < greedy
                and _counterattack(grid, pat, dirs, renju, side, cand, ncand[0]) >= 0
            ):
                # A fallible opponent facing our four makes its own instead and loses.
                winner = root_side
                break
            if t_expanded[node] == 0:
                if node != 0 and t_visits[node] < EXPAND_AT:
                    break
                if not _expand(
                    node,
                    grid,
                    pat,
                    dirs,
                    renju,
                    side,
                    cand,
                    ncand,
                    meta,
                    t_move,
                    t_first,
                    t_nchild,
                    t_visits,
                    t_wins,
                    t_prior,
                    t_proven,
                    t_pdist,
                    t_complete,
                    t_expanded,
                    moves,
                    scores,
                ):
                    break
                continue  # the expansion may have proven the node
            child = -1
            if greedy > 0.0 and side != root_side and np.random.random() < greedy:
                # A fallible opponent able to make a four makes it, threats or not.
                child = _greedy_child(node, pat, side, t_move, t_first, t_nchild)
            if child < 0:
                child = _select(
                    node,
                    exploration,
                    bias,
                    t_first,
                    t_nchild,
                    t_visits,
                    t_wins,
                    t_prior,
                    t_proven,
                    t_pdist,
                )
            c = t_move[child]
            place(grid, pat, tables, exact, dirs, c, side)
            add_candidates(grid, cand, candpos, ncand, c, w)
            side = 3 - side
            node = child
            depth += 1
            path[depth] = node
        if depth > meta[META_MAX_DEPTH]:
            meta[META_MAX_DEPTH] = depth
        if winner < 0:
            winner = playout(
                grid,
                pat,
                tables,
                exact,
                dirs,
                renju,
                cand,
                candpos,
                ncand,
                side,
                w,
                moves,
                scores,
                meta,
                3 - root_side,
                fallible,
            )
        # Back up: the node at depth i was entered by root_side when i is odd. A proven
        # child settles its parent: one winning reply loses the parent's move, and a
        # complete list of losing replies wins it.
        for i in range(depth, -1, -1):
            nd = path[i]
            mover = root_side if i % 2 == 1 else 3 - root_side
            t_visits[nd] += 1
            if winner == mover:
                t_wins[nd] += 1.0
            elif winner == 0:
                t_wins[nd] += draw_score if mover == root_side else 1.0 - draw_score
            if i == depth or t_proven[nd] != 0:
                continue
            below = path[i + 1]
            if t_proven[below] == PROVEN_WIN:
                t_proven[nd] = PROVEN_LOSS
                t_pdist[nd] = t_pdist[below] + 1
            elif t_proven[below] == PROVEN_LOSS and t_complete[nd] == 1:
                all_lost = True
                longest = 0
                for j in range(t_first[nd], t_first[nd] + t_nchild[nd]):
                    if t_proven[j] != PROVEN_LOSS:
                        all_lost = False
                        break
                    longest = max(longest, int(t_pdist[j]))
                if all_lost:
                    t_proven[nd] = PROVEN_WIN
                    t_pdist[nd] = longest + 1
        done += 1
        meta[META_PLAYOUTS] += 1
    return done


@_compiled
def compact(
    new_root: int,
    s_move: I32,
    s_first: I32,
    s_nchild: I32,
    s_visits: I32,
    s_wins: F64,
    s_prior: F32,
    s_proven: I8,
    s_pdist: I16,
    s_complete: I8,
    s_expanded: I8,
    d_move: I32,
    d_first: I32,
    d_nchild: I32,
    d_visits: I32,
    d_wins: F64,
    d_prior: F32,
    d_proven: I8,
    d_pdist: I16,
    d_complete: I8,
    d_expanded: I8,
) -> int:
    """Copy the subtree under ``new_root`` into the destination arrays with its root at 0,
    children still contiguous. Returns the number of nodes copied."""
    queue_src = np.zeros(s_move.shape[0], dtype=np.int64)
    queue_dst = np.zeros(s_move.shape[0], dtype=np.int64)
    head = 0
    tail = 1
    queue_src[0] = new_root
    queue_dst[0] = 0
    used = 1
    while head < tail:
        src = queue_src[head]
        dst = queue_dst[head]
        head += 1
        d_move[dst] = s_move[src]
        d_visits[dst] = s_visits[src]
        d_wins[dst] = s_wins[src]
        d_prior[dst] = s_prior[src]
        d_proven[dst] = s_proven[src]
        d_pdist[dst] = s_pdist[src]
        d_complete[dst] = s_complete[src]
        d_expanded[dst] = s_expanded[src]
        n = s_nchild[src]
        d_nchild[dst] = n
        d_first[dst] = used if n > 0 else 0
        for i in range(n):
            queue_src[tail] = s_first[src] + i
            queue_dst[tail] = used + i
            tail += 1
        used += n
    return used


@_compiled
def seed_random(seed: int) -> None:
    np.random.seed(seed)
