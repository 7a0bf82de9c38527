"""PSQ export and import: roundtrips, both coordinate bases, and refusals."""

from __future__ import annotations

from typing import Any

import pytest

from webapp.game.psq import PsqError, format_psq, parse_psq

MOVES = [(7, 7), (8, 8), (0, 14), (14, 0), (6, 7)]


def test_roundtrip_keeps_moves_size_and_times() -> None:
    text = format_psq(15, MOVES, [100, 200, 300, 400, 500])
    assert text.splitlines()[0] == "Piskvorky 15x15, 11:11, 0"
    assert text.splitlines()[1] == "8,8,100"
    assert text.splitlines()[-1] == "-1"
    game = parse_psq(text)
    assert game.size == 15
    assert game.moves == MOVES
    assert game.times_ms == [100, 200, 300, 400, 500]


def test_roundtrip_on_a_20x20_board_with_trailing_brain_names() -> None:
    moves = [(19, 19), (0, 0), (10, 9)]
    text = format_psq(20, moves).replace("-1\n", "pbrain-a.exe\npbrain-b.exe\n-1\n")
    assert parse_psq(text).moves == moves


def test_zero_based_files_are_recognised_by_a_zero_coordinate() -> None:
    game = parse_psq("Piskvorky 15x15, 11:11, 0\n0,0,0\n7,7,0\n")
    assert game.moves == [(0, 0), (7, 7)]


def test_one_based_reading_is_the_default() -> None:
    game = parse_psq("Piskvorky 15x15, 11:11, 0\r\n1,1,0\r\n15,15,0\r\n-1\r\n")
    assert game.moves == [(0, 0), (14, 14)]


@pytest.mark.parametrize(
    ("text", "reason", "params"),
    [
        ("", "empty", {}),
        ("Piskvorky 15x15, 11:11, 0\n" + "8,8,0\n" * 5000, "too_long", {"limit": 20_000}),
        ("hello\n8,8,0\n", "header", {}),
        ("Piskvorky 15x20, 11:11, 0\n", "not_square", {"width": 15, "height": 20}),
        ("Piskvorky 40x40, 11:11, 0\n", "size", {"size": 40, "low": 7, "high": 22}),
        ("Piskvorky 15x15, 11:11, 0\n0,0,0\n16,1,0\n", "off_board", {"size": 15}),
        ("Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n", "illegal", {}),
    ],
)
def test_bad_psq_is_refused_with_its_reason(text: str, reason: str, params: dict) -> None:
    with pytest.raises(PsqError) as refused:
        parse_psq(text)
    assert refused.value.reason == reason
    if reason == "illegal":
        assert "occupied" in str(refused.value.params["detail"])
    else:
        assert refused.value.params == params


def test_the_api_says_why_a_record_was_refused(app_factory: Any) -> None:
    app = app_factory()
    client = app.test_client()
    store = app.extensions["gomoku"].store
    before = len(store.list_games(limit=1000))
    reply = client.post("/api/v1/import", json={"psq": "Piskvorky 15x20, 11:11, 0\n"})
    assert reply.status_code == 400
    body = reply.get_json()
    assert body["code"] == "bad_psq"
    assert body["params"] == {"reason": "not_square", "width": 15, "height": 20}
    assert len(store.list_games(limit=1000)) == before  # nothing was created


def test_an_empty_game_parses() -> None:
    assert parse_psq("Piskvorky 19x19, 11:11, 0\n-1\n").moves == []
