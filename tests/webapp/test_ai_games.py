"""Games against the AI with the real worker pool (level 1 for speed): replies, live
progress, undo, hints, engine-vs-engine games, and a restart that loses nothing."""

from __future__ import annotations

import time
from typing import Any

from socket_helpers import NS, Events, create_game, join

from webapp.storage.store import GameRecord, MoveRecord, SeatRecord, Store


def play(events: Events, game_id: str, x: int, y: int) -> None:
    state = events.last_state()
    events.sock.emit(
        "move", {"game_id": game_id, "x": x, "y": y, "version": state["version"]}, namespace=NS
    )


def test_the_ai_replies_and_reports_progress(client: Any, socket_factory: Any) -> None:
    # Level 4 thinks about a second: long enough for live reports.
    game_id = create_game(client, mode="ai", level=4, color="black")
    me = join(socket_factory(client), game_id)
    watcher = join(socket_factory(), game_id)
    play(me, game_id, 7, 7)
    thinking_state = me.wait_state(lambda s: s["thinking"] is not None or len(s["moves"]) == 2)
    if len(thinking_state["moves"]) == 1:
        assert thinking_state["thinking"] == {"color": "white"}
    state = me.wait_state(lambda s: len(s["moves"]) == 2)
    assert state["turn"] == "black"
    assert state["thinking"] is None
    assert state["moves"][1] != [7, 7]
    assert [e["ply"] for e in state["evals"]] == [2]
    assert isinstance(state["evals"][0]["score"], int)
    assert state["evals"][0]["depth"] >= 1
    assert state["evals"][0]["nodes"] >= 1
    progress = watcher.wait(lambda items: [p for e, p in items if e == "thinking"])
    assert progress[0]["game_id"] == game_id
    assert progress[0]["color"] == "white"
    assert {"depth", "score", "pv", "nodes", "nps", "move"} <= set(progress[0])


def test_the_ai_opens_when_the_human_plays_white(client: Any, socket_factory: Any) -> None:
    game_id = create_game(client, mode="ai", level=1, color="white")
    me = join(socket_factory(client), game_id)
    state = me.wait_state(lambda s: len(s["moves"]) == 1)
    assert state["you"] == "white"
    assert state["turn"] == "white"


def test_undo_takes_back_the_move_and_the_reply(app: Any, client: Any, socket_factory: Any) -> None:
    game_id = create_game(client, mode="ai", level=1, color="black")
    me = join(socket_factory(client), game_id)
    me.sock.emit("undo", {"game_id": game_id}, namespace=NS)
    assert me.wait_error()["code"] == "no_move_to_take_back"
    play(me, game_id, 7, 7)
    me.wait_state(lambda s: len(s["moves"]) == 2)
    play(me, game_id, 3, 3)
    me.wait_state(lambda s: len(s["moves"]) == 4)
    me.sock.emit("undo", {"game_id": game_id}, namespace=NS)
    state = me.wait_state(lambda s: len(s["moves"]) == 2)
    assert state["turn"] == "black"
    assert len(state["evals"]) == 1
    assert app.extensions["gomoku"].store.load(game_id).points == [tuple(p) for p in state["moves"]]
    spectator = join(socket_factory(), game_id)
    spectator.sock.emit("undo", {"game_id": game_id}, namespace=NS)
    assert spectator.wait_error()["code"] == "not_a_player"


def test_undo_after_losing_reopens_the_game(client: Any, socket_factory: Any) -> None:
    # White (the AI) has four in a row; the human (black) blunders elsewhere.
    moves = [[0, 0], [5, 5], [0, 2], [6, 5], [0, 4], [7, 5], [14, 14], [8, 5]]
    game_id = create_game(client, mode="ai", level=1, color="black", moves=moves)
    me = join(socket_factory(client), game_id)
    play(me, game_id, 12, 12)
    lost = me.wait_state(lambda s: s["status"] == "finished", 30)
    assert lost["result"]["winner"] == "white"
    me.sock.emit("undo", {"game_id": game_id}, namespace=NS)
    state = me.wait_state(lambda s: s["status"] == "active" and len(s["moves"]) == len(moves))
    assert state["result"] is None
    assert state["turn"] == "black"


def test_hint_answers_the_asker_only(client: Any, socket_factory: Any) -> None:
    game_id = create_game(client, mode="ai", level=1, color="black")
    me = join(socket_factory(client), game_id)
    watcher = join(socket_factory(), game_id)
    me.sock.emit("hint", {"game_id": game_id}, namespace=NS)
    hint = me.wait(lambda items: [p for e, p in items if e == "hint"])[0]
    assert hint["game_id"] == game_id
    x, y = hint["move"]
    assert 0 <= x < 15 and 0 <= y < 15
    assert isinstance(hint["pv"], list)
    assert {"score", "depth"} <= set(hint)
    assert watcher.named("hint") == []
    watcher.sock.emit("hint", {"game_id": game_id}, namespace=NS)
    assert watcher.wait_error()["code"] == "not_a_player"


