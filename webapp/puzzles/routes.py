"""The puzzles page and its JSON API, for the current visitor (``players.identity``):

- ``GET /puzzles``: the page (``templates/puzzles.html``, ``static/js/puzzles.js``);
- ``POST /api/v1/puzzles/next``: the visitor's open attempt, or a new one near their rating;
- ``POST /api/v1/puzzles/attempts/<id>/move`` with ``{"x": …, "y": …}``: one move, answered
  with ``status`` (``continue`` with the defender's ``reply``, ``solved`` or ``failed``
  with the ``solution`` and the new ratings);
- ``POST /api/v1/puzzles/attempts/<id>/resign``: give up and see the solution;
- ``GET /api/v1/puzzles/me``: the visitor's puzzle rating and streaks.

Refusals are ``{"error", "code"}`` with a 4xx status and change nothing. ``init_app``
builds the service on the store's database and loads the starter set into it."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request

from webapp.http.cookies import language_of
from webapp.players import identity
from webapp.puzzles.checker import LiveChecker
from webapp.puzzles.repo import PuzzleRepo
from webapp.puzzles.service import PuzzleError, PuzzleService
from webapp.puzzles.starter import load_starter

bp = Blueprint("puzzles", __name__)


def service() -> PuzzleService:
    return current_app.extensions["puzzles"]  # type: ignore[no-any-return]


def _move_of(body: Any) -> tuple[int, int]:
    if not isinstance(body, dict):
        raise PuzzleError("the request body must be a JSON object", "bad_request")
    x, y = body.get("x"), body.get("y")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y)):
        raise PuzzleError("'x' and 'y' must be integers", "bad_request")
    assert isinstance(x, int) and isinstance(y, int)
    return x, y


@bp.get("/puzzles")
def page() -> str:
    return render_template("puzzles.html", lang=language_of(request))


@bp.post("/api/v1/puzzles/next")
def next_puzzle() -> Response:
    visitor = identity.current_visitor()
    return jsonify(service().next_attempt(visitor.id))


@bp.post("/api/v1/puzzles/attempts/<int:attempt_id>/move")
def move(attempt_id: int) -> Response:
    point = _move_of(request.get_json(silent=True))
    return jsonify(service().play(identity.current_visitor().id, attempt_id, point))


@bp.post("/api/v1/puzzles/attempts/<int:attempt_id>/resign")
def resign(attempt_id: int) -> Response:
    return jsonify(service().resign(identity.current_visitor().id, attempt_id))


@bp.get("/api/v1/puzzles/me")
def me() -> Response:
    puzzles = service()
    return jsonify(puzzles.player_json(puzzles.repo.player(identity.current_visitor().id)))


@bp.errorhandler(PuzzleError)
def _refused(error: PuzzleError) -> tuple[Response, int]:
    return jsonify({"error": error.message, "code": error.code}), error.status


def init_app(app: Flask) -> None:
    repo = PuzzleRepo(app.extensions["gomoku"].store.engine)
    load_starter(repo)
    app.extensions["puzzles"] = PuzzleService(repo, LiveChecker())
    app.register_blueprint(bp)
