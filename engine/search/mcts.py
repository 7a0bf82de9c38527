"""A Monte Carlo tree search player with the same API as the negamax ``Searcher``.

``MctsSearcher.search(board, limit)`` copies the board into the kernel state (the one the
negamax searcher uses), settles the obvious first (a win in one, a forced block, a win by
continuous fours or threats from the kernel's threat searches), then grows a UCT tree
(``engine.kernel.mcts_tree``) whose leaves are scored by heavy playouts that read the
kernel's per-cell classes: fives, fours and open threes. It reports through
``on_iteration`` like the negamax searcher, keeps the subtree of the position that follows
between calls, and never prints. ``SearchResult.nodes`` counts playouts, ``depth`` is the
deepest tree line and ``score`` maps the win rate to ``round((rate - 0.5) * 2000)`` or a
mate score when proven."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.game.board import Board
from engine.game.color import Color
from engine.game.errors import GameOverError
from engine.game.points import Point
from engine.game.rules import Rule
from engine.kernel import mcts_tree as core
from engine.kernel.heuristics import Heuristics, new_heuristics
from engine.kernel.playouts import Candidates, add_candidates, new_candidates, new_walk
from engine.kernel.state import (
    I_NODES,
    PAD,
    State,
    clone_state,
    index_point,
    init_walls,
    new_state,
    place,
    point_index,
    remove,
)
from engine.kernel.tables import C_BLOCK4, C_BLOCK4_FLEX3, C_FIVE, C_FLEX4, Tables, rule_tables
from engine.kernel.threats import ROOT_VCF_DEPTH, ROOT_VCT_DEPTH, root_vcf, root_vct
from engine.search.limit import Limit
from engine.search.result import MATE, IterationInfo, SearchResult

NODE_BYTES = 33  # the per-node arrays of the tree pool, summed
VCF_MAX_DEPTH = 12  # fours in a row tried before the tree, in every search
REUSE_MAX_PLIES = 8
# The kernel's threat searches run before the tree: a long VCF, then
# a VCT within THREAT_NODES_PER_SECOND nodes per second of the move's time (at most
# THREAT_NODES), skipped for moves of less than THREAT_MIN_TIME.
THREAT_NODES = 60_000
THREAT_NODES_PER_SECOND = 20_000
THREAT_MIN_TIME = 0.1
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


def cell_of(point: Point, size: int) -> int:
    """The kernel's cell index of ``point`` on a ``size`` board."""
    return (point[1] + PAD) * (size + 2 * PAD) + point[0] + PAD


