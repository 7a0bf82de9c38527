"""Who the visitor is: a lasting person id and a display name for every browser.

Every browser gets a random secret in the ``visitor`` cookie (HttpOnly, SameSite=Lax,
Path=/, one year, Secure when ``SESSION_COOKIE_SECURE``). The visitor's **person id** is
``v`` and 23 hex digits of the secret's SHA-256: public (it is stored with the seats and
names profiles) while the cookie stays the only key to it. The **display name** is stored
server-side (``storage.people_tables.Visitor``); until the visitor picks one it is
``Guest-NNNN``, drawn from the id. A visitor logged in to an account (the ``account``
cookie, see ``accounts.sessions``) is the account's person instead: the person id of
whoever signed up, so their games and ratings stay theirs.

Reading an identity writes nothing: a link preview's GET or HEAD only gets the cookie.
The visitor's row is written when they act (``remember``: creating a game, taking a seat;
``rename``).

The API, for HTTP handlers (Flask request context)::

    visitor = current_visitor()     # always a Visitor; a new id for a first visit
    visitor.id, visitor.name, visitor.username, visitor.person  # Person(id, name) for seats
    remember(visitor)               # keep the row, once the visitor does something
    rename("Ada")                   # validated (``validate_name``), raises InvalidNameError

and for Socket.IO handlers, which see the cookies of the connection's handshake::

    visitor = socket_visitor()      # Visitor, or None for a client without a visitor cookie
    visitor_of(cookies)             # the same from any cookie mapping

Templates get ``visitor`` (the current Visitor). Names are plain text: templates escape
them (Jinja's autoescape) and scripts set them as text, never as HTML."""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, current_app, g, request

from webapp.accounts.repo import PeopleRepo
from webapp.game.types import Person

VISITOR_COOKIE = "visitor"
ACCOUNT_COOKIE = "account"
COOKIE_MAX_AGE_S = 365 * 24 * 3600
NAME_MAX_CHARS = 24

_SECRET_RE = re.compile(r"^[A-Za-z0-9_-]{32}$")
_PERSON_ID_RE = re.compile(r"^v[0-9a-f]{23}$")


class InvalidNameError(ValueError):
    """A display name that is empty, too long, or holds invisible or control characters."""


@dataclass(frozen=True)
class Visitor:
    """The person behind a request: ``id`` (the person id), ``name`` (display name) and
    ``username`` when logged in to an account."""

    id: str
    name: str
    username: str | None = None

    @property
    def person(self) -> Person:
        return Person(self.id, self.name)

    @property
    def logged_in(self) -> bool:
        return self.username is not None


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def person_id_of(secret: str) -> str:
    return "v" + hashlib.sha256(secret.encode()).hexdigest()[:23]


def is_person_id(text: str) -> bool:
    return bool(_PERSON_ID_RE.match(text))


def default_name(person_id: str) -> str:
    """``Guest-NNNN``, the same for a person id every time."""
    digits = int(hashlib.sha256(person_id.encode()).hexdigest()[:8], 16) % 9000 + 1000
    return f"Guest-{digits}"


def account_name(visitor: Visitor, username: str) -> str:
    """The display name of the account ``visitor`` signs up for: the name they chose, or
    ``username`` in place of the generated ``Guest-NNNN``."""
    return username if visitor.name == default_name(visitor.id) else visitor.name


def validate_name(text: Any) -> str:
    """The display name ``text`` asks for (spaces trimmed and runs of them made one), or
    ``InvalidNameError``: 1 to 24 characters, no control, format or unassigned characters
    (so nothing invisible or direction-changing)."""
    if not isinstance(text, str):
        raise InvalidNameError("the name must be text")
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name:
        raise InvalidNameError("the name is empty")
    if len(name) > NAME_MAX_CHARS:
        raise InvalidNameError(f"the name is longer than {NAME_MAX_CHARS} characters")
    if any(unicodedata.category(char).startswith("C") for char in name):
        raise InvalidNameError("the name holds invisible or control characters")
    return name


def people() -> PeopleRepo:
    return current_app.extensions["people"]  # type: ignore[no-any-return]


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _valid_secret(value: str | None) -> str | None:
    return value if value and _SECRET_RE.match(value) else None


