"""PSQ export and import: roundtrips, both coordinate bases, and refusals."""

from __future__ import annotations

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
    "text",
    [
        "",
        "hello\n8,8,0\n",
        "Piskvorky 15x20, 11:11, 0\n",
        "Piskvorky 40x40, 11:11, 0\n",
        "Piskvorky 15x15, 11:11, 0\n0,0,0\n16,1,0\n",
        "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n",
    ],
)
def test_bad_psq_is_refused(text: str) -> None:
    with pytest.raises(PsqError):
        parse_psq(text)


def test_an_empty_game_parses() -> None:
    assert parse_psq("Piskvorky 19x19, 11:11, 0\n-1\n").moves == []
