"""Multi-PV: the best N root moves of a position, each with its own score, depth and line.

``Searcher(multipv=N)`` hands its search here. Each iteration of iterative deepening
searches the root N times with the kernel's principal variation search: first over every
move, then each time with the moves already chosen left out (``Heuristics.root_skip``,
read by ``kernel.pvs`` at the root only), so the k-th search returns the best of the moves
not yet listed. Every line keeps its own aspiration window around its score of the
previous iteration. The first line is the single-PV search itself, on the searcher's own
transposition table and heuristics, which the other lines never touch: at a fixed depth
it plays the same move with the same score as ``multipv=1``. The other lines share a
second table and heuristics of their own (the root's entry is not written while moves are
left out). A forced win found by the root threat searches is the first line, and the
others come from the search with that move left out; a shorter win among them goes first.

The lines are reported best first: the first is the move the single-PV search would play;
the others follow by score, each capped at the score of the line before it (a move that
only scores higher when searched on its own was outranked by the full search). A search
stopped mid-iteration keeps the lines it finished at that depth and fills the rest from
the iteration before."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from engine.game.board import Board
from engine.game.points import Point
from engine.kernel.heuristics import Heuristics, clear_heuristics
from engine.kernel.pv_walk import extend_root_pv
from engine.kernel.pvs import search_root
from engine.kernel.scores import MATE
from engine.kernel.state import I_STOPPED, State, index_point, point_index
from engine.kernel.tables import Tables
from engine.kernel.tt import Tt
from engine.search.aspiration import ASPIRATION_WINDOW, first_window, widened
from engine.search.limit import Limit
from engine.search.result import MATE_BOUND, PvLine, SearchResult

if TYPE_CHECKING:
    from engine.search.searcher import Searcher

MAX_MULTIPV = 8


@dataclass(frozen=True)
class Deepening:
    """The searcher's iterative-deepening settings, shared with the single-PV search."""

    time_share: float  # past this share of the time budget no new iteration starts
    max_depth: int


class Memory(NamedTuple):
    """A transposition table and heuristics that searches learn in."""

    tt: Tt
    hs: Heuristics

    def clear(self) -> None:
        """Zero the table and every heuristic array where they are."""
        self.tt.slots.fill(0)
        clear_heuristics(self.hs)


