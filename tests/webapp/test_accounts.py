"""Accounts: sign-up, log-in and log-out with Argon2id hashes, password and username rules,
the login rate limit, CSRF tokens on every form, a new session at every login, and an
anonymous visitor who signs up keeping their games (on every device they log in from)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from socket_helpers import create_game
from sqlalchemy import text

from webapp.accounts import hashing
from webapp.accounts.throttle import LoginThrottle

PASSWORD = "correct horse battery"


def csrf_of(client: Any, path: str) -> str:
    page = client.get(path).get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([0-9a-f]+)"', page)
    assert found, f"no CSRF field on {path}"
    return found.group(1)


def me(client: Any) -> dict[str, Any]:
    return dict(client.get("/api/v1/me").get_json())


def signup(client: Any, username: str, password: str = PASSWORD, **extra: Any) -> Any:
    form = {"username": username, "password": password, "password2": password}
    form.update(extra)
    form.setdefault("csrf_token", csrf_of(client, "/signup"))
    return client.post("/signup", data=form)


def login(client: Any, username: str, password: str = PASSWORD, address: str = "127.0.0.1") -> Any:
    token = csrf_of(client, "/login")
    return client.post(
        "/login",
        data={"username": username, "password": password, "csrf_token": token},
        environ_base={"REMOTE_ADDR": address},
    )


def logout(client: Any) -> Any:
    return client.post("/logout", data={"csrf_token": csrf_of(client, "/me")})


def count(app: Any, table: str) -> int:
    with app.extensions["gomoku"].store.engine.connect() as connection:
        return int(connection.execute(text(f"SELECT count(*) FROM {table}")).scalar())


def cookie_header(reply: Any, name: str) -> str:
    for header in reply.headers.getlist("Set-Cookie"):
        if header.startswith(f"{name}="):
            return str(header)
    raise AssertionError(f"no {name} cookie")


def test_signup_logs_in_and_keeps_the_guests_games(app: Any, client: Any) -> None:
    client.get("/")
    guest = me(client)
    game_id = create_game(client, mode="ai", color="black", level=1)
    reply = signup(client, "Ada_99")
    assert reply.status_code == 303 and reply.headers["Location"] == "/u/Ada_99"
    session = cookie_header(reply, "account")
    assert "HttpOnly" in session and "SameSite=Lax" in session and "Path=/" in session
    # A fresh anonymous cookie for after a log-out.
    assert "visitor=" in " ".join(reply.headers.getlist("Set-Cookie"))
    now = me(client)
    assert now["id"] == guest["id"] and now["username"] == "Ada_99"
    assert guest["name"].startswith("Guest-") and now["name"] == "Ada_99"
    record = app.extensions["gomoku"].store.load(game_id)
    assert record.seats["black"].player_id == now["id"]
    # The stored hash is Argon2id, never the password.
    with app.extensions["gomoku"].store.engine.connect() as connection:
        stored = connection.execute(text("SELECT password_hash FROM accounts")).scalar()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert hashing.verify(stored, PASSWORD) and not hashing.verify(stored, "wrong")


def test_the_username_replaces_the_generated_guest_name_everywhere(client: Any) -> None:
    client.get("/")
    guest = me(client)["name"]
    create_game(client, mode="ai", color="black", level=1)  # the guest's row is stored
    assert signup(client, "Hopper").status_code == 303
    assert me(client)["name"] == "Hopper"
    for page in ("/", "/me", "/u/Hopper"):
        html = client.get(page).get_data(as_text=True)
        assert "Hopper" in html and guest not in html, page
    profile = client.get("/u/Hopper").get_data(as_text=True)
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", profile, re.S)
    assert heading is not None and "Hopper" in heading.group(1)


def test_a_name_the_guest_chose_stays_at_sign_up(client: Any) -> None:
    client.get("/")
    token = csrf_of(client, "/me")
    assert client.post("/me/name", data={"name": "Ada L.", "csrf_token": token}).status_code == 303
    assert signup(client, "Lovelace").status_code == 303
    assert me(client)["name"] == "Ada L." and me(client)["username"] == "Lovelace"


def test_a_taken_username_leaves_the_guest_name_alone(app: Any, client: Any) -> None:
    assert signup(client, "Taken").status_code == 303
    other = app.test_client()
    other.get("/")
    guest = me(other)["name"]
    create_game(other, mode="ai", color="black", level=1)
    assert signup(other, "taken").status_code == 409
    assert me(other)["name"] == guest and me(other)["username"] is None


def test_a_second_device_is_the_same_person(app: Any, client: Any) -> None:
    client.get("/")
    game_id = create_game(client, mode="friend", color="white")
    assert signup(client, "Grace").status_code == 303
    person = me(client)["id"]
    phone = app.test_client()
    phone.get("/")
    assert me(phone)["id"] != person
    reply = login(phone, "grace")  # usernames ignore case
    assert reply.status_code == 303 and reply.headers["Location"] == "/u/Grace"
    assert me(phone) == me(client)
    profile = phone.get("/u/Grace").get_data(as_text=True)
    assert f"/g/{game_id}" in profile


def test_logout_ends_the_session_and_returns_a_new_guest(app: Any, client: Any) -> None:
    client.get("/")
    guest = me(client)["id"]
    signup(client, "Linus")
    session_cookie = client.get_cookie("account").value
    reply = logout(client)
    assert reply.status_code == 303
    assert "account=;" in cookie_header(reply, "account")
    after = me(client)
    assert after["username"] is None and after["id"] != guest
    assert count(app, "account_sessions") == 0
    # A copy of the old session cookie is worth nothing now.
    thief = app.test_client()
    thief.set_cookie("account", session_cookie)
    assert me(thief)["username"] is None
    # Nor is the visitor cookie the browser had before signing up.
    assert me(thief)["id"] != guest


def test_logout_needs_the_csrf_token(app: Any, client: Any) -> None:
    signup(client, "Barbara")
    assert client.post("/logout").status_code == 403
    assert client.post("/logout", data={"csrf_token": "f" * 64}).status_code == 403
    assert me(client)["username"] == "Barbara"


def test_login_rotates_the_session(app: Any, client: Any) -> None:
    signup(client, "Edsger")
    first = client.get_cookie("account").value
    # A session cookie planted in the browser before the login is replaced.
    reply = login(client, "Edsger")
    assert reply.status_code == 303
    second = client.get_cookie("account").value
    assert second != first
    stale = app.test_client()
    stale.set_cookie("account", first)
    assert me(stale)["username"] is None
    assert count(app, "account_sessions") == 1
    planted = app.test_client()
    planted.set_cookie("account", "A" * 32)
    login(planted, "Edsger")
    assert planted.get_cookie("account").value != "A" * 32
    assert me(planted)["username"] == "Edsger"


def test_wrong_passwords_and_unknown_users(app: Any, client: Any) -> None:
    signup(client, "Alan")
    other = app.test_client()
    for username, password in (("Alan", "not the password"), ("Nobody", PASSWORD), ("", "")):
        reply = login(other, username, password)
        assert reply.status_code == 400
        page = reply.get_data(as_text=True)
        assert 'data-code="wrong_password"' in page
        assert "account" not in reply.headers.get("Set-Cookie", "")
        assert me(other)["username"] is None


@pytest.mark.parametrize(
    ("username", "password", "password2", "code"),
    [
        ("ab", PASSWORD, PASSWORD, "bad_username"),
        ("9lives", PASSWORD, PASSWORD, "bad_username"),
        ("has space", PASSWORD, PASSWORD, "bad_username"),
        ("<script>", PASSWORD, PASSWORD, "bad_username"),
        ("x" * 21, PASSWORD, PASSWORD, "bad_username"),
        ("Admin", PASSWORD, PASSWORD, "reserved_username"),
        ("Ken", "short", "short", "short_password"),
        ("Ken", "p" * 129, "p" * 129, "long_password"),
        ("Ken", "ken-is-great", "ken-is-great", "password_has_username"),
        ("Ken", "password123", "password123", "common_password"),
        ("Ken", "aaaaaaaaaa", "aaaaaaaaaa", "common_password"),
        ("Ken", PASSWORD, PASSWORD + "!", "password_mismatch"),
    ],
)
def test_signup_rules(
    app: Any, client: Any, username: str, password: str, password2: str, code: str
) -> None:
    reply = signup(client, username, password, password2=password2)
    assert reply.status_code == 400
    page = reply.get_data(as_text=True)
    assert f'data-code="{code}"' in page
    assert "<script>" not in page
    assert count(app, "accounts") == 0 and count(app, "visitors") == 0
    assert me(client)["username"] is None


def test_a_taken_username_is_refused_whatever_its_case(app: Any, client: Any) -> None:
    assert signup(client, "Donald").status_code == 303
    other = app.test_client()
    reply = signup(other, "DONALD")
    assert reply.status_code == 409
    assert 'data-code="username_taken"' in reply.get_data(as_text=True)
    assert count(app, "accounts") == 1
    # Signed in already: log out first.
    reply = signup(client, "Another")
    assert reply.status_code == 400 and count(app, "accounts") == 1


def test_every_form_needs_its_csrf_token(app: Any, client: Any) -> None:
    client.get("/")
    form = {"username": "Mallory", "password": PASSWORD, "password2": PASSWORD}
    assert client.post("/signup", data=form).status_code == 403
    assert client.post("/signup", data={**form, "csrf_token": "0" * 64}).status_code == 403
    # A token from another browser does not fit.
    stranger = app.test_client()
    assert signup(client, "Mallory", csrf_token=csrf_of(stranger, "/signup")).status_code == 403
    # The right token sent from another site is refused too.
    reply = client.post(
        "/signup",
        data={**form, "csrf_token": csrf_of(client, "/signup")},
        headers={"Origin": "https://evil.example"},
    )
    assert reply.status_code == 403
    assert count(app, "accounts") == 0
    signup(client, "Mallory")
    other = app.test_client()
    other.get("/")
    assert (
        other.post("/login", data={"username": "Mallory", "password": PASSWORD}).status_code == 403
    )
    assert me(other)["username"] is None
    # The JSON API's same-origin callers need no token.
    assert client.post("/api/v1/games", json={"mode": "ai", "level": 1}).status_code == 201


def test_the_token_changes_with_the_session(client: Any) -> None:
    before = csrf_of(client, "/me")
    signup(client, "Niklaus")
    during = csrf_of(client, "/me")
    assert during != before
    logout(client)
    assert csrf_of(client, "/me") not in (before, during)


def test_the_login_rate_limit(app_factory: Any) -> None:
    app = app_factory(LOGIN_PER_USERNAME=3, LOGIN_PER_ADDRESS=6)
    owner = app.test_client()
    assert signup(owner, "Barbara").status_code == 303
    attacker = app.test_client()
    for _ in range(3):
        assert login(attacker, "Barbara", "guess-guess").status_code == 400
    reply = login(attacker, "Barbara", PASSWORD)
    assert reply.status_code == 429
    assert int(reply.headers["Retry-After"]) > 0
    assert 'data-code="rate_limited"' in reply.get_data(as_text=True)
    assert me(attacker)["username"] is None
    # The username is locked from everywhere; other usernames are not.
    assert login(app.test_client(), "barbara", PASSWORD, "10.0.0.9").status_code == 429
    other = app.test_client()
    assert signup(other, "Grace").status_code == 303
    assert login(app.test_client(), "Grace", PASSWORD, "10.0.0.9").status_code == 303
    # Per address: six attempts of any usernames, then 429.
    prober = app.test_client()
    codes = [login(prober, f"user{n}", "whatever-pw", "10.0.0.7").status_code for n in range(7)]
    assert codes[:6] == [400] * 6 and codes[6] == 429


def test_throttle_windows() -> None:
    now = [0.0]
    limits = LoginThrottle(per_address=3, per_username=2, window_s=60, clock=lambda: now[0])
    assert limits.retry_after("1.2.3.4", "ada") is None
    limits.failure("Ada")
    limits.failure("ADA")
    assert limits.retry_after("5.6.7.8", "ada") == 60
    now[0] = 30.0
    assert limits.retry_after("5.6.7.8", "ada") == 30
    now[0] = 60.5
    assert limits.retry_after("5.6.7.8", "ada") is None
    limits.failure("ada")
    limits.success("ada")
    assert limits.retry_after("5.6.7.8", "ada") is None
    for _ in range(3):
        limits.attempt("1.2.3.4")
    assert limits.retry_after("1.2.3.4", "someone") == 60


def test_bots_create_no_accounts_or_sessions(app: Any) -> None:
    bot = app.test_client()
    for path in ("/login", "/signup", "/me"):
        assert bot.get(path).status_code == 200
        assert bot.head(path).status_code == 200
    assert count(app, "visitors") == count(app, "accounts") == count(app, "account_sessions") == 0
