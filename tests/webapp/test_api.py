"""The JSON API and the pages over HTTP: creating and importing games, reading states,
the stateless engine move, and clear 4xx answers that change nothing."""

from __future__ import annotations

import time
from typing import Any

import pytest
from socket_helpers import create_game

BAD_CREATE_BODIES: list[Any] = [
    {"mode": "chess"},
    {"mode": "ai", "size": 6},
    {"mode": "ai", "size": 23},
    {"mode": "ai", "size": "15"},
    {"mode": "ai", "size": True},
    {"mode": "ai", "rule": "gomoku-pro"},
    {"mode": "ai", "color": "green"},
    {"mode": "ai", "level": 0},
    {"mode": "ai", "level": 9},
    {"mode": "ai", "defence": 5},
    {"mode": "ai", "defence": "hard"},
    {"mode": "ai", "moves": [[7, 7], [7, 7]]},
    {"mode": "ai", "moves": [[7, 7], [20, 20]]},
    {"mode": "ai", "moves": [[7, 7, 1]]},
    {"mode": "ai", "moves": "h8"},
    {"mode": "ai", "clock": {"base_s": 60}},
    {"mode": "friend", "clock": {"base_s": 0}},
    {"mode": "friend", "clock": {"base_s": 60, "increment_s": -1}},
    {"mode": "friend", "clock": "fast"},
    {"mode": "aivai", "black_level": 7},
    [],
    "ai",
    {},
]


def count_games(app: Any) -> int:
    store = app.extensions["gomoku"].store
    return len(store.list_games(limit=1000))


def test_create_an_ai_game_sets_a_seat_cookie(client: Any) -> None:
    reply = client.post("/api/v1/games", json={"mode": "ai", "level": 1, "color": "black"})
    assert reply.status_code == 201
    body = reply.get_json()
    assert body["url"] == f"/g/{body['id']}"
    cookie = reply.headers["Set-Cookie"]
    assert cookie.startswith(f"seat_{body['id']}=")
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Path=/" in cookie
    state = client.get(f"/api/v1/games/{body['id']}").get_json()
    assert state["mode"] == "ai"
    assert state["status"] == "active"
    assert state["you"] is None
    assert state["players"]["black"]["kind"] == "human"
    assert state["players"]["white"] == {
        "kind": "ai",
        "name": "AI Level 1",
        "level": 1,
        "connected": True,
        "open": False,
    }
    assert set(state) >= {
        "id", "size", "rule", "version", "moves", "turn", "result", "forbidden", "clock",
        "spectators", "evals", "takeback", "rematch", "thinking",
    }  # fmt: skip


@pytest.mark.parametrize("body", BAD_CREATE_BODIES)
def test_bad_create_bodies_get_400_and_create_nothing(app: Any, client: Any, body: Any) -> None:
    reply = client.post("/api/v1/games", json=body)
    assert reply.status_code == 400
    assert isinstance(reply.get_json()["error"], str)
    assert "Set-Cookie" not in reply.headers
    assert count_games(app) == 0


def test_non_json_and_oversized_bodies_get_400(client: Any) -> None:
    reply = client.post("/api/v1/games", data="mode=ai", content_type="text/plain")
    assert reply.status_code == 400
    huge = {"size": 15, "moves": [[1, 1]] * 20000}
    reply = client.post("/api/v1/move", json=huge)
    assert reply.status_code == 400
    assert "error" in reply.get_json()


def test_unknown_game_is_a_json_404(client: Any) -> None:
    reply = client.get("/api/v1/games/doesnotexist")
    assert reply.status_code == 404
    assert "error" in reply.get_json()
    assert client.get("/api/v1/games/" + "x" * 300).status_code == 404
    assert client.get("/api/v1/nothing-here").status_code == 404


def test_live_games_lists_active_games_newest_first(client: Any) -> None:
    # The AI plays black: its first move starts each game.
    first = create_game(client, mode="ai", level=1, color="white")
    second = create_game(client, mode="ai", level=1, color="white", size=19, rule="renju")
    waiting = create_game(client, mode="friend")
    deadline = time.monotonic() + 30
    while True:
        games = client.get("/api/v1/games?status=live").get_json()["games"]
        ids = [g["id"] for g in games]
        if len(ids) >= 2 or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert ids[:2] == [second, first]
    assert waiting not in ids
    assert client.get("/api/v1/games?status=bogus").status_code == 400


def test_a_finished_starting_position_opens_finished(client: Any) -> None:
    moves = [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1], [3, 0], [3, 1], [4, 0]]
    game_id = create_game(client, mode="ai", level=1, moves=moves)
    state = client.get(f"/api/v1/games/{game_id}").get_json()
    assert state["status"] == "finished"
    assert state["result"]["winner"] == "black"
    assert state["result"]["reason"] == "five"
    assert len(state["result"]["line"]) == 5


