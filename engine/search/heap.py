"""Keeping full garbage collections out of timed moves.

A process that has loaded the engine holds about a hundred thousand long-lived objects
(numba, llvmlite, numpy and the compiled dispatchers). A full collection walks all of
them: about 25 ms on the development machine, more when the cores are shared, and it
holds the interpreter lock, so a brain answering its turn has to wait for it. Once the
process is warm, those objects are set aside for good; later collections walk only what
play allocates."""

from __future__ import annotations

import gc


def settle_heap() -> None:
    """Collect once, then exempt everything alive from future collections."""
    gc.collect()
    gc.freeze()
