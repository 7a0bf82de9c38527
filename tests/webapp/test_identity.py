"""Visitor identity: a lasting random id in an HttpOnly cookie, a display name stored
server-side once the visitor acts (never for a link preview's GET or HEAD), validated and
escaped, carried into the seats of the games the visitor creates or joins, over HTTP and
over the socket."""

from __future__ import annotations

import re
from typing import Any

import pytest
from socket_helpers import NS, create_game, join
from sqlalchemy import inspect, text

from webapp.players import identity


def visitor_rows(app: Any) -> int:
    engine = app.extensions["gomoku"].store.engine
    with engine.connect() as connection:
        return int(connection.execute(text("SELECT count(*) FROM visitors")).scalar())


def set_cookie_header(reply: Any, name: str) -> str:
    for header in reply.headers.getlist("Set-Cookie"):
        if header.startswith(f"{name}="):
            return str(header)
    raise AssertionError(f"no {name} cookie in {reply.headers.getlist('Set-Cookie')}")


def me(client: Any) -> dict[str, Any]:
    reply = client.get("/api/v1/me")
    assert reply.status_code == 200
    return dict(reply.get_json())


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([0-9a-f]+)"', page)
    assert found, "no CSRF field on the page"
    return found.group(1)


def rename(client: Any, name: str, **extra: Any) -> Any:
    token = csrf_of(client.get("/me").get_data(as_text=True))
    return client.post("/me/name", data={"name": name, "csrf_token": token, **extra})


def test_the_cookie_is_lasting_http_only_and_lax(client: Any) -> None:
    reply = client.get("/")
    header = set_cookie_header(reply, "visitor")
    assert "HttpOnly" in header
    assert "SameSite=Lax" in header
    assert "Path=/" in header
    max_age = int(re.search(r"Max-Age=(\d+)", header).group(1))  # type: ignore[union-attr]
    assert max_age >= 364 * 24 * 3600
    first = me(client)
    assert identity.is_person_id(first["id"])
    assert re.fullmatch(r"Guest-\d{4}", first["name"])
    assert first["username"] is None
    # The same browser keeps its id and default name, visit after visit.
    client.get("/players")
    assert me(client) == first
    # The cookie's secret is not the public id.
    secret = client.get_cookie("visitor").value
    assert first["id"] not in secret and identity.person_id_of(secret) == first["id"]
    # Another browser is another visitor.
    assert me(client.application.test_client())["id"] != first["id"]


def test_link_previews_store_nothing(app: Any, client: Any) -> None:
    game_id = create_game(client, mode="friend", color="black")
    stored = visitor_rows(app)
    assert stored == 1  # the creator
    for path in ("/", f"/g/{game_id}", "/players", "/me", "/api/v1/me", f"/g/{game_id}/psq"):
        bot = app.test_client()
        assert bot.get(path, headers={"User-Agent": "Twitterbot/1.0"}).status_code == 200
        assert bot.head(path).status_code == 200
    assert visitor_rows(app) == stored


def test_forged_or_malformed_cookies_get_a_new_identity(app: Any) -> None:
    browser = app.test_client()
    for value in ("short", "x" * 500, "<script>", "v" + "0" * 23):
        browser.set_cookie("visitor", value)
        reply = browser.get("/")
        assert "visitor=" in reply.headers.get("Set-Cookie", "")
        assert me(browser)["id"] != value


def test_renaming(app: Any, client: Any) -> None:
    reply = rename(client, "  Ada   Lovelace ")
    assert reply.status_code == 303
    assert me(client)["name"] == "Ada Lovelace"
    assert visitor_rows(app) == 1
    page = client.get("/").get_data(as_text=True)
    assert "Ada Lovelace" in page
    # The name stays with the visitor in another app on the same database (a restart).
    assert me(client)["name"] == "Ada Lovelace"


@pytest.mark.parametrize(
    "name",
    ["", "    ", "x" * 25, "bad\x00name", "right\u202eleft", "zero\u200bwidth", "tab\x07"],
)
def test_bad_names_are_refused_and_change_nothing(app: Any, client: Any, name: str) -> None:
    before = me(client)["name"]
    reply = rename(client, name)
    assert reply.status_code == 400
    assert 'id="form-error"' in reply.get_data(as_text=True)
    assert me(client)["name"] == before
    assert visitor_rows(app) == 0


def test_name_limits() -> None:
    assert identity.validate_name("x" * 24) == "x" * 24
    assert identity.validate_name("五子棋高手") == "五子棋高手"
    with pytest.raises(identity.InvalidNameError):
        identity.validate_name(None)
    with pytest.raises(identity.InvalidNameError):
        identity.validate_name(["a"])


