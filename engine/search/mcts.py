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

import numpy as np
import numpy.typing as npt

from engine.game.board import Board
from engine.game.color import Color
from engine.game.errors import GameOverError
from engine.game.points import Point
from engine.game.rules import Rule
from engine.kernel import mcts_tree as core
from engine.kernel.heuristics import Heuristics, new_heuristics
from engine.kernel.playouts import new_walk
from engine.kernel.state import (
    I_NODES,
    State,
    clone_state,
    index_point,
)
from engine.kernel.tables import Tables
from engine.kernel.threats import ROOT_VCF_DEPTH, ROOT_VCT_DEPTH, root_vcf, root_vct
from engine.search.limit import Limit
from engine.search.mcts_choice import TRAP_TIME_SHARE, swindle, trap, traps_apply
from engine.search.mcts_nodes import (
    EXPANDED,
    MOVE,
    NCHILD,
    PROVEN,
    VISITS,
    NodePool,
    Position,
    cell_of,
    node_score,
    point_of,
    ranked_children,
)
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


@dataclass(frozen=True)
class MctsOptions:
    """How the MCTS player searches and chooses.

    ``exploration`` is the UCT constant; ``prior_weight`` how long pattern knowledge
    steers a child before its own results take over; ``contempt`` is how much less than
    half a point a draw is worth to the side searching (it then prefers lines that keep
    winning chances, and expects its opponent to steer for the draw); ``swindles`` lets it
    trade a merely holding move for a threat that scores nearly as well, and ``traps``
    (small boards) for the move that leaves the opponent the most replies losing to our
    threats. On those small boards the opponent is expected to be a greedy attacker, as
    weaker players are: ``fallible`` is how often the playouts' opponent answers a four
    with its own four, and ``greedy`` how often, in the tree, it makes its strongest four
    whenever it can and answers our fours with its own (proven wins and losses stay exact,
    so the draw is kept while the tree looks for the lines where such an opponent loses);
    ``reserve`` (off by default: it measured even against seed 004) lets the tree weigh our
    quiet moves beside plain fours, so a four can be kept for the moment the opponent is
    tempted to counterattack. ``max_children`` caps a node's children."""

    exploration: float = 0.5
    prior_weight: float = 1.0
    contempt: float = 0.4
    swindles: bool = True
    traps: bool = True
    fallible: float = 1.0
    greedy: float = 1.0
    reserve: bool = False
    max_children: int = 32

    def __post_init__(self) -> None:
        if self.exploration < 0 or self.prior_weight < 0:
            raise ValueError("exploration and prior_weight must not be negative")
        if not 0 <= self.contempt <= 0.5:
            raise ValueError("contempt must be between 0 and 0.5")
        if not 0 <= self.fallible <= 1 or not 0 <= self.greedy <= 1:
            raise ValueError("fallible and greedy must be between 0 and 1")
        if self.max_children < 1:
            raise ValueError("max_children must be at least 1")


