"""Security: only a seat holder may act on a game; secrets, tokens and cookies are what
they should be; Socket.IO only accepts the configured origins; floods are limited while
normal play is not; user-supplied text never reaches a page unescaped.

For every seat-holder action (move, takeback request, takeback answer, resign, undo,
rematch, hint) both a spectator with no cookie and a visitor who opened the game's link
(and so has whatever cookies a visit gives) are refused with ``not_a_player``, and the
stored game does not change."""

from __future__ import annotations

import hashlib
import re
import stat
import time
from pathlib import Path
from typing import Any

import pytest
from socket_helpers import NS, Events, create_game, join

from webapp.app import create_app, shutdown_app


def stored(app: Any, game_id: str) -> tuple[Any, ...]:
    r = app.extensions["gomoku"].store.load(game_id)
    return r.version, tuple(r.points), r.status, r.takeback_by, r.rematch_id, r.result


def _friend_game(app: Any, socket_factory: Any) -> tuple[str, Events, Events]:
    black_http = app.test_client()
    game_id = create_game(black_http, mode="friend", color="black")
    white_http = app.test_client()
    assert white_http.post(f"/g/{game_id}/seat", json={}).status_code == 200
    return (
        game_id,
        join(socket_factory(black_http), game_id),
        join(socket_factory(white_http), game_id),
    )


def _outsiders(app: Any, socket_factory: Any, game_id: str) -> dict[str, Events]:
    """A spectator with no cookies, and a visitor who opened the link after both seats
    were taken (the page gives them no seat)."""
    visitor_http = app.test_client()
    assert visitor_http.get(f"/g/{game_id}").status_code == 200
    assert not any(c.key.startswith("seat_") for c in visitor_http._cookies.values())
    return {
        "spectator": join(socket_factory(), game_id),
        "link holder": join(socket_factory(visitor_http), game_id),
    }


def _refused(app: Any, events: Events, game_id: str, event: str, payload: dict[str, Any]) -> None:
    before = stored(app, game_id)
    ack = events.sock.emit(event, payload, namespace=NS, callback=True)
    assert ack["ok"] is False, (event, ack)
    assert ack["error"]["code"] == "not_a_player", (event, ack)
    assert events.wait_error()["code"] == "not_a_player"
    assert stored(app, game_id) == before, f"{event} by an outsider changed the game"


def test_outsiders_cannot_act_in_a_friend_game(app: Any, socket_factory: Any) -> None:
    game_id, black, white = _friend_game(app, socket_factory)
    black.sock.emit("move", {"game_id": game_id, "x": 7, "y": 7, "version": 1}, namespace=NS)
    white.wait_state(lambda s: len(s["moves"]) == 1, 5)
    # A pending takeback, so that answering one is possible for the right person.
    black.sock.emit("takeback_request", {"game_id": game_id}, namespace=NS)
    white.wait_state(lambda s: s["takeback"] == {"by": "black"}, 5)
    version = stored(app, game_id)[0]
    for who, events in _outsiders(app, socket_factory, game_id).items():
        ref = {"game_id": game_id}
        for event, payload in [
            ("move", {**ref, "x": 8, "y": 8, "version": version}),
            ("takeback_request", ref),
            ("takeback_answer", {**ref, "accept": True}),
            ("resign", ref),
        ]:
            _refused(app, events, game_id, event, payload)
        assert events.last_state()["you"] is None, who


def test_outsiders_cannot_act_in_an_ai_game(app: Any, socket_factory: Any) -> None:
    owner_http = app.test_client()
    game_id = create_game(owner_http, mode="ai", color="black", level=1)
    owner = join(socket_factory(owner_http), game_id)
    owner.sock.emit("move", {"game_id": game_id, "x": 7, "y": 7, "version": 0}, namespace=NS)
    state = owner.wait_state(lambda s: len(s["moves"]) == 2, 30)
    for events in _outsiders(app, socket_factory, game_id).values():
        ref = {"game_id": game_id}
        for event, payload in [
            ("move", {**ref, "x": 3, "y": 3, "version": state["version"]}),
            ("undo", ref),
            ("hint", ref),
            ("resign", ref),
        ]:
            _refused(app, events, game_id, event, payload)
    # Rematch needs a finished game: the owner resigns, outsiders still cannot ask.
    owner.sock.emit("resign", {"game_id": game_id}, namespace=NS)
    owner.wait_state(lambda s: s["status"] == "finished", 5)
    for events in _outsiders(app, socket_factory, game_id).values():
        _refused(app, events, game_id, "rematch", {"game_id": game_id})


