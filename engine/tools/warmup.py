"""Compiles (or loads from numba's on-disk cache) every compiled function the searchers
(negamax and MCTS) use, by running tiny searches under each rule. Run once after
installing, before timed play: ``python -m engine.tools.warmup``.

numba keys each cached function on its own source file only, so a function whose callee
changed in another kernel file would load stale machine code. The command-line warm-up
therefore fingerprints every kernel source and drops the kernel's cache when any of them
changed."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

from engine.game.board import Board
from engine.search.heap import settle_heap
from engine.search.limit import Limit
from engine.search.mcts import MctsSearcher
from engine.search.searcher import Searcher

KERNEL = Path(__file__).resolve().parent.parent / "kernel"
CACHE = KERNEL / "__pycache__"
STAMP = CACHE / "kernel-sources.sha256"


def kernel_fingerprint() -> str:
    """The hash of every kernel source file, in name order."""
    digest = hashlib.sha256()
    for path in sorted(KERNEL.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def drop_stale_cache() -> bool:
    """Delete the kernel's numba cache if the sources changed since it was written.

    Returns whether anything was dropped. A cache folder that can't be written (an
    installed read-only package) is left alone: numba then caches elsewhere."""
    if not CACHE.is_dir():
        return False
    fingerprint = kernel_fingerprint()
    try:
        if STAMP.exists() and STAMP.read_text().strip() == fingerprint:
            return False
        stale = [*CACHE.glob("*.nbi"), *CACHE.glob("*.nbc")]
        for path in stale:
            path.unlink(missing_ok=True)
        STAMP.write_text(fingerprint + "\n")
    except OSError:
        return False
    return bool(stale)


def warm_up(*, drop_stale: bool = False) -> float:
    """Run tiny searches under every rule and return the seconds it took.

    ``drop_stale`` first drops a cache the kernel sources no longer match; the command
    line does so, worker processes (which may start side by side) do not."""
    start = time.perf_counter()
    if drop_stale:
        drop_stale_cache()
    for rule in ("freestyle", "standard", "renju"):
        board = Board.from_moves([(7, 7), (8, 8), (8, 7)], size=15, rule=rule)
        Searcher(tt_mb=1).search(board, Limit(nodes=500))
        MctsSearcher(tree_mb=1, seed=1).search(board, Limit(nodes=50))
    settle_heap()
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"engine ready in {warm_up(drop_stale=True):.1f} s")
