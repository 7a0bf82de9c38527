"""The game page's requests end to end over Socket.IO test clients: what each viewer may
do (``actions``), offers declined and cancelled, rematches offered and accepted, draws,
aborts, abandoned games claimed after the countdown, idle games off the live list, error
codes with their params, the engine's last figures and imported finished records."""

from __future__ import annotations

import time
from typing import Any

import pytest
from socket_helpers import NS, Events, create_game, join

from webapp.game.types import Seat
from webapp.game.view import ACTIONS


def take_seat(http: Any, game_id: str) -> dict[str, Any]:
    reply = http.post(f"/g/{game_id}/seat", json={})
    assert reply.status_code == 200, reply.get_json()
    return dict(reply.get_json())


@pytest.fixture
def friend(app: Any, socket_factory: Any) -> dict[str, Any]:
    """A started friend game, black the creator, white the friend who took the seat."""
    black_http = app.test_client()
    game_id = create_game(black_http, mode="friend", color="black")
    white_http = app.test_client()
    take_seat(white_http, game_id)
    black = join(socket_factory(black_http), game_id)
    white = join(socket_factory(white_http), game_id)
    return {"id": game_id, "black": black, "white": white, "black_http": black_http,
            "white_http": white_http}  # fmt: skip


def send(events: Events, event: str, **payload: Any) -> dict[str, Any]:
    """Emit an intent and return its acknowledgement."""
    ack = events.sock.emit(event, payload, namespace=NS, callback=True)
    assert isinstance(ack, dict), ack
    return ack


def play(events: Events, game_id: str, x: int, y: int) -> dict[str, Any]:
    state = events.last_state()
    ack = send(events, "move", game_id=game_id, x=x, y=y, version=state["version"])
    assert ack["ok"], ack
    count = len(state["moves"])
    return events.wait_state(lambda s: len(s["moves"]) == count + 1, 5)


def both_move(friend: dict[str, Any]) -> None:
    """Black and white each play a move, so that the game can be resigned."""
    game_id, black, white = friend["id"], friend["black"], friend["white"]
    play(black, game_id, 7, 7)
    white.wait_state(lambda s: len(s["moves"]) == 1, 5)
    play(white, game_id, 8, 8)
    black.wait_state(lambda s: s["actions"]["resign"], 5)


def ai_replied(events: Events, game_id: str) -> dict[str, Any]:
    """The human plays a move against the AI and waits for the AI's reply."""
    play(events, game_id, 7, 7)
    return events.wait_state(lambda s: len(s["moves"]) == 2, 60)


def test_state_lists_every_action_and_the_legal_points(friend: dict[str, Any]) -> None:
    state = friend["black"].last_state()
    assert set(state["actions"]) == set(ACTIONS)
    assert state["actions"]["move"] is True
    assert state["actions"]["hint"] is False  # a friend game: no hints
    assert state["actions"]["undo"] is False
    assert state["actions"]["abort"] is True
    assert state["actions"]["resign"] is False  # nobody has moved: abort, not resign
    assert len(state["legal"]) == 15 * 15
    assert state["offers"] == {"takeback": None, "draw": None, "rematch": None}
    assert state["rated"] is False  # a link game is casual
    assert friend["white"].last_state()["actions"]["move"] is False


def test_hint_is_refused_with_a_code_in_friend_games(friend: dict[str, Any]) -> None:
    ack = send(friend["black"], "hint", game_id=friend["id"])
    assert ack["ok"] is False
    assert ack["error"]["code"] == "hint_ai_only"
    assert ack["error"]["params"] == {}
    assert friend["black"].wait_error()["code"] == "hint_ai_only"


def test_hint_is_offered_against_the_ai(client: Any, socket_factory: Any) -> None:
    game_id = create_game(client, mode="ai", color="black", level=1)
    state = join(socket_factory(client), game_id).last_state()
    assert state["actions"]["hint"] is True
    assert state["actions"]["undo"] is False  # nothing to undo yet
    assert state["actions"]["draw"] is False


