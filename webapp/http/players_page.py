"""The players page and its JSON: every AI the site can seat with its Elo rating.

``GET /players`` renders ``templates/players.html`` (rating table: player, games,
W-L-D, rating); ``GET /api/v1/players`` gives the same as JSON plus the registry. A
template context processor hands every page ``ai_players`` (the registry as JSON) so the
home page's AI-vs-AI form can offer each player. The registry is the game service's
(``players``); ratings come from ``ratings`` over the store's finished games."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request

from webapp.game.service import GameService
from webapp.http.cookies import language_of
from webapp.players.ratings import compute_ratings

bp = Blueprint("players_page", __name__)


def service() -> GameService:
    return current_app.extensions["gomoku"].service  # type: ignore[no-any-return]


def _ratings() -> list[dict[str, Any]]:
    games = service()
    return [r.to_json() for r in compute_ratings(games.store.finished_games(), games.players)]


@bp.get("/players")
def players() -> str:
    games = service()
    return render_template(
        "players.html",
        ratings=_ratings(),
        kinds={player.id: player.kind for player in games.players.players.values()},
        lang=language_of(request),
    )


@bp.get("/api/v1/players")
def players_json() -> Response:
    return jsonify({"players": service().players.to_json(), "ratings": _ratings()})


def _ai_players() -> dict[str, Any]:
    runtime = current_app.extensions.get("gomoku")
    if runtime is None:
        return {"ai_players": []}
    return {"ai_players": runtime.service.players.to_json()}


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.context_processor(_ai_players)
