"""Seat secrets: a human seat belongs to whoever holds its secret, kept in the HttpOnly
cookie ``seat_<game id>``; the store keeps only the secret's SHA-256.

A rematch shares its players' secrets with the game it follows, so that game's cookie
opens the rematch's seat too. The service and the page and socket layers call these."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping

from webapp.game.model import Game
from webapp.game.types import Seat

MAX_TOKEN_CHARS = 200


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def new_game_id() -> str:
    return secrets.token_urlsafe(6)


def seat_cookie(game_id: str) -> str:
    return f"seat_{game_id}"


def seat_of_token(game: Game, token: str | None) -> Seat | None:
    """The seat whose secret is ``token``."""
    if not token or len(token) > MAX_TOKEN_CHARS:
        return None
    digest = hash_token(token)
    for seat, info in game.seats.items():
        if info.token_hash and hmac.compare_digest(info.token_hash, digest):
            return seat
    return None


def seat_from_cookies(game: Game, cookies: Mapping[str, str]) -> Seat | None:
    """The seat whose secret is in the visitor's cookies (this game's, or the cookie of
    the game this one is a rematch of)."""
    names = [seat_cookie(game.id)]
    if game.rematch_of:
        names.append(seat_cookie(game.rematch_of))
    for name in names:
        seat = seat_of_token(game, cookies.get(name))
        if seat is not None:
            return seat
    return None
