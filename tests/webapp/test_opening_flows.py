"""Openings over the real stack: games created with an ``opening`` through the HTTP API,
a swap2 friend game played over Socket.IO test clients to normal play (with a swap that
moves the seats in the store), refusals with their codes, and the AI deciding swap2 as
either player through the AI pool."""

from __future__ import annotations

from typing import Any

import pytest
from socket_helpers import NS, Events, create_game, join


def send(events: Events, event: str, **payload: Any) -> dict[str, Any]:
    ack = events.sock.emit(event, payload, namespace=NS, callback=True)
    assert isinstance(ack, dict), ack
    return ack


def click(events: Events, game_id: str, x: int, y: int) -> dict[str, Any]:
    version = events.last_state()["version"]
    ack = send(events, "move", game_id=game_id, x=x, y=y, version=version)
    assert ack["ok"], ack
    return events.wait_state(lambda s: s["version"] > version, 10)


def choose(events: Events, game_id: str, option: str) -> dict[str, Any]:
    version = events.last_state()["version"]
    ack = send(events, "opening_choice", game_id=game_id, option=option, version=version)
    assert ack["ok"], ack
    return events.wait_state(lambda s: s["version"] > version, 10)


def test_creation_checks_the_opening_against_the_rule(client: Any) -> None:
    reply = client.post(
        "/api/v1/games", json={"mode": "friend", "rule": "renju", "opening": "swap2"}
    )
    assert reply.status_code == 400
    assert reply.get_json()["code"] == "bad_opening"
    assert reply.get_json()["params"]["choices"] == ["none", "soosorv8", "taraguchi10"]
    reply = client.post("/api/v1/games", json={"mode": "ai", "opening": "swap9"})
    assert reply.status_code == 400 and reply.get_json()["params"]["field"] == "opening"
    reply = client.post("/api/v1/games", json={"mode": "ai", "opening": "swap", "moves": [[7, 7]]})
    assert reply.get_json()["code"] == "bad_opening"
    game_id = create_game(client, mode="friend", rule="renju", opening="taraguchi10")
    state = client.get(f"/api/v1/games/{game_id}").get_json()
    assert state["opening"]["rule"] == "taraguchi10" and state["opening"]["area"] == 1


def test_a_swap2_friend_game_over_sockets(app: Any, socket_factory: Any) -> None:
    first_http = app.test_client()
    game_id = create_game(
        first_http, mode="friend", color="black", opening="swap2",
        clock={"base_s": 300, "increment_s": 2},
    )  # fmt: skip
    second_http = app.test_client()
    assert second_http.post(f"/g/{game_id}/seat", json={}).status_code == 200
    first = join(socket_factory(first_http), game_id)
    second = join(socket_factory(second_http), game_id)
    state = first.wait_state(lambda s: s["status"] == "active")
    assert state["opening"]["step"] == "place" and state["opening"]["stone"] == "black"
    assert state["actions"]["move"] and not state["actions"]["opening"]
    assert state["clock"]["running"] is None  # it runs once both players have acted

    # The second player may not place the first player's stones, nor choose yet.
    ack = send(second, "move", game_id=game_id, x=1, y=1, version=state["version"])
    assert ack["error"]["code"] == "not_your_turn"
    ack = send(second, "opening_choice", game_id=game_id, option="black", version=state["version"])
    assert ack["error"]["code"] == "not_your_turn"
    ack = send(first, "opening_choice", game_id=game_id, option="purple", version=state["version"])
    assert ack["error"]["code"] == "bad_request"

    click(first, game_id, 7, 7)
    state = click(first, game_id, 8, 7)
    assert state["opening"]["stone"] == "black" and state["clock"]["running"] is None
    click(first, game_id, 9, 9)
    state = second.wait_state(lambda s: s["opening"]["step"] == "choose")
    assert state["actions"]["opening"] and not state["actions"]["move"]
    assert state["opening"]["options"] == ["black", "white", "place_two"]
    assert state["clock"]["running"] is None

    state = choose(second, game_id, "place_two")
    assert state["opening"]["stone"] == "white" and state["opening"]["actor"] == "second"
    assert state["clock"]["running"] == "white"
    click(second, game_id, 6, 6)
    click(second, game_id, 6, 8)
    state = first.wait_state(lambda s: s["opening"]["step"] == "choose")
    assert state["opening"]["actor"] == "first" and state["opening"]["options"] == [
        "black",
        "white",
    ]
    ack = send(first, "hint", game_id=game_id)
    assert ack["error"]["code"] in ("hint_ai_only", "opening_in_progress")

    # The first player takes white: the seats change hands, and so do the cookies' seats.
    state = choose(first, game_id, "white")
    assert state["opening"]["active"] is False
    assert state["opening"]["seats"] == {"first": "white", "second": "black"}
    assert state["turn"] == "white" and state["clock"]["running"] == "white"
    mine = first.wait_state(lambda s: s["version"] == state["version"] and s["you"] == "white")
    assert mine["actions"]["move"]
    assert second.wait_state(lambda s: s["version"] == state["version"])["you"] == "black"
    stored = app.extensions["gomoku"].store.load(game_id)
    service = app.extensions["gomoku"].service
    first_seat = service.seat_of(
        service.load(game_id), {f"seat_{game_id}": first_http.get_cookie(f"seat_{game_id}").value}
    )
    assert (
        first_seat is not None
        and first_seat.value == "white"
        and stored.seats["black"].token_hash is not None
    )

    # Normal play: the first player, now white, plays the sixth stone.
    state = click(first, game_id, 10, 10)
    assert len(state["moves"]) == 6 and state["turn"] == "black"
    ack = send(first, "opening_choice", game_id=game_id, option="black", version=state["version"])
    assert ack["error"]["code"] == "no_opening"