def test_a_declined_takeback_tells_the_asker(friend: dict[str, Any]) -> None:
    game_id, black, white = friend["id"], friend["black"], friend["white"]
    play(black, game_id, 7, 7)
    white.wait_state(lambda s: len(s["moves"]) == 1, 5)
    assert send(black, "takeback_request", game_id=game_id)["ok"]
    state = white.wait_state(lambda s: s["offers"]["takeback"] == "black", 5)
    assert state["actions"]["takeback_answer"] is True
    assert black.wait_state(lambda s: s["actions"]["takeback_cancel"], 5)
    assert send(white, "takeback_answer", game_id=game_id, accept=False)["ok"]
    declined = black.wait(lambda items: [p for e, p in items if e == "offer_declined"], 5)[0]
    assert declined == {"game": game_id, "game_id": game_id, "kind": "takeback", "by": "white"}
    state = black.wait_state(lambda s: s["offers"]["takeback"] is None, 5)
    assert state["moves"] == [[7, 7]]


def test_a_takeback_request_can_be_cancelled(friend: dict[str, Any]) -> None:
    game_id, black, white = friend["id"], friend["black"], friend["white"]
    play(black, game_id, 7, 7)
    assert send(black, "takeback_request", game_id=game_id)["ok"]
    white.wait_state(lambda s: s["offers"]["takeback"] == "black", 5)
    assert send(black, "takeback_cancel", game_id=game_id)["ok"]
    cancelled = white.wait(lambda items: [p for e, p in items if e == "offer_cancelled"], 5)[0]
    assert cancelled["kind"] == "takeback" and cancelled["by"] == "black"
    white.wait_state(lambda s: s["offers"]["takeback"] is None, 5)
    ack = send(white, "takeback_answer", game_id=game_id, accept=True)
    assert ack["error"]["code"] == "no_offer"


def test_rematch_is_an_offer_the_friend_accepts(
    friend: dict[str, Any], app: Any, socket_factory: Any
) -> None:
    game_id, black, white = friend["id"], friend["black"], friend["white"]
    spectator = join(socket_factory(), game_id)
    both_move(friend)
    assert send(black, "resign", game_id=game_id)["ok"]
    white.wait_state(lambda s: s["status"] == "finished", 5)
    assert send(black, "rematch", game_id=game_id)["ok"]
    offered = white.wait_state(lambda s: s["offers"]["rematch"] == "black", 5)
    assert offered["next_game"] is None
    assert offered["actions"]["rematch_answer"] is True
    assert send(white, "rematch_answer", game_id=game_id, accept=True)["ok"]
    state = black.wait_state(lambda s: s["next_game"] is not None, 5)
    new_id = state["next_game"]
    # Nobody is moved: every socket stays on the old game and gets its link.
    assert state["id"] == game_id and state["rematch"] == new_id
    assert spectator.wait_state(lambda s: s["next_game"] == new_id, 5)["id"] == game_id
    new_black = join(socket_factory(friend["white_http"]), new_id).last_state()
    assert new_black["you"] == "black" and new_black["rematch_of"] == game_id
    assert new_black["status"] == "active"


def test_a_declined_rematch_tells_the_asker(friend: dict[str, Any]) -> None:
    game_id, black, white = friend["id"], friend["black"], friend["white"]
    both_move(friend)
    assert send(white, "resign", game_id=game_id)["ok"]
    black.wait_state(lambda s: s["status"] == "finished", 5)
    assert send(white, "rematch", game_id=game_id)["ok"]
    black.wait_state(lambda s: s["offers"]["rematch"] == "white", 5)
    assert send(black, "rematch_answer", game_id=game_id, accept=False)["ok"]
    declined = white.wait(lambda items: [p for e, p in items if e == "offer_declined"], 5)[0]
    assert declined["kind"] == "rematch" and declined["by"] == "black"
    assert white.wait_state(lambda s: s["offers"]["rematch"] is None, 5)["next_game"] is None