def test_resign_against_the_ai_and_rematch(client: Any, socket_factory: Any) -> None:
    game_id = create_game(client, mode="ai", level=1, color="black")
    me = join(socket_factory(client), game_id)
    assert me.last_state()["actions"]["resign"] is False
    me.sock.emit("resign", {"game_id": game_id}, namespace=NS)  # nobody has moved yet
    assert me.wait_error()["code"] == "resign_too_early"
    play(me, game_id, 7, 7)
    replied = me.wait_state(lambda s: len(s["moves"]) == 2)  # each side has moved
    assert replied["status"] == "active" and replied["actions"]["resign"] is True
    me.sock.emit("resign", {"game_id": game_id}, namespace=NS)
    state = me.wait_state(lambda s: s["status"] == "finished")
    assert state["result"]["winner"] == "white"
    me.sock.emit("rematch", {"game_id": game_id}, namespace=NS)
    new_id = me.wait_state(lambda s: s["rematch"] is not None)["rematch"]
    assert client.get(f"/g/{new_id}").status_code == 200
    again = join(socket_factory(client), new_id)
    state = again.wait_state(lambda s: len(s["moves"]) == 1)  # the AI now has black
    assert state["you"] == "white"
    assert state["players"]["black"]["kind"] == "ai"


def test_an_engine_game_plays_itself_to_the_end(client: Any, socket_factory: Any) -> None:
    reply = client.post(
        "/api/v1/games", json={"mode": "aivai", "size": 7, "black_level": 1, "white_level": 1}
    )
    assert reply.status_code == 201
    # Nobody sits in an engine game: no seat cookie (only the visitor's identity).
    assert not any(c.startswith("seat_") for c in reply.headers.getlist("Set-Cookie"))
    game_id = reply.get_json()["id"]
    watcher = join(socket_factory(), game_id)
    state = watcher.wait_state(lambda s: s["status"] == "finished", 90)
    assert state["result"]["reason"] in ("five", "full", "forbidden")
    assert len(state["evals"]) == len(state["moves"])
    watcher.sock.emit("move", {"game_id": game_id, "x": 0, "y": 0, "version": 0}, namespace=NS)
    assert watcher.wait_error()["code"] in ("not_a_player", "game_over")


def test_restart_keeps_games_and_resumes_the_ai(app_factory: Any, tmp_path: Any) -> None:
    first = app_factory()
    http = first.test_client()
    game_id = create_game(http, mode="friend", color="black", moves=[[7, 7], [8, 8]])
    before = first.extensions["gomoku"].service.public_state(
        first.extensions["gomoku"].store.load(game_id)
    )
    # An AI game caught mid-thought: the AI (white) is to move when the server stops.
    store: Store = first.extensions["gomoku"].store
    store.create(
        GameRecord(
            id="resume1",
            mode="ai",
            size=15,
            rule="freestyle",
            status="active",
            settings={"level": 1, "defence": 1.0},
            moves=[MoveRecord(1, 7, 7, "black")],
            seats={
                "black": SeatRecord("black", "human", "0" * 64),
                "white": SeatRecord("white", "ai", None, 1, "AI Level 1"),
            },
        )
    )
    app_factory.close(first)  # type: ignore[attr-defined]

    second = app_factory()
    runtime = second.extensions["gomoku"]
    after = runtime.service.public_state(runtime.store.load(game_id))
    assert after == before
    sock = second.extensions["socketio"].test_client(second, namespace=NS)
    watcher = join(sock, "resume1")
    state = watcher.wait_state(lambda s: len(s["moves"]) == 2)
    assert state["turn"] == "black"
    assert runtime.store.load("resume1").moves[1].eval_score is not None
    sock.disconnect(namespace=NS)


def test_undo_while_the_ai_thinks_cancels_its_move(
    app: Any, client: Any, socket_factory: Any
) -> None:
    game_id = create_game(client, mode="ai", level=5, color="black")
    me = join(socket_factory(client), game_id)
    play(me, game_id, 7, 7)
    me.wait_state(lambda s: s["thinking"] == {"color": "white"}, 10)
    me.sock.emit("undo", {"game_id": game_id}, namespace=NS)
    state = me.wait_state(lambda s: s["moves"] == [] and s["thinking"] is None, 10)
    assert state["turn"] == "black"
    # The cancelled search's move never lands (level 5 searches up to 3 s).
    time.sleep(3.5)
    assert app.extensions["gomoku"].store.load(game_id).points == []
    assert me.last_state()["moves"] == []
