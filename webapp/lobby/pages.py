"""The lobby's pages and JSON: ``/lobby`` (seeks and quick pairing), ``/lobby/go/<id>``
(a lobby game's seat cookie for the person bound to it, then the game),
``/leaderboard`` (people's ratings per rule key), ``GET /api/v1/seeks`` and
``GET /api/v1/leaderboard?rule=<key>``. ``init_app`` builds the lobby service on the
runtime's store, game service and ratings and registers the ``/lobby`` namespace."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
)
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response as BaseResponse

from webapp.game.errors import BadRequestError, GameActionError
from webapp.game.seat_keys import seat_cookie
from webapp.http.cookies import language_of, set_seat_cookie
from webapp.lobby.namespace import LOBBY_NAMESPACE, LobbyNamespace
from webapp.lobby.presets import DEFAULT_PRESET, PRESET_NAMES
from webapp.lobby.repo import SeekRepo
from webapp.lobby.seeks import OPENINGS
from webapp.lobby.service import LobbyService
from webapp.players import identity
from webapp.players.person_ratings import PersonRatings, rule_key, valid_rule_key
from webapp.realtime.messages import GAME_ID_RE, RULES
from webapp.realtime.ratelimit import RateLimiter

bp = Blueprint("lobby", __name__)

SIZES = [15, 19, 20, 7, 9, 10, 11, 12, 13, 14, 16, 17, 18, 21, 22]
DEFAULT_RULE_KEY = rule_key("freestyle", 15)


def lobby() -> LobbyService:
    return current_app.extensions["lobby"]  # type: ignore[no-any-return]


def ratings() -> PersonRatings:
    return current_app.extensions["gomoku"].ratings  # type: ignore[no-any-return]


@bp.get("/lobby")
def lobby_page() -> str:
    return render_template(
        "lobby.html",
        rules=list(RULES),
        sizes=SIZES,
        presets=PRESET_NAMES,
        default_preset=DEFAULT_PRESET,
        openings=OPENINGS,
        seeks=lobby().seeks(),
        you=identity.current_visitor().id,
        lang=language_of(request),
    )


@bp.get("/lobby/go/<game_id>")
def go(game_id: str) -> BaseResponse:
    """Give the visitor the seat bound to them in a lobby game, then show the game."""
    if not GAME_ID_RE.match(game_id):
        raise NotFound()
    try:
        found = lobby().seat_secret(game_id, identity.current_visitor().id)
    except GameActionError:
        raise NotFound() from None
    response = redirect(f"/g/{game_id}")
    if found is not None:
        set_seat_cookie(
            response,  # type: ignore[arg-type]
            seat_cookie(game_id),
            found[1],
            secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
        )
    return response


def _rule_key_arg() -> str:
    key = request.args.get("rule", DEFAULT_RULE_KEY)
    if not valid_rule_key(key):
        raise BadRequestError(
            "'rule' must be a rule key such as freestyle-15",
            params={"field": "rule", "reason": "type"},
        )
    return key


@bp.get("/leaderboard")
def leaderboard_page() -> tuple[str, int]:
    try:
        key = _rule_key_arg()
    except BadRequestError:
        key = DEFAULT_RULE_KEY
    keys = ratings().rule_keys()
    if key not in keys:
        keys.append(key)
    rows = [r.to_json() for r in ratings().leaderboard(key)]
    page = render_template(
        "leaderboard.html",
        rule_key=key,
        rule_keys=keys,
        rows=rows,
        you=identity.current_visitor().id,
        lang=language_of(request),
    )
    return page, 200


@bp.get("/api/v1/seeks")
def seeks_json() -> Response:
    return jsonify({"seeks": lobby().seeks()})


@bp.get("/api/v1/leaderboard")
def leaderboard_json() -> Response:
    key = _rule_key_arg()
    return jsonify({"rule": key, "ratings": [r.to_json() for r in ratings().leaderboard(key)]})


@bp.errorhandler(GameActionError)
def _refused(error: GameActionError) -> tuple[Response, int]:
    return jsonify({"error": error.message, **error.to_json()}), error.http_status


def init_app(app: Flask, socketio: Any, limiter: RateLimiter | None = None) -> LobbyService:
    runtime = app.extensions["gomoku"]
    service = LobbyService(
        SeekRepo(runtime.store.engine),
        runtime.service,
        runtime.ratings,
        str(app.config["SECRET_KEY"]),
        emit=lambda event, payload, to: socketio.emit(
            event, payload, namespace=LOBBY_NAMESPACE, to=to
        ),
        grace_ms=int(app.config.get("LOBBY_GRACE_MS", 5_000)),
    )
    app.extensions["lobby"] = service
    socketio.on_namespace(LobbyNamespace(service, limiter))
    app.register_blueprint(bp)
    return service
