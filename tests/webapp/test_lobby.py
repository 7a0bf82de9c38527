"""The seek lobby: seeks are created, listed live, cancelled and taken; a visitor cannot
take their own seek or hold two; a taken seek starts a game with both seats bound to
the two people and the preset's clock; seeks vanish when their creator's socket leaves
(after a grace for a reload); quick pairing matches by rating with a widening range; a
rated lobby game moves both ratings once, a casual one does not; bad input is refused."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from webapp.game.types import Person, Seat
from webapp.lobby.seeks import SeekRequest
from webapp.players.person_ratings import RatedPlayer

NS = "/lobby"
ANN, BOB, CAT = Person("p-ann", "Ann"), Person("p-bob", "Bob"), Person("p-cat", "Cat")


@pytest.fixture
def app(app_factory: Callable[..., Any]) -> Any:
    return app_factory(LOBBY_GRACE_MS=300)


@pytest.fixture
def lobby(app: Any) -> Any:
    return app.extensions["lobby"]


def browser(app: Any) -> tuple[Any, Any]:
    """A visitor's HTTP client (with its visitor cookie) and lobby socket."""
    client = app.test_client()
    assert client.get("/lobby").status_code == 200
    sock = app.extensions["socketio"].test_client(app, namespace=NS, flask_test_client=client)
    return client, sock


def received(sock: Any, name: str) -> list[dict[str, Any]]:
    return [e["args"][0] for e in sock.get_received(NS) if e["name"] == name]


def both_move(games: Any, game_id: str) -> None:
    """Black and white each play a move: only then may a game be resigned."""
    games.play(game_id, Seat.BLACK, 7, 7, games.load(game_id).version)
    games.play(game_id, Seat.WHITE, 8, 8, games.load(game_id).version)


SEEK = {"rule": "freestyle", "size": 15, "preset": "3+2", "rated": True, "color": "black"}


def test_a_seek_is_listed_live_and_taken_into_a_game_for_both(app: Any) -> None:
    ann_http, ann = browser(app)
    bob_http, bob = browser(app)
    ack = ann.emit("seek_create", SEEK, namespace=NS, callback=True)
    assert ack["ok"], ack
    seek_id = ack["seek"]["id"]
    lists = received(bob, "lobby_seeks")
    assert lists and [s["id"] for s in lists[-1]["seeks"]] == [seek_id]
    assert lists[-1]["seeks"][0]["preset"] == "3+2"
    assert ann_http.get("/api/v1/seeks").get_json()["seeks"][0]["id"] == seek_id

    taken = bob.emit("seek_take", {"seek_id": seek_id}, namespace=NS, callback=True)
    assert taken["ok"], taken
    game_id = taken["game_id"]
    assert received(ann, "lobby_start")[-1]["game_id"] == game_id
    assert received(bob, "lobby_start")[-1]["url"] == f"/lobby/go/{game_id}"
    assert app.extensions["lobby"].seeks() == []

    game = app.extensions["gomoku"].service.load(game_id)
    assert game.status.value == "active" and game.settings["rated"] is True
    assert ann_http.get(f"/api/v1/games/{game_id}").get_json()["rated"] is True
    assert game.clock is not None and game.clock.running is None
    assert (game.clock.base_ms, game.clock.increment_ms) == (180_000, 2_000)
    ann_id = ann_http.get("/api/v1/me").get_json()["id"]
    assert game.seats[Seat.BLACK].player_id == ann_id
    for http, seat in ((ann_http, "black"), (bob_http, "white")):
        reply = http.get(f"/lobby/go/{game_id}")
        assert reply.status_code == 302 and reply.headers["Location"].endswith(f"/g/{game_id}")
        cookie = http.get_cookie(f"seat_{game_id}")
        assert cookie is not None
        service = app.extensions["gomoku"].service
        assert service.resolve_seat(game_id, {f"seat_{game_id}": cookie.value}) == seat
    stranger = app.test_client()
    stranger.get(f"/lobby/go/{game_id}")
    assert stranger.get_cookie(f"seat_{game_id}") is None


def test_own_seek_and_a_second_seek_are_refused(app: Any) -> None:
    _, ann = browser(app)
    seek_id = ann.emit("seek_create", SEEK, namespace=NS, callback=True)["seek"]["id"]
    own = ann.emit("seek_take", {"seek_id": seek_id}, namespace=NS, callback=True)
    assert own["error"]["code"] == "own_seek"
    again = ann.emit("seek_create", SEEK, namespace=NS, callback=True)
    assert again["error"]["code"] == "seek_exists"
    assert len(app.extensions["lobby"].seeks()) == 1


