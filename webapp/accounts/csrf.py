"""CSRF protection of the site's forms: a token per browser, checked on every form POST.

The token is an HMAC (the app's ``SECRET_KEY``) of the browser's own secret: the login
session's while logged in, else the anonymous ``visitor`` cookie's (``players.identity``).
Another site can neither read it nor make it, and it changes at login and logout with the
session. Templates put ``csrf_token()`` in a hidden ``csrf_token`` field; scripts may send
it as the ``X-CSRF-Token`` header. ``check`` also refuses a foreign ``Origin``."""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import urlparse

from flask import Flask, current_app, request

from webapp.players import identity

FIELD = "csrf_token"
HEADER = "X-CSRF-Token"


class CsrfError(PermissionError):
    """A form POST without this browser's token, or from another site."""


def _basis() -> str:
    session = identity.session_secret()
    return f"session:{session}" if session else f"visitor:{identity.visitor_secret()}"


def token() -> str:
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, f"csrf|{_basis()}".encode(), hashlib.sha256).hexdigest()


def check() -> None:
    """Raise ``CsrfError`` unless this request carries this browser's token and comes from
    this site (when the browser says where from)."""
    origin = request.headers.get("Origin")
    if origin is not None and urlparse(origin).netloc != request.host:
        raise CsrfError("this form can be sent from this site only")
    sent = request.form.get(FIELD) or request.headers.get(HEADER) or ""
    if not hmac.compare_digest(sent.encode(), token().encode()):
        raise CsrfError("the form expired or came from elsewhere: reload the page and try again")


def init_app(app: Flask) -> None:
    app.jinja_env.globals["csrf_token"] = token
