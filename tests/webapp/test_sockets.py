"""The ``/game`` namespace with real Socket.IO test clients: seats from cookies, friend
games end to end, and every kind of bad input answered with an ``error`` to the sender
while the stored game stays exactly as it was."""

from __future__ import annotations

import time
from typing import Any

import pytest
from socket_helpers import NS, Events, create_game, join


def stored(app: Any, game_id: str) -> tuple[int, list[tuple[int, int]], str]:
    record = app.extensions["gomoku"].store.load(game_id)
    return record.version, record.points, record.status


@pytest.fixture
def friend_game(app: Any, socket_factory: Any) -> dict[str, Any]:
    """A started friend game: the creator (black) and a friend who took white by visiting
    the page, each with a browser (Flask client) and a socket."""
    black_http = app.test_client()
    game_id = create_game(black_http, mode="friend", color="black")
    white_http = app.test_client()
    assert white_http.post(f"/g/{game_id}/seat", json={}).status_code == 200
    black = join(socket_factory(black_http), game_id)
    white = join(socket_factory(white_http), game_id)
    return {"id": game_id, "black": black, "white": white, "white_http": white_http}


def play(events: Events, game_id: str, x: int, y: int) -> dict[str, Any]:
    version = events.last_state()["version"]
    count = len(events.last_state()["moves"])
    events.sock.emit("move", {"game_id": game_id, "x": x, "y": y, "version": version}, namespace=NS)
    return events.wait_state(lambda s: len(s["moves"]) == count + 1, 5)


def test_join_resolves_the_seat_from_cookies(app: Any, client: Any, socket_factory: Any) -> None:
    game_id = create_game(client, mode="friend", color="white")
    owner = join(socket_factory(client), game_id)
    stranger = join(socket_factory(), game_id)
    assert owner.last_state()["you"] == "white"
    assert stranger.last_state()["you"] is None
    assert owner.last_state()["status"] == "waiting"
    # A spectator arriving is announced with a small ``spectators`` event.
    owner.wait(lambda items: ("spectators", {"game_id": game_id, "count": 1}) in items, 5)
    state = owner.last_state()
    assert state["players"]["white"]["connected"] is True
    assert state["players"]["black"]["connected"] is False


def test_the_first_visitor_takes_the_free_seat_then_others_spectate(
    app: Any, friend_game: dict[str, Any], socket_factory: Any
) -> None:
    game_id = friend_game["id"]
    assert friend_game["white"].last_state()["you"] == "white"
    state = friend_game["black"].wait_state(lambda s: s["players"]["white"]["connected"], 5)
    assert state["status"] == "active"
    third = app.test_client()
    assert third.get(f"/g/{game_id}").status_code == 200
    spectator = join(socket_factory(third), game_id)
    assert spectator.last_state()["you"] is None
    # Revisiting keeps the friend's seat.
    assert friend_game["white_http"].get(f"/g/{game_id}").status_code == 200
    assert (
        app.extensions["gomoku"].service.resolve_seat(game_id, {"seat_" + game_id: "wrong"}) is None
    )


def test_a_friend_game_is_played_to_five(friend_game: dict[str, Any], app: Any) -> None:
    game_id, black, white = friend_game["id"], friend_game["black"], friend_game["white"]
    for i in range(4):
        play(black, game_id, i, 0)
        white.wait_state(lambda s, n=2 * i + 1: len(s["moves"]) == n, 5)
        play(white, game_id, i, 1)
        black.wait_state(lambda s, n=2 * i + 2: len(s["moves"]) == n, 5)
    final = play(black, game_id, 4, 0)
    assert final["status"] == "finished"
    assert final["result"] == {
        "winner": "black",
        "reason": "five",
        "termination": "five",
        "line": [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]],
    }
    white.wait_state(lambda s: s["status"] == "finished", 5)
    before = stored(app, game_id)
    white.sock.emit("move", {"game_id": game_id, "x": 9, "y": 9, "version": final["version"]},
                    namespace=NS)  # fmt: skip
    assert white.wait_error()["code"] == "game_over"
    assert stored(app, game_id) == before


BAD_PAYLOADS: list[Any] = [
    None,
    "h8",
    [1, 2],
    {},
    {"game_id": 5},
    {"game_id": "x" * 201},
    {"game_id": "bad id!"},
]


EVENTS = ["join", "move", "undo", "hint", "takeback_request", "takeback_answer", "resign",
          "rematch"]  # fmt: skip


