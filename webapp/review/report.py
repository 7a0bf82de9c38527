"""The review of a whole game from the engine's view of every position: per ply the win
probabilities before and after the move (black's side), the loss, the class, the engine's
better move and its line, missed and allowed forced wins; per side a summary.

Input is one evaluation per position (``position_eval``: position ``i`` is the board
after ``i`` moves, ``0..len(moves)``), as the review job (``jobs``) collects them from
the engine and stores them (``repo``); a finished board is not searched and carries its
result instead. ``build_review`` is pure: the same evaluations give the same review."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.search.result import MATE_BOUND, mate_distance
from webapp.ai.types import AiMove
from webapp.game.winrate import black_winrate
from webapp.review.classify import (
    THRESHOLDS,
    MoveClass,
    allowed_forced_win,
    classify,
    missed_forced_win,
    win_loss,
)

Point = tuple[int, int]
SIDES = ("black", "white")


def side_of_position(index: int) -> str:
    """Who is to move in position ``index`` (after ``index`` moves)."""
    return "black" if index % 2 == 0 else "white"


def position_eval(index: int, move: AiMove) -> dict[str, Any]:
    """A searched position as stored: the score from the side to move's view."""
    return {
        "turn": side_of_position(index),
        "score": int(move.score),
        "best": [int(move.move[0]), int(move.move[1])],
        "pv": [[int(x), int(y)] for x, y in move.pv],
        "depth": int(move.depth),
        "nodes": int(move.nodes),
        "forced": move.forced,
    }


def terminal_eval(index: int, winner: str | None) -> dict[str, Any]:
    """A finished board (a five, a forbidden move, a full board): its result."""
    return {"turn": side_of_position(index), "terminal": True, "winner": winner}


def black_score(position: Mapping[str, Any]) -> int | None:
    """The position's engine score from black's side (None for a finished board)."""
    if position.get("terminal"):
        return None
    score = int(position["score"])
    return score if position["turn"] == "black" else -score


def black_chance(position: Mapping[str, Any], engine: str = "negamax") -> float:
    """Black's chance to win in the position, on ``winrate``'s one scale."""
    if position.get("terminal"):
        winner = position.get("winner")
        return 1.0 if winner == "black" else 0.0 if winner == "white" else 0.5
    score = black_score(position)
    assert score is not None
    return black_winrate(score, engine)


def forced_win_of(position: Mapping[str, Any]) -> dict[str, Any] | None:
    """The side to move's forced win in the position: the threat search's, else one the
    main search proved with a mate score (kind ``mate``), else None."""
    if position.get("terminal"):
        return None
    forced = position.get("forced")
    if forced:
        return dict(forced)
    score = int(position["score"])
    if score >= MATE_BOUND:
        plies = mate_distance(score) or 1
        return {
            "kind": "mate",
            "plies": plies,
            "moves": (plies + 1) // 2,
            "line": [list(p) for p in position.get("pv", [])[:1]] or [position["best"]],
        }
    return None


def _lost_for_side_to_move(position: Mapping[str, Any]) -> bool:
    if position.get("terminal"):
        return position.get("winner") not in (None, position["turn"])
    return int(position["score"]) <= -MATE_BOUND


def _won_for_mover(after: Mapping[str, Any], mover: str) -> bool:
    """The position after the mover's move is a proved win for the mover."""
    if after.get("terminal"):
        return after.get("winner") == mover
    return int(after["score"]) <= -MATE_BOUND


def review_ply(
    ply: int,
    move: Sequence[int],
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    engine: str = "negamax",
) -> dict[str, Any]:
    """The review of move number ``ply`` (1-based), played in ``before`` giving ``after``."""
    mover = side_of_position(ply - 1)
    black_before = black_chance(before, engine)
    black_after = black_chance(after, engine)
    mine_before = black_before if mover == "black" else 1 - black_before
    mine_after = black_after if mover == "black" else 1 - black_after
    loss = win_loss(mine_before, mine_after)
    played = [int(move[0]), int(move[1])]
    best = list(before["best"]) if not before.get("terminal") else None
    engine_move = best == played
    move_class = classify(min(1.0, loss), engine_move=engine_move)
    had = forced_win_of(before)
    missed = missed_forced_win(
        had_win=had is not None,
        played_winning_move=had is not None and list(had["line"][0]) == played,
        still_won=_won_for_mover(after, mover),
        after=mine_after,
    )
    theirs = forced_win_of(after)
    allowed = allowed_forced_win(
        opponent_wins_after=theirs is not None, already_lost=_lost_for_side_to_move(before)
    )
    return {
        "ply": ply,
        "color": mover,
        "move": played,
        "before": round(black_before, 4),
        "after": round(black_after, 4),
        "score_before": black_score(before),
        "score_after": black_score(after),
        "loss": round(loss, 4),
        "class": move_class.value,
        "symbol": move_class.symbol,
        "engine_move": engine_move,
        "best": None if engine_move else best,
        "pv": [] if engine_move or best is None else [list(p) for p in before.get("pv", [])],
        "depth": before.get("depth"),
        "missed_win": had if missed else None,
        "allowed_win": theirs if allowed else None,
    }


def summarize(plies: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per side: the count of each class, missed and allowed forced wins, and the average
    loss of winning chance over its moves."""
    summary: dict[str, dict[str, Any]] = {}
    for side in SIDES:
        mine = [p for p in plies if p["color"] == side]
        counts = {cls.value: sum(1 for p in mine if p["class"] == cls.value) for cls in MoveClass}
        total_loss = sum(float(p["loss"]) for p in mine)
        summary[side] = {
            "moves": len(mine),
            **counts,
            "missed_wins": sum(1 for p in mine if p["missed_win"]),
            "allowed_wins": sum(1 for p in mine if p["allowed_win"]),
            "average_loss": round(total_loss / len(mine), 4) if mine else 0.0,
        }
    return summary


def build_review(
    moves: Sequence[Sequence[int]],
    positions: Sequence[Mapping[str, Any]],
    engine: str = "negamax",
) -> dict[str, Any]:
    """The whole review: ``positions`` holds one evaluation per position, ``len(moves)+1``."""
    if len(positions) != len(moves) + 1:
        raise ValueError(
            f"{len(moves)} moves need {len(moves) + 1} positions, not {len(positions)}"
        )
    plies = [
        review_ply(k, moves[k - 1], positions[k - 1], positions[k], engine)
        for k in range(1, len(moves) + 1)
    ]
    graph = [
        {
            "ply": index,
            "black_winrate": round(black_chance(position, engine), 4),
            "score": black_score(position),
            "forced": forced_win_of(position),
            "turn": position["turn"],
        }
        for index, position in enumerate(positions)
    ]
    return {
        "moves": [[int(x), int(y)] for x, y in moves],
        "positions": graph,
        "plies": plies,
        "summary": summarize(plies),
        "thresholds": dict(THRESHOLDS),
    }
