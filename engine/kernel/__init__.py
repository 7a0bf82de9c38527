"""The compiled kernel (numba): board state, pattern tables, evaluation, move picking,
threat searches, transposition table, principal variation search and the MCTS tree."""

from engine.kernel.cache_stamp import refresh_kernel_cache

# Before any module here compiles or loads cached code: drop code compiled from other
# versions of the kernel's sources (``cache_stamp``).
refresh_kernel_cache()
