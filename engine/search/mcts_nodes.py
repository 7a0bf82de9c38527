"""The MCTS player's view of a position and its node pool, in plain Python.

``Position`` is a board in the kernel state with the candidate moves near its stones;
``NodePool`` holds the tree's node arrays (``engine.kernel.mcts_tree.Tree``) and reads
them: children, the ranking of moves and the score a node stands for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.game.board import Board
from engine.game.color import Color
from engine.game.points import Point
from engine.game.rules import Rule
from engine.kernel import mcts_tree as core
from engine.kernel.playouts import Candidates, add_candidates, new_candidates
from engine.kernel.state import PAD, State, index_point, init_walls, new_state, place, point_index
from engine.kernel.tables import C_FIVE, Tables, rule_tables
from engine.search.result import MATE


def cell_of(point: Point, size: int) -> int:
    """The kernel's cell index of ``point`` on a ``size`` board."""
    return (point[1] + PAD) * (size + 2 * PAD) + point[0] + PAD


def point_of(cell: int, size: int) -> Point:
    """The point of the kernel's cell index ``cell`` on a ``size`` board."""
    stride = size + 2 * PAD
    return (cell % stride - PAD, cell // stride - PAD)


@dataclass
class Position:
    """A board in the kernel state, with the candidate moves near its stones."""

    size: int
    st: State
    tables: Tables
    cands: Candidates
    renju: bool

    @classmethod
    def from_board(cls, board: Board) -> Position:
        renju = board.rule is Rule.RENJU
        tables = rule_tables(board.rule.value, board.size)
        st = new_state(board.size, renju)
        init_walls(st, tables)
        cands = new_candidates(st.cells.shape[0])
        for x, y in board.moves:
            cell = point_index(st, x, y)
            place(st, tables, cell, int(board.cell(x, y)))
            add_candidates(st, cands, cell)
        return cls(board.size, st, tables, cands, renju)

    def cell(self, point: Point) -> int:
        return point_index(self.st, point[0], point[1])

    def point(self, cell: int) -> Point:
        return index_point(self.st, int(cell))

    def five_points(self, colour: Color) -> list[int]:
        """Empty cells where ``colour`` makes a winning five."""
        cells = np.flatnonzero((self.st.cells == 0) & (self.st.klass[int(colour) - 1] == C_FIVE))
        return [int(c) for c in cells]


# Indexes of the node fields in ``NodePool.arrays`` (the order of ``NodePool.FIELDS``).
MOVE, FIRST, NCHILD, VISITS, WINS, PRIOR, PROVEN, PDIST, COMPLETE, EXPANDED = range(10)


class NodePool:
    """The node pool: parallel arrays, root at index 0, children in contiguous blocks."""

    FIELDS = (
        ("move", np.int32),
        ("first", np.int32),
        ("nchild", np.int32),
        ("visits", np.int32),
        ("wins", np.float64),
        ("prior", np.float32),
        ("proven", np.int8),
        ("pdist", np.int16),
        ("complete", np.int8),
        ("expanded", np.int8),
    )

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        # np.zeros maps pages lazily, so an unused pool costs little.
        self.arrays: list[npt.NDArray[Any]] = [
            np.zeros(capacity, dtype=dtype) for _, dtype in self.FIELDS
        ]
        self.used = 1
        self.arrays[MOVE][0] = -1

    def children(self, node: int) -> range:
        first = int(self.arrays[FIRST][node])
        return range(first, first + int(self.arrays[NCHILD][node]))

    def child_with_move(self, node: int, cell: int) -> int | None:
        if not self.arrays[EXPANDED][node]:
            return None
        for child in self.children(node):
            if int(self.arrays[MOVE][child]) == cell:
                return child
        return None

    @property
    def nodes(self) -> core.Tree:
        """The arrays as the compiled tree takes them."""
        return core.Tree(*self.arrays)

    def rerooted(self, node: int) -> NodePool:
        other = NodePool(self.capacity)
        other.used = int(core.compact(node, self.nodes, other.nodes))
        return other


def ranked_children(tree: NodePool, node: int) -> list[int]:
    """Children best first: proven wins (shortest), then by visits, proven losses last."""
    visits, proven, pdist = tree.arrays[VISITS], tree.arrays[PROVEN], tree.arrays[PDIST]

    def key(child: int) -> tuple[int, int, int]:
        if proven[child] == core.PROVEN_WIN:
            return (0, int(pdist[child]), 0)
        if proven[child] == core.PROVEN_LOSS:
            return (2, -int(pdist[child]), -int(visits[child]))
        return (1, -int(visits[child]), 0)

    return sorted(tree.children(node), key=key)


def node_score(tree: NodePool, child: int) -> int:
    """A mate score for a proven node, else its win rate mapped to -1000..1000."""
    proven = int(tree.arrays[PROVEN][child])
    plies = int(tree.arrays[PDIST][child]) + 1
    if proven == core.PROVEN_WIN:
        return MATE - plies
    if proven == core.PROVEN_LOSS:
        return -(MATE - plies)
    visits = int(tree.arrays[VISITS][child])
    if visits == 0:
        return 0
    rate = float(tree.arrays[WINS][child]) / visits
    return round((rate - 0.5) * 2000)
