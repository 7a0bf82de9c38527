"""HTML pages: home, a game (which also hands out the free seat of a waiting friend
game), the PSQ download, the language switch and the 404 page.

Templates live in the top-level ``templates/`` folder and read only the context given
here; the interface strings themselves are in ``static/js/strings.js``."""

from __future__ import annotations

from urllib.parse import urlparse

from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
)
from werkzeug.exceptions import HTTPException, NotFound, RequestEntityTooLarge
from werkzeug.wrappers import Response as BaseResponse

from engine.search.levels import LEVELS
from webapp.game.errors import GameActionError
from webapp.game.psq import format_psq
from webapp.game.seat_keys import seat_cookie
from webapp.game.service import GameService
from webapp.http.cookies import LANGUAGES, language_of, set_seat_cookie
from webapp.http.link_preview import meta_for_game
from webapp.http.security import same_site_path
from webapp.lobby.presets import DEFAULT_PRESET, PRESET_NAMES
from webapp.players import identity
from webapp.realtime.messages import GAME_ID_RE, RULES

bp = Blueprint("pages", __name__)

SIZES = [15, 19, 20, 7, 9, 10, 11, 12, 13, 14, 16, 17, 18, 21, 22]


def service() -> GameService:
    return current_app.extensions["gomoku"].service  # type: ignore[no-any-return]


@bp.get("/")
def home() -> str:
    levels = [
        {"number": lv.number, "name": lv.name, "description": lv.description}
        for lv in LEVELS.values()
    ]
    return render_template(
        "home.html",
        levels=levels,
        rules=list(RULES),
        sizes=SIZES,
        live_games=service().live_games(20),
        presets=PRESET_NAMES,
        default_preset=DEFAULT_PRESET,
        lang=language_of(request),
    )


@bp.get("/g/<game_id>")
def game(game_id: str) -> Response:
    """The game page. Visiting never takes a seat (a link preview must not become the
    opponent): the page offers the free seat, taken by ``take_seat``."""
    if not GAME_ID_RE.match(game_id):
        raise NotFound()
    games = service()
    try:
        state, cookie = games.page_state(game_id, request.cookies)
    except GameActionError:
        raise NotFound() from None
    response = make_response(
        render_template(
            "game.html",
            game_id=game_id,
            state=state,
            lang=language_of(request),
            meta=meta_for_game(state, game_id),
        )
    )
    if cookie is not None:
        set_seat_cookie(
            response, *cookie, secure=bool(current_app.config.get("SESSION_COOKIE_SECURE"))
        )
    return response


@bp.post("/g/<game_id>/seat")
def take_seat(game_id: str) -> tuple[Response, int]:
    """Take the free seat, or turn the secret a socket's ``take_seat`` returned into the
    seat cookie: a JSON request from this site only."""
    if not GAME_ID_RE.match(game_id):
        raise NotFound()
    origin = request.headers.get("Origin")
    if origin is not None and urlparse(origin).netloc != request.host:
        return _refused(GameActionError("a seat is taken from this site only",
                                        code="forbidden_origin"), 403)  # fmt: skip
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return _refused(GameActionError("send a JSON object", code="bad_request"), 400)
    token = body.get("token")
    try:
        if token is None:
            visitor = identity.current_visitor()
            _, seat, token = service().take_seat(game_id, request.cookies, visitor.person)
            identity.remember(visitor)
        else:
            found = service().seat_of_token(game_id, token)
            if found is None:
                return _refused(GameActionError("that is not a seat of this game",
                                                code="not_a_player"), 403)  # fmt: skip
            seat = found
    except GameActionError as error:
        return _refused(error, error.http_status)
    response = jsonify({"seat": seat.value})
    set_seat_cookie(
        response,
        seat_cookie(game_id),
        str(token),
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
    )
    return response, 200


def _refused(error: GameActionError, status: int) -> tuple[Response, int]:
    return jsonify({"error": error.message, **error.to_json()}), status


@bp.get("/g/<game_id>/psq")
def game_psq(game_id: str) -> Response:
    if not GAME_ID_RE.match(game_id):
        raise NotFound()
    try:
        game = service().load(game_id)
    except GameActionError:
        raise NotFound() from None
    times = [m.figures.time_ms if m.figures else 0 for m in game.moves]
    text = format_psq(game.size, game.points, times)
    response = make_response(text)
    response.mimetype = "text/plain"
    response.headers["Content-Disposition"] = f'attachment; filename="gomoku-{game_id}.psq"'
    return response


@bp.get("/lang/<code>")
def set_language(code: str) -> BaseResponse:
    response = redirect(same_site_path(request.referrer, request.host))
    if code in LANGUAGES:
        response.set_cookie("lang", code, max_age=365 * 24 * 3600, path="/", samesite="Lax")
    return response


def _not_found(error: HTTPException) -> tuple[Response | str, int]:
    if request.path.startswith("/api/"):
        return jsonify({"error": "not found"}), 404
    return render_template("404.html", lang=language_of(request)), 404


def _too_large(error: HTTPException) -> tuple[Response | str, int]:
    if request.path.startswith("/api/"):
        return jsonify({"error": "the request body is too large"}), 400
    return "request body too large", 413


def _method_not_allowed(error: HTTPException) -> tuple[Response | str, int]:
    if request.path.startswith("/api/"):
        return jsonify({"error": "method not allowed"}), 405
    return "method not allowed", 405


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.register_error_handler(404, _not_found)
    app.register_error_handler(RequestEntityTooLarge, _too_large)
    app.register_error_handler(405, _method_not_allowed)