def visitor_of(cookies: Mapping[str, str]) -> Visitor | None:
    """The visitor these cookies name: the account of a live login session first, else the
    anonymous visitor of the ``visitor`` cookie; None without either (or when that cookie
    belongs to a person who is now an account: it was replaced at sign-up)."""
    repo = people()
    session = _valid_secret(cookies.get(ACCOUNT_COOKIE))
    if session is not None:
        account = repo.session_account(hash_secret(session))
        if account is not None:
            record = repo.person(account.person_id)
            name = record.name or default_name(account.person_id)
            return Visitor(account.person_id, name, account.username)
    secret = _valid_secret(cookies.get(VISITOR_COOKIE))
    if secret is None:
        return None
    person_id = person_id_of(secret)
    record = repo.person(person_id)
    if record.username is not None:
        return None
    return Visitor(person_id, record.name or default_name(person_id))


def current_visitor() -> Visitor:
    """The visitor of this HTTP request; a first visit gets a new id, its cookie set on
    the response (nothing is stored)."""
    cached = g.get("visitor")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    visitor = visitor_of(request.cookies)
    if visitor is None:
        secret = new_secret()
        g.new_visitor_secret = secret
        person_id = person_id_of(secret)
        visitor = Visitor(person_id, default_name(person_id))
    g.visitor = visitor
    return visitor


def socket_visitor() -> Visitor | None:
    """The visitor of a Socket.IO event (from the handshake's cookies)."""
    return visitor_of(request.cookies)


def visitor_secret() -> str:
    """The secret of this request's anonymous identity (the cookie's, or the new one set
    on the response): what anonymous forms' CSRF tokens are bound to."""
    current_visitor()
    fresh = g.get("new_visitor_secret")
    if fresh is not None:
        return str(fresh)
    secret = _valid_secret(request.cookies.get(VISITOR_COOKIE))
    if secret is None:
        secret = new_secret()
        g.new_visitor_secret = secret
    return secret


def session_secret() -> str | None:
    """The secret of this request's live login session, None when not logged in."""
    secret = _valid_secret(request.cookies.get(ACCOUNT_COOKIE))
    if secret is None or not current_visitor().logged_in:
        return None
    return secret


def remember(visitor: Visitor) -> None:
    """Store the visitor's row (their name), now that they do something."""
    people().remember(visitor.id, visitor.name)


def rename(text: Any) -> Visitor:
    """Give the current visitor the display name ``text`` (see ``validate_name``)."""
    name = validate_name(text)
    visitor = current_visitor()
    people().set_name(visitor.id, name)
    g.visitor = Visitor(visitor.id, name, visitor.username)
    return g.visitor  # type: ignore[no-any-return]


def replace_visitor_cookie() -> None:
    """Give this browser a new anonymous identity (at sign-up and log-out, so that the
    old cookie no longer stands for the account)."""
    g.new_visitor_secret = new_secret()
    g.pop("visitor", None)


def set_visitor_cookie(response: Response, secret: str) -> None:
    response.set_cookie(
        VISITOR_COOKIE,
        secret,
        max_age=COOKIE_MAX_AGE_S,
        path="/",
        httponly=True,
        samesite="Lax",
        secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
    )


def _set_cookie(response: Response) -> Response:
    """Send the visitor cookie when it is new, and keep it lasting on every page."""
    if request.endpoint == "static" or response.status_code >= 400:
        return response  # a refusal changes nothing, not even the cookies
    page = response.mimetype == "text/html" and response.status_code == 200
    if page:
        current_visitor()
    fresh = g.get("new_visitor_secret")
    if fresh is None and page:
        fresh = _valid_secret(request.cookies.get(VISITOR_COOKIE))
    if fresh is not None:
        set_visitor_cookie(response, str(fresh))
    return response


def _template_values() -> dict[str, Any]:
    return {"visitor": current_visitor()}


def init_app(app: Flask) -> None:
    app.extensions["people"] = PeopleRepo(app.extensions["gomoku"].store.engine)
    app.after_request(_set_cookie)
    app.context_processor(_template_values)