def test_rematch_against_the_ai_starts_at_once(client: Any, socket_factory: Any) -> None:
    game_id = create_game(client, mode="ai", color="black", level=1)
    events = join(socket_factory(client), game_id)
    assert ai_replied(events, game_id)["actions"]["resign"] is True
    assert send(events, "resign", game_id=game_id)["ok"]
    events.wait_state(lambda s: s["status"] == "finished", 5)
    assert send(events, "rematch", game_id=game_id)["ok"]
    assert events.wait_state(lambda s: s["next_game"] is not None, 5)["offers"]["rematch"] is None


def test_resign_before_each_side_moved_is_refused_abort_instead(
    friend: dict[str, Any],
) -> None:
    game_id, black, white = friend["id"], friend["black"], friend["white"]
    for events in (black, white):
        ack = send(events, "resign", game_id=game_id)
        assert ack["ok"] is False and ack["error"]["code"] == "resign_too_early"
        assert events.wait_error()["code"] == "resign_too_early"
    play(black, game_id, 7, 7)
    state = white.wait_state(lambda s: len(s["moves"]) == 1, 5)
    assert state["actions"]["resign"] is False and state["actions"]["abort"] is True
    ack = send(white, "resign", game_id=game_id)
    assert ack["ok"] is False and ack["error"]["code"] == "resign_too_early"
    # Nothing changed: the game goes on without a result.
    state = white.last_state()
    assert state["status"] == "active" and state["result"] is None
    assert state["moves"] == [[7, 7]]
    play(white, game_id, 8, 8)
    assert send(white, "resign", game_id=game_id)["ok"]
    final = black.wait_state(lambda s: s["status"] == "finished", 5)
    assert final["result"]["termination"] == "resign"
    assert final["result"]["winner"] == "black"


def test_a_draw_offered_and_accepted(friend: dict[str, Any]) -> None:
    game_id, black, white = friend["id"], friend["black"], friend["white"]
    assert send(black, "draw_offer", game_id=game_id)["error"]["code"] == "draw_too_early"
    assert black.last_state()["actions"]["draw"] is False
    both_move(friend)
    assert send(black, "draw_offer", game_id=game_id)["ok"]
    state = white.wait_state(lambda s: s["offers"]["draw"] == "black", 5)
    assert state["actions"]["draw_answer"] is True
    assert send(white, "draw_answer", game_id=game_id, accept=True)["ok"]
    final = black.wait_state(lambda s: s["status"] == "finished", 5)
    assert final["result"]["termination"] == "draw"
    assert final["result"]["winner"] is None


def test_abort_before_each_side_moved(friend: dict[str, Any]) -> None:
    game_id, black, white = friend["id"], friend["black"], friend["white"]
    play(black, game_id, 7, 7)
    white.wait_state(lambda s: len(s["moves"]) == 1, 5)
    assert white.last_state()["actions"]["abort"] is True
    assert send(white, "abort", game_id=game_id)["ok"]
    state = black.wait_state(lambda s: s["status"] == "finished", 5)
    assert state["result"]["termination"] == "aborted"
    assert state["result"]["winner"] is None


def test_abort_is_refused_once_both_sides_moved(friend: dict[str, Any]) -> None:
    game_id, black, white = friend["id"], friend["black"], friend["white"]
    play(black, game_id, 7, 7)
    white.wait_state(lambda s: len(s["moves"]) == 1, 5)
    play(white, game_id, 8, 8)
    state = black.wait_state(lambda s: len(s["moves"]) == 2, 5)
    assert state["actions"]["abort"] is False
    assert state["actions"]["resign"] is True  # resign or offer a draw instead
    assert send(black, "abort", game_id=game_id)["error"]["code"] == "abort_too_late"


