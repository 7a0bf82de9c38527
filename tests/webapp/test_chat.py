"""Chat in a game: players and spectators on separate channels, plain text with length
and rate limits, history for a socket that joins, nothing stored on a refusal."""

from __future__ import annotations

from typing import Any

import pytest
from socket_helpers import NS, Events, create_game, join

from webapp.chat.limits import ChatLimiter
from webapp.chat.rules import MAX_CHARS, clean_text
from webapp.game.errors import GameActionError, RateLimitedError


def take_seat(http: Any, game_id: str) -> None:
    reply = http.post(f"/g/{game_id}/seat", json={})
    assert reply.status_code == 200, reply.get_json()


def say(events: Events, game_id: str, text: Any) -> dict[str, Any]:
    ack = events.sock.emit("chat", {"game_id": game_id, "text": text}, namespace=NS, callback=True)
    assert isinstance(ack, dict), ack
    return ack


def chat_texts(events: Events) -> list[str]:
    return [line["text"] for line in events.named("chat")]


@pytest.fixture
def room(app: Any, socket_factory: Any) -> dict[str, Any]:
    """A friend game with both players and one spectator joined."""
    black_http = app.test_client()
    game_id = create_game(black_http, mode="friend", color="black")
    white_http = app.test_client()
    take_seat(white_http, game_id)
    return {
        "id": game_id,
        "black": join(socket_factory(black_http), game_id),
        "white": join(socket_factory(white_http), game_id),
        "spectator": join(socket_factory(app.test_client()), game_id),
    }


# -- rules -------------------------------------------------------------------------------


def test_text_is_cleaned_to_one_plain_line() -> None:
    assert clean_text("  hello \n\t world  ") == "hello world"
    assert clean_text("a\u202eb\x00c\x1b[31m") == "abc[31m"
    assert clean_text("<b>gg</b>") == "<b>gg</b>"  # kept as text: shown as text
    assert clean_text("x" * MAX_CHARS) == "x" * MAX_CHARS


@pytest.mark.parametrize(
    ("raw", "code"),
    [("", "chat_empty"), (" \n ", "chat_empty"), ("\u202e", "chat_empty"),
     ("x" * (MAX_CHARS + 1), "chat_too_long"), (5, "bad_request"), (None, "bad_request")],
)  # fmt: skip
def test_bad_text_is_refused_with_its_code(raw: Any, code: str) -> None:
    with pytest.raises(GameActionError) as caught:
        clean_text(raw)
    assert caught.value.code == code


def test_the_limiter_allows_a_burst_then_refuses_until_the_window_passes() -> None:
    now = [100.0]
    limiter = ChatLimiter(burst=3, window_s=10, gap_s=0.5, clock=lambda: now[0])
    for i in range(3):
        limiter.check("a", f"line {i}")
        now[0] += 1
    with pytest.raises(RateLimitedError):
        limiter.check("a", "one more")
    limiter.check("b", "another sender is not limited")
    now[0] += 8
    limiter.check("a", "the window has passed")


def test_the_limiter_refuses_lines_too_close_and_repeats() -> None:
    now = [0.0]
    limiter = ChatLimiter(gap_s=0.5, repeat_s=30, clock=lambda: now[0])
    limiter.check("a", "hi")
    now[0] += 0.1
    with pytest.raises(RateLimitedError):
        limiter.check("a", "too soon")
    now[0] += 1
    with pytest.raises(GameActionError) as caught:
        limiter.check("a", "hi")
    assert caught.value.code == "chat_repeat"
    now[0] += 31
    limiter.check("a", "hi")


# -- over the socket ----------------------------------------------------------------------


def test_players_and_spectators_read_separate_channels(room: dict[str, Any]) -> None:
    game_id = room["id"]
    black, white, spectator = room["black"], room["white"], room["spectator"]
    assert black.named("chat_history")[-1]["channel"] == "players"
    assert spectator.named("chat_history")[-1]["channel"] == "spectators"

    ack = say(black, game_id, "good luck")
    assert ack["ok"] and isinstance(ack["id"], int)
    white.wait(lambda _: "good luck" in chat_texts(white), 5)
    line = white.named("chat")[-1]
    assert line["seat"] == "black" and line["channel"] == "players"

    assert say(spectator, game_id, "nice opening")["ok"]
    spectator.wait(lambda _: "nice opening" in chat_texts(spectator), 5)
    # Each side's line reached its own channel only.
    assert "good luck" not in chat_texts(spectator)
    assert "nice opening" not in chat_texts(black)
    assert "nice opening" not in chat_texts(white)