def test_a_seek_taken_twice_starts_one_game(app: Any) -> None:
    _, ann = browser(app)
    _, bob = browser(app)
    _, cat = browser(app)
    seek_id = ann.emit("seek_create", SEEK, namespace=NS, callback=True)["seek"]["id"]
    assert bob.emit("seek_take", {"seek_id": seek_id}, namespace=NS, callback=True)["ok"]
    late = cat.emit("seek_take", {"seek_id": seek_id}, namespace=NS, callback=True)
    assert late["error"]["code"] == "seek_not_found"


def test_cancel_removes_the_seek(app: Any) -> None:
    _, ann = browser(app)
    ann.emit("seek_create", SEEK, namespace=NS, callback=True)
    assert ann.emit("seek_cancel", {"kind": "seek"}, namespace=NS, callback=True)["cancelled"]
    assert app.extensions["lobby"].seeks() == []


@pytest.mark.parametrize(
    "payload",
    [
        {**SEEK, "preset": "2+1"},
        {**SEEK, "size": 99},
        {**SEEK, "rule": "chess"},
        {**SEEK, "color": "green"},
        {**SEEK, "rated": "yes"},
        {**SEEK, "opening": "sicilian"},
        "seek",
    ],
)
def test_bad_seeks_are_refused(app: Any, payload: Any) -> None:
    _, ann = browser(app)
    ack = ann.emit("seek_create", payload, namespace=NS, callback=True)
    assert not ack["ok"] and ack["error"]["code"] == "bad_request"
    assert app.extensions["lobby"].seeks() == []
    bad = ann.emit("seek_take", {"seek_id": "../x"}, namespace=NS, callback=True)
    assert bad["error"]["code"] == "bad_request"


def test_a_seek_vanishes_when_its_creator_leaves_but_survives_a_reload(app: Any) -> None:
    ann_http, ann = browser(app)
    ann.emit("seek_create", SEEK, namespace=NS, callback=True)
    ann.disconnect(namespace=NS)
    assert app.extensions["lobby"].seeks() == []  # hidden at once
    again = app.extensions["socketio"].test_client(app, namespace=NS, flask_test_client=ann_http)
    assert len(app.extensions["lobby"].seeks()) == 1  # back within the grace
    again.disconnect(namespace=NS)
    time.sleep(0.6)
    assert app.extensions["lobby"].seeks() == []
    _, watcher = browser(app)
    assert received(watcher, "lobby_seeks")[-1]["seeks"] == []


# -- quick pairing -------------------------------------------------------------------------


def test_quick_pairing_matches_similar_ratings_and_widens_with_the_wait(lobby: Any) -> None:
    ratings = lobby.ratings
    strong = RatedPlayer("p-strong", "Strong")
    for number in range(12):
        ratings.record_game(f"s{number}", "freestyle-15", strong, RatedPlayer(f"x{number}", "X"), 1)
    assert ratings.rating("p-strong", "freestyle-15").rating > 1900
    clock = [1_000_000]
    lobby.now = lambda: clock[0]
    request = SeekRequest("freestyle", 15, "5+3", True)
    assert lobby.quick(ANN, request) is None  # nobody waits yet
    assert lobby.quick(Person("p-strong", "Strong"), request) is None  # too far apart
    other = SeekRequest("freestyle", 15, "1+0", True)
    assert lobby.quick(CAT, other) is None  # another clock
    game_id = lobby.quick(BOB, request)  # 1500 meets 1500
    assert game_id is not None
    game = lobby.games.load(game_id)
    assert {info.player_id for info in game.seats.values()} == {"p-ann", "p-bob"}
    assert lobby.pair_waiting() == 0
    assert lobby.quick(Person("p-dan", "Dan"), request) is None
    assert lobby.pair_waiting() == 0  # the strong player is 400+ points away
    clock[0] += 30_000  # ranges widen: 100 + 25 a second
    assert lobby.pair_waiting() == 1
    assert [s.person_id for s in lobby.repo.open_seeks("quick")] == ["p-cat"]
    assert lobby.cancel(CAT, "quick") and lobby.repo.open_seeks("quick") == []


