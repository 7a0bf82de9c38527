"""Forced wins by threats, as plain Python: the kernel's VCF and VCT behind Board and Point.

``ThreatSearch`` answers the questions a teacher asks of a position: does the side to move
win by continuous fours (VCF) or by continuous threats (VCT, fours and open threes), with
which first move and which forced line; does a given move still win; which threat moves
win at all (is the winning move unique); and which replies hold against the opponent's
threat (is the defence unique). It copies the board into the compiled state of
``engine.kernel.state`` and calls ``engine.kernel.threats``; the searchers
(``engine.search.searcher``, ``engine.search.mcts``) use the same kernel functions for their
own root threat checks. Every answer is bounded by ``ThreatLimits`` (fours in a row,
threat depth, nodes), so "no win" means "no win found within the limits"."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from enum import Enum

import numpy as np

from engine.game.board import Board
from engine.game.color import Color
from engine.game.points import Point
from engine.kernel.forbidden import forbidden_at
from engine.kernel.heuristics import MAX_MOVES, Heuristics, new_heuristics
from engine.kernel.movepick import generate
from engine.kernel.state import (
    I_NODES,
    I_PLY,
    I_SIZE,
    I_STRIDE,
    PAD,
    State,
    index_point,
    init_walls,
    new_state,
    place,
    point_index,
    remove,
)
from engine.kernel.tables import (
    C_FIVE,
    C_FLEX3,
    C_FLEX4,
    Tables,
    rule_tables,
)
from engine.kernel.threats import ROOT_VCF_DEPTH, ROOT_VCT_DEPTH, root_vcf, root_vct

# The defender's counter-fours followed when testing a defence (each one forces a block).
COUNTER_FOUR_DEPTH = 3


class ThreatKind(Enum):
    """How a forced win is made: fours only, or fours and open threes."""

    VCF = "vcf"
    VCT = "vct"


@dataclass(frozen=True)
class ThreatLimits:
    """How far the threat searches look: ``vcf_fours`` fours in a row, ``vct_depth``
    threats in a row, ``vct_nodes`` nodes per VCT call; ``vct=False`` looks for fours only."""

    vcf_fours: int = ROOT_VCF_DEPTH
    vct_depth: int = ROOT_VCT_DEPTH
    vct_nodes: int = 60_000
    vct: bool = True


@dataclass(frozen=True)
class ThreatWin:
    """A forced win for the side to move: its first move, the kind of threats it needs,
    its length in plies (the first move to the five, both sides counted), the forced
    line (attacker and defender alternating, ending on the five; the defender's replies
    are the ones that last longest) when it was asked for, and the nodes searched."""

    move: Point
    kind: ThreatKind
    plies: int
    line: list[Point]
    nodes: int


@dataclass(frozen=True)
class _MoveCheck:
    """The result of one attacking move: ``plies`` to the win (0: not proven), the
    defender's longest-lasting reply (None after a five or with no defence at all)."""

    plies: int
    reply: int | None
    kind: ThreatKind


_NO_WIN = _MoveCheck(0, None, ThreatKind.VCF)