def test_abandoned_game_can_be_claimed_after_the_countdown(
    app_factory: Any, socket_factory: Any
) -> None:
    app = app_factory(ABANDON_MS=400)
    black_http, white_http = app.test_client(), app.test_client()
    game_id = create_game(black_http, mode="friend", color="black")
    take_seat(white_http, game_id)
    socketio = app.extensions["socketio"]

    def connect(http: Any) -> Events:
        return join(socketio.test_client(app, namespace=NS, flask_test_client=http), game_id)

    black, white = connect(black_http), connect(white_http)
    play(black, game_id, 7, 7)
    white.wait_state(lambda s: len(s["moves"]) == 1, 5)
    play(white, game_id, 8, 8)
    ack = send(black, "claim_victory", game_id=game_id)
    assert ack["error"]["code"] == "opponent_present"
    white.sock.disconnect(namespace=NS)
    state = black.wait_state(lambda s: s["abandon"] is not None, 5)
    assert state["abandon"]["seat"] == "white"
    assert state["abandon"]["claim_at"] > state["abandon"]["now"]
    early = send(black, "claim_victory", game_id=game_id)
    if not early["ok"]:
        assert early["error"]["code"] == "claim_too_early"
        assert early["error"]["params"]["seconds"] >= 1
    ready = black.wait_state(lambda s: s["actions"]["claim"] or s["status"] == "finished", 5)
    if ready["status"] != "finished":
        assert send(black, "claim_victory", game_id=game_id)["ok"]
    final = black.wait_state(lambda s: s["status"] == "finished", 5)
    assert final["result"]["termination"] == "abandon"
    assert final["result"]["winner"] == "black"
    black.sock.disconnect(namespace=NS)


def test_idle_games_leave_the_live_list(app_factory: Any) -> None:
    app = app_factory(IDLE_MS=300)
    client = app.test_client()
    game_id = create_game(client, mode="friend", color="black")
    take_seat(app.test_client(), game_id)
    app.extensions["gomoku"].service.play(game_id, Seat.BLACK, 7, 7, 1)
    live = client.get("/api/v1/games?status=live").get_json()["games"]
    assert [g["id"] for g in live] == [game_id]
    time.sleep(0.5)
    assert client.get("/api/v1/games?status=live").get_json()["games"] == []


def test_the_engine_panel_keeps_the_last_figures(client: Any, socket_factory: Any) -> None:
    game_id = create_game(client, mode="ai", color="white", level=1)
    events = join(socket_factory(client), game_id)
    state = events.wait_state(lambda s: len(s["moves"]) == 1, 30)
    engine = state["engine"]
    assert engine is not None and engine["ply"] == 1 and engine["color"] == "black"
    assert 0.0 <= engine["black_winrate"] <= 1.0
    assert state["evals"][0]["black_winrate"] == engine["black_winrate"]
    assert state["warming"] is False


def test_an_imported_finished_record_says_so(client: Any) -> None:
    moves = [(i, 0) if n % 2 == 0 else (i, 1) for n, i in enumerate([0, 0, 1, 1, 2, 2, 3, 3, 4])]
    psq = "Piskvorky 15x15, 11:11, 0\n" + "".join(f"{x + 1},{y + 1},0\n" for x, y in moves)
    reply = client.post("/api/v1/import", json={"psq": psq, "level": 1})
    assert reply.status_code == 201, reply.get_json()
    state = client.get(f"/api/v1/games/{reply.get_json()['id']}").get_json()
    assert state["status"] == "finished"
    assert state["imported_finished"] is True
    assert state["actions"]["move"] is False


def test_http_errors_carry_code_and_params(client: Any) -> None:
    reply = client.post("/api/v1/games", json={"mode": "ai", "level": 99})
    assert reply.status_code == 400
    body = reply.get_json()
    assert body["code"] == "bad_request"
    assert body["params"]["field"] == "level"
    assert "error" in body
