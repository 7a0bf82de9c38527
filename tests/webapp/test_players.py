"""The player registry (ids, the ENGINES setting and its errors), the Elo table computed
from finished games, AI-vs-AI creation by player id, and the players page and its JSON."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from webapp.players.ratings import INITIAL_RATING, compute_ratings, expected_score
from webapp.players.registry import (
    EngineConfigError,
    PlayerRegistry,
    UnknownPlayerError,
    parse_engines,
    seat_player_id,
)
from webapp.storage.store import GameRecord, MoveRecord, SeatRecord

# -- registry ----------------------------------------------------------------------------


def test_the_registry_offers_every_level_mcts_and_our_brains() -> None:
    registry = PlayerRegistry.build()
    ids = [player.id for player in registry]
    assert ids[:5] == [f"negamax:{n}" for n in range(1, 6)]
    assert "mcts" in ids
    assert {"engine:gomoku", "engine:gomoku-mcts"} <= set(ids)
    brain = registry.get("engine:gomoku")
    assert brain.kind == "engine"
    assert brain.command[0] == sys.executable
    assert brain.command[-1] == "pbrain"
    assert registry.get("engine:gomoku-mcts").command[-2:] == ("--player", "mcts")
    assert registry.get("negamax:3").level == 3
    assert registry.get("negamax:3").spec()["kind"] == "negamax"


def test_configured_engines_join_the_registry_from_json() -> None:
    value = json.dumps([{"name": "Embryo 21", "command": ["/opt/embryo"], "time_s": 2}])
    registry = PlayerRegistry.build(value)
    player = registry.get("engine:embryo-21")
    assert player.name == "Embryo 21"
    assert player.command == ("/opt/embryo",)
    assert player.move_time_s == 2.0
    assert player.spec()["command"] == ["/opt/embryo"]


def test_the_environment_names_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOMOKU_ENGINES", '[{"name": "x", "command": "run-x --fast"}]')
    assert PlayerRegistry.from_environment().get("engine:x").command == ("run-x", "--fast")


@pytest.mark.parametrize(
    "value",
    [
        "{not json",
        '{"name": "x"}',
        "[1]",
        '[{"name": "", "command": ["x"]}]',
        '[{"name": "x", "command": []}]',
        '[{"name": "x", "command": [1]}]',
        '[{"name": "x", "command": ["x"], "time_s": 0}]',
        '[{"name": "x", "command": ["x"], "time_s": true}]',
        '[{"name": "gomoku", "command": ["x"]}]',
        '[{"name": "a b", "command": ["x"]}, {"name": "a-b", "command": ["y"]}]',
    ],
)
def test_a_bad_engines_setting_is_refused_clearly(value: str) -> None:
    with pytest.raises(EngineConfigError):
        PlayerRegistry.build(value)


def test_unknown_players_are_named_errors() -> None:
    registry = PlayerRegistry.build()
    with pytest.raises(UnknownPlayerError, match="no player"):
        registry.get("engine:nothing")
    assert issubclass(UnknownPlayerError, ValueError)
    assert parse_engines(None) == []


def test_seats_map_to_players() -> None:
    settings = {"players": {"black": "mcts", "white": "negamax:2"}}
    assert seat_player_id(settings, "black", "ai", None) == "mcts"
    assert seat_player_id({}, "white", "ai", 4) == "negamax:4"
    assert seat_player_id({}, "black", "human", None) == "human"


# -- ratings -----------------------------------------------------------------------------


def finished(game_id: str, black: str, white: str, winner: str | None) -> GameRecord:
    return GameRecord(
        id=game_id,
        mode="aivai",
        size=15,
        rule="freestyle",
        status="finished",
        settings={"players": {"black": black, "white": white}},
        result={"winner": winner, "reason": "five" if winner else "full", "line": []},
        moves=[MoveRecord(1, 7, 7, "black")],
        seats={
            "black": SeatRecord("black", "ai", name=black),
            "white": SeatRecord("white", "ai", name=white),
        },
    )


def test_elo_moves_points_from_loser_to_winner() -> None:
    registry = PlayerRegistry.build()
    games = [
        finished("a", "mcts", "negamax:1", "black"),
        finished("b", "negamax:1", "mcts", "white"),
        finished("c", "mcts", "negamax:1", None),
        finished("d", "mcts", "mcts", "black"),  # self-play does not count
    ]
    table = {r.player_id: r for r in compute_ratings(games, registry)}
    mcts, weak = table["mcts"], table["negamax:1"]
    assert (mcts.games, mcts.wins, mcts.losses, mcts.draws) == (3, 2, 0, 1)
    assert (weak.games, weak.wins, weak.losses, weak.draws) == (3, 0, 2, 1)
    assert mcts.rating > INITIAL_RATING > weak.rating
    assert mcts.rating + weak.rating == pytest.approx(2 * INITIAL_RATING)
    assert table["negamax:5"].games == 0
    assert table["negamax:5"].rating == INITIAL_RATING
    ranked = compute_ratings(games, registry)
    assert ranked[0].player_id == "mcts"
    assert ranked[1].player_id == "negamax:1"


def test_the_first_win_between_equals_is_worth_half_the_factor() -> None:
    assert expected_score(1500, 1500) == pytest.approx(0.5)
    table = compute_ratings([finished("a", "mcts", "negamax:2", "black")], PlayerRegistry.build())
    assert table[0].rating == pytest.approx(1516)


def test_humans_are_pooled_and_unknown_engines_keep_their_id() -> None:
    record = finished("a", "engine:gone", "negamax:3", "black")
    vs_human = GameRecord(
        id="h",
        mode="ai",
        size=15,
        rule="freestyle",
        status="finished",
        result={"winner": "black", "reason": "five", "line": []},
        seats={
            "black": SeatRecord("black", "human", "hash"),
            "white": SeatRecord("white", "ai", None, 2, "AI Level 2"),
        },
    )
    table = {r.player_id: r for r in compute_ratings([record, vs_human], PlayerRegistry.build())}
    assert table["engine:gone"].name == "engine:gone"
    assert table["human"].wins == 1
    assert table["negamax:2"].losses == 1


# -- web ---------------------------------------------------------------------------------


def test_aivai_games_take_player_ids(client: Any, app: Any) -> None:
    reply = client.post(
        "/api/v1/games",
        json={"mode": "aivai", "size": 9, "black_player": "mcts", "white_player": "engine:gomoku"},
    )
    assert reply.status_code == 201, reply.get_json()
    game_id = reply.get_json()["id"]
    record = app.extensions["gomoku"].store.load(game_id)
    assert record.settings["players"] == {"black": "mcts", "white": "engine:gomoku"}
    state = client.get(f"/api/v1/games/{game_id}").get_json()
    assert state["players"]["black"]["name"] == "MCTS"
    assert state["players"]["black"]["level"] is None
    assert state["players"]["white"]["name"] == "gomoku"
    # The levels of before still work and become negamax players.
    reply = client.post("/api/v1/games", json={"mode": "aivai", "black_level": 2})
    record = app.extensions["gomoku"].store.load(reply.get_json()["id"])
    assert record.settings["players"] == {"black": "negamax:2", "white": "negamax:3"}
    assert record.seats["black"].name == "AI Level 2"


@pytest.mark.parametrize(
    "body",
    [
        {"mode": "aivai", "black_player": "engine:nothing"},
        {"mode": "aivai", "white_player": "NOT AN ID!"},
        {"mode": "aivai", "white_player": 3},
        {"mode": "ai", "black_player": "mcts"},
    ],
)
def test_bad_player_ids_are_refused(client: Any, app: Any, body: dict[str, Any]) -> None:
    before = len(app.extensions["gomoku"].store.list_games(limit=100))
    reply = client.post("/api/v1/games", json=body)
    assert reply.status_code == 400
    assert "player" in reply.get_json()["error"]
    assert len(app.extensions["gomoku"].store.list_games(limit=100)) == before


def test_the_home_page_offers_every_player(client: Any) -> None:
    html = client.get("/").get_data(as_text=True)
    for player_id in ("negamax:1", "negamax:5", "mcts", "engine:gomoku", "engine:gomoku-mcts"):
        assert html.count(f'value="{player_id}"') == 2, player_id  # black and white selects
    assert 'href="/players"' in html


def test_the_players_page_shows_ratings_of_stored_games(client: Any, app: Any) -> None:
    store = app.extensions["gomoku"].store
    store.create(finished("g1", "mcts", "negamax:1", "black"))
    store.create(finished("g2", "engine:gomoku", "mcts", None))
    page = client.get("/players")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'data-player-id="mcts"' in html
    assert "1-0-1" in html  # MCTS: one win, one draw
    data = client.get("/api/v1/players").get_json()
    ratings = {r["id"]: r for r in data["ratings"]}
    assert ratings["mcts"]["games"] == 2
    assert ratings["mcts"]["rating"] > 1500 > ratings["negamax:1"]["rating"]
    assert ratings["engine:gomoku"]["draws"] == 1
    assert {p["id"] for p in data["players"]} >= {"negamax:1", "mcts", "engine:gomoku"}