@pytest.mark.parametrize("payload", BAD_PAYLOADS)
def test_malformed_payloads_get_bad_request(socket_client: Any, payload: Any) -> None:
    events = Events(socket_client)
    for event in EVENTS:
        socket_client.emit(event, payload, namespace=NS)
        error = events.wait_error()
        assert error["code"] == "bad_request", event
        assert error["message"]
    assert not events.named("state")


def test_unknown_events_get_a_clear_refusal(socket_client: Any) -> None:
    events = Events(socket_client)
    socket_client.emit("explode", {"game_id": "x"}, namespace=NS)
    error = events.wait_error()
    assert error["code"] == "bad_request"
    assert "explode" in error["message"]
    assert events.named("state") == []
    assert socket_client.is_connected(NS)


def test_unknown_games_get_not_found(socket_client: Any) -> None:
    events = Events(socket_client)
    socket_client.emit("join", {"game_id": "nosuchgame"}, namespace=NS)
    assert events.wait_error()["code"] == "not_found"
    socket_client.emit("move", {"game_id": "nosuch", "x": 1, "y": 1, "version": 0}, namespace=NS)
    assert events.wait_error()["code"] == "not_found"


@pytest.mark.parametrize(
    "payload",
    [
        {"x": "7", "y": 7, "version": 0},
        {"x": 7.5, "y": 7, "version": 0},
        {"x": True, "y": 7, "version": 0},
        {"x": 7, "y": 7},
        {"x": -1, "y": 7, "version": 0},
        {"x": 7, "y": 99, "version": 0},
        {"x": 7, "y": 7, "version": "0"},
    ],
)
def test_move_fields_are_type_checked(
    app: Any, friend_game: dict[str, Any], payload: dict[str, Any]
) -> None:
    game_id, black = friend_game["id"], friend_game["black"]
    before = stored(app, game_id)
    black.sock.emit("move", {"game_id": game_id, **payload}, namespace=NS)
    assert black.wait_error()["code"] == "bad_request"
    assert stored(app, game_id) == before


def test_refused_moves_change_nothing(
    app: Any, friend_game: dict[str, Any], socket_factory: Any
) -> None:
    game_id, black, white = friend_game["id"], friend_game["black"], friend_game["white"]
    version = black.last_state()["version"]
    before = stored(app, game_id)

    white.sock.emit("move", {"game_id": game_id, "x": 7, "y": 7, "version": version}, namespace=NS)
    assert white.wait_error()["code"] == "not_your_turn"

    black.sock.emit("move", {"game_id": game_id, "x": 7, "y": 7, "version": version + 5},
                    namespace=NS)  # fmt: skip
    assert black.wait_error()["code"] == "stale"

    spectator = join(socket_factory(), game_id)
    spectator.sock.emit("move", {"game_id": game_id, "x": 7, "y": 7, "version": version},
                        namespace=NS)  # fmt: skip
    assert spectator.wait_error()["code"] == "not_a_player"
    assert stored(app, game_id) == before

    play(black, game_id, 7, 7)
    after_first = stored(app, game_id)
    white.wait_state(lambda s: len(s["moves"]) == 1, 5)
    state = white.last_state()
    white.sock.emit("move", {"game_id": game_id, "x": 7, "y": 7, "version": state["version"]},
                    namespace=NS)  # fmt: skip
    assert white.wait_error()["code"] == "illegal_move"
    assert stored(app, game_id) == after_first
    # Errors go to the sender only.
    assert [e["code"] for e in black.named("error")] == ["stale"]
    assert [e["code"] for e in white.named("error")] == ["not_your_turn", "illegal_move"]


def test_a_waiting_game_refuses_moves(app: Any, client: Any, socket_factory: Any) -> None:
    game_id = create_game(client, mode="friend", color="black")
    owner = join(socket_factory(client), game_id)
    before = stored(app, game_id)
    owner.sock.emit("move", {"game_id": game_id, "x": 7, "y": 7, "version": 0}, namespace=NS)
    assert owner.wait_error()["code"] == "game_not_started"
    assert stored(app, game_id) == before


