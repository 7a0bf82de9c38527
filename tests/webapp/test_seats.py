"""Seats are taken only by an explicit action of a browser: a link preview's GET or HEAD
of ``/g/<id>`` leaves the free seat free, and the friend takes it with the socket
``take_seat`` intent (then ``POST /g/<id>/seat`` with the secret for the cookie) or with
a same-origin ``POST /g/<id>/seat``."""

from __future__ import annotations

from typing import Any

from socket_helpers import NS, create_game, join


def free_seat(app: Any, game_id: str) -> bool:
    record = app.extensions["gomoku"].store.load(game_id)
    return record.status == "waiting" and record.seats["white"].token_hash is None


def test_a_link_preview_does_not_take_the_seat(app: Any, client: Any) -> None:
    game_id = create_game(client, mode="friend", color="black")
    bot = app.test_client()
    page = bot.get(f"/g/{game_id}", headers={"User-Agent": "Slackbot-LinkExpanding 1.0"})
    assert page.status_code == 200
    assert "seat_" not in page.headers.get("Set-Cookie", "")
    assert bot.head(f"/g/{game_id}").status_code == 200
    assert free_seat(app, game_id)
    friend = app.test_client()
    reply = friend.post(f"/g/{game_id}/seat", json={})
    assert reply.status_code == 200
    assert reply.get_json()["seat"] == "white"
    assert f"seat_{game_id}=" in reply.headers["Set-Cookie"]
    assert "HttpOnly" in reply.headers["Set-Cookie"]
    assert not free_seat(app, game_id)
    # The page now knows the friend; the bot is still a spectator.
    assert (
        app.extensions["gomoku"].service.public_state(
            app.extensions["gomoku"].service.load(game_id)
        )["status"]
        == "active"
    )
    assert friend.post(f"/g/{game_id}/seat", json={}).status_code == 400
    assert bot.post(f"/g/{game_id}/seat", json={}).get_json()["code"] == "seat_taken"


def test_take_seat_over_the_socket_then_the_cookie(
    app: Any, client: Any, socket_factory: Any
) -> None:
    game_id = create_game(client, mode="friend", color="black")
    friend_http = app.test_client()
    friend_http.get(f"/g/{game_id}")
    events = join(socket_factory(friend_http), game_id)
    state = events.last_state()
    assert state["you"] is None and state["actions"]["take_seat"] is True
    # The server names the free seat, even while its owner's socket is away.
    assert state["players"]["white"]["open"] is True
    assert state["players"]["black"]["open"] is False
    ack = events.sock.emit("take_seat", {"game_id": game_id}, namespace=NS, callback=True)
    assert ack["ok"] is True and ack["seat"] == "white" and ack["token"]
    seated = events.wait_state(lambda s: s["you"] == "white", 5)
    assert seated["status"] == "active" and seated["actions"]["take_seat"] is False
    assert seated["players"]["white"]["open"] is False
    # The same socket may now play as white.
    owner = join(socket_factory(client), game_id)
    version = owner.last_state()["version"]
    owner.sock.emit("move", {"game_id": game_id, "x": 7, "y": 7, "version": version}, namespace=NS)
    state = events.wait_state(lambda s: len(s["moves"]) == 1, 5)
    assert state["actions"]["move"] is True
    # The secret from the acknowledgement becomes the HttpOnly cookie.
    reply = friend_http.post(f"/g/{game_id}/seat", json={"token": ack["token"]})
    assert reply.status_code == 200 and reply.get_json()["seat"] == "white"
    assert (
        app.extensions["gomoku"].service.resolve_seat(game_id, {f"seat_{game_id}": ack["token"]})
        == "white"
    )
    assert friend_http.post(f"/g/{game_id}/seat", json={"token": "forged"}).status_code == 403


def test_take_seat_refusals(app: Any, client: Any, socket_factory: Any) -> None:
    game_id = create_game(client, mode="friend", color="black")
    owner = join(socket_factory(client), game_id)
    ack = owner.sock.emit("take_seat", {"game_id": game_id}, namespace=NS, callback=True)
    assert ack["ok"] is False and ack["error"]["code"] == "already_seated"
    ai_game = create_game(client, mode="ai", color="black", level=1)
    stranger = app.test_client()
    assert stranger.post(f"/g/{ai_game}/seat", json={}).get_json()["code"] == "seat_taken"
    # Not a JSON request (a cross-site form), or from another origin: refused.
    assert stranger.post(f"/g/{game_id}/seat", data={"x": "1"}).status_code == 400
    cross = stranger.post(f"/g/{game_id}/seat", json={}, headers={"Origin": "https://evil.example"})
    assert cross.status_code == 403
    assert free_seat(app, game_id)
