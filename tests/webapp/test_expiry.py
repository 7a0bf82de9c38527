"""Games that never got going: those nobody moved in stay off the list of games in
progress, and a game is aborted (``unplayed`` when nobody moved, ``unanswered`` when one
side did: no result, no rating) once a side has not made its first move for a while; a
game each side has moved in stays; a friend whose link is opened in time gets the seat;
the page of an aborted game says what became of it (``webapp.game.expiry`` and the game
service)."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from socket_helpers import create_game, join, wait_for

from engine import Rule
from webapp.game import model, opening
from webapp.game.expiry import UNANSWERED, UNPLAYED, Expiry, started
from webapp.game.model import Game
from webapp.game.types import Mode, Person, Seat, SeatInfo, SeatKind, Status, Termination
from webapp.lobby.seeks import SeekRequest

B, W = Seat.BLACK, Seat.WHITE
T0 = 1_000_000
EXPIRY = Expiry(unstarted_ms=1_000, waiting_ms=5_000)


def human(token: str | None = "t") -> SeatInfo:
    return SeatInfo(SeatKind.HUMAN, token_hash=token)


def ai() -> SeatInfo:
    return SeatInfo(SeatKind.AI, "AI Level 1", 1)


# What the page of a game aborted because nobody moved says, before any script runs.
UNPLAYED_TEXT = 'id="result-sub">Nobody moved, so the game was called off.'


def new(mode: Mode, seats: dict[Seat, SeatInfo], **options: Any) -> Game:
    game = model.new_game("g1", mode, size=15, rule=Rule.FREESTYLE, seats=seats, now=T0, **options)
    return replace(game, touched_at=T0)


# -- the pure rule -----------------------------------------------------------------------


def test_a_game_nobody_moved_in_is_aborted_after_its_time() -> None:
    game = new(Mode.AI, {B: human(), W: ai()})
    assert not started(game) and EXPIRY.at(game) == T0 + 1_000
    assert not EXPIRY.expire(game, T0 + 999).changed
    done = EXPIRY.expire(game, T0 + 1_000).game
    assert done.status is Status.FINISHED and done.result is not None
    assert done.result.termination is Termination.ABORTED and done.result.winner is None
    assert done.result.detail == UNPLAYED


def test_a_friend_waiting_for_the_guest_has_the_longer_time() -> None:
    waiting = new(Mode.FRIEND, {B: human(), W: human(None)})
    assert waiting.status is Status.WAITING and EXPIRY.at(waiting) == T0 + 5_000
    seated = model.take_seat(waiting, None, "g", T0 + 4_000).game
    assert EXPIRY.at(replace(seated, touched_at=T0 + 4_000)) == T0 + 5_000


def test_a_first_move_nobody_answers_is_aborted_as_unanswered() -> None:
    game = new(Mode.AI, {B: ai(), W: human()})
    moved = model.play(game, B, (7, 7), T0 + 10).game  # the AI's first move
    assert started(moved) and EXPIRY.at(moved) == T0 + 1_000
    done = EXPIRY.expire(moved, T0 + 1_000).game
    assert done.result is not None and done.result.termination is Termination.ABORTED
    assert done.result.winner is None and done.result.detail == UNANSWERED


def test_a_game_each_side_moved_in_never_expires() -> None:
    game = new(Mode.AI, {B: ai(), W: human()})
    answered = model.play(model.play(game, B, (7, 7), T0).game, W, (8, 8), T0).game
    assert EXPIRY.at(answered) is None
    assert not EXPIRY.expire(answered, T0 + 10**9).changed


def test_an_opening_expires_until_both_players_have_acted() -> None:
    seats = {B: human("a"), W: human("b")}
    state = opening.start_state("swap2", Rule.FREESTYLE, 15)
    game = new(Mode.FRIEND, seats, settings={"opening": "swap2"}, opening=state)
    assert EXPIRY.at(game) == T0 + 1_000
    placed = game
    for point in ((7, 7), (8, 7), (9, 9)):
        placed = opening.on_point(placed, placed.turn, point, T0 + 10).game
    assert started(placed) and EXPIRY.at(placed) == T0 + 1_000
    chosen = opening.choose(placed, placed.turn, "white", T0 + 20).game
    assert EXPIRY.at(chosen) is None


def test_engine_games_and_set_positions_never_expire() -> None:
    assert EXPIRY.at(new(Mode.AIVAI, {B: ai(), W: ai()})) is None
    from_position = new(Mode.AI, {B: ai(), W: human()}, moves=((7, 7),))
    assert not started(from_position) and EXPIRY.at(from_position) is None


# -- the service -------------------------------------------------------------------------


def test_games_nobody_moved_in_are_not_listed_as_in_progress(app: Any, socket_factory: Any) -> None:
    client = app.test_client()
    unplayed = create_game(client, mode="ai", color="black", level=1)
    seated = create_game(client, mode="friend", color="black")
    assert app.test_client().post(f"/g/{seated}/seat", json={}).status_code == 200
    live = client.get("/api/v1/games?status=live").get_json()["games"]
    assert unplayed not in [g["id"] for g in live] and seated not in [g["id"] for g in live]
    assert unplayed not in client.get("/").get_data(as_text=True)

    events = join(socket_factory(client), unplayed)
    version = events.last_state()["version"]
    ack = events.sock.emit(
        "move", {"game_id": unplayed, "x": 7, "y": 7, "version": version},
        namespace="/game", callback=True,
    )  # fmt: skip
    assert ack["ok"], ack
    wait_for(lambda: unplayed in [g["id"] for g in client.get("/api/v1/games").get_json()["games"]])
    assert f'data-game-id="{unplayed}"' in client.get("/").get_data(as_text=True)


def test_an_engine_game_is_listed_from_its_start(client: Any) -> None:
    game_id = create_game(client, mode="aivai", black_level=1, white_level=1)
    live = client.get("/api/v1/games?status=live").get_json()["games"]
    assert game_id in [g["id"] for g in live]


def test_an_untouched_game_is_aborted_and_its_link_says_so(app_factory: Any) -> None:
    app = app_factory(UNSTARTED_MS=300)
    client = app.test_client()
    game_id = create_game(client, mode="ai", color="black", level=1)
    service = app.extensions["gomoku"].service
    # Nobody looks at it: the service's own timer ends it.
    wait_for(lambda: service.store.load(game_id).status == "finished")
    state = client.get(f"/api/v1/games/{game_id}").get_json()
    assert state["status"] == "finished"
    assert state["result"]["termination"] == "aborted" and state["result"]["winner"] is None
    assert state["result"]["detail"] == "unplayed"
    page = client.get(f"/g/{game_id}")
    assert page.status_code == 200
    assert UNPLAYED_TEXT in page.get_data(as_text=True)
    assert "Aborted: nobody moved." in page.get_data(as_text=True)


def test_a_game_looked_at_after_its_time_is_aborted_then(app_factory: Any) -> None:
    app = app_factory(UNSTARTED_MS=60_000)
    client = app.test_client()
    game_id = create_game(client, mode="ai", color="black", level=1)
    service = app.extensions["gomoku"].service
    service.timers.cancel(game_id, "expire")  # made by another server, say
    service.now = lambda: int(time.time() * 1000) + 61_000
    assert client.get(f"/api/v1/games/{game_id}").get_json()["result"]["detail"] == "unplayed"
    assert service.store.load(game_id).status == "finished"


def ai_moved_first(app_factory: Any) -> tuple[Any, Any, str]:
    """A game against the AI that the human plays white, once the AI has made its first
    move; a side that has not moved is called off after 1.5 s."""
    app = app_factory(UNSTARTED_MS=1_500)
    client = app.test_client()
    game_id = create_game(client, mode="ai", color="white", level=1)
    service = app.extensions["gomoku"].service
    wait_for(lambda: len(service.load(game_id).moves) == 1, 30)
    return client, service, game_id


def test_the_ai_s_first_move_unanswered_is_called_off(app_factory: Any) -> None:
    client, service, game_id = ai_moved_first(app_factory)
    # Listed once the AI has moved, until the human's first move is overdue.
    assert game_id in [g["id"] for g in client.get("/api/v1/games").get_json()["games"]]
    wait_for(lambda: service.store.load(game_id).status == "finished")
    state = client.get(f"/api/v1/games/{game_id}").get_json()
    assert state["result"]["termination"] == "aborted" and state["result"]["winner"] is None
    assert state["result"]["detail"] == "unanswered"
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert 'id="result-sub">The first move went unanswered, so the game was called off.' in page
    assert "Aborted: the first move went unanswered." in page
    assert game_id not in [g["id"] for g in client.get("/api/v1/games").get_json()["games"]]


def test_the_ai_s_first_move_answered_in_time_keeps_the_game(app_factory: Any) -> None:
    _, service, game_id = ai_moved_first(app_factory)
    service.play(game_id, Seat.WHITE, 0, 0, service.load(game_id).version)
    time.sleep(2.0)
    assert service.load(game_id).status is Status.ACTIVE


def test_a_friend_who_comes_in_time_gets_the_seat(app_factory: Any) -> None:
    app = app_factory(UNSTARTED_MS=300, WAITING_MS=1_500)
    host = app.test_client()
    game_id = create_game(host, mode="friend", color="black")
    time.sleep(0.6)  # longer than a started game's time, within a waiting one's
    guest = app.test_client()
    reply = guest.post(f"/g/{game_id}/seat", json={})
    assert reply.status_code == 200, reply.get_json()
    assert guest.get(f"/api/v1/games/{game_id}").get_json()["status"] == "active"


def test_a_friend_game_nobody_came_to_is_aborted(app_factory: Any) -> None:
    app = app_factory(WAITING_MS=300)
    host = app.test_client()
    game_id = create_game(host, mode="friend", color="black")
    time.sleep(0.5)
    guest = app.test_client()
    page = guest.get(f"/g/{game_id}")
    assert page.status_code == 200 and UNPLAYED_TEXT in page.get_data(as_text=True)
    reply = guest.post(f"/g/{game_id}/seat", json={})
    assert reply.status_code == 400
    assert guest.get(f"/api/v1/games/{game_id}").get_json()["result"]["detail"] == "unplayed"


def test_an_unstarted_rated_lobby_game_is_aborted_without_rating(app_factory: Any) -> None:
    app = app_factory(UNSTARTED_MS=300)
    lobby = app.extensions["lobby"]
    ann, bob = Person("p-ann", "Ann"), Person("p-bob", "Bob")
    game_id = lobby.take(bob, lobby.create(ann, SeekRequest(color="black", preset="5+3")).id)
    games = lobby.games
    wait_for(lambda: games.load(game_id).status is Status.FINISHED)
    result = games.load(game_id).result
    assert result is not None and result.termination is Termination.ABORTED
    assert lobby.ratings.ratings_of("p-ann") == [] and lobby.ratings.ratings_of("p-bob") == []


def test_a_restart_aborts_what_expired_while_the_server_was_down(app_factory: Any) -> None:
    first = app_factory(UNSTARTED_MS=300, WAITING_MS=300)
    client = first.test_client()
    unplayed = create_game(client, mode="ai", color="black", level=1)
    waiting = create_game(client, mode="friend", color="black")
    app_factory.close(first)
    time.sleep(0.5)
    second = app_factory(UNSTARTED_MS=300, WAITING_MS=300)
    store = second.extensions["gomoku"].service.store
    assert store.load(unplayed).status == "finished" and store.load(waiting).status == "finished"