def test_concurrent_moves_of_one_version_have_one_winner(
    app: Any, friend_game: dict[str, Any], socket_factory: Any
) -> None:
    game_id, black = friend_game["id"], friend_game["black"]
    second = Events(socket_factory(black.sock.flask_test_client))
    version = black.last_state()["version"]
    black.sock.emit("move", {"game_id": game_id, "x": 1, "y": 1, "version": version}, namespace=NS)
    second.sock.emit("move", {"game_id": game_id, "x": 2, "y": 2, "version": version}, namespace=NS)
    assert second.wait_error()["code"] in ("stale", "not_your_turn")
    assert stored(app, game_id)[1] == [(1, 1)]


def test_takeback_request_and_answers(app: Any, friend_game: dict[str, Any]) -> None:
    game_id, black, white = friend_game["id"], friend_game["black"], friend_game["white"]
    play(black, game_id, 7, 7)
    white.wait_state(lambda s: len(s["moves"]) == 1, 5)
    play(white, game_id, 8, 8)

    black.sock.emit("takeback_answer", {"game_id": game_id, "accept": True}, namespace=NS)
    assert black.wait_error()["code"] == "no_offer"  # nothing pending

    black.sock.emit("takeback_request", {"game_id": game_id}, namespace=NS)
    state = white.wait_state(lambda s: s["takeback"] == {"by": "black"}, 5)
    black.sock.emit("takeback_answer", {"game_id": game_id, "accept": True}, namespace=NS)
    assert black.wait_error()["code"] == "own_offer"  # cannot accept your own request
    white.sock.emit("takeback_answer", {"game_id": game_id, "accept": "yes"}, namespace=NS)
    assert white.wait_error()["code"] == "bad_request"

    white.sock.emit("takeback_answer", {"game_id": game_id, "accept": False}, namespace=NS)
    state = black.wait_state(lambda s: s["takeback"] is None and s["version"] > state["version"])
    assert state["moves"] == [[7, 7], [8, 8]]

    black.sock.emit("takeback_request", {"game_id": game_id}, namespace=NS)
    white.wait_state(lambda s: s["takeback"] == {"by": "black"}, 5)
    white.sock.emit("takeback_answer", {"game_id": game_id, "accept": True}, namespace=NS)
    # Black asked while white was to move: black's move and white's reply go.
    state = black.wait_state(lambda s: s["moves"] == [], 5)
    assert state["turn"] == "black"
    assert state["takeback"] is None
    assert stored(app, game_id)[1] == []


def test_resign_and_rematch_swap_colours(app: Any, friend_game: dict[str, Any]) -> None:
    game_id, black, white = friend_game["id"], friend_game["black"], friend_game["white"]
    black.sock.emit("rematch", {"game_id": game_id}, namespace=NS)
    assert black.wait_error()["code"] == "game_not_finished"
    play(black, game_id, 7, 7)
    # White has not moved yet: nothing to resign, the game can only be aborted.
    white.wait_state(lambda s: len(s["moves"]) == 1, 5)
    before = stored(app, game_id)
    white.sock.emit("resign", {"game_id": game_id}, namespace=NS)
    assert white.wait_error()["code"] == "resign_too_early"
    assert stored(app, game_id) == before and before[2] == "active"
    play(white, game_id, 8, 8)
    white.sock.emit("resign", {"game_id": game_id}, namespace=NS)
    state = black.wait_state(lambda s: s["status"] == "finished", 5)
    assert state["result"] == {
        "winner": "black",
        "reason": "resign",
        "termination": "resign",
        "line": [],
    }
    white.sock.emit("resign", {"game_id": game_id}, namespace=NS)
    assert white.wait_error()["code"] == "game_over"

    white.sock.emit("rematch", {"game_id": game_id}, namespace=NS)
    black.wait_state(lambda s: s["offers"]["rematch"] == "white", 5)
    black.sock.emit("rematch", {"game_id": game_id}, namespace=NS)  # both asked: agreed
    state = black.wait_state(lambda s: s["rematch"] is not None, 5)
    new_id = state["rematch"]
    # Both players keep their seats with colours swapped, via the old game's cookies.
    old_black_http = black.sock.flask_test_client
    assert old_black_http.get(f"/g/{new_id}").status_code == 200
    service = app.extensions["gomoku"].service
    new_state = service.public_state(service.load(new_id))
    assert new_state["status"] == "active"
    assert new_state["moves"] == []
    assert service.resolve_seat(new_id, _cookies(old_black_http)) == "white"
    assert service.resolve_seat(new_id, _cookies(friend_game["white_http"])) == "black"
    # Asking again changes nothing.
    ack = black.sock.emit("rematch", {"game_id": game_id}, namespace=NS, callback=True)
    assert ack == {"ok": True}
    assert service.load(game_id).next_game == new_id