def test_names_are_escaped(app: Any, client: Any, socket_factory: Any) -> None:
    hostile = '<img src=x onerror="alert(1)">'[:24]
    assert rename(client, hostile).status_code == 303
    page = client.get("/me").get_data(as_text=True)
    assert hostile not in page
    assert "&lt;img src=x" in page
    game_id = create_game(client, mode="friend", color="black")
    game_page = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "<img src=x" not in game_page
    # The state carries it as plain data, for the page to set as text.
    state = join(socket_factory(client), game_id).last_state()
    assert state["players"]["black"]["name"] == hostile


def test_the_name_form_needs_its_csrf_token(app: Any, client: Any) -> None:
    before = me(client)["name"]
    assert client.post("/me/name", data={"name": "Mallory"}).status_code == 403
    assert (
        client.post("/me/name", data={"name": "Mallory", "csrf_token": "0" * 64}).status_code == 403
    )
    # Another browser's token does not fit this one.
    other = app.test_client()
    token = csrf_of(other.get("/me").get_data(as_text=True))
    client.get("/me")
    assert client.post("/me/name", data={"name": "Mallory", "csrf_token": token}).status_code == 403
    # The right token from another site's page is refused too.
    own = csrf_of(client.get("/me").get_data(as_text=True))
    reply = client.post(
        "/me/name",
        data={"name": "Mallory", "csrf_token": own},
        headers={"Origin": "https://evil.example"},
    )
    assert reply.status_code == 403
    assert me(client)["name"] == before
    assert visitor_rows(app) == 0


def test_seats_carry_the_creator_and_the_friend(app: Any, client: Any) -> None:
    rename(client, "Creator")
    game_id = create_game(client, mode="friend", color="black")
    friend = app.test_client()
    rename(friend, "Friend")
    assert friend.post(f"/g/{game_id}/seat", json={}).status_code == 200
    record = app.extensions["gomoku"].store.load(game_id)
    assert record.seats["black"].player_id == me(client)["id"]
    assert record.seats["black"].name == "Creator"
    assert record.seats["white"].player_id == me(friend)["id"]
    assert record.seats["white"].name == "Friend"
    service = app.extensions["gomoku"].service
    players = service.public_state(service.load(game_id))["players"]
    assert players["black"]["name"] == "Creator" and players["white"]["name"] == "Friend"


def test_a_guest_who_never_named_themselves_plays_under_the_default(app: Any, client: Any) -> None:
    game_id = create_game(client, mode="ai", color="white", level=1)
    record = app.extensions["gomoku"].store.load(game_id)
    assert record.seats["white"].name == me(client)["name"]
    assert record.seats["white"].name.startswith("Guest-")
    assert record.seats["black"].player_id is None
    assert visitor_rows(app) == 1


def test_socket_handlers_see_the_visitor(app: Any, client: Any, socket_factory: Any) -> None:
    game_id = create_game(client, mode="friend", color="black")
    friend = app.test_client()
    rename(friend, "Socket friend")
    events = join(socket_factory(friend), game_id)
    ack = events.sock.emit("take_seat", {"game_id": game_id}, namespace=NS, callback=True)
    assert ack["ok"] is True
    state = events.wait_state(lambda s: s["you"] == "white", 5)
    assert state["players"]["white"]["name"] == "Socket friend"
    record = app.extensions["gomoku"].store.load(game_id)
    assert record.seats["white"].player_id == me(friend)["id"]
    with app.test_request_context(
        "/", headers={"Cookie": f"visitor={friend.get_cookie('visitor').value}"}
    ):
        seen = identity.socket_visitor()
        assert seen is not None and seen.name == "Socket friend"


def test_a_socket_without_a_visitor_cookie_takes_a_seat_as_a_guest(
    app: Any, client: Any, socket_factory: Any
) -> None:
    game_id = create_game(client, mode="friend", color="black")
    events = join(socket_factory(), game_id)
    ack = events.sock.emit("take_seat", {"game_id": game_id}, namespace=NS, callback=True)
    assert ack["ok"] is True
    record = app.extensions["gomoku"].store.load(game_id)
    assert record.seats["white"].player_id is None and record.seats["white"].name == "Guest"


def test_an_older_database_gets_the_seat_column(app_factory: Any, tmp_path: Any) -> None:
    app = app_factory()
    engine = app.extensions["gomoku"].store.engine
    client = app.test_client()
    game_id = create_game(client, mode="ai", color="black", level=1)
    with engine.begin() as connection:
        connection.execute(text("DROP INDEX IF EXISTS ix_seats_player_id"))
        connection.execute(text("ALTER TABLE seats DROP COLUMN player_id"))
    app_factory.close(app)
    again = app_factory()
    engine = again.extensions["gomoku"].store.engine
    columns = {c["name"] for c in inspect(engine).get_columns("seats")}
    assert "player_id" in columns
    assert again.extensions["gomoku"].store.load(game_id).seats["black"].player_id is None
