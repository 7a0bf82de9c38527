"""What a shared link looks like where it is shared: the Open Graph and Twitter card
tags of a page (``meta_for_game``, ``site_meta``), the picture of a game's position
(``GET /g/<id>/card.png``), the site's own card, and the icons browsers, phones and
crawlers ask for by fixed names (``/favicon.ico``, ``/apple-touch-icon.png``,
``/robots.txt``), and the web app manifest a phone reads to add the site to its home
screen.

Chat apps unfurl a link with a GET or a HEAD and no cookies; nothing here takes a seat,
starts engine work or writes anything. A card is drawn once per position (its game and
version) and then served from a small cache, with an ETag so that repeated unfurls are
answered with 304."""

from __future__ import annotations

import json
from collections import OrderedDict
from functools import lru_cache
from threading import Lock
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request, url_for
from werkzeug.exceptions import NotFound

from webapp.game.errors import GameActionError
from webapp.http.board_png import card_png, ico, icon_png
from webapp.realtime.messages import GAME_ID_RE

bp = Blueprint("link_preview", __name__)

SITE_NAME = "Gomoku · 五子棋"
SITE_DESCRIPTION = (
    "Play Gomoku (five in a row) against a strong AI, with a friend by link, or watch "
    "AI-vs-AI games live. Freestyle, standard and renju, boards from 7 to 22."
)
CARD_CACHE_SIZE = 128
RULE_NAMES = {"freestyle": "Freestyle", "standard": "Standard", "renju": "Renju"}
# A short opening, drawn on the site's card.
SITE_CARD_MOVES = ((7, 7), (8, 6), (8, 8), (6, 8), (9, 9), (10, 10), (7, 9), (6, 10), (9, 7))


class CardCache:
    """The last ``limit`` game pictures drawn, by game and version (one per app)."""

    def __init__(self, limit: int = CARD_CACHE_SIZE) -> None:
        self.limit = limit
        self._cards: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._lock = Lock()

    def get(self, key: tuple[str, int]) -> bytes | None:
        with self._lock:
            data = self._cards.get(key)
            if data is not None:
                self._cards.move_to_end(key)
            return data

    def put(self, key: tuple[str, int], data: bytes) -> None:
        with self._lock:
            self._cards[key] = data
            while len(self._cards) > self.limit:
                self._cards.popitem(last=False)


def _public_base() -> str | None:
    """``PUBLIC_URL`` without its trailing slash: the address people use, such as
    ``https://gomoku.example`` behind a proxy; None when unset (the request's host is used)."""
    base = current_app.config.get("PUBLIC_URL")
    return str(base).rstrip("/") if base else None


def _external(endpoint: str, **values: Any) -> str:
    """An absolute URL for a card, on the public address when there is one."""
    base = _public_base()
    return (
        base + url_for(endpoint, **values) if base else url_for(endpoint, _external=True, **values)
    )


def _moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def _player_name(state: dict[str, Any], seat: str) -> str:
    player = state["players"][seat]
    if player.get("open"):
        return "(open seat)"
    return str(player.get("name") or seat.capitalize())


def _outcome(state: dict[str, Any]) -> str:
    result = state.get("result") or {}
    winner = result.get("winner")
    moves = len(state["moves"])
    how = {
        "five": " with five in a row",
        "resign": " by resignation",
        "flag": " on time",
        "abandon": " as the opponent left",
        "forbidden": " on a forbidden point",
        "forfeit": " by forfeit",
    }.get(str(result.get("termination")), "")
    if result.get("termination") == "aborted":
        detail = result.get("detail")
        if detail == "unplayed":
            return "Aborted: nobody moved."
        if detail == "unanswered":
            return "Aborted: the first move went unanswered."
        return "Aborted."
    if winner is None:
        return f"Drawn after {_moves(moves)}."
    return f"{_player_name(state, winner)} ({winner}) won{how} in {_moves(moves)}."


