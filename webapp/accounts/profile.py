"""Profiles: ``/u/<username>`` for an account, ``/u/<person id>`` for a guest (a guest's
id is on their own page, ``/me``). The page lists the person's games with filters (mode,
rule, result; links to each game and its review), their results by rule and their rating
history as a chart (``static/js/profile.js`` draws it from the points in the page).
``GET /api/v1/people/<key>/games`` gives the same archive as JSON.

A guest's id that has done nothing yet has no profile (404); the person id of an account
redirects to the username's page."""

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

from webapp.accounts.archive import RESULTS, RULES, Filters, load_archive, rating_points
from webapp.accounts.rules import USERNAME_RE
from webapp.http.cookies import language_of
from webapp.players import identity

bp = Blueprint("profile", __name__)


def _person(key: str) -> tuple[str, str, str | None] | BaseResponse:
    """(person id, display name, username) of ``key``, or a redirect to its page."""
    repo = identity.people()
    if USERNAME_RE.match(key):
        account = repo.account_named(key)
        if account is None:
            raise NotFound()
        if account.username != key:
            return redirect(f"/u/{account.username}", code=301)
        record = repo.person(account.person_id)
        return account.person_id, record.name or account.username, account.username
    if identity.is_person_id(key):
        record = repo.person(key)
        if record.username is not None:
            return redirect(f"/u/{record.username}", code=301)
        if record.name is None:
            raise NotFound()
        return key, record.name, None
    raise NotFound()


@bp.get("/u/<key>")
def profile(key: str) -> BaseResponse | str:
    found = _person(key)
    if isinstance(found, BaseResponse):
        return found
    person_id, name, username = found
    filters = Filters.parse(request.args)
    engine = current_app.extensions["gomoku"].store.engine
    archive = load_archive(engine, person_id, filters)
    return render_template(
        "accounts/profile.html",
        lang=language_of(request),
        key=key,
        name=name,
        username=username,
        is_me=identity.current_visitor().id == person_id,
        archive=archive,
        filters=filters,
        rules=RULES,
        results=RESULTS,
        points=rating_points(engine, person_id),
    )


@bp.get("/api/v1/people/<key>/games")
def games_json(key: str) -> BaseResponse | tuple[Response, int]:
    try:
        found = _person(key)
    except NotFound:
        return jsonify({"error": "no such person"}), 404
    if isinstance(found, BaseResponse):
        found = _person(found.location.rsplit("/", 1)[-1])
        assert not isinstance(found, BaseResponse)
    person_id, name, username = found
    engine = current_app.extensions["gomoku"].store.engine
    archive = load_archive(engine, person_id, Filters.parse(request.args))
    body: dict[str, Any] = {
        "id": person_id,
        "name": name,
        "username": username,
        "total": archive.total,
        "pages": archive.pages,
        "games": [game.to_json() for game in archive.games],
        "by_rule": [vars(tally) for tally in archive.by_rule],
        "ratings": rating_points(engine, person_id),
    }
    return jsonify(body), 200


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
