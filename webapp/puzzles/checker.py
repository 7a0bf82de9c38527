"""Live engine checks while a visitor solves a puzzle: does a move that leaves the stored
line still win by force, which reply does the defender make, and how does the opponent
win after a wrong defence. They run in the server process, so they are kept to a few
thousand threat-search nodes (milliseconds); the mining proved the stored lines with far
larger limits. One lock serialises them: the threat search's scratch arrays are shared."""

from __future__ import annotations

import threading

from engine.game.board import Board
from engine.game.points import Point
from engine.search.threats import ThreatLimits, ThreatSearch, ThreatWin

LIVE_LIMITS = ThreatLimits(vcf_fours=16, vct_depth=4, vct_nodes=3_000)


class LiveChecker:
    def __init__(self, limits: ThreatLimits = LIVE_LIMITS) -> None:
        self._search = ThreatSearch(limits)
        self._lock = threading.Lock()

    def move_wins(self, board: Board, move: Point) -> ThreatWin | None:
        """The forced win ``move`` starts for the side to move, with its line, or None."""
        with self._lock:
            return self._search.move_wins(board, move)

    def winning_line(self, board: Board) -> ThreatWin | None:
        """A forced win of the side to move, with its line, or None."""
        with self._lock:
            return self._search.find_win(board)