def test_a_seat_of_one_game_gives_nothing_in_another(app: Any, socket_factory: Any) -> None:
    game_id, _, _ = _friend_game(app, socket_factory)
    other_http = app.test_client()
    create_game(other_http, mode="friend", color="black")  # a seat, but in another game
    events = join(socket_factory(other_http), game_id)
    _refused(app, events, game_id, "move", {"game_id": game_id, "x": 1, "y": 1, "version": 1})
    # A forged cookie for the right game does not work either.
    forged_http = app.test_client()
    forged_http.set_cookie(f"seat_{game_id}", "not-the-secret")
    forged = join(socket_factory(forged_http), game_id)
    _refused(app, forged, game_id, "resign", {"game_id": game_id})


def test_seat_tokens_are_random_secrets_stored_only_as_hashes(app: Any) -> None:
    tokens = set()
    for _ in range(5):
        client = app.test_client()
        reply = client.post("/api/v1/games", json={"mode": "friend"})
        game_id = reply.get_json()["id"]
        cookie = reply.headers["Set-Cookie"]
        token = re.match(rf"seat_{game_id}=([^;]+);", cookie).group(1)  # type: ignore[union-attr]
        assert re.fullmatch(r"[A-Za-z0-9_-]{32,}", token)
        tokens.add(token)
        seat = app.extensions["gomoku"].store.load(game_id).seats["black"]
        assert seat.token_hash == hashlib.sha256(token.encode()).hexdigest()
        assert token not in repr(app.extensions["gomoku"].store.load(game_id))
    assert len(tokens) == 5


def test_seat_cookies_are_http_only_and_same_site(app: Any) -> None:
    client = app.test_client()
    created = client.post("/api/v1/games", json={"mode": "friend", "color": "black"})
    game_id = created.get_json()["id"]
    claimed = app.test_client().post(f"/g/{game_id}/seat", json={})
    for reply in (created, claimed):
        cookie = reply.headers["Set-Cookie"]
        assert cookie.startswith(f"seat_{game_id}=")
        flags = {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}
        assert {"httponly", "samesite", "path"} <= flags
        assert "SameSite=Lax" in cookie and "Path=/" in cookie


def test_secure_cookies_when_configured(app_factory: Any) -> None:
    app = app_factory(SESSION_COOKIE_SECURE=True)
    reply = app.test_client().post("/api/v1/games", json={"mode": "friend"})
    assert "Secure" in reply.headers["Set-Cookie"]