class MctsSearcher:
    """UCT over heavy pattern playouts, with progressive widening, prior bias from the
    pattern scores and proven wins and losses carried up the tree; ``options`` tune it
    (see ``MctsOptions``). With ``seed`` and a ``nodes`` limit a search is repeatable."""

    def __init__(
        self,
        options: MctsOptions | None = None,
        *,
        tree_mb: int = 64,
        seed: int | None = None,
        on_iteration: Callable[[IterationInfo], None] | None = None,
        report_interval: float = 0.1,
    ) -> None:
        if tree_mb < 1:
            raise ValueError("tree_mb must be at least 1")
        self.options = options if options is not None else MctsOptions()
        self.tree_mb = tree_mb
        self.seed = seed
        self.on_iteration = on_iteration
        self.report_interval = report_interval
        self._rng = random.Random(seed)
        self._stop = threading.Event()
        self._threat_stop = np.zeros(1, dtype=np.int8)
        self._threat_heuristics: Heuristics | None = None
        self._threat_cells = 0
        self._tree: NodePool | None = None
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
        position = Position.from_board(board)
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

    def _tactics(self, board: Board, position: Position, me: Color) -> SearchResult | None:
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

    def _threats(self, board: Board, position: Position, limit: Limit) -> SearchResult | None:
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
            plies = root_vct(state, tables, hs, ROOT_VCT_DEPTH, budget, False)
        if plies <= 0 or self._stop.is_set():
            return None
        move = index_point(state, int(hs.vcf_line[0]))
        if move not in board.legal_moves():
            return None
        return SearchResult(move, MATE - plies, plies, int(state.info[I_NODES]), [move])

    def _threat_state(self, position: Position) -> tuple[State, Tables, Heuristics]:
        """A copy of ``position``'s state for the kernel's threat searches, which stop
        with this searcher, and their scratch arrays."""
        state = clone_state(position.st)._replace(stop=self._threat_stop)
        if self._threat_heuristics is None or self._threat_cells != state.cells.shape[0]:
            self._threat_heuristics = new_heuristics(state.cells.shape[0])
            self._threat_cells = state.cells.shape[0]
        return state, position.tables, self._threat_heuristics

    def _tree_for(self, board: Board) -> NodePool:
        """The kept subtree if ``board`` follows on from the last search, else a new one."""
        options = self.options
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
            and ((len(moves) - len(self._tree_moves)) % 2 == 0 or options.contempt == 0)
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
        tree = NodePool(capacity)
        self._tree, self._tree_moves, self._tree_game = tree, moves, game
        return tree

    def _grow(
        self, board: Board, position: Position, tree: NodePool, limit: Limit, start: float
    ) -> SearchResult:
        meta = np.zeros(core.META_LEN, dtype=np.int64)
        meta[core.META_USED] = tree.used
        meta[core.META_CAPACITY] = tree.capacity
        meta[core.META_ROOT_SIDE] = int(board.turn)
        meta[core.META_SIZE] = board.size
        meta[core.META_RENJU] = 1 if position.renju else 0
        options = self.options
        meta[core.META_MAX_CHILDREN] = options.max_children
        small = options.traps and traps_apply(board)
        meta[core.META_RESERVE] = int(board.turn) if options.reserve and small else 0
        settings = core.TreeSettings(
            options.exploration,
            options.prior_weight,
            0.5 - options.contempt,
            options.fallible if small else 0.0,
            options.greedy if small else 0.0,
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

    def _result(
        self,
        board: Board,
        position: Position,
        tree: NodePool,
        meta: npt.NDArray[np.int64],
        playouts: int,
        elapsed: float,
        final: bool = False,
    ) -> SearchResult:
        size = board.size
        ranked = ranked_children(tree, 0)
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
        if self.options.swindles:
            baited, bait = swindle(tree, position, board.turn, best)
            trapped = None
            if not bait and final and self.options.traps and traps_apply(board):
                threats = self._threat_state(position)
                trapped = trap(board, tree, best, threats, self._stop.is_set)
            if trapped is not None:
                best = trapped
            elif legal is None or point_of(int(tree.arrays[MOVE][baited]), size) in legal:
                best = baited
        score = node_score(tree, best)
        pv = [point_of(int(tree.arrays[MOVE][best]), size)]
        node = best
        while tree.arrays[EXPANDED][node] and tree.arrays[NCHILD][node] > 0 and len(pv) < 40:
            node = ranked_children(tree, node)[0]
            if tree.arrays[VISITS][node] == 0 and tree.arrays[PROVEN][node] == 0:
                break
            pv.append(point_of(int(tree.arrays[MOVE][node]), size))
        nps = int(playouts / elapsed) if elapsed > 0 else 0
        depth = int(meta[core.META_MAX_DEPTH])
        return SearchResult(pv[0], score, depth, playouts, pv, elapsed, nps)
