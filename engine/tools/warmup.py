"""Compiles (or loads from numba's on-disk cache) every compiled function the searchers
(negamax and MCTS) use, by running tiny searches under each rule. Run once after
installing, before timed play: ``python -m engine.tools.warmup``.

Importing the kernel first drops cached code compiled from other versions of its sources
(``engine.kernel.cache_stamp``), so the warm-up leaves a cache that every later process
(the brain, the site's workers) loads as it is."""

from __future__ import annotations

import time

from engine.game.board import Board
from engine.search.heap import settle_heap
from engine.search.limit import Limit
from engine.search.mcts import MctsSearcher
from engine.search.searcher import Searcher


def warm_up() -> float:
    """Run tiny searches under every rule and return the seconds it took."""
    start = time.perf_counter()
    for rule in ("freestyle", "standard", "renju"):
        board = Board.from_moves([(7, 7), (8, 8), (8, 7)], size=15, rule=rule)
        Searcher(tt_mb=1).search(board, Limit(nodes=500))
        MctsSearcher(tree_mb=1, seed=1).search(board, Limit(nodes=50))
    settle_heap()
    return time.perf_counter() - start


def main() -> None:
    """The command line: warm up and say how long it took."""
    print(f"engine ready in {warm_up():.1f} s")


if __name__ == "__main__":
    main()