def _cookies(flask_client: Any) -> dict[str, str]:
    return {cookie.key: cookie.value for cookie in flask_client._cookies.values()}


def test_undo_and_hint_are_refused_in_friend_games(friend_game: dict[str, Any]) -> None:
    game_id, black = friend_game["id"], friend_game["black"]
    for event, code in (("undo", "undo_ai_only"), ("hint", "hint_ai_only")):
        black.sock.emit(event, {"game_id": game_id}, namespace=NS)
        assert black.wait_error()["code"] == code


def test_disconnect_updates_connected_flags(friend_game: dict[str, Any]) -> None:
    black, white = friend_game["black"], friend_game["white"]
    white.sock.disconnect(namespace=NS)
    state = black.wait_state(lambda s: not s["players"]["white"]["connected"], 5)
    assert state["players"]["black"]["connected"] is True


def test_clock_runs_out_and_the_server_flags_it(app: Any, socket_factory: Any) -> None:
    black_http = app.test_client()
    game_id = create_game(black_http, mode="friend", color="black",
                          clock={"base_s": 1, "increment_s": 0})  # fmt: skip
    white_http = app.test_client()
    white_http.post(f"/g/{game_id}/seat", json={})
    black = join(socket_factory(black_http), game_id)
    white = join(socket_factory(white_http), game_id)
    # No clock runs until each side has moved.
    assert black.last_state()["clock"]["running"] is None
    play(black, game_id, 7, 7)
    time.sleep(1.1)
    state = play(white, game_id, 8, 8)
    assert state["status"] == "active"
    clock = state["clock"]
    assert clock["running"] == "black"
    assert 0 < clock["black_ms"] <= 1000
    assert clock["white_ms"] == 1000
    state = black.wait_state(lambda s: s["status"] == "finished", 5)
    assert state["result"]["reason"] == "timeout"
    assert state["result"]["winner"] == "white"
    assert state["clock"]["running"] is None
    assert stored(app, game_id)[2] == "finished"


def test_clock_increment_is_added_after_a_move(app: Any, socket_factory: Any) -> None:
    black_http = app.test_client()
    game_id = create_game(black_http, mode="friend", color="black",
                          clock={"base_s": 60, "increment_s": 5})  # fmt: skip
    white_http = app.test_client()
    white_http.post(f"/g/{game_id}/seat", json={})
    black = join(socket_factory(black_http), game_id)
    white = join(socket_factory(white_http), game_id)
    play(black, game_id, 7, 7)
    play(white, game_id, 8, 8)
    state = play(black, game_id, 6, 6)
    assert state["clock"]["running"] == "white"
    assert 64_000 < state["clock"]["black_ms"] <= 65_000
    assert state["clock"]["increment_ms"] == 5000


def test_floods_are_rate_limited(app_factory: Any) -> None:
    app = app_factory(RATE_PER_S=1.0, RATE_BURST=3.0)
    sock = app.extensions["socketio"].test_client(app, namespace=NS)
    events = Events(sock)
    for _ in range(6):
        sock.emit("join", {"game_id": "nosuchgame"}, namespace=NS)
    time.sleep(0.1)
    codes = [payload["code"] for payload in events.named("error")]
    assert codes.count("not_found") == 3
    assert "rate_limited" in codes
    sock.disconnect(namespace=NS)


def test_spectators_get_a_compact_state(
    app: Any, client: Any, friend_game: dict[str, Any], socket_factory: Any
) -> None:
    """No ``legal`` (they cannot move) and only the actions they have: the same state on
    joining and in the room's broadcasts; the players keep theirs whole."""
    waiting = create_game(client, mode="friend", color="black")
    visitor = join(socket_factory(), waiting).last_state()
    assert "legal" not in visitor and visitor["actions"] == {"take_seat": True}
    game_id = friend_game["id"]
    spectator = join(socket_factory(), game_id)
    joined = spectator.last_state()
    assert "legal" not in joined and joined["actions"] == {} and joined["you"] is None
    played = play(friend_game["black"], game_id, 7, 7)
    assert len(played["legal"]) == 15 * 15 - 1 and played["actions"]["undo"] is False
    seen = spectator.wait_state(lambda s: len(s["moves"]) == 1, 5)
    assert "legal" not in seen and seen["actions"] == {}
    assert seen["moves"] == played["moves"] and seen["forbidden"] == played["forbidden"]