def point_of(cell: int, size: int) -> Point:
    """The point of the kernel's cell index ``cell`` on a ``size`` board."""
    stride = size + 2 * PAD
    return (cell % stride - PAD, cell // stride - PAD)


@dataclass
class _Position:
    """A board in the kernel state, with the candidate moves near its stones."""

    size: int
    st: State
    tables: Tables
    cands: Candidates
    renju: bool

    @classmethod
    def from_board(cls, board: Board) -> _Position:
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


# Indexes of the node fields in ``_Tree.arrays`` (the order of ``_Tree.FIELDS``).
MOVE, FIRST, NCHILD, VISITS, WINS, PRIOR, PROVEN, PDIST, COMPLETE, EXPANDED = range(10)


class _Tree:
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

    def rerooted(self, node: int) -> _Tree:
        other = _Tree(self.capacity)
        other.used = int(core.compact(node, self.nodes, other.nodes))
        return other


class MctsSearcher:
    """UCT over heavy pattern playouts, with progressive widening, prior bias from the
    pattern scores and proven wins and losses carried up the tree.

    ``exploration`` is the UCT constant; ``prior_weight`` how long pattern knowledge
    steers a child before its own results take over; ``contempt`` is how much less than
    half a point a draw is worth to the side searching (it then prefers lines that keep
    winning chances, and expects its opponent to steer for the draw); ``swindles`` lets it
    trade a merely holding move for a threat that scores nearly as well, and ``traps`` (small
    boards) for the move that leaves the opponent the most replies losing to our threats.
    On those small boards the opponent is expected to be a greedy attacker, as weaker
    players are: ``fallible`` is how often the playouts' opponent answers a four with its
    own four, and ``greedy`` how often, in the tree, it makes its strongest four whenever
    it can and answers our fours with its own (proven wins and losses stay exact, so the
    draw is kept while the tree looks for the lines where such an opponent loses);
    ``reserve`` (off by default: it measured even against seed 004)
    lets the tree weigh our quiet moves beside plain fours, so a four can be kept for the
    moment the opponent is tempted to counterattack.
    With ``seed`` and a ``nodes`` limit a search is repeatable."""

    def __init__(
        self,
        *,
        exploration: float = 0.5,
        prior_weight: float = 1.0,
        contempt: float = 0.4,
        swindles: bool = True,
        traps: bool = True,
        fallible: float = 1.0,
        greedy: float = 1.0,
        reserve: bool = False,
        tree_mb: int = 64,
        max_children: int = 32,
        seed: int | None = None,
        on_iteration: Callable[[IterationInfo], None] | None = None,
        report_interval: float = 0.1,
    ) -> None:
        if exploration < 0 or prior_weight < 0:
            raise ValueError("exploration and prior_weight must not be negative")
        if not 0 <= contempt <= 0.5:
            raise ValueError("contempt must be between 0 and 0.5")
        if tree_mb < 1:
            raise ValueError("tree_mb must be at least 1")
        if not 0 <= fallible <= 1 or not 0 <= greedy <= 1:
            raise ValueError("fallible and greedy must be between 0 and 1")
        if max_children < 1:
            raise ValueError("max_children must be at least 1")
        self.exploration = exploration
        self.prior_weight = prior_weight
        self.contempt = contempt
        self.swindles = swindles
        self.traps = traps
        self.fallible = fallible
        self.greedy = greedy
        self.reserve = reserve
        self.tree_mb = tree_mb
        self.max_children = max_children
        self.seed = seed
        self.on_iteration = on_iteration
        self.report_interval = report_interval
        self._rng = random.Random(seed)
        self._stop = threading.Event()
        self._threat_stop = np.zeros(1, dtype=np.int8)
        self._threat_heuristics: Heuristics | None = None
        self._threat_cells = 0
        self._tree: _Tree | None = None
        self._tree_moves: list[Point] = []
        self._tree_game: tuple[int, Rule] | None = None
        self.reused_visits = 0

    # -- control ------------------------------------------------------------------------

    def stop(self) -> None:
        """Ask a running search to return as soon as possible with its best move so far."""
        self._stop.set()
        self._threat_stop[0] = 1

    def clear(self) -> None:
        """Forget the tree kept from earlier searches (a new game)."""
        self._tree = None
        self._tree_moves = []
        self._tree_game = None
        self.reused_visits = 0

    # -- searching ----------------------------------------------------------------------

    def search(self, board: Board, limit: Limit) -> SearchResult:
        if board.is_game_over():
            raise GameOverError("the game is over: there is nothing to search")
        self._stop.clear()
        self._threat_stop[0] = 0
        start = time.perf_counter()
        me = board.turn
        if board.is_empty():
            centre = (board.size // 2, board.size // 2)
            return self._finish(SearchResult(centre, 0, 0, 0, [centre]), start)
        position = _Position.from_board(board)
        quick = self._tactics(board, position, me)
        if quick is None:
            quick = self._threats(board, position, limit)
        if quick is not None:
            return self._finish(quick, start)
        tree = self._tree_for(board)
        core.seed_random(self._search_seed(board))
        return self._grow(board, position, tree, limit, start)

    def _finish(self, result: SearchResult, start: float) -> SearchResult:
        elapsed = time.perf_counter() - start
        result = SearchResult(
            result.move,
            result.score,
            result.depth,
            result.nodes,
            result.pv,
            elapsed,
            int(result.nodes / elapsed) if elapsed > 0 else 0,
        )
        if self.on_iteration:
            self.on_iteration(IterationInfo.from_result(result))
        return result

    def _search_seed(self, board: Board) -> int:
        if self.seed is None:
            return self._rng.getrandbits(31)
        # Depends on the position only, so the same position gives the same search.
        return (self.seed * 1_000_003 + board.move_count * 7919) % (2**31)

    def _tactics(self, board: Board, position: _Position, me: Color) -> SearchResult | None:
        """Moves that need no tree: a five, the only block of a five, a VCF."""
        wins = position.five_points(me)
        if wins:
            move = position.point(wins[0])
            return SearchResult(move, MATE - 1, 1, 0, [move])
        blocks = position.five_points(me.other)
        if blocks:
            legal = set(board.legal_moves())
            playable = [position.point(c) for c in blocks if position.point(c) in legal]
            if len(blocks) == 1 and playable:
                move = playable[0]
                return SearchResult(move, 0, 1, 0, [move])
            # Two fives to stop (or a forbidden block): the game is lost whatever we play.
            move = playable[0] if playable else next(iter(sorted(legal)))
            return SearchResult(move, -(MATE - 2), 2, 0, [move])
        # The shortest win by fours first: deepen the threat search one four at a time.
        state, tables, hs = self._threat_state(position)
        for depth in range(1, VCF_MAX_DEPTH + 1):
            plies = root_vcf(state, tables, hs, depth)
            if self._stop.is_set():
                break
            if plies > 0:
                move = position.point(int(hs.vcf_line[0]))
                return SearchResult(move, MATE - plies, plies, 0, [move])
        return None

    def _threats(self, board: Board, position: _Position, limit: Limit) -> SearchResult | None:
        """A win by continuous fours or threats found by the negamax engine's compiled
        threat searches, which also follow lines where the defender answers with a four."""
        if limit.time is not None:
            if limit.time < THREAT_MIN_TIME:
                return None
            budget = int(min(THREAT_NODES, limit.time * THREAT_NODES_PER_SECOND))
        elif limit.nodes is not None:
            budget = min(THREAT_NODES, 4 * limit.nodes)
        else:
            budget = THREAT_NODES
        state, tables, hs = self._threat_state(position)
        plies = root_vcf(state, tables, hs, ROOT_VCF_DEPTH)
        # Renju black's threes may be forbidden shapes: only fours are trusted there.
        if plies == 0 and not (board.rule.has_forbidden and board.turn is Color.BLACK):
            plies = root_vct(state, tables, hs, ROOT_VCT_DEPTH, budget)
        if plies <= 0 or self._stop.is_set():
            return None
        move = index_point(state, int(hs.vcf_line[0]))
        if move not in board.legal_moves():
            return None
        return SearchResult(move, MATE - plies, plies, int(state.info[I_NODES]), [move])

    def _threat_state(self, position: _Position) -> tuple[State, Tables, Heuristics]:
        """A copy of ``position``'s state for the kernel's threat searches, which stop
        with this searcher, and their scratch arrays."""
        state = clone_state(position.st)._replace(stop=self._threat_stop)
        if self._threat_heuristics is None or self._threat_cells != state.cells.shape[0]:
            self._threat_heuristics = new_heuristics(state.cells.shape[0])
            self._threat_cells = state.cells.shape[0]
        return state, position.tables, self._threat_heuristics

    def _tree_for(self, board: Board) -> _Tree:
        """The kept subtree if ``board`` follows on from the last search, else a new one."""
        game = (board.size, board.rule)
        moves = board.moves
        tree = self._tree
        self.reused_visits = 0
        if (
            tree is not None
            and self._tree_game == game
            and moves[: len(self._tree_moves)] == self._tree_moves
            and len(moves) - len(self._tree_moves) <= REUSE_MAX_PLIES
            # Draws were scored for the old root's side; keep them only for that side.
            and ((len(moves) - len(self._tree_moves)) % 2 == 0 or self.contempt == 0)
        ):
            node: int | None = 0
            for move in moves[len(self._tree_moves) :]:
                assert node is not None
                node = tree.child_with_move(node, cell_of(move, board.size))
                if node is None:
                    break
            if node is not None:
                if node != 0:
                    tree = tree.rerooted(node)
                self.reused_visits = int(tree.arrays[VISITS][0])
                self._tree, self._tree_moves = tree, moves
                return tree
        capacity = max(1024, self.tree_mb * 1024 * 1024 // NODE_BYTES)
        tree = _Tree(capacity)
        self._tree, self._tree_moves, self._tree_game = tree, moves, game
        return tree

    def _grow(
        self, board: Board, position: _Position, tree: _Tree, limit: Limit, start: float
    ) -> SearchResult:
        meta = np.zeros(core.META_LEN, dtype=np.int64)
        meta[core.META_USED] = tree.used
        meta[core.META_CAPACITY] = tree.capacity
        meta[core.META_ROOT_SIDE] = int(board.turn)
        meta[core.META_SIZE] = board.size
        meta[core.META_RENJU] = 1 if position.renju else 0
        meta[core.META_MAX_CHILDREN] = self.max_children
        small = self._traps_apply(board)
        meta[core.META_RESERVE] = int(board.turn) if self.reserve and small else 0
        settings = core.TreeSettings(
            self.exploration,
            self.prior_weight,
            0.5 - self.contempt,
            self.fallible if small else 0.0,
            self.greedy if small else 0.0,
        )
        walk = new_walk(position.st, position.cands)
        nodes = tree.nodes
        proven = tree.arrays[PROVEN]
        playouts = 0
        chunk = 8
        last_report = start
        tree_time = limit.time
        if tree_time is not None and small:
            tree_time *= 1 - TRAP_TIME_SHARE
        while True:
            if limit.nodes is not None:
                chunk = min(chunk, limit.nodes - playouts)
            chunk_start = time.perf_counter()
            asked = chunk
            done = core.run_iterations(asked, settings, walk, position.tables, meta, nodes)
            now = time.perf_counter()
            playouts += done
            tree.used = int(meta[core.META_USED])
            elapsed = now - start
            took = now - chunk_start
            # Aim at chunks of about 20 ms so time limits and stop() are honoured closely.
            if took < 0.01:
                chunk = min(chunk * 2, 1 << 16)
            elif took > 0.04 and chunk > 1:
                chunk //= 2
            finished = (
                proven[0] != 0
                or done < asked
                or self._stop.is_set()
                or (limit.nodes is not None and playouts >= limit.nodes)
                or (limit.depth is not None and meta[core.META_MAX_DEPTH] >= limit.depth)
                or (tree_time is not None and elapsed + took >= tree_time)
            )
            if finished or (self.on_iteration and now - last_report >= self.report_interval):
                result = self._result(board, position, tree, meta, playouts, elapsed, finished)
                if finished:
                    return self._finish(result, start)
                last_report = now
                if self.on_iteration:
                    self.on_iteration(IterationInfo.from_result(result))

    def _ranked_children(self, tree: _Tree, node: int) -> list[int]:
        """Children best first: proven wins (shortest), then by visits, proven losses last."""
        visits, proven, pdist = tree.arrays[VISITS], tree.arrays[PROVEN], tree.arrays[PDIST]

        def key(child: int) -> tuple[int, int, int]:
            if proven[child] == core.PROVEN_WIN:
                return (0, int(pdist[child]), 0)
            if proven[child] == core.PROVEN_LOSS:
                return (2, -int(pdist[child]), -int(visits[child]))
            return (1, -int(visits[child]), 0)

        return sorted(tree.children(node), key=key)

    def _swindle(
        self, tree: _Tree, position: _Position, side: Color, best: int
    ) -> tuple[int, bool]:
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

    def _traps_apply(self, board: Board) -> bool:
        # Renju black's threes may be forbidden shapes, which the threat search trusts.
        return (
            self.traps
            and board.size * board.size <= TRAP_MAX_CELLS
            and not board.rule.has_forbidden
        )

    def _trap(self, board: Board, position: _Position, tree: _Tree, best: int) -> int | None:
        """When ``best`` expects no win, the move scoring nearly as well after which the
        largest share of the opponent's replies lose to our threat sequences, if any does;
        a fallible opponent then has the most ways to go wrong."""
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
        state, tables, hs = self._threat_state(position)
        me = int(board.turn)
        opponent = 3 - me
        legal = board.legal_moves()
        cells = [point_index(state, x, y) for x, y in legal]
        choice: int | None = None
        choice_key = (0.0, 0.0)
        for child in candidates[:TRAP_CANDIDATES]:
            if self._stop.is_set():
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
                    plies = root_vct(state, tables, hs, ROOT_VCT_DEPTH, TRAP_VCT_NODES)
                remove(state, tables)
                # A five at once is a blunder any opponent sees; deeper threats are traps.
                if plies > 1:
                    losing += 1
            remove(state, tables)
            key = (losing / max(replies, 1), float(wins[child]) / max(int(visits[child]), 1))
            if losing > 0 and key > choice_key:
                choice, choice_key = child, key
        return choice

    def _result(
        self,
        board: Board,
        position: _Position,
        tree: _Tree,
        meta: npt.NDArray[np.int64],
        playouts: int,
        elapsed: float,
        final: bool = False,
    ) -> SearchResult:
        size = board.size
        ranked = self._ranked_children(tree, 0)
        legal = set(board.legal_moves()) if board.rule is Rule.RENJU else None
        best: int | None = None
        for child in ranked:
            point = point_of(int(tree.arrays[MOVE][child]), size)
            if legal is None or point in legal:
                best = child
                break
        if best is None:
            move = sorted(board.legal_moves())[0]
            return SearchResult(move, 0, 0, playouts, [move], elapsed, 0)
        if self.swindles:
            swindle, bait = self._swindle(tree, position, board.turn, best)
            trap = None
            if not bait and final and self._traps_apply(board):
                trap = self._trap(board, position, tree, best)
            if trap is not None:
                best = trap
            elif legal is None or point_of(int(tree.arrays[MOVE][swindle]), size) in legal:
                best = swindle
        score = self._score(tree, best)
        pv = [point_of(int(tree.arrays[MOVE][best]), size)]
        node = best
        while tree.arrays[EXPANDED][node] and tree.arrays[NCHILD][node] > 0 and len(pv) < 40:
            node = self._ranked_children(tree, node)[0]
            if tree.arrays[VISITS][node] == 0 and tree.arrays[PROVEN][node] == 0:
                break
            pv.append(point_of(int(tree.arrays[MOVE][node]), size))
        nps = int(playouts / elapsed) if elapsed > 0 else 0
        depth = int(meta[core.META_MAX_DEPTH])
        return SearchResult(pv[0], score, depth, playouts, pv, elapsed, nps)

    @staticmethod
    def _score(tree: _Tree, child: int) -> int:
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
