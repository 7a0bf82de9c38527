"""The aspiration window of the root searches: each iteration after the second starts in a
narrow window around the last score, and a search that fails outside it is repeated in a
window widened step by step around the score it returned, until it fits or the window
opens all the way."""

from __future__ import annotations

from engine.kernel.scores import INF
from engine.search.result import MATE_BOUND

# The first window's half-width around the last iteration's score.
ASPIRATION_WINDOW = 80
# Past this half-width a failed window opens all the way.
ASPIRATION_LIMIT = 700


def first_window(score: int | None, depth: int) -> tuple[int, int]:
    """The window of an iteration's first search, from the last iteration's score."""
    if depth >= 3 and score is not None and abs(score) < MATE_BOUND:
        return score - ASPIRATION_WINDOW, score + ASPIRATION_WINDOW
    return -INF, INF


def widened(value: int, window: tuple[int, int], spread: int) -> tuple[tuple[int, int], int]:
    """The window to search again in after a search in ``window``, whose half-width was
    last ``spread``, returned ``value`` outside it; and the new half-width. Each fail
    doubles the half-width around the returned score; a mate score, or a half-width past
    the limit, opens that side of the window fully."""
    alpha, beta = window
    spread *= 2
    wide = abs(value) >= MATE_BOUND or spread > ASPIRATION_LIMIT
    if value <= alpha:
        alpha = -INF if wide else value - spread
    elif value >= beta:
        beta = INF if wide else value + spread
    return (alpha, beta), spread
