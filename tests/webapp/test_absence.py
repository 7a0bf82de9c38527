"""Abandon countdowns kept in the database: a server restarted on the same database keeps
the moment the opponent left (the claim opens when it would have without the restart,
and its timer is armed again at start), a player who comes back ends the countdown for
good, and the records themselves behave alike in memory and in SQLite. Presence
summaries count spectators without walking the room."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from socket_helpers import NS, Events, create_game, join

from webapp.game.absence import Absence
from webapp.game.absence_records import MemoryAbsences, StoredAbsences
from webapp.game.types import Seat
from webapp.realtime.presence import Presence
from webapp.storage.store import Store


def _send(events: Events, event: str, **payload: Any) -> dict[str, Any]:
    ack = events.sock.emit(event, payload, namespace=NS, callback=True)
    assert isinstance(ack, dict), ack
    return ack


def _play(events: Events, game_id: str, x: int, y: int) -> None:
    state = events.last_state()
    ack = _send(events, "move", game_id=game_id, x=x, y=y, version=state["version"])
    assert ack["ok"], ack
    events.wait_state(lambda s: len(s["moves"]) == len(state["moves"]) + 1, 5)


def _mark(events: Events) -> int:
    """Where the events received so far end (for ``_state_after``)."""
    events.pull()
    return len(events.items)


def _state_after(events: Events, mark: int, predicate: Any) -> dict[str, Any]:
    """The first state received after ``mark`` that matches ``predicate``."""

    def match(items: list[tuple[str, dict[str, Any]]]) -> dict[str, Any] | None:
        for event, payload in items[mark:]:
            if event == "state" and predicate(payload):
                return payload
        return None

    found: dict[str, Any] = events.wait(match, 5.0)
    return found


def _friend_game(app: Any) -> tuple[str, Any, Any]:
    black_http, white_http = app.test_client(), app.test_client()
    game_id = create_game(black_http, mode="friend", color="black")
    reply = white_http.post(f"/g/{game_id}/seat", json={})
    assert reply.status_code == 200, reply.get_json()
    return game_id, black_http, white_http


def _connect(app: Any, http: Any, game_id: str) -> Events:
    socketio = app.extensions["socketio"]
    return join(socketio.test_client(app, namespace=NS, flask_test_client=http), game_id)


def test_a_restart_keeps_since_when_the_opponent_is_gone(app_factory: Any) -> None:
    first = app_factory(ABANDON_MS=60_000)
    game_id, black_http, white_http = _friend_game(first)
    black, white = _connect(first, black_http, game_id), _connect(first, white_http, game_id)
    _play(black, game_id, 7, 7)
    white.wait_state(lambda s: len(s["moves"]) == 1, 5)
    _play(white, game_id, 8, 8)
    white.sock.disconnect(namespace=NS)
    before = black.wait_state(lambda s: s["abandon"] is not None, 5)["abandon"]
    assert before["seat"] == "white"
    black.sock.disconnect(namespace=NS)
    app_factory.close(first)

    # A new server process on the same database: the countdown runs from the first one.
    second = app_factory(ABANDON_MS=60_000)
    black = _connect(second, black_http, game_id)
    after = black.wait_state(lambda s: s["abandon"] is not None, 5)["abandon"]
    assert after["seat"] == "white"
    assert after["claim_at"] == before["claim_at"]
    assert after["now"] > before["now"]
    ack = _send(black, "claim_victory", game_id=game_id)
    assert ack["error"]["code"] == "claim_too_early"

    # The player comes back: the countdown ends, and a later absence starts afresh.
    mark = _mark(black)
    white = _connect(second, white_http, game_id)
    _state_after(black, mark, lambda s: s["abandon"] is None)
    assert second.extensions["gomoku"].service.publisher.absence.gone_since(game_id) == {}
    mark = _mark(black)
    white.sock.disconnect(namespace=NS)
    again = _state_after(black, mark, lambda s: s["abandon"] is not None)["abandon"]
    assert again["claim_at"] > before["claim_at"]
    black.sock.disconnect(namespace=NS)


def test_a_restart_arms_the_claim_timer_again(app_factory: Any) -> None:
    first = app_factory(ABANDON_MS=4_000)
    game_id, black_http, white_http = _friend_game(first)
    black, white = _connect(first, black_http, game_id), _connect(first, white_http, game_id)
    _play(black, game_id, 7, 7)
    white.wait_state(lambda s: len(s["moves"]) == 1, 5)
    _play(white, game_id, 8, 8)
    white.sock.disconnect(namespace=NS)
    black.wait_state(lambda s: s["abandon"] is not None, 5)
    black.sock.disconnect(namespace=NS)
    app_factory.close(first)

    second = app_factory(ABANDON_MS=4_000)
    assert second.extensions["gomoku"].service.timers.pending(game_id, "abandon")
    black = _connect(second, black_http, game_id)
    # Published again by the timer when the claim opens, without any event of the page.
    state = black.wait_state(lambda s: s["actions"]["claim"], 10)
    assert state["abandon"]["seat"] == "white"
    assert _send(black, "claim_victory", game_id=game_id)["ok"]
    final = black.wait_state(lambda s: s["status"] == "finished", 5)
    assert final["result"]["termination"] == "abandon"
    # A finished game keeps no record of absences.
    assert second.extensions["gomoku"].service.publisher.absence.gone_since(game_id) == {}
    black.sock.disconnect(namespace=NS)


@pytest.fixture(params=["memory", "sqlite"])
def absence(request: Any, tmp_path: Path) -> Any:
    if request.param == "memory":
        yield Absence(MemoryAbsences())
        return
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    yield Absence(StoredAbsences(store.engine, store.writing))
    store.close()


def test_absence_records_the_first_moment_a_seat_is_gone(absence: Absence) -> None:
    both = [Seat.BLACK, Seat.WHITE]
    assert absence.observe("g", both, both, 1_000) == {}
    assert absence.observe("g", both, [Seat.BLACK], 2_000) == {Seat.WHITE: 2_000}
    assert absence.observe("g", both, [Seat.BLACK], 3_000) == {Seat.WHITE: 2_000}
    assert absence.observe("g", both, [], 4_000) == {Seat.WHITE: 2_000, Seat.BLACK: 4_000}
    assert absence.games() == {"g": {Seat.WHITE: 2_000, Seat.BLACK: 4_000}}
    assert absence.observe("g", both, [Seat.WHITE], 5_000) == {Seat.BLACK: 4_000}
    assert absence.gone_since("g") == {Seat.BLACK: 4_000}
    absence.forget("g")
    assert absence.gone_since("g") == {}
    assert absence.games() == {}


def test_the_first_start_stored_wins(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    one, two = (StoredAbsences(store.engine, store.writing) for _ in range(2))
    assert one.start("g", "white", 1_000) == 1_000
    assert two.start("g", "white", 2_000) == 1_000
    assert two.load("g") == {"white": 1_000}
    store.close()


def test_presence_summary_counts_spectators_and_lists_the_seated() -> None:
    presence = Presence()
    for n in range(1000):
        presence.join("g", f"s{n}", None)
    presence.join("g", "p1", "black")
    presence.join("g", "s5", "white")  # a spectator took the free seat
    assert presence.summary("g") == ([("p1", "black"), ("s5", "white")], 999)
    assert presence.connected("g", "white") and presence.spectators("g") == 999
    assert presence.leave_all("s5") == ["g"]
    assert presence.leave_all("s6") == ["g"]
    assert presence.summary("g") == ([("p1", "black")], 998)
    for n in range(1000):
        presence.leave_all(f"s{n}")
    presence.leave_all("p1")
    assert presence.summary("g") == ([], 0)
    assert presence.members("g") == []
