"""Helper threads for a parallel search (lazy SMP): while ``Searcher`` deepens on its own
thread, each helper runs iterative deepening over its own copy of the compiled state and
its own move-ordering memory, sharing only the transposition table and the stop flag.

The helpers never choose the move. What they add is the table entries they leave: the main
search finds its subtrees already searched, bounded or ordered, and so reaches further in
the same time. Helpers start at staggered depths so that they do not all search the same
tree in step. The compiled search releases the GIL (``nogil``), so the threads run on
separate cores; the table tolerates their unlocked writes (``kernel.tt``)."""

from __future__ import annotations

import threading

import numpy as np

from engine.kernel.heuristics import (
    Heuristics,
    age_heuristics,
    clear_heuristics,
    new_heuristics,
)
from engine.kernel.pvs import search_root
from engine.kernel.scores import INF, MATE_BOUND
from engine.kernel.state import I_NODE_LIMIT, I_NODES, I_STOPPED, State, clone_state
from engine.kernel.tables import Tables
from engine.kernel.tt import Tt

MAX_THREADS = 64
# Helper threads are named this prefix and their number from 1.
HELPER_THREAD_PREFIX = "search-helper-"
# Which depths each helper skips, so that the helpers spread over the main search's next
# depths instead of searching its current one in step: helper k skips depth d when
# ``(d + SKIP_PHASE[j]) // SKIP_SIZE[j]`` is odd, with ``j = k % 20``. The first helper
# searches only the even depths and so stays about a ply ahead of the main search.
SKIP_SIZE = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4)
SKIP_PHASE = (0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7)


class HelperThreads:
    """The helpers of one ``Searcher``: their memory lasts from search to search like the
    searcher's own, and ``run`` starts them for one search, ``finish`` ends it."""

    def __init__(self, count: int) -> None:
        if not 0 <= count < MAX_THREADS:
            raise ValueError(f"helper count must be between 0 and {MAX_THREADS - 1}")
        self.count = count
        self._heuristics: list[Heuristics] = []
        self._states: list[State] = []
        self._threads: list[threading.Thread] = []

    def clear(self) -> None:
        """Forget what earlier searches taught the helpers (a new game)."""
        for hs in self._heuristics:
            clear_heuristics(hs)

    def run(self, state: State, tables: Tables, tt: Tt, stop: np.ndarray, max_depth: int) -> None:
        """Start the helpers on copies of ``state`` (prepared for the search, sharing
        ``stop``); they deepen up to ``max_depth`` or until ``stop`` is set."""
        cells = state.cells.shape[0]
        if len(self._heuristics) != self.count or (
            self._heuristics and self._heuristics[0].history.shape[1] != cells
        ):
            self._heuristics = [new_heuristics(cells) for _ in range(self.count)]
        else:
            for hs in self._heuristics:
                age_heuristics(hs)
        self._states = []
        self._threads = []
        for k in range(self.count):
            copy = clone_state(state)._replace(stop=stop)
            copy.info[I_NODES] = 0
            copy.info[I_NODE_LIMIT] = 0
            self._states.append(copy)
            thread = threading.Thread(
                target=_deepen,
                args=(copy, tables, tt, self._heuristics[k], k % len(SKIP_SIZE), max_depth),
                name=f"{HELPER_THREAD_PREFIX}{k + 1}",
                daemon=True,
            )
            self._threads.append(thread)
            thread.start()

    def nodes(self) -> int:
        """Nodes the helpers of the current (or last) search have entered so far."""
        return sum(int(state.info[I_NODES]) for state in self._states)

    def finish(self, stop: np.ndarray) -> None:
        """Stop the helpers (through the shared flag) and wait for them."""
        if not self._threads:
            return
        stop[0] = 1
        for thread in self._threads:
            thread.join()
        self._threads = []


def _deepen(
    state: State, tables: Tables, tt: Tt, hs: Heuristics, pattern: int, max_depth: int
) -> None:
    size, phase = SKIP_SIZE[pattern], SKIP_PHASE[pattern]
    for depth in range(1, max_depth + 1):
        if depth > 1 and ((depth + phase) // size) % 2 == 1:
            continue
        score = int(search_root(state, tables, tt, hs, depth, -INF, INF))
        if state.info[I_STOPPED] != 0 or state.stop[0] != 0:
            return
        if abs(score) >= MATE_BOUND:
            # A proven result: deeper iterations would only repeat it.
            return