def test_renju_state_lists_forbidden_points_for_black(client: Any) -> None:
    # Black to move with a double-three at (7,7) (stones at (5,7),(6,7) and (7,5),(7,6)).
    moves = [[5, 7], [0, 0], [6, 7], [0, 14], [7, 5], [14, 0], [7, 6], [14, 14]]
    game_id = create_game(client, mode="friend", rule="renju", moves=moves)
    state = client.get(f"/api/v1/games/{game_id}").get_json()
    assert state["turn"] == "black"
    assert [7, 7] in state["forbidden"]


def test_engine_move_api_answers_with_a_legal_move(client: Any) -> None:
    reply = client.post(
        "/api/v1/move",
        json={"size": 15, "rule": "freestyle", "moves": [[7, 7], [8, 8]], "time_ms": 200},
    )
    assert reply.status_code == 200, reply.get_json()
    body = reply.get_json()
    x, y = body["move"]
    assert 0 <= x < 15 and 0 <= y < 15
    assert [x, y] not in ([7, 7], [8, 8])
    assert isinstance(body["score"], int)
    assert isinstance(body["depth"], int)
    assert isinstance(body["nodes"], int)
    assert isinstance(body["pv"], list)


@pytest.mark.parametrize(
    "body",
    [
        {"size": 5, "moves": []},
        {"size": 15, "rule": "nope", "moves": []},
        {"size": 15, "moves": [[7, 7], [7, 7]]},
        {"size": 15, "moves": [[7, 7]], "time_ms": 0},
        {"size": 15, "moves": [[7, 7]], "time_ms": 10001},
        {"size": 15, "moves": [[7, 7]], "time_ms": "fast"},
        {"size": 15, "moves": [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1], [3, 0], [3, 1],
                               [4, 0]]},
    ],
)  # fmt: skip
def test_engine_move_api_refuses_bad_positions(client: Any, body: Any) -> None:
    reply = client.post("/api/v1/move", json=body)
    assert reply.status_code == 400
    assert reply.get_json()["error"]


def test_import_continues_with_the_user_to_move(client: Any) -> None:
    psq = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,9,0\n-1\n"
    reply = client.post("/api/v1/import", json={"psq": psq, "level": 1})
    assert reply.status_code == 201
    game_id = reply.get_json()["id"]
    assert f"seat_{game_id}=" in reply.headers["Set-Cookie"]
    state = client.get(f"/api/v1/games/{game_id}").get_json()
    assert state["moves"] == [[7, 7], [8, 8], [7, 8]]
    assert state["turn"] == "white"
    assert state["players"]["white"]["kind"] == "human"
    assert state["players"]["black"]["kind"] == "ai"


@pytest.mark.parametrize(
    "body",
    [{"psq": "not a psq"}, {"psq": ""}, {"level": 1}, {"psq": 5}, {"psq": "Piskvorky 15x15\n"
     "8,8,0\n8,8,0\n"}, {"psq": "Piskvorky 15x15, 1:1, 0\n", "color": "red"}],
)  # fmt: skip
def test_bad_imports_get_400(app: Any, client: Any, body: Any) -> None:
    reply = client.post("/api/v1/import", json=body)
    assert reply.status_code == 400
    assert reply.get_json()["error"]
    assert count_games(app) == 0


def test_psq_download_roundtrips_through_import(client: Any) -> None:
    game_id = create_game(client, mode="friend", moves=[[7, 7], [8, 8], [9, 9]])
    reply = client.get(f"/g/{game_id}/psq")
    assert reply.status_code == 200
    assert "attachment" in reply.headers["Content-Disposition"]
    text = reply.get_data(as_text=True)
    assert text.startswith("Piskvorky 15x15")
    imported = client.post("/api/v1/import", json={"psq": text, "level": 1}).get_json()
    state = client.get(f"/api/v1/games/{imported['id']}").get_json()
    assert state["moves"] == [[7, 7], [8, 8], [9, 9]]
    assert client.get("/g/unknown/psq").status_code == 404


def test_pages_render(client: Any) -> None:
    assert client.get("/").status_code == 200
    assert client.get("/?lang=zh").status_code == 200
    game_id = create_game(client, mode="ai", level=1)
    assert client.get(f"/g/{game_id}").status_code == 200
    assert client.get("/g/nosuchgame").status_code == 404
    assert client.get("/g/bad$id").status_code == 404


def test_language_switch_sets_a_cookie_and_redirects_back_to_this_site(client: Any) -> None:
    reply = client.get("/lang/zh", headers={"Referer": "http://localhost/g/abc"})
    assert reply.status_code == 302
    assert reply.headers["Location"] == "/g/abc"
    assert "lang=zh" in reply.headers["Set-Cookie"]
    reply = client.get("/lang/en", headers={"Referer": "http://evil.example/x"})
    assert reply.headers["Location"] == "/"
    reply = client.get("/lang/xx")
    assert "Set-Cookie" not in reply.headers


def test_the_secret_key_is_generated_once_and_kept(app_factory: Any, tmp_path: Any) -> None:
    first = app_factory(SECRET_KEY=None)
    second = app_factory(SECRET_KEY=None)
    key_file = tmp_path / "instance" / "secret_key"
    assert key_file.exists()
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"] == key_file.read_text()
