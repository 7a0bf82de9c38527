"""The JSON API under ``/api/v1``: create and import games, read their public state, and
ask the engine for a move in any position (stateless). The creator's seat carries their
person id and display name (``players.identity``).

Bodies are validated by ``messages``; the game service does the work; every refusal is
``{"error": "..."}`` with a 4xx status. Creating a game sets the creator's seat cookie."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request

from webapp.game.errors import BadRequestError, GameActionError, GameNotFound
from webapp.game.model import Game
from webapp.game.seat_keys import seat_cookie
from webapp.game.service import GameService
from webapp.http.cookies import set_seat_cookie
from webapp.http.json_body import MAX_JSON_DEPTH, json_depth
from webapp.players import identity
from webapp.realtime.messages import GAME_ID_RE, parse_engine_move, parse_import, parse_new_game

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def service() -> GameService:
    return current_app.extensions["gomoku"].service  # type: ignore[no-any-return]


def _json_body() -> Any:
    body = request.get_json(silent=True)
    if body is None:
        if json_depth(request.get_data(), MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
            raise BadRequestError(
                f"the request body is nested too deeply (at most {MAX_JSON_DEPTH} levels)"
            )
        raise BadRequestError("the request body must be a JSON object")
    return body


def _created(game: Game, token: str | None) -> tuple[Response, int]:
    response = jsonify({"id": game.id, "url": f"/g/{game.id}"})
    if token is not None:
        set_seat_cookie(
            response,
            seat_cookie(game.id),
            token,
            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
        )
    return response, 201


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    request_game = parse_new_game(_json_body())
    visitor = identity.current_visitor()
    game, token = service().create(request_game, creator=visitor.person)
    if token is not None:
        identity.remember(visitor)
    return _created(game, token)


@bp.post("/import")
def import_game() -> tuple[Response, int]:
    request_game = parse_import(_json_body())
    visitor = identity.current_visitor()
    game, token = service().import_psq(request_game, creator=visitor.person)
    identity.remember(visitor)
    return _created(game, token)


@bp.get("/games")
def list_games() -> Response:
    status = request.args.get("status", "live")
    if status != "live":
        raise BadRequestError("'status' must be 'live'")
    return jsonify({"games": service().live_games()})


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Response:
    if not GAME_ID_RE.match(game_id):
        raise GameNotFound("there is no such game")
    games = service()
    return jsonify(games.public_state(games.settle(games.load(game_id))))


@bp.post("/move")
def engine_move() -> Response:
    request_body = parse_engine_move(_json_body())
    return jsonify(service().engine_move(request_body, client=request.remote_addr))


@bp.errorhandler(GameActionError)
def _error_response(error: GameActionError) -> tuple[Response, int]:
    return jsonify({"error": error.message, **error.to_json()}), error.http_status


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
