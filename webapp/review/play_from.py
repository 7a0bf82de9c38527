""" "Play from here": a new game against the AI from a position of a reviewed game.

``parse_play_from`` reads the request (``{"ply", "level", "color"}``: how many of the
game's moves to keep, the AI level, and the visitor's colour, by default the side to
move) and ``new_game_request`` turns it into the ``NewGame`` that the game service creates
like any other (``creation.new_from_request``, the same path as a game started with
``moves`` through the API), so the new game starts at that position with the visitor to
move or the AI replying. A position that is already over is refused and creates nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import Board
from engine.search.levels import DEFAULT_LEVEL, LEVELS
from webapp.game.errors import BadRequestError
from webapp.game.model import Game
from webapp.realtime.messages import NewGame


@dataclass(frozen=True)
class PlayFrom:
    ply: int
    level: int
    color: str | None


def _int_field(data: dict[str, Any], key: str, low: int, high: int, default: int | None) -> int:
    value = data.get(key, default)
    if value is None:
        raise BadRequestError(f"'{key}' is required", params={"field": key, "reason": "required"})
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequestError(
            f"'{key}' must be an integer", params={"field": key, "reason": "type"}
        )
    if not low <= value <= high:
        raise BadRequestError(
            f"'{key}' must be between {low} and {high}",
            params={"field": key, "reason": "range", "low": low, "high": high},
        )
    return int(value)


def parse_play_from(body: Any, move_count: int) -> PlayFrom:
    if not isinstance(body, dict):
        raise BadRequestError("the request body must be a JSON object")
    ply = _int_field(body, "ply", 0, move_count, None)
    level = _int_field(body, "level", min(LEVELS), max(LEVELS), DEFAULT_LEVEL)
    color = body.get("color")
    if color is not None and color not in ("black", "white"):
        raise BadRequestError(
            "'color' must be black or white",
            params={"field": "color", "reason": "choice", "choices": ["black", "white"]},
        )
    return PlayFrom(ply, level, color)


def new_game_request(game: Game, request: PlayFrom) -> NewGame:
    """The AI game starting after ``request.ply`` moves of ``game``."""
    moves = list(game.points[: request.ply])
    if Board.from_moves(moves, size=game.size, rule=game.rule).is_game_over():
        raise BadRequestError("the game is already over at that move", code="game_over")
    turn = "black" if len(moves) % 2 == 0 else "white"
    return NewGame(
        mode="ai",
        size=game.size,
        rule=game.rule.value,
        color=request.color or turn,
        level=request.level,
        defence=1.0,
        black_level=request.level,
        white_level=request.level,
        clock=None,
        moves=moves,
    )
