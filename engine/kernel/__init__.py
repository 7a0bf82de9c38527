"""The compiled kernel (numba): board state, pattern tables, evaluation, move picking,
threat searches, transposition table, principal variation search and the MCTS tree."""