def test_a_page_visit_after_a_swap_finds_the_new_seat(app: Any, socket_factory: Any) -> None:
    first_http = app.test_client()
    game_id = create_game(first_http, mode="friend", color="black", opening="swap")
    second_http = app.test_client()
    second_http.post(f"/g/{game_id}/seat", json={})
    first = join(socket_factory(first_http), game_id)
    second = join(socket_factory(second_http), game_id)
    for x, y in ((7, 7), (8, 8), (9, 7)):
        click(first, game_id, x, y)
    second.wait_state(lambda s: s["opening"]["step"] == "choose")
    choose(second, game_id, "black")
    page = second_http.get(f"/g/{game_id}")
    assert page.status_code == 200
    assert (
        first_http.get(f"/api/v1/games/{game_id}").get_json()["players"]["white"]["open"] is False
    )


# -- the AI ------------------------------------------------------------------------------


@pytest.mark.parametrize("color", ["white", "black"])
def test_the_ai_plays_swap2_on_either_side(client: Any, socket_factory: Any, color: str) -> None:
    """As the first player (the human took white) the AI places three stones; as the
    second it decides with the engine whether to stay, swap or place two."""
    game_id = create_game(client, mode="ai", color=color, level=1, opening="swap2")
    events = join(socket_factory(client), game_id)
    if color == "white":
        state = events.wait_state(lambda s: s["opening"]["step"] == "choose", 60)
        assert len(state["moves"]) == 3 and state["you"] == "white"
        assert state["actions"]["opening"]
        state = choose(events, game_id, "place_two")
        state = click(events, game_id, 3, 3)
        state = click(events, game_id, 11, 11)
        state = events.wait_state(lambda s: not s["opening"]["active"], 60)
        assert len(state["moves"]) >= 5
        assert state["opening"]["log"][-1].startswith("first:")
    else:
        for x, y in ((7, 7), (8, 7), (7, 9)):
            click(events, game_id, x, y)
        state = events.wait_state(lambda s: bool(s["opening"]["log"]), 60)
        decision = state["opening"]["log"][0]
        assert decision in ("second:white", "second:black", "second:place_two")
        if decision == "second:place_two":
            assert len(state["moves"]) == 5 and state["actions"]["opening"]
            state = choose(events, game_id, "black")
        assert not state["opening"]["active"]
    # Normal play follows: whoever is white moves, and the AI answers a human move.
    final = events.wait_state(lambda s: s["turn"] == s["you"] and s["actions"]["move"], 60)
    count = len(final["moves"])
    events.wait_state(lambda s: len(s["moves"]) >= count, 5)


@pytest.mark.parametrize("opening", ["taraguchi10", "soosorv8"])
def test_two_ais_play_a_renju_opening(client: Any, socket_factory: Any, opening: str) -> None:
    game_id = create_game(
        client, mode="aivai", rule="renju", opening=opening, black_level=1, white_level=1
    )
    events = join(socket_factory(client), game_id)
    state = events.wait_state(lambda s: len(s["moves"]) >= 6, 120)
    assert state["opening"]["active"] is False and state["opening"]["rule"] == opening
    log = state["opening"]["log"]
    assert log[-1].endswith((":pick", ":black", ":white")), log
    assert state["moves"][0] == [7, 7]  # both rules start on the centre
