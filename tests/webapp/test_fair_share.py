"""Each client's fair share of the engine: the engine API and hints refuse a client over
its share with ``rate_limited`` (HTTP 429) and start nothing, think time is capped, and a
live game's AI move is played while other clients keep the analysis lane full."""

from __future__ import annotations

import threading
import time
from typing import Any

from socket_helpers import NS, create_game, join

from webapp.ai.fairness import Quota
from webapp.ai.lanes import ANALYSIS
from webapp.ai.types import AiJob

OPENING = [[7, 7], [8, 8], [8, 7]]


def ask_engine(client: Any, address: str, time_ms: int) -> Any:
    return client.post(
        "/api/v1/move",
        json={"size": 15, "moves": OPENING, "time_ms": time_ms},
        environ_base={"REMOTE_ADDR": address},
    )


def in_background(action: Any) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(action()), daemon=True)
    thread.start()
    return thread, out


def pool_of(app: Any) -> Any:
    return app.extensions["gomoku"].runner.inner


def wait_busy(app: Any, busy: int, waiting: int = 0) -> None:
    deadline = time.monotonic() + 30
    while True:
        status = pool_of(app).status()["analysis"]
        if status["busy"] >= busy and status["waiting"] >= waiting:
            return
        assert time.monotonic() < deadline, status
        time.sleep(0.02)


def test_the_engine_api_refuses_a_client_over_its_share(app_factory: Any) -> None:
    app = app_factory(AI_QUOTA=Quota(searches=1, rate_per_s=0.001, burst=3))
    client = app.test_client()
    running, answers = in_background(lambda: ask_engine(client, "10.0.0.1", 1500))
    wait_busy(app, 1)
    # One search at a time per client...
    refused = ask_engine(client, "10.0.0.1", 100)
    assert refused.status_code == 429
    assert "at a time" in refused.get_json()["error"]
    # ...while another client is served.
    assert ask_engine(client, "10.0.0.2", 50).status_code == 200
    running.join(30)
    assert answers[0].status_code == 200
    # Then the bucket: three searches, and the fourth is refused.
    assert ask_engine(client, "10.0.0.1", 10).status_code == 200
    assert ask_engine(client, "10.0.0.1", 10).status_code == 200
    refused = ask_engine(client, "10.0.0.1", 10)
    assert refused.status_code == 429
    assert "too many" in refused.get_json()["error"]


def test_a_full_analysis_lane_refuses_newcomers(app_factory: Any) -> None:
    app = app_factory(AI_QUOTA=Quota(waiting=2))
    client = app.test_client()
    busy = [
        in_background(lambda a=address: ask_engine(app.test_client(), a, 1000))
        for address in ("10.0.2.1", "10.0.2.2")
    ]
    wait_busy(app, 1, 1)
    refused = ask_engine(client, "10.0.2.3", 100)
    assert refused.status_code == 429
    assert "busy" in refused.get_json()["error"]
    for thread, answers in busy:
        thread.join(30)
        assert answers[0].status_code == 200
    assert ask_engine(client, "10.0.2.3", 100).status_code == 200


def test_analysis_think_time_is_capped(app_factory: Any) -> None:
    app = app_factory(AI_QUOTA=Quota(max_think_s=0.2))
    runner = app.extensions["gomoku"].runner
    job = AiJob(15, "freestyle", [(7, 7)], 5, time_s=10.0, lane=ANALYSIS, client="10.0.0.3")
    move = runner.submit(job).future.result(30)
    # The search stopped at the cap, far below the 10 s asked for.
    assert move.time_s < 1.0


def test_a_hint_flood_is_refused_with_rate_limited(app_factory: Any) -> None:
    app = app_factory(AI_QUOTA=Quota(searches=1, rate_per_s=0.001, burst=1))
    client = app.test_client()
    game_id = create_game(client, mode="ai", level=1, color="black", moves=OPENING[:2])
    sock = app.extensions["socketio"].test_client(app, namespace=NS, flask_test_client=client)
    me = join(sock, game_id)
    acks = [sock.emit("hint", {"game_id": game_id}, namespace=NS, callback=True) for _ in range(6)]
    assert acks[0] == {"ok": True}
    assert [ack["error"]["code"] for ack in acks[1:]] == ["rate_limited"] * 5
    hint = me.wait(lambda items: [p for e, p in items if e == "hint"])[0]
    assert hint["game_id"] == game_id


def test_a_game_move_is_played_while_others_fill_the_analysis_lane(app_factory: Any) -> None:
    app = app_factory(AI_QUOTA=Quota(searches=2))
    client = app.test_client()
    game_id = create_game(client, mode="ai", level=1, color="black")
    me = join(
        app.extensions["socketio"].test_client(app, namespace=NS, flask_test_client=client), game_id
    )
    # Three clients, two long searches each: one runs, five wait.
    busy = [
        in_background(lambda a=address: ask_engine(app.test_client(), a, 1000))
        for address in ("10.0.1.1", "10.0.1.2", "10.0.1.3")
        for _ in range(2)
    ]
    wait_busy(app, 1, 5)
    state = me.last_state()
    me.sock.emit(
        "move", {"game_id": game_id, "x": 7, "y": 7, "version": state["version"]}, namespace=NS
    )
    reply = me.wait_state(lambda s: len(s["moves"]) == 2)
    assert reply["turn"] == "black"
    # The AI answered while the analysis searches were still running or waiting.
    assert sum(thread.is_alive() for thread, _ in busy) >= 4
    for thread, answers in busy:
        thread.join(60)
        assert answers[0].status_code == 200