def test_secret_key_comes_from_the_environment(
    tmp_path: Path, ai_runner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    app = create_app({"INSTANCE_PATH": str(tmp_path / "env"), "AI_RUNNER": ai_runner})
    try:
        assert app.config["SECRET_KEY"] == "from-the-environment"
        assert not (tmp_path / "env" / "secret_key").exists()
    finally:
        shutdown_app(app)


def test_generated_secret_keys_are_private_and_per_instance(
    tmp_path: Path, ai_runner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    keys = []
    for name in ("one", "two"):
        app = create_app({"INSTANCE_PATH": str(tmp_path / name), "AI_RUNNER": ai_runner})
        try:
            keys.append(app.config["SECRET_KEY"])
        finally:
            shutdown_app(app)
        key_file = tmp_path / name / "secret_key"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        assert re.fullmatch(r"[0-9a-f]{64}", key_file.read_text())
    assert keys[0] != keys[1]
    # Nowhere in the web app is a key written down.
    for source in Path(__file__).resolve().parents[2].joinpath("webapp").glob("*.py"):
        assert not re.search(r"SECRET_KEY\"?\]?\s*=\s*[\"']", source.read_text()), source


def _handshake(app: Any, origin: str | None) -> int:
    headers = {"Origin": origin} if origin else {}
    reply = app.test_client().get(
        "/socket.io/?EIO=4&transport=polling", headers=headers, base_url="http://game.example"
    )
    return reply.status_code


def test_socketio_accepts_only_configured_origins(app_factory: Any) -> None:
    same_origin_only = app_factory()
    assert _handshake(same_origin_only, "http://game.example") == 200
    assert _handshake(same_origin_only, "https://evil.example") == 400
    listed = app_factory(CORS_ORIGINS="https://a.example, https://b.example")
    assert _handshake(listed, "https://b.example") == 200
    assert _handshake(listed, "http://game.example") == 400
    assert _handshake(listed, "https://evil.example") == 400


def test_a_flood_is_cut_but_normal_play_is_not(app_factory: Any) -> None:
    app = app_factory(RATE_PER_S=20.0, RATE_BURST=40.0)
    socketio = app.extensions["socketio"]
    black_http = app.test_client()
    game_id = create_game(black_http, mode="friend", color="black")
    white_http = app.test_client()
    white_http.post(f"/g/{game_id}/seat", json={})
    black = join(socketio.test_client(app, namespace=NS, flask_test_client=black_http), game_id)
    white = join(socketio.test_client(app, namespace=NS, flask_test_client=white_http), game_id)
    # Brisk but human play: twenty moves, five a second, with joins and a takeback.
    for ply in range(20):
        mover = black if ply % 2 == 0 else white
        state = mover.last_state()
        x, y = ply % 5 * 3, ply // 5 * 3  # stones far apart: nobody wins
        mover.sock.emit(
            "move", {"game_id": game_id, "x": x, "y": y, "version": state["version"]}, namespace=NS
        )
        mover.wait_state(lambda s, n=ply + 1: len(s["moves"]) == n, 5)
        time.sleep(0.2)
    assert not [e for e in black.named("error") + white.named("error")]
    # A flood from one connection: most of it is refused, and the other player is unaffected.
    flood = socketio.test_client(app, namespace=NS)
    acks = [
        flood.emit("join", {"game_id": game_id}, namespace=NS, callback=True) for _ in range(300)
    ]
    limited = [a for a in acks if not a["ok"] and a["error"]["code"] == "rate_limited"]
    assert len(limited) >= 200
    state = black.last_state()
    assert black.sock.emit(
        "move", {"game_id": game_id, "x": 14, "y": 14, "version": state["version"]},
        namespace=NS, callback=True,
    ) == {"ok": True}  # fmt: skip
    for sock in (flood, black.sock, white.sock):
        sock.disconnect(namespace=NS)


XSS = '<script>alert("x")</script>'


def test_user_text_is_escaped_in_pages(app: Any, client: Any) -> None:
    game_id = create_game(client, mode="friend", color="black")
    # Names are not user-editable today; if a stored one ever carries markup, pages must
    # still render it inert.
    store = app.extensions["gomoku"].store
    from sqlalchemy import update

    from webapp.storage.tables import Seat

    with store.engine.begin() as connection:
        connection.execute(update(Seat).where(Seat.game_id == game_id).values(name=XSS))
    app.test_client().post(f"/g/{game_id}/seat", json={})  # the friend sits: the game goes live
    for path in (f"/g/{game_id}", "/", f"/g/{game_id}?lang={XSS}", f"/?lang={XSS}"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert XSS not in page.get_data(as_text=True), path
        assert "<script>alert" not in page.get_data(as_text=True), path
    missing = client.get(f"/g/{XSS}")
    assert missing.status_code == 404 and "<script>alert" not in missing.get_data(as_text=True)
    api = client.get(f"/api/v1/games/{XSS}")
    assert api.status_code == 404 and "<script>" not in api.get_data(as_text=True)
    refused = client.post("/api/v1/games", json={"mode": XSS})
    assert refused.status_code == 400
    assert "<script>" not in refused.get_data(as_text=True)
