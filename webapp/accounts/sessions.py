"""Login sessions: a random secret in the ``account`` cookie (HttpOnly, SameSite=Lax,
Path=/, 30 days, Secure when ``SESSION_COOKIE_SECURE``), stored as its SHA-256 in
``account_sessions``.

Every login opens a new session and closes the one the browser had (so a session id
planted before the login is worth nothing: no session fixation); logging out deletes
the row, so a copied cookie dies with it. ``players.identity`` reads the cookie."""

from __future__ import annotations

from flask import current_app, request
from werkzeug.wrappers import Response

from webapp.accounts.repo import AccountRecord
from webapp.players import identity

SESSION_MAX_AGE_S = 30 * 24 * 3600


def open_session(response: Response, account: AccountRecord) -> None:
    _forget_current()
    secret = identity.new_secret()
    identity.people().open_session(account.id, identity.hash_secret(secret))
    response.set_cookie(
        identity.ACCOUNT_COOKIE,
        secret,
        max_age=SESSION_MAX_AGE_S,
        path="/",
        httponly=True,
        samesite="Lax",
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
    )


def close_session(response: Response) -> None:
    _forget_current()
    response.delete_cookie(
        identity.ACCOUNT_COOKIE,
        path="/",
        httponly=True,
        samesite="Lax",
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
    )


def _forget_current() -> None:
    secret = request.cookies.get(identity.ACCOUNT_COOKIE)
    if secret:
        identity.people().close_session(identity.hash_secret(secret))
