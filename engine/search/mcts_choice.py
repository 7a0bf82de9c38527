"""The MCTS player's last word on its move when the best one expects no win: a swindle
(a bait, or the move leaving us the most threats) or, on small boards, a trap (the move
after which most of the opponent's replies lose to our threat sequences)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.game.board import Board
from engine.game.color import Color
from engine.kernel.heuristics import Heuristics
from engine.kernel.state import State, place, point_index, remove
from engine.kernel.tables import C_BLOCK4, C_BLOCK4_FLEX3, C_FIVE, C_FLEX4, Tables
from engine.kernel.threats import ROOT_VCF_DEPTH, ROOT_VCT_DEPTH, root_vcf, root_vct
from engine.search.mcts_nodes import MOVE, PROVEN, VISITS, WINS, NodePool, Position

# Swindles: when the best move only expects to hold the game (its win rate is below
# SWINDLE_BELOW), of the moves scoring nearly as well (after at least SWINDLE_MIN_VISITS
# playouts) a bait is played (a four while the opponent has a four of its own to make,
# within BAIT_MARGIN), or else the move within SWINDLE_MARGIN leaving us the most winning
# threats (open threes), then the most ways to make a four: threats cost little if
# answered and win against an opponent that misses the answer, but a four with nothing to
# tempt the opponent only spends one.
SWINDLE_BELOW = 0.45
SWINDLE_MARGIN = 0.08
SWINDLE_MIN_VISITS = 32
BAIT_MARGIN = 0.15
# Traps, on boards of at most TRAP_MAX_CELLS cells: when the best move expects no win (win
# rate below TRAP_BELOW), of the TRAP_CANDIDATES most visited moves scoring within
# TRAP_MARGIN of it, the one after which most of the opponent's replies lose to a threat
# sequence of ours (not a five at once: a fallible opponent sees those) is played. The
# counting takes up to TRAP_TIME_SHARE of a timed move, each reply checked within
# TRAP_VCT_NODES threat-search nodes.
TRAP_MAX_CELLS = 81
TRAP_BELOW = 0.3
TRAP_MARGIN = 0.08
TRAP_CANDIDATES = 12
TRAP_TIME_SHARE = 0.15
TRAP_VCT_NODES = 2000
# Traps, on boards of at most TRAP_MAX_CELLS cells: when the best move expects no win (win
# rate below TRAP_BELOW), of the TRAP_CANDIDATES most visited moves scoring within
# TRAP_MARGIN of it, the one after which most of the opponent's replies lose to a threat
# sequence of ours (not a five at once: a fallible opponent sees those) is played. The
# counting takes up to TRAP_TIME_SHARE of a timed move, each reply checked within
# TRAP_VCT_NODES threat-search nodes.
TRAP_MAX_CELLS = 81
TRAP_BELOW = 0.3
TRAP_MARGIN = 0.08
TRAP_CANDIDATES = 12
TRAP_TIME_SHARE = 0.15
TRAP_VCT_NODES = 2000


def swindle(tree: NodePool, position: Position, side: Color, best: int) -> tuple[int, bool]:
    """When ``best`` expects no win, the move scoring almost as well that threatens
    most, and whether it is a bait. A bait is a four made while the opponent, besides
    blocking it, could make a four of its own: an opponent keen on its own attack may
    play that and lose. Other fours only spend our threats, so after baits come the
    moves leaving us the most winning threats (an open three must be answered), then
    the most cells where we make a four."""
    visits, wins, proven = tree.arrays[VISITS], tree.arrays[WINS], tree.arrays[PROVEN]
    if proven[best] != 0 or visits[best] == 0:
        return best, False
    best_rate = float(wins[best]) / int(visits[best])
    if best_rate >= SWINDLE_BELOW:
        return best, False
    st, tables = position.st, position.tables
    colour = int(side)
    opponent = 3 - colour
    empty = st.cells == 0
    choice, choice_key = best, (False, -1, -1, 0.0)
    for child in tree.children(0):
        n = int(visits[child])
        if proven[child] != 0 or (n < SWINDLE_MIN_VISITS and child != best):
            continue
        rate = float(wins[child]) / max(n, 1)
        if rate < best_rate - BAIT_MARGIN:
            continue
        cell = int(tree.arrays[MOVE][child])
        four = int(st.klass[colour - 1, cell]) >= C_BLOCK4
        place(st, tables, cell, colour)
        empty[cell] = False
        ours = st.klass[colour - 1]
        ready = int(np.count_nonzero(empty & (ours >= C_BLOCK4)))
        winning = int(np.count_nonzero(empty & np.isin(ours, (C_BLOCK4_FLEX3, C_FLEX4))))
        bait = four and bool(
            np.any(empty & (st.klass[opponent - 1] >= C_BLOCK4) & (ours != C_FIVE))
        )
        empty[cell] = True
        remove(st, tables)
        if (four and not bait) or (not bait and rate < best_rate - SWINDLE_MARGIN):
            continue
        key = (bait, winning, ready, rate)
        if key > choice_key:
            choice, choice_key = child, key
    return choice, choice_key[0]


def traps_apply(board: Board) -> bool:
    """Whether traps are looked for on this board: small, and no forbidden moves (renju
    black's threes may be forbidden shapes, which the threat search trusts)."""
    return board.size * board.size <= TRAP_MAX_CELLS and not board.rule.has_forbidden


def trap(
    board: Board,
    tree: NodePool,
    best: int,
    threats: tuple[State, Tables, Heuristics],
    stopped: Callable[[], bool],
) -> int | None:
    """When ``best`` expects no win, the move scoring nearly as well after which the
    largest share of the opponent's replies lose to our threat sequences, if any does;
    a fallible opponent then has the most ways to go wrong. ``threats`` is a copy of the
    position for the threat searches; ``stopped`` says when to give up."""
    visits, wins, proven = tree.arrays[VISITS], tree.arrays[WINS], tree.arrays[PROVEN]
    if proven[best] != 0 or visits[best] == 0:
        return None
    best_rate = float(wins[best]) / int(visits[best])
    if best_rate >= TRAP_BELOW:
        return None
    candidates = [
        child
        for child in tree.children(0)
        if proven[child] == 0
        and (int(visits[child]) >= SWINDLE_MIN_VISITS or child == best)
        and float(wins[child]) / max(int(visits[child]), 1) >= best_rate - TRAP_MARGIN
    ]
    candidates.sort(key=lambda child: -int(visits[child]))
    state, tables, hs = threats
    me = int(board.turn)
    opponent = 3 - me
    legal = board.legal_moves()
    cells = [point_index(state, x, y) for x, y in legal]
    choice: int | None = None
    choice_key = (0.0, 0.0)
    for child in candidates[:TRAP_CANDIDATES]:
        if stopped():
            break
        mine = int(tree.arrays[MOVE][child])
        place(state, tables, mine, me)
        losing = replies = 0
        for reply in cells:
            if reply == mine:
                continue
            replies += 1
            if state.klass[opponent - 1, reply] == C_FIVE:
                continue
            place(state, tables, reply, opponent)
            plies = root_vcf(state, tables, hs, ROOT_VCF_DEPTH)
            if plies == 0:
                plies = root_vct(state, tables, hs, ROOT_VCT_DEPTH, TRAP_VCT_NODES, False)
            remove(state, tables)
            # A five at once is a blunder any opponent sees; deeper threats are traps.
            if plies > 1:
                losing += 1
        remove(state, tables)
        key = (losing / max(replies, 1), float(wins[child]) / max(int(visits[child]), 1))
        if losing > 0 and key > choice_key:
            choice, choice_key = child, key
    return choice
