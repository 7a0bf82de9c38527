"""Opening-rule decisions for every rule the web site plays, made with the ``Searcher``.

The web game asks for one step of an opening at a time (an ``OpeningTask``: the rule,
the kind of step, its options, the central square a stone must go in, the colour the
deciding player holds) and ``decide`` answers with the actions to take, in order: points
(stones, fifth-move offers, the picked fifth move) and options (a colour, ``place_two``,
``offer``, a declared count). Swap and swap2 reuse the brain's decisions
(``engine.search.swap2``). The policy for the rest, every value a short search's score:

- a stone placed before the opponent may swap is the candidate that leaves the position
  closest to even (a swap would take any advantage it gave);
- a colour choice takes the side the search prefers for the player to move next, except
  before Soosõrv's offers, where black is worth the weakest of its N best fifth moves
  (white will pick that one);
- Soosõrv's declared count grows by one for every 100 units of black's advantage after
  the fourth stone (1 when even or behind, at most 8): more alternatives for white the
  stronger black stands;
- offers are black's best fifth moves by the search, no two symmetrical
  (``engine.game.symmetry``); white picks the one best for white;
- Taraguchi's fifth: black offers ten when the tenth best of them is still worth more to
  black than the most even single fifth move (which white could swap), else places it.

Candidates are the legal points of the step's central square, or near the stones when
the square is the whole board, nearest first; each gets an equal share of the time."""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.game.board import Board
from engine.game.points import Point
from engine.game.symmetry import distinct, images
from engine.search.limit import Limit
from engine.search.searcher import Searcher
from engine.search.swap2 import (
    Swap2Action,
    choose_after_five,
    choose_after_three,
    place_opening,
)

# The most candidates searched for a placement and for fifth-move offers.
PLACE_CANDIDATES = 12
OFFER_CANDIDATES = 20
# Black's advantage (search units) worth one more declared fifth move.
DECLARE_STEP = 100
MIN_SHARE_S = 0.01

Action = tuple[str, Point | str]  # ("point", (x, y)) or ("option", "white")


@dataclass(frozen=True)
class OpeningTask:
    """One step of an opening, as ``webapp.game.opening_types.Step`` names it."""

    rule: str  # swap, swap2, soosorv8, taraguchi10
    kind: str  # place, choose, declare, propose, pick
    stage: str
    options: tuple[str, ...] = ()
    radius: int | None = None
    count: int = 0
    proposals: tuple[Point, ...] = ()


