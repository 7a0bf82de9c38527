"""Score scale shared by the evaluation, the transposition table and the searches.

Scores are from the side to move's point of view; a score beyond ``MATE_BOUND`` is a
forced win in ``MATE - score`` plies."""

from __future__ import annotations

MATE = 30000
MATE_BOUND = MATE - 1000
INF = 32000
EVAL_LIMIT = 20000  # static evaluations stay within this bound
