"""Clock presets: each preset gives a friend game its clock, a friend game has the default
clock unless told otherwise, and a bad preset is refused with nothing created."""

from __future__ import annotations

from typing import Any

import pytest

from webapp.lobby.presets import DEFAULT_PRESET, PRESET_NAMES, clock_of, preset_of

EXPECTED = {
    "1+0": (60_000, 0),
    "3+2": (180_000, 2_000),
    "5+3": (300_000, 3_000),
    "10+5": (600_000, 5_000),
    "30+0": (1_800_000, 0),
}


def test_every_preset_names_its_clock() -> None:
    assert set(PRESET_NAMES) == {*EXPECTED, "untimed"}
    for name, millis in EXPECTED.items():
        assert clock_of(name) == millis
        assert preset_of(millis) == name
    assert clock_of("untimed") is None
    assert preset_of(None) == "untimed"
    assert preset_of((42_000, 0)) is None


@pytest.mark.parametrize("name", list(EXPECTED))
def test_a_preset_gives_the_friend_game_its_clock(client: Any, name: str) -> None:
    reply = client.post("/api/v1/games", json={"mode": "friend", "preset": name})
    assert reply.status_code == 201, reply.get_json()
    state = client.get(f"/api/v1/games/{reply.get_json()['id']}").get_json()
    base, increment = EXPECTED[name]
    assert state["clock"]["black_ms"] == base and state["clock"]["white_ms"] == base
    assert state["clock"]["increment_ms"] == increment


def test_friend_games_have_a_clock_by_default(client: Any) -> None:
    game_id = client.post("/api/v1/games", json={"mode": "friend"}).get_json()["id"]
    clock = client.get(f"/api/v1/games/{game_id}").get_json()["clock"]
    base, increment = EXPECTED[DEFAULT_PRESET]
    assert (clock["black_ms"], clock["increment_ms"]) == (base, increment)


@pytest.mark.parametrize("body", [{"preset": "untimed"}, {"clock": None}])
def test_untimed_friend_games(client: Any, body: dict[str, Any]) -> None:
    game_id = client.post("/api/v1/games", json={"mode": "friend", **body}).get_json()["id"]
    assert client.get(f"/api/v1/games/{game_id}").get_json()["clock"] is None


@pytest.mark.parametrize(
    "body",
    [
        {"mode": "friend", "preset": "2+1"},
        {"mode": "friend", "preset": 5},
        {"mode": "friend", "preset": "3+2", "clock": {"base_s": 60}},
        {"mode": "ai", "preset": "3+2"},
    ],
)
def test_bad_presets_are_refused(client: Any, body: dict[str, Any]) -> None:
    reply = client.post("/api/v1/games", json=body)
    assert reply.status_code == 400
    assert reply.get_json()["code"] == "bad_request"
    assert client.get("/api/v1/games?status=live").get_json()["games"] == []


def test_the_home_page_offers_the_presets(client: Any) -> None:
    page = client.get("/").get_data(as_text=True)
    for name in PRESET_NAMES:
        assert f'name="preset" value="{name}"' in page
    assert f'value="{DEFAULT_PRESET}" checked' in page
