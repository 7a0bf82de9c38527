"""Sign up, log in and log out: ``/signup``, ``/login`` (forms) and ``POST /logout``.

Every POST is checked by ``csrf`` first. A refused form changes nothing and shows the
form again with the reason (400; 403 for the CSRF token; 409 for a taken username; 429
with ``Retry-After`` past the login rate limit of ``throttle``). Signing up turns the
anonymous visitor into the account's person: their games, name and ratings stay theirs
(a visitor still called by the generated ``Guest-NNNN`` is called by the username
instead), and the browser gets a fresh anonymous cookie for after a log-out. Logging in
opens a new session (``sessions``); a second device that logs in is the same person."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, current_app, redirect, render_template, request
from werkzeug.wrappers import Response as BaseResponse

from webapp.accounts import csrf, hashing, sessions
from webapp.accounts.repo import UsernameTakenError
from webapp.accounts.rules import AccountFormError, check_password, check_username
from webapp.accounts.throttle import LoginThrottle
from webapp.http.cookies import language_of
from webapp.players import identity

bp = Blueprint("auth", __name__)

Page = tuple[str, int, dict[str, str]]


def throttle() -> LoginThrottle:
    return current_app.extensions["login_throttle"]  # type: ignore[no-any-return]


def _form(template: str, status: int = 200, **context: Any) -> Page:
    headers = {}
    if "retry_after" in context:
        headers["Retry-After"] = str(context["retry_after"])
    page = render_template(
        f"accounts/{template}.html",
        lang=language_of(request),
        username=request.form.get("username", ""),
        **context,
    )
    return page, status, headers


def _refused(template: str, status: int, error: Exception, code: str, **context: Any) -> Page:
    return _form(template, status, error=str(error), error_code=code, **context)


def _profile_of(username: str) -> BaseResponse:
    return redirect(f"/u/{username}", code=303)


@bp.get("/signup")
def signup_form() -> Page:
    return _form("signup")


@bp.post("/signup")
def signup() -> BaseResponse | Page:
    try:
        csrf.check()
    except csrf.CsrfError as error:
        return _refused("signup", 403, error, "csrf")
    visitor = identity.current_visitor()
    if visitor.logged_in:
        return _refused("signup", 400, ValueError("log out first"), "logged_in")
    try:
        username = check_username(request.form.get("username"))
        password = check_password(request.form.get("password"), username)
        if request.form.get("password2") != password:
            raise AccountFormError("the two passwords differ", "password_mismatch", "password2")
    except AccountFormError as error:
        return _refused("signup", 400, error, error.code, field=error.field)
    try:
        name = identity.account_name(visitor, username)
        account = identity.people().create_account(
            username, hashing.hash_password(password), visitor.id, name
        )
    except UsernameTakenError as error:
        return _refused("signup", 409, error, "username_taken", field="username")
    response = _profile_of(account.username)
    sessions.open_session(response, account)
    identity.replace_visitor_cookie()
    return response


@bp.get("/login")
def login_form() -> Page:
    return _form("login")


@bp.post("/login")
def login() -> BaseResponse | Page:
    try:
        csrf.check()
    except csrf.CsrfError as error:
        return _refused("login", 403, error, "csrf")
    username = request.form.get("username", "")
    password = request.form.get("password", "")
    address = request.remote_addr or "unknown"
    limits = throttle()
    wait = limits.retry_after(address, username)
    if wait is not None:
        limited = ValueError(f"too many login attempts: try again in {wait} s")
        return _refused("login", 429, limited, "rate_limited", retry_after=wait)
    limits.attempt(address)
    repo = identity.people()
    account = repo.account_named(username) if isinstance(username, str) else None
    stored = account.password_hash if account is not None else hashing.DUMMY_HASH
    if not hashing.verify(stored, password) or account is None:
        limits.failure(username)
        wrong = ValueError("wrong username or password")
        return _refused("login", 400, wrong, "wrong_password")
    limits.success(username)
    if hashing.needs_rehash(account.password_hash):
        repo.set_password_hash(account.id, hashing.hash_password(password))
    response = _profile_of(account.username)
    sessions.open_session(response, account)
    return response


@bp.post("/logout")
def logout() -> BaseResponse | tuple[str, int]:
    try:
        csrf.check()
    except csrf.CsrfError as error:
        return render_template(
            "accounts/me.html",
            lang=language_of(request),
            name_max=identity.NAME_MAX_CHARS,
            error=str(error),
            error_code="csrf",
        ), 403
    response = redirect("/", code=303)
    sessions.close_session(response)
    return response


def init_app(app: Flask) -> None:
    app.extensions["login_throttle"] = LoginThrottle(
        int(app.config.get("LOGIN_PER_ADDRESS", 20)),
        int(app.config.get("LOGIN_PER_USERNAME", 5)),
        float(app.config.get("LOGIN_WINDOW_S", 600.0)),
    )
    app.register_blueprint(bp)
