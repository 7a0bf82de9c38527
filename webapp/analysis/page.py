"""The analysis board page ``/analysis``: an empty board, or ``?game=<id>`` to open a
game's current position (its size, rule and stones; ``over`` with the winning five when
that position already ends the game, so the page can mark it and explain)."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request

from engine import Board, GomokuError, Rule
from webapp.game.errors import GameActionError
from webapp.http.cookies import language_of
from webapp.realtime.messages import GAME_ID_RE, RULES

bp = Blueprint("analysis", __name__)

SIZES = [15, 19, 20, 7, 9, 10, 11, 12, 13, 14, 16, 17, 18, 21, 22]


@bp.get("/analysis")
def board() -> str:
    position: dict[str, object] = {"size": 15, "rule": "freestyle", "moves": []}
    game_id = request.args.get("game", "")
    if game_id and GAME_ID_RE.match(game_id):
        try:
            game = current_app.extensions["gomoku"].service.load(game_id)
        except GameActionError:
            game = None
        if game is not None:
            moves = [list(p) for p in game.points]
            ply = request.args.get("ply", "")
            if ply.isdigit():
                moves = moves[: int(ply)]
            position = {"size": game.size, "rule": game.rule.value, "moves": moves}
            position.update(_ended(moves, game.size, game.rule))
    return render_template(
        "analysis.html",
        position=position,
        sizes=SIZES,
        rules=list(RULES),
        lang=language_of(request),
    )


def _ended(moves: list[list[int]], size: int, rule: Rule) -> dict[str, object]:
    """``{"over": {"reason", "line"}}`` when these moves already end the game, else {}."""
    try:
        board = Board.from_moves([(x, y) for x, y in moves], size=size, rule=rule)
    except GomokuError:  # a record the engine cannot replay: leave it to the analysis
        return {}
    outcome = board.outcome()
    if outcome is None:
        return {}
    line = [list(p) for p in outcome.line] if outcome.reason == "five" else []
    return {"over": {"reason": outcome.reason, "line": line}}
