"""The negamax searcher: a stateful object that owns its transposition table, history,
node count and stop flag, and reports through callbacks.

``Searcher.search(board, limit)`` copies the board into the compiled state (``engine.kernel``),
looks for a win by continuous fours, then runs iterative deepening with aspiration
windows over the kernel's principal variation search. It never prints: the
Gomocup adapter and the web workers subscribe to ``on_iteration`` and show progress
their own way."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping

import numpy as np

from engine.game.board import Board
from engine.game.errors import GameOverError
from engine.game.points import Point
from engine.kernel.heuristics import Heuristics, age_heuristics, new_heuristics
from engine.kernel.movepick import generate
from engine.kernel.pv_walk import extend_root_pv
from engine.kernel.pvs import search_root
from engine.kernel.scores import MATE
from engine.kernel.search_params import check_params
from engine.kernel.state import (
    I_DEFENCE,
    I_NODE_LIMIT,
    I_NODES,
    I_NOISE,
    I_ROOT_COLOR,
    I_SEED,
    I_STOPPED,
    State,
    index_point,
    init_walls,
    new_state,
    place,
    point_index,
)
from engine.kernel.tables import Tables, rule_tables, with_search_params
from engine.kernel.threats import (
    ROOT_VCF_DEPTH,
    ROOT_VCF_NODES,
    ROOT_VCT_DEPTH,
    root_vcf,
    root_vct,
)
from engine.kernel.tt import Tt, new_tt
from engine.search.aspiration import ASPIRATION_WINDOW, first_window, widened
from engine.search.helpers import MAX_THREADS, HelperThreads
from engine.search.limit import Limit
from engine.search.multipv import MAX_MULTIPV, Deepening, Memory, MultiPvSearch
from engine.search.result import MATE_BOUND, IterationInfo, PvLine, SearchResult

# The defence factor when none is given: the opponent's prospects weigh as much as ours.
DEFAULT_DEFENCE = 1.0
MIN_DEFENCE = 0.1
MAX_DEFENCE = 5.0


def check_defence(defence: float) -> float:
    """``defence`` if it is a defence factor the searcher takes, else ``ValueError``."""
    if not MIN_DEFENCE <= defence <= MAX_DEFENCE:
        raise ValueError(f"defence must be between {MIN_DEFENCE} and {MAX_DEFENCE}")
    return defence


def _timed_nodes(limit: Limit, most: int, per_second: int, least: int = 0) -> int:
    """A root threat search's node budget: ``most``, or under a time limit ``per_second``
    nodes a second of it, at least ``least``."""
    if limit.time is None:
        return most
    return int(min(most, max(least, limit.time * per_second)))


MAX_DEPTH = 60
# Threat search at the root: its node budget, its nodes a second of a time limit (a VCT
# node can cost tens of microseconds), and the least time a move must have.
VCT_NODES = 60_000
VCT_NODES_PER_S = 20_000
VCT_MIN_TIME = 0.2
# The root VCF's nodes under a time limit: about a quarter of the time at the 600,000 to
# 650,000 VCF nodes a second of the development machine, at least enough for any VCF of
# a real game's position (none of thousands from matches needed 20,000).
ROOT_VCF_NODES_PER_S = 160_000
ROOT_VCF_MIN_NODES = 20_000
# Past this share of the time budget a new iteration would rarely finish: stop early.
ITERATION_TIME_SHARE = 0.45


class Searcher:
    """Negamax with alpha-beta, threat search and a transposition table over a compiled
    pattern core.

    ``defence`` weighs the opponent's prospects against ours (seed 002's defence factor:
    above 1 plays safer, below 1 more aggressively). ``noise`` perturbs evaluations for
    the weak levels; ``seed`` makes that perturbation repeatable. With a node limit the
    result and the node count are deterministic. ``multipv`` above 1 searches that many
    best moves, listed in the result's ``lines`` (``search.multipv``). ``params`` sets
    search margins, counts or threat terms by name (``kernel.search_params``; for tuning
    runs), the rest keeping their shipped values."""

    def __init__(
        self,
        *,
        defence: float = DEFAULT_DEFENCE,
        tt_mb: int = 64,
        noise: int = 0,
        seed: int | None = None,
        on_iteration: Callable[[IterationInfo], None] | None = None,
        multipv: int = 1,
        threads: int = 1,
        params: Mapping[str, int] | None = None,
    ) -> None:
        check_defence(defence)
        self.params = dict(params or {})
        check_params(self.params)
        if not 1 <= multipv <= MAX_MULTIPV:
            raise ValueError(f"multipv must be between 1 and {MAX_MULTIPV}")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be between 1 and {MAX_THREADS}")
        self.threads = threads
        self._helpers = HelperThreads(threads - 1)
        self.multipv = multipv
        self.defence = defence
        self.tt_mb = tt_mb
        self.noise = max(0, int(noise))
        self.seed = seed if seed is not None else 0
        self.on_iteration = on_iteration
        self._stop_flag = np.zeros(1, dtype=np.int8)
        self._tt: Tt | None = None
        self._shape: tuple[int, str] | None = None
        self._heuristics: Heuristics | None = None
        self._lines: Memory | None = None
        self._tuned: tuple[tuple[int, str], Tables] | None = None

    def stop(self) -> None:
        """Ask a running search to return as soon as possible with its best move so far."""
        self._stop_flag[0] = 1

    def clear(self) -> None:
        """Forget everything learned in earlier searches (a new game).

        The tables are zeroed where they are rather than allocated again, so the next
        search does not pay, inside its time, for the operating system handing out tens
        of megabytes of fresh pages as it touches them."""
        if self._tt is not None and self._heuristics is not None:
            Memory(self._tt, self._heuristics).clear()
        if self._lines is not None:
            self._lines.clear()
        self._helpers.clear()

    # -- setting up ---------------------------------------------------------------------

    def _prepare(self, board: Board) -> tuple[State, Tables]:
        shape = (board.size, board.rule.value)
        tables = rule_tables(board.rule.value, board.size)
        if self.params:
            tables = self._tuned_tables(tables, shape)
        state = new_state(board.size, board.rule.value == "renju")
        state.stop[0] = 0
        state = state._replace(stop=self._stop_flag)
        init_walls(state, tables)
        for x, y in board.moves:
            color = int(board.cell(x, y))
            place(state, tables, point_index(state, x, y), color)
        if self._shape != shape or self._tt is None or self._heuristics is None:
            self._tt = new_tt(self.tt_mb)
            self._heuristics = new_heuristics(state.cells.shape[0])
            self._lines = None
            self._shape = shape
        else:
            age_heuristics(self._heuristics)
        state.info[I_ROOT_COLOR] = int(board.turn)
        state.info[I_DEFENCE] = round(self.defence * 100)
        state.info[I_NOISE] = self.noise
        # Any whole number seeds the noise: the mix is kept within 63 bits.
        state.info[I_SEED] = (self.seed * 2654435761 + 97) & 0x7FFF_FFFF_FFFF_FFFF
        return state, tables

    def _tuned_tables(self, tables: Tables, shape: tuple[int, str]) -> Tables:
        """The rule's tables with this searcher's parameters, built once a shape."""
        if self._tuned is None or self._tuned[0] != shape:
            self._tuned = (shape, with_search_params(tables, self.params))
        return self._tuned[1]

    def _other_lines_memory(self, state: State) -> Memory:
        """The table and heuristics of a multi-PV search's lines after the first, kept
        like the searcher's own (``_prepare``)."""
        if self._lines is None:
            self._lines = Memory(new_tt(self.tt_mb), new_heuristics(state.cells.shape[0]))
        else:
            age_heuristics(self._lines.hs)
        return self._lines

    # -- searching ----------------------------------------------------------------------

    def search(self, board: Board, limit: Limit) -> SearchResult:
        """Search the position for the side to move and return the best move found."""
        if board.is_game_over():
            raise GameOverError("the game is over: there is nothing to search")
        start = time.perf_counter()
        self._stop_flag[0] = 0
        if board.is_empty():
            centre = (board.size // 2, board.size // 2)
            lines = [PvLine(centre, 0, 1, [centre])] if self.multipv > 1 else []
            result = SearchResult(centre, 0, 1, 1, [centre], 0.0, 0, lines)
            self._report(result)
            return result
        state, tables = self._prepare(board)
        assert self._tt is not None and self._heuristics is not None
        tt, hs = self._tt, self._heuristics
        state.info[I_NODE_LIMIT] = limit.nodes or 0
        timer: threading.Timer | None = None
        if limit.time is not None:
            # Setting up counts against the time: the search returns ``limit.time`` after
            # it was asked, not after the position was built.
            remaining = max(0.0, limit.time - (time.perf_counter() - start))
            timer = threading.Timer(remaining, self.stop)
            timer.daemon = True
            timer.start()
        # Helpers only under a time limit: node- and depth-limited searches stay exactly
        # repeatable.
        if (
            self._helpers.count > 0
            and self.multipv == 1
            and limit.time is not None
            and limit.nodes is None
        ):
            max_depth = min(limit.depth or MAX_DEPTH, MAX_DEPTH)
            self._helpers.run(state, tables, tt, self._stop_flag, max_depth)
        try:
            if self.multipv > 1:
                deepening = Deepening(ITERATION_TIME_SHARE, MAX_DEPTH)
                first, others = Memory(tt, hs), self._other_lines_memory(state)
                search = MultiPvSearch(self, state, tables, first, others, deepening)
                return search.run(board, limit, start, self.multipv)
            return self._iterate(board, state, tables, tt, hs, limit, start)
        finally:
            if timer is not None:
                timer.cancel()
            self._helpers.finish(self._stop_flag)

    def _iterate(
        self,
        board: Board,
        state: State,
        tables: Tables,
        tt: Tt,
        hs: Heuristics,
        limit: Limit,
        start: float,
    ) -> SearchResult:
        forced = self._root_threat_win(board, state, tables, hs, limit, start)
        if forced is not None:
            self._report(forced)
            return forced
        fallback = board.legal_moves()
        best: SearchResult | None = None
        max_depth = min(limit.depth or MAX_DEPTH, MAX_DEPTH)
        score = 0
        for depth in range(1, max_depth + 1):
            window = first_window(score if best is not None else None, depth)
            spread = ASPIRATION_WINDOW
            # A window that failed high found a move better than the last iteration's.
            raised: tuple[int, list[Point]] | None = None
            while True:
                alpha, beta = window
                value = int(search_root(state, tables, tt, hs, depth, alpha, beta))
                if state.info[I_STOPPED]:
                    break
                if value >= beta:
                    raised = (value, self._root_pv(state, tables, tt, hs, depth))
                elif value > alpha:
                    break
                window, spread = widened(value, window, spread)
            stopped = bool(state.info[I_STOPPED])
            pv = self._root_pv(state, tables, tt, hs, depth)
            if not pv:
                break
            if stopped:
                # A move that beat the previous best in a sub-search that finished is
                # trustworthy; a stopped root with no such move returns -INF.
                if best is not None and value > score and pv[0] != best.move:
                    best = self._result(pv[0], value, depth, state, pv, start)
                elif best is not None and raised is not None and raised[1][0] != best.move:
                    best = self._result(raised[1][0], raised[0], depth, state, raised[1], start)
                break
            score = value
            best = self._result(pv[0], score, depth, state, pv, start)
            self._report(best)
            if abs(score) >= MATE_BOUND and MATE - abs(score) <= depth:
                break
            elapsed = time.perf_counter() - start
            if not limit.may_deepen(elapsed, ITERATION_TIME_SHARE):
                break
            if self._stop_flag[0]:
                break
        if best is None:
            # Stopped before the first iteration finished: take the best-ordered move.
            move = self._best_ordered(state, hs, fallback)
            best = self._result(move, 0, 0, state, [move], start)
        if best.move not in fallback and fallback:
            # A lost root may "block" on a point the rule forbids (renju): the game is lost
            # either way, so play the best-ordered legal move, not an arbitrary one.
            move = self._best_ordered(state, hs, fallback)
            best = self._result(move, best.score, best.depth, state, [move], start)
        # Report the work of the whole search, including an unfinished last iteration.
        return self._result(best.move, best.score, best.depth, state, best.pv, start)

    @staticmethod
    def _root_pv(state: State, tables: Tables, tt: Tt, hs: Heuristics, depth: int) -> list[Point]:
        """The root's principal variation, completed from the table."""
        length = extend_root_pv(state, tables, tt, hs, depth)
        return [index_point(state, int(hs.pv[0, k])) for k in range(length)]

    @staticmethod
    def _best_ordered(state: State, hs: Heuristics, legal: list[Point]) -> Point:
        """The legal move the move ordering ranks first (forbidden points are never
        candidates), or the first legal move when there is no candidate."""
        count = generate(state, hs, 0, -1, 1)
        if count > 0:
            move = index_point(state, int(hs.moves[0, 0]))
            if move in legal:
                return move
        return legal[0]

    def _root_threat_win(
        self,
        board: Board,
        state: State,
        tables: Tables,
        hs: Heuristics,
        limit: Limit,
        start: float,
    ) -> SearchResult | None:
        """A forced win found by the root threat searches, or None."""

        def to_point(index: int) -> Point:
            return index_point(state, int(index))

        # A forced win by continuous fours needs no deeper search.
        # In a crowded position a VCF can run to its whole node cap and find nothing: under
        # a time limit it may take about a quarter of the time, never all of it.
        cap = _timed_nodes(limit, ROOT_VCF_NODES, ROOT_VCF_NODES_PER_S, ROOT_VCF_MIN_NODES)
        win = root_vcf(state, tables, hs, ROOT_VCF_DEPTH, cap)
        if win > 0 and state.info[I_STOPPED] == 0:
            line = []
            for k in range(win):
                if hs.vcf_line[k] < 0:
                    break
                line.append(to_point(hs.vcf_line[k]))
            return self._result(line[0], MATE - win, 1, state, line, start)
        state.info[I_STOPPED] = 0
        # Then a win by threats (fours and open threes), when there is time for it.
        renju_black = board.rule.has_forbidden and board.turn == 1
        if (
            not renju_black
            and (limit.time is None or limit.time >= VCT_MIN_TIME)
            and (limit.nodes is None or limit.nodes >= 4 * VCT_NODES)
        ):
            # Kept to a fraction of the move's time so the main search gets most of it.
            budget = _timed_nodes(limit, VCT_NODES, VCT_NODES_PER_S)
            win = root_vct(state, tables, hs, ROOT_VCT_DEPTH, budget, False)
            if win > 0 and not self._stop_flag[0]:
                move = to_point(hs.vcf_line[0])
                return self._result(move, MATE - win, 1, state, [move], start)
            state.info[I_STOPPED] = 0
        return None

    def _result(
        self,
        move: Point,
        score: int,
        depth: int,
        state: State,
        pv: list[Point],
        start: float,
    ) -> SearchResult:
        elapsed = time.perf_counter() - start
        nodes = int(state.info[I_NODES]) + self._helpers.nodes()
        nps = int(nodes / elapsed) if elapsed > 0 else 0
        return SearchResult(move, int(score), depth, nodes, pv, elapsed, nps)

    def _report(self, result: SearchResult) -> None:
        if self.on_iteration is not None:
            self.on_iteration(IterationInfo.from_result(result))