def test_a_socket_that_joins_gets_its_channels_history(
    room: dict[str, Any], app: Any, socket_factory: Any
) -> None:
    game_id = room["id"]
    assert say(room["black"], game_id, "first")["ok"]
    assert say(room["spectator"], game_id, "from the stands")["ok"]
    late = join(socket_factory(app.test_client()), game_id)
    history = late.named("chat_history")[-1]
    assert history["channel"] == "spectators"
    assert [m["text"] for m in history["messages"]] == ["from the stands"]


def test_refused_lines_are_not_stored_or_sent(room: dict[str, Any]) -> None:
    game_id = room["id"]
    black, white = room["black"], room["white"]
    ack = say(black, game_id, "x" * (MAX_CHARS + 1))
    assert ack["ok"] is False and ack["error"]["code"] == "chat_too_long"
    assert ack["error"]["params"] == {"max": MAX_CHARS}
    assert say(black, game_id, "   ")["error"]["code"] == "chat_empty"
    assert say(black, game_id, ["not", "text"])["error"]["code"] == "bad_request"
    assert say(black, game_id, "x" * 5000)["error"]["code"] == "chat_too_long"
    assert say(black, "no-such-game", "hi")["ok"] is False
    assert say(black, game_id, "ok")["ok"]
    white.wait(lambda _: "ok" in chat_texts(white), 5)
    assert chat_texts(white) == ["ok"]


def test_a_flood_is_rate_limited(room: dict[str, Any]) -> None:
    game_id = room["id"]
    answers = [say(room["spectator"], game_id, f"line {i}") for i in range(8)]
    codes = [a["error"]["code"] for a in answers if not a["ok"]]
    assert answers[0]["ok"]
    assert "rate_limited" in codes


def test_the_human_playing_the_ai_has_no_channel(client: Any, socket_factory: Any) -> None:
    game_id = create_game(client, mode="ai", color="black", level=1)
    human = join(socket_factory(client), game_id)
    assert human.named("chat_history")[-1]["channel"] is None
    assert say(human, game_id, "hello?")["error"]["code"] == "chat_closed"


def test_a_socket_must_join_before_chatting(room: dict[str, Any], socket_factory: Any,
                                            app: Any) -> None:  # fmt: skip
    outsider = Events(socket_factory(app.test_client()))
    ack = say(outsider, room["id"], "drive-by")
    assert ack["ok"] is False
    assert "drive-by" not in chat_texts(room["spectator"])


def test_a_spectator_who_takes_the_free_seat_moves_to_the_players_channel(
    app: Any, socket_factory: Any
) -> None:
    creator = app.test_client()
    game_id = create_game(creator, mode="friend", color="black")
    black = join(socket_factory(creator), game_id)
    guest_http = app.test_client()
    guest = join(socket_factory(guest_http), game_id)
    assert guest.named("chat_history")[-1]["channel"] == "spectators"
    ack = guest.sock.emit("take_seat", {"game_id": game_id}, namespace=NS, callback=True)
    assert ack["ok"], ack
    assert guest.named("chat_history")[-1]["channel"] == "players"
    assert say(guest, game_id, "hi, I am white")["ok"]
    black.wait(lambda _: "hi, I am white" in chat_texts(black), 5)


def test_a_spectator_signs_with_their_display_name(
    room: dict[str, Any], app: Any, socket_factory: Any
) -> None:
    http = app.test_client()
    assert http.get("/").status_code == 200  # the visit gives the browser its identity
    me = http.get("/api/v1/me").get_json()
    watcher = join(socket_factory(http), room["id"])
    assert say(watcher, room["id"], "hello from the stands")["ok"]
    watcher.wait(lambda _: "hello from the stands" in chat_texts(watcher), 5)
    assert watcher.named("chat")[-1]["name"] == me["name"]


def test_one_visitor_has_one_allowance_across_sockets(
    room: dict[str, Any], app: Any, socket_factory: Any
) -> None:
    http = app.test_client()
    http.get("/")
    first = join(socket_factory(http), room["id"])
    second = join(socket_factory(http), room["id"])
    assert say(first, room["id"], "one")["ok"]
    # The same visitor on another socket (a second tab) is still too quick.
    assert say(second, room["id"], "two")["error"]["code"] == "rate_limited"