def decide(board: Board, task: OpeningTask, searcher: Searcher, time_s: float) -> list[Action]:
    """The actions that take ``task`` on ``board`` within about ``time_s`` seconds."""
    searcher.clear()
    deadline = time.perf_counter() + time_s
    budget = Limit(time=max(MIN_SHARE_S, time_s))
    if task.rule in ("swap", "swap2") and task.kind == "place" and board.move_count == 0:
        decision = place_opening(board, searcher, _share(time_s, 8), deadline=deadline)
        return [("point", stone) for stone in decision.stones]
    if task.kind == "choose" and task.stage == "after_three":
        return _after_three(board, task, searcher, budget, deadline)
    if task.kind == "choose" and task.stage == "after_five":
        decision = choose_after_five(board, searcher, budget, deadline=deadline)
        return [("option", "white" if decision.action is Swap2Action.STAY else "black")]
    if task.kind == "choose" and task.stage == "swap_fourth":
        value = _offer_value(board, task.count or 1, searcher, time_s)
        return [("option", "black" if value >= 0 else "white")]
    if task.kind == "choose":
        return [("option", _side(board, searcher, budget))]
    if task.kind == "declare":
        score = searcher.search(board, budget).score  # black to move after four stones
        count = max(1, min(task.count, 1 + score // DECLARE_STEP))
        return [("option", str(count))]
    if task.kind == "propose":
        offers = _best_fifths(board, task.count, task.proposals, searcher, time_s)
        return [("point", point) for point in offers[: task.count - len(task.proposals)]]
    if task.kind == "pick":
        return [("point", _pick(board, task.proposals, searcher, time_s))]
    return _place(board, task, searcher, time_s)


def _share(time_s: float, parts: int) -> Limit:
    return Limit(time=max(MIN_SHARE_S, time_s / max(1, parts)))


def _after_three(
    board: Board, task: OpeningTask, searcher: Searcher, limit: Limit, deadline: float
) -> list[Action]:
    if "place_two" not in task.options:  # swap: a colour only
        decision = choose_after_five(board, searcher, limit, deadline=deadline)
        return [("option", "white" if decision.action is Swap2Action.STAY else "black")]
    decision = choose_after_three(board, searcher, limit, deadline=deadline)
    if decision.action is Swap2Action.PLACE_TWO:
        return [("option", "place_two"), *(("point", stone) for stone in decision.stones)]
    return [("option", "white" if decision.action is Swap2Action.STAY else "black")]


def _side(board: Board, searcher: Searcher, limit: Limit) -> str:
    """The colour of the side to move if the search prefers it, else the other."""
    mover = "black" if board.move_count % 2 == 0 else "white"
    if searcher.search(board, limit).score >= 0:
        return mover
    return "white" if mover == "black" else "black"


def _candidates(board: Board, radius: int | None, most: int) -> list[Point]:
    centre = board.size // 2
    stones = board.moves
    points = []
    for point in board.legal_moves():
        x, y = point
        if radius is not None and max(abs(x - centre), abs(y - centre)) > radius:
            continue
        near = min((max(abs(x - sx), abs(y - sy)) for sx, sy in stones), default=0)
        if radius is None and near > 2:
            continue
        points.append((near, abs(x - centre) + abs(y - centre), point))
    points.sort()
    return [point for _, _, point in points[:most]]


def _values(
    board: Board, points: list[Point], searcher: Searcher, time_s: float
) -> list[tuple[int, Point]]:
    """Each point's worth to the player who puts it: the negated score of the reply."""
    limit = _share(time_s, len(points))
    values = []
    for point in points:
        position = board.copy()
        position.push(point)
        if position.is_game_over():
            continue
        values.append((-searcher.search(position, limit).score, point))
    return values


def _place(board: Board, task: OpeningTask, searcher: Searcher, time_s: float) -> list[Action]:
    """The candidate stone leaving the position most even; with Taraguchi's ``offer``
    option, ten offers instead when their weakest is worth more."""
    candidates = _candidates(board, task.radius, PLACE_CANDIDATES)
    share = time_s / 2 if "offer" in task.options else time_s
    values = _values(board, candidates, searcher, share)
    if not values:
        return [("point", candidates[0] if candidates else board.legal_moves()[0])]
    value, point = min(values, key=lambda item: abs(item[0]))
    if "offer" in task.options:
        offered = _offer_value(board, 10, searcher, share)
        if offered > -abs(value):
            return [("option", "offer")]
    return [("point", point)]


def _best_fifths(
    board: Board, count: int, offered: tuple[Point, ...], searcher: Searcher, time_s: float
) -> list[Point]:
    """Black's best fifth moves, none repeating or mirroring another or one offered."""
    taken = images(board, offered)
    candidates = [p for p in _candidates(board, None, OFFER_CANDIDATES * 2) if p not in taken]
    candidates = distinct(board, candidates)[:OFFER_CANDIDATES]
    ranked = sorted(_values(board, candidates, searcher, time_s), reverse=True)
    best = [point for _, point in ranked]
    extra = [p for p in board.legal_moves() if p not in taken and p not in best]
    return distinct(board, [*best, *extra])[: max(0, count - len(offered))]


def _offer_value(board: Board, count: int, searcher: Searcher, time_s: float) -> int:
    """What offering ``count`` fifth moves is worth to black: the weakest of its best."""
    candidates = distinct(board, _candidates(board, None, OFFER_CANDIDATES * 2))
    ranked = sorted(
        (value for value, _ in _values(board, candidates[:OFFER_CANDIDATES], searcher, time_s)),
        reverse=True,
    )
    if not ranked:
        return 0
    return ranked[min(count, len(ranked)) - 1]


def _pick(board: Board, proposals: tuple[Point, ...], searcher: Searcher, time_s: float) -> Point:
    """The offered fifth move best for white: the one whose position white scores most."""
    limit = _share(time_s, len(proposals))
    best: tuple[int, Point] | None = None
    for point in proposals:
        position = board.copy()
        position.push(point)
        if position.is_game_over():
            continue
        score = searcher.search(position, limit).score
        if best is None or score > best[0]:
            best = (score, point)
    return best[1] if best is not None else proposals[0]
