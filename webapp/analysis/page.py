"""The analysis board page ``/analysis``: an empty board, or ``?game=<id>`` to open a
game's current position (its size, rule and stones)."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request

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
    return render_template(
        "analysis.html",
        position=position,
        sizes=SIZES,
        rules=list(RULES),
        lang=language_of(request),
    )