class MultiPvSearch:
    """One multi-PV search of a prepared root: ``first`` is the memory of the first line
    (the searcher's own), ``others`` that of the other lines."""

    def __init__(
        self,
        searcher: Searcher,
        state: State,
        tables: Tables,
        first: Memory,
        others: Memory,
        deepening: Deepening,
    ) -> None:
        self.searcher = searcher
        self.state = state
        self.tables = tables
        self.first = first
        self.others = others
        self.deepening = deepening

    def run(self, board: Board, limit: Limit, start: float, count: int) -> SearchResult:
        """Search the ``count`` best moves; the result's ``lines`` list them."""
        searcher, state = self.searcher, self.state
        fixed: list[PvLine] = []
        forced = searcher._root_threat_win(board, state, self.tables, self.first.hs, limit, start)
        if forced is not None:
            fixed.append(PvLine(forced.move, forced.score, forced.depth, forced.pv))
            self._publish(fixed, start)
        wanted = count - len(fixed)
        previous: list[PvLine] = []
        lines: list[PvLine] = []
        max_depth = min(limit.depth or self.deepening.max_depth, self.deepening.max_depth)
        try:
            for depth in range(1, max_depth + 1):
                lines = []
                stopped = False
                self._skip_only(line.move for line in fixed)
                for k in range(wanted):
                    guess = previous[k].score if k < len(previous) else None
                    window = first_window(guess, depth)
                    # The first line searches as a single-PV search would.
                    memory = self.first if k == 0 and not fixed else self.others
                    value, stopped = self._search_root(memory, depth, window)
                    if stopped:
                        break
                    pv = self._pv(memory, depth)
                    taken = {line.move for line in fixed} | {line.move for line in lines}
                    if not pv or pv[0] in taken:
                        break  # no other move (a forced reply, or every move listed)
                    lines.append(PvLine(pv[0], value, depth, pv))
                    self._skip(pv[0])
                if stopped:
                    lines = _merge(lines, previous, wanted)
                    break
                previous = lines
                self._publish(_ranked(fixed, lines), start)
                if lines and all(_proven(line, depth) for line in lines):
                    break
                elapsed = time.perf_counter() - start
                if not limit.may_deepen(elapsed, self.deepening.time_share):
                    break
                if searcher._stop_flag[0]:
                    break
        finally:
            self._skip_only(())
        ranked = _ranked(fixed, lines)
        if not ranked:
            # Stopped before the first iteration finished: take the best-ordered move.
            move = searcher._best_ordered(state, self.first.hs, board.legal_moves())
            ranked = [PvLine(move, 0, 0, [move])]
        return self._result(ranked, start)

    # -- the root searches ----------------------------------------------------------------

    def _search_root(self, memory: Memory, depth: int, window: tuple[int, int]) -> tuple[int, bool]:
        """One root search at ``depth`` inside an aspiration ``window``, widened on a
        fail; the score and whether the search was stopped."""
        state = self.state
        spread = ASPIRATION_WINDOW
        while True:
            alpha, beta = window
            value = int(search_root(state, self.tables, memory.tt, memory.hs, depth, alpha, beta))
            if state.info[I_STOPPED]:
                return value, True
            if alpha < value < beta:
                return value, False
            window, spread = widened(value, window, spread)

    def _skip(self, move: Point) -> None:
        hs = self.others.hs
        index = point_index(self.state, move[0], move[1])
        if hs.root_skip[index] == 0:
            hs.root_skip[index] = 1
            hs.root_skip_count[0] += 1

    def _skip_only(self, moves: Iterable[Point]) -> None:
        self.others.hs.root_skip[:] = 0
        self.others.hs.root_skip_count[0] = 0
        for move in moves:
            self._skip(move)

    def _pv(self, memory: Memory, depth: int) -> list[Point]:
        """The root's line, its tail taken from the table where the search ended it
        early (a child answered by the table)."""
        hs = memory.hs
        length = extend_root_pv(self.state, self.tables, memory.tt, hs, depth)
        return [self._point(hs.pv[0, k]) for k in range(length)]

    def _point(self, index: int) -> Point:
        return index_point(self.state, int(index))

    # -- results --------------------------------------------------------------------------

    def _result(self, lines: list[PvLine], start: float) -> SearchResult:
        first = lines[0]
        base = self.searcher._result(first.move, first.score, first.depth, self.state,
                                     first.pv, start)  # fmt: skip
        return SearchResult(
            base.move, base.score, base.depth, base.nodes, base.pv, base.time, base.nps, lines
        )

    def _publish(self, lines: list[PvLine], start: float) -> None:
        if lines:
            self.searcher._report(self._result(lines, start))


def _ranked(fixed: list[PvLine], lines: list[PvLine]) -> list[PvLine]:
    """The first line, then the others by score, none above the line before it; with a
    forced win from the threat searches (``fixed``) every line by score, so a shorter
    win the main search found comes first."""
    if fixed:
        return sorted(fixed + lines, key=lambda item: -item.score)
    if not lines:
        return []
    ranked = [lines[0]]
    for line in sorted(lines[1:], key=lambda item: -item.score):
        ceiling = ranked[-1].score
        if line.score > ceiling:
            line = PvLine(line.move, ceiling, line.depth, line.pv)
        ranked.append(line)
    return ranked


def _merge(done: list[PvLine], previous: list[PvLine], wanted: int) -> list[PvLine]:
    """The lines finished at the stopped depth, then the previous depth's other lines."""
    moves = {line.move for line in done}
    merged = list(done)
    for line in previous:
        if len(merged) >= wanted:
            break
        if line.move not in moves:
            merged.append(line)
    return merged


def _proven(line: PvLine, depth: int) -> bool:
    """A mate the search has seen to its end: deeper iterations cannot change it."""
    return abs(line.score) >= MATE_BOUND and MATE - abs(line.score) <= depth
