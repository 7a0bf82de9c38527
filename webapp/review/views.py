"""The review's HTTP side: the page ``/g/<id>/review`` and its JSON API.

``GET /g/<id>/review`` renders the page with the review's status (no side effect: a link
preview starts no engine work). ``POST /api/v1/games/<id>/review`` asks for the review
(starting the one job of ``jobs`` if nobody has) and ``GET`` reads its status;
``POST /api/v1/games/<id>/play-from`` starts a game against the AI from one of its
positions (``play_from``). Refusals are ``{"error", "code", "params"}`` with a 4xx."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import NotFound

from engine.search.levels import DEFAULT_LEVEL, LEVELS
from webapp.game.errors import GameActionError, GameNotFound
from webapp.game.seat_keys import seat_cookie
from webapp.game.service import GameService
from webapp.http.cookies import language_of, set_seat_cookie
from webapp.realtime.messages import GAME_ID_RE
from webapp.review.classify import THRESHOLDS
from webapp.review.jobs import ReviewJobs
from webapp.review.play_from import new_game_request, parse_play_from

bp = Blueprint("review", __name__)

EXTENSION = "gomoku_review"


def jobs() -> ReviewJobs:
    return current_app.extensions[EXTENSION]  # type: ignore[no-any-return]


def service() -> GameService:
    return current_app.extensions["gomoku"].service  # type: ignore[no-any-return]


def _game_id(game_id: str) -> str:
    if not GAME_ID_RE.match(game_id):
        raise GameNotFound("there is no such game", code="not_found")
    return game_id


@bp.get("/g/<game_id>/review")
def review_page(game_id: str) -> str:
    if not GAME_ID_RE.match(game_id):
        raise NotFound()
    games = service()
    try:
        game = games.load(game_id)
    except GameActionError:
        raise NotFound() from None
    state = games.public_state(game)
    levels = [{"number": lv.number, "name": lv.name} for lv in LEVELS.values()]
    return render_template(
        "review.html",
        game_id=game_id,
        state=state,
        review=jobs().status(game_id),
        thresholds=THRESHOLDS,
        levels=levels,
        default_level=DEFAULT_LEVEL,
        lang=language_of(request),
    )


@bp.post("/api/v1/games/<game_id>/review")
def request_review(game_id: str) -> tuple[Response, int]:
    status = jobs().request(_game_id(game_id))
    return jsonify(status), 200 if status["status"] == "done" else 202


@bp.get("/api/v1/games/<game_id>/review")
def review_status(game_id: str) -> Response:
    game_id = _game_id(game_id)
    service().load(game_id)  # 404 for an unknown game
    return jsonify(jobs().status(game_id))


@bp.post("/api/v1/games/<game_id>/play-from")
def play_from(game_id: str) -> tuple[Response, int]:
    games = service()
    game = games.load(_game_id(game_id))
    body: Any = request.get_json(silent=True)
    new_game, token = games.create(new_game_request(game, parse_play_from(body, len(game.moves))))
    response = jsonify({"id": new_game.id, "url": f"/g/{new_game.id}"})
    if token is not None:
        set_seat_cookie(
            response,
            seat_cookie(new_game.id),
            token,
            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
        )
    return response, 201


@bp.errorhandler(GameActionError)
def _refused(error: GameActionError) -> tuple[Response, int]:
    return jsonify({"error": error.message, **error.to_json()}), error.http_status


def init_app(app: Flask, review_jobs: ReviewJobs) -> None:
    app.extensions[EXTENSION] = review_jobs
    app.register_blueprint(bp)