class _Scratch:
    """Scratch arrays kept per board size and rule: the VCF failure table in them stays
    valid from one position to the next, since it is keyed by position."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._heuristics: dict[tuple[int, str], Heuristics] = {}

    def get(self, size: int, rule: str) -> Heuristics:
        with self._lock:
            key = (size, rule)
            if key not in self._heuristics:
                stride = size + 2 * PAD
                self._heuristics[key] = new_heuristics(stride * stride)
            return self._heuristics[key]


class ThreatSearch:
    """Threat searches over boards, within ``limits``. Not thread-safe: use one per
    thread (each keeps its own scratch arrays)."""

    def __init__(self, limits: ThreatLimits | None = None) -> None:
        self.limits = limits or ThreatLimits()
        self._scratch = _Scratch()
        self.nodes = 0  # nodes searched by this object so far

    # -- public questions -----------------------------------------------------------------

    def find_win(self, board: Board, *, line: bool = True) -> ThreatWin | None:
        """A forced win for the side to move by fours, else by threats; None if none is
        found within the limits (or the game is over)."""
        if board.is_game_over():
            return None
        pos = self._position(board)
        start = pos.nodes
        found = pos.root_win(self.limits)
        if found is None:
            self.nodes += pos.nodes - start
            return None
        move, plies, kind = found
        return self._win(pos, start, move, kind, plies, line)

    def move_wins(self, board: Board, move: Point, *, line: bool = True) -> ThreatWin | None:
        """Whether playing ``move`` (for the side to move) wins by force: the win it starts,
        else None. Only fours and open threes can be proven: a quiet move gives the
        defender a free move, which no threat search covers."""
        if board.is_game_over() or move not in board.legal_moves():
            return None
        pos = self._position(board)
        start = pos.nodes
        index = pos.index(move)
        check = pos.check_move(index, self.limits)
        if check.plies == 0:
            self.nodes += pos.nodes - start
            return None
        return self._win(pos, start, index, check.kind, check.plies, line)

    def _win(
        self, pos: _Position, start: int, move: int, kind: ThreatKind, plies: int, line: bool
    ) -> ThreatWin:
        """The win starting with ``move`` (a cell index), with its forced line if asked
        for; the nodes since ``start`` are counted."""
        if line:
            # The line's own length: the defences it follows may end sooner than the
            # first win the kernel found.
            moves = pos.forced_line(move, self.limits)
            plies = len(moves)
        else:
            moves = [pos.point(move)]
        nodes = pos.nodes - start
        self.nodes += nodes
        return ThreatWin(pos.point(move), kind, plies, moves, nodes)

    def winning_moves(self, board: Board, *, most: int | None = None) -> list[ThreatWin]:
        """Every threat move of the side to move that wins by force (without lines),
        shortest first; with ``most``, stop once that many are found."""
        if board.is_game_over():
            return []
        pos = self._position(board)
        wins: list[ThreatWin] = []
        for index in pos.threat_moves():
            start = pos.nodes
            check = pos.check_move(index, self.limits)
            self.nodes += pos.nodes - start
            if check.plies > 0:
                point = pos.point(index)
                wins.append(ThreatWin(point, check.kind, check.plies, [point], pos.nodes - start))
                if most is not None and len(wins) >= most:
                    break
        wins.sort(key=lambda win: win.plies)
        return wins

    def defence_reply(self, board: Board) -> Point | None:
        """The defender's reply (the side to move) that makes the opponent's forced win
        last longest, after the opponent's threat move; None when the side to move is not
        under a four or an open three."""
        if board.is_game_over():
            return None
        pos = self._position(board)
        start = pos.nodes
        reply = pos.longest_defence(self.limits)
        self.nodes += pos.nodes - start
        return None if reply is None else pos.point(reply)

    def holding_moves(self, board: Board, *, most: int = 2) -> list[Point]:
        """Moves of the side to move after which the opponent has no forced win within the
        limits, among the points near the stones; stops once ``most`` are found. A
        counter-four counts when the position after its forced block still holds."""
        if board.is_game_over():
            return []
        pos = self._position(board)
        start = pos.nodes
        holding = pos.holding_moves(self.limits, most, COUNTER_FOUR_DEPTH)
        self.nodes += pos.nodes - start
        return [pos.point(i) for i in holding]

    def threatens(self, board: Board) -> ThreatWin | None:
        """The forced win the opponent of the side to move would have if it were its turn
        (a null move), without the line; None if none."""
        if board.is_game_over():
            return None
        pos = self._position(board)
        start = pos.nodes
        pos.pass_turn()
        found = pos.root_win(self.limits)
        self.nodes += pos.nodes - start
        if found is None:
            return None
        move, plies, kind = found
        return ThreatWin(pos.point(move), kind, plies, [pos.point(move)], pos.nodes - start)

    # -- internals ------------------------------------------------------------------------

    def _position(self, board: Board) -> _Position:
        hs = self._scratch.get(board.size, board.rule.value)
        return _Position(board, hs)


class _Position:
    """One board copied into the compiled state, with the kernel calls the questions use."""

    def __init__(self, board: Board, hs: Heuristics) -> None:
        self.rule = board.rule
        self.tables: Tables = rule_tables(board.rule.value, board.size)
        state = new_state(board.size, board.rule.value == "renju")
        state.stop[0] = 0
        init_walls(state, self.tables)
        for x, y in board.moves:
            place(state, self.tables, point_index(state, x, y), int(board.cell(x, y)))
        self.st: State = state
        self.hs = hs

    @property
    def nodes(self) -> int:
        return int(self.st.info[I_NODES])

    def index(self, point: Point) -> int:
        return point_index(self.st, point[0], point[1])

    def point(self, index: int) -> Point:
        return index_point(self.st, int(index))

    def to_move(self) -> int:
        """1 (black) or 2 (white): the kernel's side to move, from the stone count."""
        return 1 + int(self.st.info[I_PLY] & 1)

    def pass_turn(self) -> None:
        """Give the move to the other side without a stone. The kernel takes the side to
        move from the ply's parity; the failure tables' keys hold the colour as well as
        the hash, so they stay sound. Only done on a fresh copy, before any search."""
        self.st.info[I_PLY] += 1

    # -- single steps -----------------------------------------------------------------

    def _renju_black(self, color: int) -> bool:
        return self.rule.has_forbidden and color == int(Color.BLACK)

    def _cells_of(self, side: int, klass_min: int, klass_max: int = C_FIVE) -> list[int]:
        size = int(self.st.info[I_SIZE])
        stride = int(self.st.info[I_STRIDE])
        out: list[int] = []
        cells = self.st.cells
        klass = self.st.klass[side]
        for y in range(size):
            base = (y + PAD) * stride + PAD
            row = cells[base : base + size]
            empty = np.flatnonzero(row == 0)
            for x in empty:
                i = base + int(x)
                if klass_min <= klass[i] <= klass_max:
                    out.append(i)
        return out

    def _legal(self, index: int, color: int) -> bool:
        return not (self._renju_black(color) and forbidden_at(self.st, index))

    def threat_moves(self) -> list[int]:
        """Moves of the side to move that could start a proven win: when the opponent can
        make five, only its blocks; else every four and open three."""
        color = self.to_move()
        me, op = color - 1, 2 - color
        if self.st.class_count[op, C_FIVE] > 0:
            blocks = self._cells_of(op, C_FIVE)
            return [i for i in blocks if self._legal(i, color)]
        moves = self._cells_of(me, C_FLEX3)
        return [i for i in moves if self._legal(i, color)]

    def root_win(self, limits: ThreatLimits) -> tuple[int, int, ThreatKind] | None:
        """The kernel's first winning move for the side to move, its plies and kind."""
        color = self.to_move()
        # The shortest win by fours: one four more at a time (the failure table makes the
        # shallower tries nearly free for the deeper ones).
        for fours in range(1, limits.vcf_fours + 1):
            plies = int(root_vcf(self.st, self.tables, self.hs, fours))
            if plies > 0:
                return int(self.hs.vcf_line[0]), plies, ThreatKind.VCF
        if not limits.vct or self._renju_black(color):
            # Renju black's threes may be forbidden shapes: only fours are trusted there.
            return None
        plies = int(
            root_vct(self.st, self.tables, self.hs, limits.vct_depth, limits.vct_nodes, True)
        )
        if plies > 0:
            return int(self.hs.vcf_line[0]), plies, ThreatKind.VCT
        return None

    def _defences(self, color: int) -> list[int] | None:
        """The defender's candidate replies after the attacker's move; ``color`` is the
        defender. None means the attacker made no threat (nothing is forced)."""
        op = 2 - color
        if self.st.class_count[op, C_FIVE] > 0:
            # Blocks of the five (two fives: each block loses to the other five); a
            # forbidden block is no block.
            return [i for i in self._cells_of(op, C_FIVE) if self._legal(i, color)]
        if self.st.class_count[op, C_FLEX4] == 0:
            return None
        # Against an open three the generator lists the blocks and our fours only.
        count = int(generate(self.st, self.hs, 0, -1, MAX_MOVES))
        return [int(i) for i in self.hs.moves[0, :count]]

    def _reply_wins(self, reply: int, color: int) -> bool:
        """Whether the defender (``color``) makes five with ``reply``."""
        return bool(self.st.klass[color - 1, reply] == C_FIVE)

    def check_move(self, index: int, limits: ThreatLimits) -> _MoveCheck:
        """Play ``index`` for the side to move and see whether every defence loses."""
        color = self.to_move()
        me, op = color - 1, 2 - color
        if self.st.cells[index] != 0 or not self._legal(index, color):
            return _NO_WIN
        if self.st.klass[me, index] == C_FIVE:
            return _MoveCheck(1, None, ThreatKind.VCF)
        if self.st.class_count[op, C_FIVE] > 0 and self.st.klass[op, index] != C_FIVE:
            return _NO_WIN  # the opponent's five stays open
        place(self.st, self.tables, index, color)
        try:
            if self.st.class_count[op, C_FIVE] > 0:
                return _NO_WIN  # a second five of the opponent's is still open
            replies = self._defences(3 - color)
            if replies is None:
                return _NO_WIN
            if not replies:
                return _MoveCheck(3, None, ThreatKind.VCF)
            longest = 0
            best: int | None = None
            kind = ThreatKind.VCF
            for reply in replies:
                if self._reply_wins(reply, 3 - color):
                    return _NO_WIN
                place(self.st, self.tables, reply, 3 - color)
                found = self.root_win(limits)
                remove(self.st, self.tables)
                if found is None:
                    return _NO_WIN
                if found[1] > longest:
                    longest, best = found[1], reply
                if found[2] is ThreatKind.VCT:
                    kind = ThreatKind.VCT
            four = self.st.class_count[me, C_FIVE] > 0
            if not four:
                kind = ThreatKind.VCT
            return _MoveCheck(longest + 2, best, kind)
        finally:
            remove(self.st, self.tables)

    def forced_line(self, first: int, limits: ThreatLimits) -> list[Point]:
        """The line from ``first``: the attacker's winning moves and the defender's
        longest-lasting replies, ending on the five (as points)."""
        line: list[Point] = []
        placed = 0
        move: int | None = first
        try:
            while move is not None and len(line) < 120:
                check = self.check_move(move, limits)
                if check.plies == 0:
                    break  # cannot happen for a proven win; keep what was found
                line.append(self.point(move))
                if check.reply is None:
                    # A five, or a threat the defender has no legal answer to.
                    break
                color = self.to_move()
                place(self.st, self.tables, move, color)
                place(self.st, self.tables, check.reply, 3 - color)
                placed += 2
                line.append(self.point(check.reply))
                found = self.root_win(limits)
                move = None if found is None else found[0]
        finally:
            for _ in range(placed):
                remove(self.st, self.tables)
        return line

    def longest_defence(self, limits: ThreatLimits) -> int | None:
        """The side to move's reply to the opponent's threat that lasts longest."""
        color = self.to_move()
        replies = self._defences(color)
        if not replies:
            return None
        longest = -1
        best = replies[0]
        for reply in replies:
            if self._reply_wins(reply, color):
                return reply
            place(self.st, self.tables, reply, color)
            found = self.root_win(limits)
            remove(self.st, self.tables)
            plies = 1000 if found is None else found[1]
            if plies > longest:
                longest, best = plies, reply
        return best

    def near_moves(self) -> list[int]:
        size = int(self.st.info[I_SIZE])
        stride = int(self.st.info[I_STRIDE])
        color = self.to_move()
        out = []
        for y in range(size):
            base = (y + PAD) * stride + PAD
            for x in range(size):
                i = base + x
                if self.st.near[i] > 0 and self._legal(i, color):  # empty, a stone near
                    out.append(i)
        return out

    def holds_after(self, index: int, limits: ThreatLimits, counter_fours: int) -> bool:
        """Whether the side to move's ``index`` leaves the opponent without a forced win."""
        color = self.to_move()
        me, op = color - 1, 2 - color
        if self.st.klass[me, index] == C_FIVE:
            return True
        if self.st.class_count[op, C_FIVE] > 0 and self.st.klass[op, index] != C_FIVE:
            return False
        place(self.st, self.tables, index, color)
        try:
            fives = self._cells_of(me, C_FIVE) if self.st.class_count[me, C_FIVE] else []
            if len(fives) >= 2:
                return True  # an open four or two fours: the defence wins outright
            if len(fives) == 1:
                # A counter-four: the block is forced, then the side is to move again.
                if self.st.class_count[op, C_FIVE] > 0 or counter_fours <= 0:
                    return False
                block = fives[0]
                if not self._legal(block, 3 - color):
                    return True
                place(self.st, self.tables, block, 3 - color)
                try:
                    return bool(self.holding_moves(limits, 1, counter_fours - 1))
                finally:
                    remove(self.st, self.tables)
            return self.root_win(limits) is None
        finally:
            remove(self.st, self.tables)

    def holding_moves(self, limits: ThreatLimits, most: int, counter_fours: int) -> list[int]:
        """Moves near the stones after which the opponent has no forced win, up to ``most``.
        Quick VCF refutations are tried for every move before any VCT."""
        candidates = self.near_moves()
        fours_only = ThreatLimits(limits.vcf_fours, limits.vct_depth, limits.vct_nodes, False)
        survivors = [i for i in candidates if self.holds_after(i, fours_only, counter_fours)]
        if not limits.vct:
            return survivors[:most]
        holding: list[int] = []
        for i in survivors:
            if self.holds_after(i, limits, counter_fours):
                holding.append(i)
                if len(holding) >= most:
                    break
        return holding


def threat_kind(name: str) -> ThreatKind:
    """The ``ThreatKind`` called ``name`` (``vcf`` or ``vct``)."""
    return ThreatKind(name)


__all__ = [
    "ThreatKind",
    "ThreatLimits",
    "ThreatSearch",
    "ThreatWin",
    "threat_kind",
]
