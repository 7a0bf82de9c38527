"""The compiled UCT tree of the MCTS player: selection, expansion, playouts and backup.

``engine.search.mcts`` owns the plain-Python ``MctsSearcher``; it copies a ``Board`` into
the kernel state and calls ``run_iterations`` in short chunks, so that time limits,
``stop()`` and progress reports stay in Python. The tree is a pool of nodes in parallel
arrays (``Tree``); a node's children are one contiguous block. Positions are the kernel's
``State`` and moves are chosen by ``playouts.classify_moves`` from its per-cell classes.
Everything here runs compiled under numba, or (slowly) as plain Python with
``NUMBA_DISABLE_JIT=1``."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.kernel.playouts import (
    KIND_BLOCK,
    KIND_NONE,
    KIND_WIN,
    Walk,
    classify_moves,
    copy_candidates,
    counterattack,
    play,
    playout,
)
from engine.kernel.state import I_PLY, copy_into
from engine.kernel.tables import C_BLOCK4, C_BLOCK4_FLEX3, C_FLEX4, Tables

# Proven results stored on nodes, from the view of the player who moved into the node.
PROVEN_WIN = 1
PROVEN_LOSS = -1
PROVEN_DRAW = 2

# meta[] slots shared between Python and the tree.
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


class Tree(NamedTuple):
    """The node pool: one array per field, root at index 0."""

    move: np.ndarray  # int32: the cell played into the node
    first: np.ndarray  # int32: its first child
    nchild: np.ndarray  # int32: how many children
    visits: np.ndarray  # int32
    wins: np.ndarray  # float64: results for the player who moved into the node
    prior: np.ndarray  # float32: the move's playout weight over the best sibling's
    proven: np.ndarray  # int8: PROVEN_* or 0
    pdist: np.ndarray  # int16: plies to the proven result
    complete: np.ndarray  # int8: the children are every reply (forced blocks)
    expanded: np.ndarray  # int8


class TreeSettings(NamedTuple):
    """How the tree searches. ``draw_score`` is what a draw is worth to the side to move
    at the root; ``fallible`` and ``greedy`` describe the opponent (see ``run_iterations``)."""

    exploration: float
    bias: float
    draw_score: float
    fallible: float
    greedy: float


@njit(cache=True, nogil=True)
def _expand(node: int, walk: Walk, tb: Tables, side: int, meta: np.ndarray, tree: Tree) -> bool:
    """Give ``node`` its children. Returns False (leaving it a leaf) if the pool is full."""
    if walk.cands.total[0] == 0:
        tree.expanded[node] = 1
        tree.proven[node] = PROVEN_DRAW
        return True
    n, kind = classify_moves(walk, tb, side, meta[META_RESERVE] == side)
    if kind == KIND_NONE:
        # The side to move has no legal move (renju): the player who moved here wins.
        tree.expanded[node] = 1
        tree.proven[node] = PROVEN_WIN
        tree.pdist[node] = 1
        return True
    limit = meta[META_MAX_CHILDREN]
    if kind == KIND_WIN or kind == KIND_BLOCK:  # noqa: SIM109 (plain comparisons compile best)
        limit = n
    scores = walk.scores
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
        tree.move[child] = walk.moves[j]
        tree.first[child] = 0
        tree.nchild[child] = 0
        tree.visits[child] = 0
        tree.wins[child] = 0.0
        tree.prior[child] = scores[j] / top
        tree.proven[child] = 0
        tree.pdist[child] = 0
        tree.complete[child] = 0
        tree.expanded[child] = 0
    tree.first[node] = first
    tree.nchild[node] = k
    tree.expanded[node] = 1
    tree.complete[node] = 1 if kind == KIND_BLOCK else 0
    if kind == KIND_WIN:
        tree.proven[first] = PROVEN_WIN
        tree.pdist[first] = 0
        tree.proven[node] = PROVEN_LOSS
        tree.pdist[node] = 1
    return True


@njit(cache=True, nogil=True)
def _select(node: int, settings: TreeSettings, tree: Tree) -> int:
    """The child to descend into: a proven win at once, else the best UCT value among the
    first few children (more as the node is visited more), the longest loss if all lose."""
    # Arrays in locals: reaching them through the struct inside the loop costs far more.
    visits, wins, prior = tree.visits, tree.wins, tree.prior
    proven, pdist = tree.proven, tree.pdist
    exploration, bias = settings.exploration, settings.bias
    first = tree.first[node]
    n = tree.nchild[node]
    parent_visits = visits[node]
    width = min(n, 3 + int(1.5 * np.sqrt(parent_visits)))
    log_n = np.log(parent_visits + 1.0)
    parent_q = wins[node] / parent_visits if parent_visits > 0 else 0.5
    fpu = 1.0 - parent_q - 0.1
    best = -1
    best_value = -1e18
    fallback = first
    fallback_dist = -1
    for i in range(first, first + n):
        result = proven[i]
        if result == PROVEN_WIN:
            return i
        if result == PROVEN_LOSS:
            if pdist[i] > fallback_dist:
                fallback = i
                fallback_dist = pdist[i]
            continue
        if i - first >= width:
            continue
        count = visits[i]
        q = wins[i] / count if count > 0 else fpu
        value = q + exploration * np.sqrt(log_n / (count + 1.0)) + bias * prior[i] / (count + 1.0)
        if value > best_value:
            best_value = value
            best = i
    if best < 0:
        return int(fallback)
    return best


@njit(cache=True, nogil=True)
def _greedy_child(node: int, walk: Walk, side: int, tree: Tree) -> int:
    """A random child of ``node`` among those where ``side`` makes its strongest four (a
    winning one before a plain one), or -1 if no child makes a four."""
    klass = walk.st.klass[side - 1]
    move = tree.move
    top = C_BLOCK4
    count = 0
    choice = -1
    for i in range(tree.first[node], tree.first[node] + tree.nchild[node]):
        level = klass[move[i]]
        if level == C_FLEX4:
            level = C_BLOCK4_FLEX3  # every winning threat ranks alike
        if level > top:
            top = level
            count = 0
        if level == top:
            # Reservoir sampling: each of the ``count`` equals is kept with chance 1/count.
            count += 1
            if np.random.random() * count < 1.0:
                choice = i
    return choice


@njit(cache=True, nogil=True)
def _descend(
    walk: Walk, tb: Tables, settings: TreeSettings, meta: np.ndarray, tree: Tree, path: np.ndarray
) -> tuple[int, int]:
    """Walk from the root to a leaf (expanding it when due), playing the moves on the
    working copy. Returns the leaf's depth on ``path`` and the winner if the walk already
    settled the game (-1 if a playout must tell)."""
    root_side = meta[META_ROOT_SIDE]
    greedy = settings.greedy
    node = 0
    depth = 0
    side = root_side
    path[0] = 0
    while True:
        proven = tree.proven[node]
        if proven != 0:
            if proven == PROVEN_WIN:
                return depth, 3 - side
            if proven == PROVEN_LOSS:
                return depth, side
            return depth, 0
        if (
            greedy > 0.0
            and side != root_side
            and tree.expanded[node] == 1
            and tree.complete[node] == 1
            and np.random.random() < greedy
            and counterattack(walk, side) >= 0
        ):
            # A fallible opponent facing our four makes its own instead and loses.
            return depth, root_side
        if tree.expanded[node] == 0:
            if node != 0 and tree.visits[node] < EXPAND_AT:
                return depth, -1
            if not _expand(node, walk, tb, side, meta, tree):
                return depth, -1
            continue  # the expansion may have proven the node
        child = -1
        if greedy > 0.0 and side != root_side and np.random.random() < greedy:
            # A fallible opponent able to make a four makes it, threats or not.
            child = _greedy_child(node, walk, side, tree)
        if child < 0:
            child = _select(node, settings, tree)
        play(walk, tb, tree.move[child], side)
        side = 3 - side
        node = child
        depth += 1
        path[depth] = node


@njit(cache=True, nogil=True)
def _backup(
    path: np.ndarray, depth: int, winner: int, draw_score: float, root_side: int, tree: Tree
) -> None:
    """Count the result on the path. The node at depth i was entered by ``root_side`` when
    i is odd. A proven child settles its parent: one winning reply loses the parent's
    move, and a complete list of losing replies wins it."""
    visits, wins, proven, pdist = tree.visits, tree.wins, tree.proven, tree.pdist
    for i in range(depth, -1, -1):
        nd = path[i]
        mover = root_side if i % 2 == 1 else 3 - root_side
        visits[nd] += 1
        if winner == mover:
            wins[nd] += 1.0
        elif winner == 0:
            wins[nd] += draw_score if mover == root_side else 1.0 - draw_score
        if i == depth or proven[nd] != 0:
            continue
        below = path[i + 1]
        if proven[below] == PROVEN_WIN:
            proven[nd] = PROVEN_LOSS
            pdist[nd] = pdist[below] + 1
        elif proven[below] == PROVEN_LOSS and tree.complete[nd] == 1:
            all_lost = True
            longest = 0
            for j in range(tree.first[nd], tree.first[nd] + tree.nchild[nd]):
                if proven[j] != PROVEN_LOSS:
                    all_lost = False
                    break
                longest = max(longest, int(pdist[j]))
            if all_lost:
                proven[nd] = PROVEN_WIN
                pdist[nd] = longest + 1


@njit(cache=True, nogil=True)
def run_iterations(
    count: int, settings: TreeSettings, walk: Walk, tb: Tables, meta: np.ndarray, tree: Tree
) -> int:
    """Run up to ``count`` select-expand-playout-backup iterations from node 0 (the
    position ``walk.root``). Returns how many ran (fewer once the root is proven). A draw
    scores ``draw_score`` for the side to move at the root and the rest for its opponent;
    in the playouts that opponent counterattacks instead of defending with probability
    ``fallible``. With probability ``greedy`` at each of its tree nodes it is a greedy
    attacker: it makes its strongest four whenever it can, and made to block one of ours
    it makes its own instead."""
    size = meta[META_SIZE]
    root_side = meta[META_ROOT_SIDE]
    path = np.zeros(size * size + 2, dtype=np.int64)
    done = 0
    for _ in range(count):
        if tree.proven[0] != 0:
            break
        copy_into(walk.st, walk.root)
        copy_candidates(walk.cands, walk.root_cands)
        depth, winner = _descend(walk, tb, settings, meta, tree, path)
        if depth > meta[META_MAX_DEPTH]:
            meta[META_MAX_DEPTH] = depth
        if winner < 0:
            before = walk.st.info[I_PLY]
            side = root_side if depth % 2 == 0 else 3 - root_side
            winner = playout(walk, tb, side, 3 - root_side, settings.fallible)
            meta[META_PLAYOUT_MOVES] += walk.st.info[I_PLY] - before
        _backup(path, depth, winner, settings.draw_score, root_side, tree)
        done += 1
        meta[META_PLAYOUTS] += 1
    return done


@njit(cache=True, nogil=True)
def compact(new_root: int, src: Tree, dst: Tree) -> int:
    """Copy the subtree under ``new_root`` into ``dst`` with its root at 0, children still
    contiguous. Returns the number of nodes copied."""
    queue_src = np.zeros(src.move.shape[0], dtype=np.int64)
    queue_dst = np.zeros(src.move.shape[0], dtype=np.int64)
    head = 0
    tail = 1
    queue_src[0] = new_root
    queue_dst[0] = 0
    used = 1
    while head < tail:
        s = queue_src[head]
        d = queue_dst[head]
        head += 1
        dst.move[d] = src.move[s]
        dst.visits[d] = src.visits[s]
        dst.wins[d] = src.wins[s]
        dst.prior[d] = src.prior[s]
        dst.proven[d] = src.proven[s]
        dst.pdist[d] = src.pdist[s]
        dst.complete[d] = src.complete[s]
        dst.expanded[d] = src.expanded[s]
        n = src.nchild[s]
        dst.nchild[d] = n
        dst.first[d] = used if n > 0 else 0
        for i in range(n):
            queue_src[tail] = src.first[s] + i
            queue_dst[tail] = used + i
            tail += 1
        used += n
    return used


@njit(cache=True)
def seed_random(seed: int) -> None:
    """Seed numba's own random generator, which the tree and the playouts draw from."""
    np.random.seed(seed)