def meta_for_game(state: dict[str, Any], game_id: str) -> dict[str, str]:
    """The card of a game page: who plays whom, where the game stands, its picture."""
    black, white = _player_name(state, "black"), _player_name(state, "white")
    rule = RULE_NAMES.get(str(state["rule"]), str(state["rule"]).capitalize())
    setting = f"{rule}, {state['size']}\u00d7{state['size']}"
    moves = len(state["moves"])
    if state["status"] == "waiting":
        host = next(
            (_player_name(state, s) for s in ("black", "white") if not state["players"][s]["open"]),
            "A player",
        )
        title = f"{host} invites you to a game of Gomoku"
        description = f"{setting}. Open the link to take the free seat and play."
    elif state["status"] == "finished":
        title = f"{black} vs {white} · Gomoku"
        description = f"{setting}. {_outcome(state)} Replay the game move by move."
    else:
        turn = str(state.get("turn") or "black")
        title = f"{black} vs {white} · Gomoku"
        description = (
            f"{setting}. Live: {_moves(moves)} played, {turn} to play. Open the link to watch."
            if moves
            else f"{setting}. Live, about to start. Open the link to watch."
        )
    version = int(state.get("version") or 0)
    return {
        "title": title,
        "description": description,
        "url": _external("pages.game", game_id=game_id),
        "image": _external("link_preview.game_card", game_id=game_id, v=version),
        "image_alt": f"The board after {_moves(moves)}" if moves else "An empty board",
    }


def _page_url() -> str:
    base = _public_base()
    return base + request.path if base else request.base_url


def site_meta() -> dict[str, str]:
    """The card of every other page: the site itself."""
    return {
        "title": SITE_NAME,
        "description": SITE_DESCRIPTION,
        "url": _page_url(),
        "image": _external("link_preview.site_card"),
        "image_alt": "A Gomoku board",
    }


def _png(data: bytes, etag: str, max_age: int) -> Response:
    """``data`` as a cacheable PNG, or 304 when the client already has this ``etag``."""
    response = Response(data, mimetype="image/png")
    response.set_etag(etag)
    response.cache_control.public = True
    response.cache_control.max_age = max_age
    response.make_conditional(request)
    return response


@bp.get("/g/<game_id>/card.png")
def game_card(game_id: str) -> Response:
    """The game's position as a 1200x630 picture, the last stone marked and a winning
    line struck through."""
    if not GAME_ID_RE.match(game_id):
        raise NotFound()
    try:
        game = current_app.extensions["gomoku"].service.load(game_id)
    except GameActionError:
        raise NotFound() from None
    key = (game_id, int(game.version))
    cache: CardCache = current_app.extensions["link_cards"]
    data = cache.get(key)
    if data is None:
        line = game.result.line if game.result is not None else ()
        data = card_png(game.size, list(game.points), line)
        cache.put(key, data)
    # A finished game's picture never changes; a live one's does with every move.
    finished = game.result is not None
    return _png(data, f"{game_id}-{key[1]}", 86_400 if finished else 30)


@lru_cache(maxsize=1)
def _site_card() -> bytes:
    return card_png(15, SITE_CARD_MOVES)


ICON_SIZES = (32, 180, 192, 512)


@lru_cache(maxsize=len(ICON_SIZES))
def _icon(pixels: int) -> bytes:
    return icon_png(pixels)


@bp.get("/card.png")
def site_card() -> Response:
    return _png(_site_card(), "site-card-1", 86_400)


@bp.get("/favicon.ico")
def favicon() -> Response:
    response = _png(ico(_icon(32), 32), "favicon-1", 7 * 86_400)
    response.mimetype = "image/x-icon"
    return response


@bp.get("/apple-touch-icon.png")
def touch_icon() -> Response:
    return _png(_icon(180), "touch-icon-1", 7 * 86_400)


@bp.get("/icon-<int:pixels>.png")
def app_icon(pixels: int) -> Response:
    """The site's mark at the sizes the web app manifest lists."""
    if pixels not in (192, 512):
        raise NotFound()
    return _png(_icon(pixels), f"icon-{pixels}-1", 7 * 86_400)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """What a phone needs to add the site to its home screen as an app of its own."""
    body = {
        "name": "Gomoku · 五子棋",
        "short_name": "Gomoku",
        "description": SITE_DESCRIPTION,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#1d1c1a",
        "theme_color": "#1d1c1a",
        "icons": [
            {"src": f"/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png", "purpose": "any"}
            for n in (192, 512)
        ],
    }
    response = Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")
    response.cache_control.max_age = 86_400
    return response


@bp.get("/robots.txt")
def robots() -> Response:
    """Pages may be crawled; the JSON API and the downloads are not for crawlers."""
    text = "User-agent: *\nDisallow: /api/\nDisallow: /g/*/psq\nDisallow: /lang/\n"
    response = Response(text, mimetype="text/plain")
    response.cache_control.max_age = 86_400
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.extensions["link_cards"] = CardCache()

    @app.context_processor
    def _default_meta() -> dict[str, Any]:
        return {"site_meta": site_meta}
