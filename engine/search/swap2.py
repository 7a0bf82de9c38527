"""Swap2 opening decisions made with the negamax ``Searcher``.

Swap2: the first player places three stones (black, white, black); the second player then
stays white and plays the fourth stone, swaps to black, or places two more stones (white,
black) and lets the first player choose a colour, who then either takes white and plays
the sixth stone or swaps to black. ``decide`` makes whichever decision the position asks
for: an opening on an empty board, a choice after three or five stones. Each option is
valued by short searches from white's side (white is to move after three and after five
stones), so with a node limit the decision is deterministic. The Gomocup brain
(``engine.protocol.pbrain``) turns decisions into the protocol's SWAP2BOARD answers."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from enum import Enum

from engine.game.board import Board
from engine.game.errors import GomokuError
from engine.game.points import Point
from engine.search.limit import Limit
from engine.search.result import SearchResult
from engine.search.searcher import Searcher

# Three-stone openings (black, white, black) as offsets from the centre, shapes that keep
# both sides' chances close; the placer keeps the one the search finds most even.
OPENINGS: tuple[tuple[Point, Point, Point], ...] = (
    ((0, 0), (1, 0), (2, 2)),
    ((0, 0), (1, 1), (3, 0)),
    ((0, 0), (0, 1), (2, -1)),
    ((0, 0), (-1, 1), (2, 1)),
    ((0, 0), (2, 0), (1, 3)),
    ((0, 0), (1, -1), (-2, 1)),
    ((0, 0), (0, 2), (3, 1)),
    ((0, 0), (1, 2), (-2, 2)),
)
STONE_COUNTS = (0, 3, 5)
# A search with less time than this left before the deadline is not started.
MIN_SEARCH_S = 0.01


class Swap2Action(Enum):
    OPEN = "open"  # the three opening stones
    STAY = "stay"  # take white and play the next (white) stone
    SWAP = "swap"  # take black: the opponent plays the next (white) stone
    PLACE_TWO = "place_two"  # a white and a black stone; the opponent chooses a colour


@dataclass(frozen=True)
class Swap2Decision:
    """What to do and the stones to place, with the search's score for the position the
    decision leaves, from the deciding player's side (0 for an even opening)."""

    action: Swap2Action
    stones: tuple[Point, ...]
    score: int


def searches_needed(stones: int) -> int:
    """How many searches ``decide`` runs for a board with this many stones, so a caller can
    share a time budget among them."""
    if stones not in STONE_COUNTS:
        raise ValueError(f"swap2 decisions come after 0, 3 or 5 stones, not {stones}")
    return {0: len(OPENINGS), 3: 2, 5: 1}[stones]


def fallback(board: Board) -> Swap2Decision:
    """A decision that needs no search: the first listed opening, or a swap."""
    if board.move_count == 0:
        centre = board.size // 2
        stones = tuple((centre + dx, centre + dy) for dx, dy in OPENINGS[0])
        return Swap2Decision(Swap2Action.OPEN, stones, 0)
    return Swap2Decision(Swap2Action.SWAP, (), 0)


def _bounded(limit: Limit, deadline: float | None) -> Limit | None:
    """``limit`` cut to the time left before ``deadline`` (a ``time.perf_counter`` value),
    or None when too little is left to start a search."""
    if deadline is None:
        return limit
    left = deadline - time.perf_counter()
    if left < MIN_SEARCH_S:
        return None
    return replace(limit, time=min(limit.time or left, left))


def decide(
    board: Board, searcher: Searcher, limit: Limit, *, deadline: float | None = None
) -> Swap2Decision:
    """The swap2 decision for ``board`` (0, 3 or 5 stones); ``limit`` bounds each search,
    and no search runs past ``deadline`` (a ``time.perf_counter`` value): options not
    searched by then are left out. The searcher's memory is cleared first so the same
    node limit gives the same decision."""
    if board.move_count not in STONE_COUNTS:
        raise ValueError(f"swap2 decisions come after 0, 3 or 5 stones, not {board.move_count}")
    searcher.clear()
    if board.move_count == 0:
        return place_opening(board, searcher, limit, deadline=deadline)
    if board.move_count == 3:
        return choose_after_three(board, searcher, limit, deadline=deadline)
    return choose_after_five(board, searcher, limit, deadline=deadline)


def place_opening(
    board: Board, searcher: Searcher, limit: Limit, *, deadline: float | None = None
) -> Swap2Decision:
    """The listed opening whose position the search scores closest to even; ties go to
    the earlier one in ``OPENINGS``."""
    centre = board.size // 2
    best: Swap2Decision | None = None
    for shape in OPENINGS:
        bounded = _bounded(limit, deadline)
        if bounded is None:
            break
        stones = tuple((centre + dx, centre + dy) for dx, dy in shape)
        position = board.copy()
        for stone in stones:
            position.push(stone)
        result = searcher.search(position, bounded)
        if not _searched(result):
            continue
        score = result.score
        if best is None or abs(score) < abs(best.score):
            best = Swap2Decision(Swap2Action.OPEN, stones, score)
    if best is None:
        return fallback(board)
    # The opener does not know its colour yet: the worth of an opening is its imbalance.
    return Swap2Decision(best.action, best.stones, -abs(best.score))


def choose_after_three(
    board: Board, searcher: Searcher, limit: Limit, *, deadline: float | None = None
) -> Swap2Decision:
    """Stay white, swap to black, or add two stones. Staying is worth white's score,
    swapping its negation; adding the search's expected white move and black reply is
    worth the worse side of the resulting position (the opponent picks), so it is taken
    only when it costs nothing: when the search sees no side ahead either way."""
    bounded = _bounded(limit, deadline)
    if bounded is None:
        return fallback(board)
    stay = searcher.search(board, bounded)
    if not _searched(stay):
        return fallback(board)
    options = [
        Swap2Decision(Swap2Action.STAY, (stay.move,), stay.score),
        Swap2Decision(Swap2Action.SWAP, (), -stay.score),
    ]
    position = _after(board, stay.pv[:2])
    bounded = _bounded(limit, deadline)
    if position is not None and bounded is not None:
        balance = searcher.search(position, bounded)
        if _searched(balance):
            options.append(
                Swap2Decision(Swap2Action.PLACE_TWO, tuple(stay.pv[:2]), -abs(balance.score))
            )
    # max keeps the first of equals: staying, then swapping, then placing two.
    return max(options, key=lambda option: option.score)


def _searched(result: SearchResult) -> bool:
    """Whether the search finished at least one iteration: a search stopped before that
    (a deadline hit while the process was held up) has a score of 0 that means nothing."""
    return result.depth > 0


def _after(board: Board, line: list[Point]) -> Board | None:
    """The position after the two stones of ``line``, if both are legal and the game goes
    on (a short line or a move that ends the game leaves nothing to hand over)."""
    if len(line) < 2:
        return None
    position = board.copy()
    try:
        for stone in line:
            position.push(stone)
    except GomokuError:
        return None
    return None if position.is_game_over() else position


def choose_after_five(
    board: Board, searcher: Searcher, limit: Limit, *, deadline: float | None = None
) -> Swap2Decision:
    """Take white and play the sixth stone, or swap to black: whichever side the search
    prefers, white when even."""
    bounded = _bounded(limit, deadline)
    if bounded is None:
        return fallback(board)
    result = searcher.search(board, bounded)
    if not _searched(result):
        return fallback(board)
    if result.score >= 0:
        return Swap2Decision(Swap2Action.STAY, (result.move,), result.score)
    return Swap2Decision(Swap2Action.SWAP, (), -result.score)
