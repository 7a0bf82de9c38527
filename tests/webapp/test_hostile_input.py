"""Hostile input: reserved and ill-typed event names, malformed and deeply nested
packets and bodies, the language switch's redirect, and the security headers.

Every case gets a clear refusal (an ``error`` event, a negative acknowledgement or a 400),
changes nothing, and leaves no traceback in the log; a flood of malformed packets adds
only a bounded number of log records."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from socket_helpers import NS, Events, create_game, join

NESTED = "[" * 1000 + "]" * 1000


def _players(app: Any, socket_factory: Any) -> tuple[str, Events]:
    black_http = app.test_client()
    game_id = create_game(black_http, mode="friend", color="black")
    return game_id, join(socket_factory(black_http), game_id)


def _no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert "Traceback" not in caplog.text


@pytest.mark.parametrize("name", ["disconnect", "connect"])
def test_reserved_event_names_are_refused(
    app_factory: Any, name: str, caplog: pytest.LogCaptureFixture
) -> None:
    # A tiny burst, so that a reset of the sender's rate limit would show.
    app = app_factory(RATE_PER_S=0.01, RATE_BURST=4.0)
    socketio = app.extensions["socketio"]
    presence = app.extensions["gomoku"].presence
    black_http = app.test_client()
    game_id = create_game(black_http, mode="friend", color="black")
    sock = socketio.test_client(app, namespace=NS, flask_test_client=black_http)
    black = join(sock, game_id)
    assert presence.connected(game_id, "black")
    ack = sock.emit(name, {"game_id": game_id}, namespace=NS, callback=True)
    assert ack["ok"] is False and ack["error"]["code"] == "bad_request", ack
    assert "reserved" in ack["error"]["message"]
    assert black.wait_error()["code"] == "bad_request"
    # The seat is still shown as connected and the socket still works.
    assert presence.connected(game_id, "black")
    assert sock.is_connected(NS)
    # The refusal used up the burst (join + refusal + 2 more): the next is limited.
    for _ in range(2):
        sock.emit("join", {"game_id": game_id}, namespace=NS, callback=True)
    ack = sock.emit("join", {"game_id": game_id}, namespace=NS, callback=True)
    assert ack["error"]["code"] == "rate_limited", ack
    _no_tracebacks(caplog)


@pytest.mark.parametrize("name", [["move"], {"event": "move"}, 7, None])
def test_event_names_must_be_strings(
    app: Any, socket_factory: Any, name: Any, caplog: pytest.LogCaptureFixture
) -> None:
    game_id, black = _players(app, socket_factory)
    ack = black.sock.emit(name, {"game_id": game_id}, namespace=NS, callback=True)
    assert ack == {
        "ok": False,
        "error": {"code": "bad_request", "message": "an event name must be a string", "params": {}},
    }
    assert black.wait_error()["code"] == "bad_request"
    ack = black.sock.emit("join", {"game_id": game_id}, namespace=NS, callback=True)
    assert ack == {"ok": True}
    _no_tracebacks(caplog)


def test_malformed_packets_are_dropped_with_a_bounded_log(
    app_factory: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    app = app_factory(RATE_BURST=10_000.0)  # refusals count: keep the limit out of the way
    socketio = app.extensions["socketio"]
    game_id, black = _players(
        app, lambda http: socketio.test_client(app, namespace=NS, flask_test_client=http)
    )
    server = app.extensions["socketio"].server
    bad = [
        '2/game,["move",',  # cut short
        "9/game,[]",  # no such packet type
        f'2/game,["move",{NESTED}]',  # nested a thousand levels deep
        "2/game,12345678901234567890123[]",  # an ack id that is too long
        "5/game,",  # a binary event without attachments
        '51-/game,["move",{"_placeholder":true,"num":0}]',
        '2/game,{"not": "a list"}',
    ]
    for n in range(1000):
        server._handle_eio_message(black.sock.eio_sid, bad[n % len(bad)])
    records = [r for r in caplog.records if r.name.startswith(("webapp", "socketio", "engineio"))]
    assert len(records) <= 30, len(records)
    assert sum(len(r.getMessage()) for r in records) < 10_000
    _no_tracebacks(caplog)
    # The connection still works.
    assert black.sock.is_connected(NS)
    assert black.sock.emit("join", {"game_id": game_id}, namespace=NS, callback=True) == {
        "ok": True
    }


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/v1/games", {"mode": "friend"}),
        ("/api/v1/move", {"moves": [[7, 7]], "time_ms": 50}),
        ("/api/v1/import", {"psq": "Piskvorky 15x15, 11:11, 0\n8,8,0\n"}),
    ],
)
def test_deeply_nested_json_gets_a_clear_400(
    client: Any, path: str, body: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    before = client.get("/api/v1/games").get_json()
    key = next(iter(body))
    nested = json.dumps(body).replace(json.dumps(body[key]), NESTED, 1)
    reply = client.post(path, data=nested, content_type="application/json")
    assert reply.status_code == 400
    assert "nested" in reply.get_json()["error"]
    # Nesting at depth 1,000 anywhere in the body, too.
    reply = client.post(path, data=f'{{"x": {NESTED}}}', content_type="application/json")
    assert reply.status_code == 400
    assert client.get("/api/v1/games").get_json() == before
    _no_tracebacks(caplog)


@pytest.mark.parametrize(
    "referrer",
    [
        "//evil.example/x",
        "https://evil.example/",
        "http://evil.example/g/abc",
        "http://localhost//evil.example/x",
        "http://localhost/\\evil.example",
        "http://localhost/\\/evil.example",
        "http://localhost/\t/evil.example",
        "javascript:alert(1)",
        "http://localhost@evil.example/",
        "http://localhost:80@evil.example/",
        "not a url at all",
    ],
)
def test_language_switch_redirects_only_within_the_site(client: Any, referrer: str) -> None:
    reply = client.get("/lang/fr", headers={"Referer": referrer})
    assert reply.status_code in (301, 302, 303, 307, 308)
    assert reply.headers["Location"] == "/"


def test_language_switch_returns_to_the_page_it_came_from(client: Any) -> None:
    reply = client.get("/lang/zh", headers={"Referer": "http://localhost/g/abc?x=1"})
    assert reply.headers["Location"] == "/g/abc?x=1"
    assert "lang=zh" in reply.headers["Set-Cookie"]


def test_security_headers_on_every_response(app: Any, client: Any) -> None:
    game_id = create_game(client, mode="friend", color="black")
    replies = [
        client.get("/"),
        client.get(f"/g/{game_id}"),
        client.get("/players"),
        client.get("/static/style.css"),
        client.get("/api/v1/games"),
        client.get("/no/such/page"),
        client.post("/api/v1/games", data="{", content_type="application/json"),
        client.get("/socket.io/?EIO=4&transport=polling"),
    ]
    for reply in replies:
        csp = reply.headers.get("Content-Security-Policy", "")
        directives = {d.strip().split(" ")[0]: d.strip() for d in csp.split(";") if d.strip()}
        assert directives.get("script-src") == "script-src 'self'", (reply.request.path, csp)
        assert "'unsafe-inline'" not in csp
        assert directives["frame-ancestors"] == "frame-ancestors 'none'"
        assert directives["object-src"] == "object-src 'none'"
        assert directives["base-uri"] == "base-uri 'self'"
        assert directives["connect-src"].startswith("connect-src 'self'")
        assert reply.headers["X-Content-Type-Options"] == "nosniff"
        policy = reply.headers["Referrer-Policy"]
        assert policy in ("strict-origin-when-cross-origin", "same-origin")


def test_a_real_client_cannot_fake_its_disconnect(live_server: Any) -> None:
    import urllib.request

    import socketio

    request = urllib.request.Request(
        f"{live_server.url}/api/v1/games",
        data=json.dumps({"mode": "friend", "color": "black"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        game_id = json.loads(reply.read())["id"]
        cookie = reply.headers["Set-Cookie"].split(";")[0]
    errors: list[dict[str, Any]] = []
    states: list[dict[str, Any]] = []
    black, watcher = socketio.Client(), socketio.Client()
    black.on("error", errors.append, namespace=NS)
    watcher.on("state", states.append, namespace=NS)
    black.connect(live_server.url, namespaces=[NS], headers={"Cookie": cookie},
                  transports=["websocket"])  # fmt: skip
    watcher.connect(live_server.url, namespaces=[NS], transports=["websocket"])
    try:
        assert black.call("join", {"game_id": game_id}, namespace=NS, timeout=10) == {"ok": True}
        for name in ("disconnect", "connect", ["join"], {"a": 1}):
            ack = black.call(name, {"game_id": game_id}, namespace=NS, timeout=10)
            assert ack["ok"] is False and ack["error"]["code"] == "bad_request", (name, ack)
        assert len(errors) == 4
        assert watcher.call("join", {"game_id": game_id}, namespace=NS, timeout=10)["ok"]
        black.sleep(1.0)  # presence announcements are batched
        assert states[-1]["players"]["black"]["connected"] is True
        assert black.connected
    finally:
        black.disconnect()
        watcher.disconnect()
    log = live_server.log_path.read_text()
    assert "Traceback" not in log