def test_quick_pairing_over_the_socket(app: Any) -> None:
    _, ann = browser(app)
    _, bob = browser(app)
    request = {"rule": "renju", "size": 15, "preset": "1+0", "rated": False}
    assert ann.emit("quick_pair", request, namespace=NS, callback=True)["waiting"]
    paired = bob.emit("quick_pair", request, namespace=NS, callback=True)
    assert paired["ok"] and paired["url"].startswith("/lobby/go/")
    assert received(ann, "lobby_start")[-1]["game_id"] == paired["game_id"]
    game = app.extensions["gomoku"].service.load(paired["game_id"])
    assert game.rule.value == "renju" and game.settings["rated"] is False


# -- ratings -------------------------------------------------------------------------------


def test_a_rated_lobby_game_moves_both_ratings_once(lobby: Any) -> None:
    games, ratings = lobby.games, lobby.ratings
    seek = lobby.create(ANN, SeekRequest(color="black", preset="10+5"))
    game_id = lobby.take(BOB, seek.id)
    both_move(games, game_id)
    games.resign(game_id, Seat.WHITE)
    ann, bob = ratings.rating("p-ann", "freestyle-15"), ratings.rating("p-bob", "freestyle-15")
    assert ann.rating > 1500 > bob.rating and ann.games == bob.games == 1
    games.refresh(game_id)
    assert ratings.rating("p-ann", "freestyle-15").games == 1
    assert [p.game_id for p in ratings.history("p-bob")] == [game_id]


def test_casual_and_aborted_lobby_games_leave_ratings_alone(lobby: Any) -> None:
    games, ratings = lobby.games, lobby.ratings
    casual = lobby.take(BOB, lobby.create(ANN, SeekRequest(color="black", rated=False)).id)
    both_move(games, casual)
    games.resign(casual, Seat.BLACK)
    aborted = lobby.take(BOB, lobby.create(ANN, SeekRequest(color="black")).id)
    games.abort(aborted, Seat.WHITE)
    assert ratings.ratings_of("p-ann") == [] and ratings.ratings_of("p-bob") == []


def test_leaderboard_page_and_json(app: Any, lobby: Any) -> None:
    game_id = lobby.take(BOB, lobby.create(ANN, SeekRequest(color="white")).id)
    both_move(lobby.games, game_id)
    lobby.games.resign(game_id, Seat.BLACK)
    client = app.test_client()
    board = client.get("/api/v1/leaderboard?rule=freestyle-15").get_json()
    assert [r["name"] for r in board["ratings"]] == ["Ann", "Bob"]
    assert board["ratings"][0]["shown"].endswith("?")
    page = client.get("/leaderboard?rule=freestyle-15").get_data(as_text=True)
    assert "Ann" in page and "provisional" in page
    assert client.get("/api/v1/leaderboard?rule=chess-8").status_code == 400
    assert client.get("/leaderboard?rule=<b>").status_code == 200


def test_a_seek_passes_its_opening_rule_to_the_game(app: Any, lobby: Any) -> None:
    _, ann = browser(app)
    wrong = ann.emit("seek_create", {**SEEK, "rule": "renju", "opening": "swap2"},
                     namespace=NS, callback=True)  # fmt: skip
    assert wrong["error"]["code"] == "bad_opening"
    seek = ann.emit("seek_create", {**SEEK, "opening": "swap2"}, namespace=NS, callback=True)
    assert seek["ok"] and seek["seek"]["opening"] == "swap2"
    game_id = lobby.take(BOB, seek["seek"]["id"])
    game = lobby.games.load(game_id)
    assert game.settings["opening"] == "swap2" and game.opening is not None


def test_the_stylesheet_closes_every_block() -> None:
    """Blocks appended side by side by merges lose a closing brace easily, and every rule
    after an unclosed block (the lobby's among them) is then dropped by the browser."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "static" / "style.css").read_text()
    depth = 0
    for char in re.sub(r"/\*.*?\*/", "", text, flags=re.S):
        depth += {"{": 1, "}": -1}.get(char, 0)
        assert depth >= 0, "a closing brace without its block"
    assert depth == 0, "a block is never closed"


def test_starting_a_game_withdraws_both_peoples_other_seeks(lobby: Any) -> None:
    seek = lobby.create(ANN, SeekRequest())
    lobby.create(BOB, SeekRequest(rule="renju"))
    assert lobby.quick(BOB, SeekRequest(preset="1+0")) is None
    lobby.take(BOB, seek.id)
    assert lobby.seeks() == [] and lobby.repo.open_seeks("quick") == []
