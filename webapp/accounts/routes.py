"""The visitor's own pages: ``/me`` (display name, and the way to an account) with the
name form (``POST /me/name``), and ``GET /api/v1/me`` for scripts.

Forms are checked by ``csrf``; a refused form changes nothing and shows the page again
with the reason (400, or 403 for a bad CSRF token)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, jsonify, redirect, render_template, request
from werkzeug.wrappers import Response as BaseResponse

from webapp.accounts import auth, csrf, profile
from webapp.http.cookies import language_of
from webapp.players import identity

bp = Blueprint("accounts", __name__)


def _me_page(status: int = 200, **context: Any) -> tuple[str, int]:
    return render_template(
        "accounts/me.html",
        lang=language_of(request),
        name_max=identity.NAME_MAX_CHARS,
        **context,
    ), status


@bp.get("/me")
def me() -> tuple[str, int]:
    return _me_page(saved=request.args.get("saved") == "name")


@bp.post("/me/name")
def set_name() -> BaseResponse | tuple[str, int]:
    try:
        csrf.check()
    except csrf.CsrfError as error:
        return _me_page(403, error=str(error), error_code="csrf")
    try:
        identity.rename(request.form.get("name"))
    except identity.InvalidNameError as error:
        return _me_page(
            400, error=str(error), error_code="bad_name", typed=request.form.get("name", "")
        )
    return redirect("/me?saved=name", code=303)


@bp.get("/api/v1/me")
def me_json() -> Response:
    visitor = identity.current_visitor()
    return jsonify({"id": visitor.id, "name": visitor.name, "username": visitor.username})


def init_app(app: Flask) -> None:
    identity.init_app(app)
    csrf.init_app(app)
    app.register_blueprint(bp)
    auth.init_app(app)
    profile.init_app(app)
