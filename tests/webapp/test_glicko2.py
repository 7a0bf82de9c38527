"""Glicko-2 against Glickman's worked example and a few properties of the system."""

from __future__ import annotations

import pytest

from webapp.players.glicko2 import (
    INITIAL_RD,
    PROVISIONAL_RD,
    GameResult,
    Glicko2Rating,
    idle,
    update,
)

PLAYER = Glicko2Rating(1500.0, 200.0, 0.06)
OPPONENTS = {
    "weaker": Glicko2Rating(1400.0, 30.0),
    "peer": Glicko2Rating(1550.0, 100.0),
    "stronger": Glicko2Rating(1700.0, 300.0),
}


def test_glickmans_worked_example() -> None:
    results = [
        GameResult(OPPONENTS["weaker"], 1.0),
        GameResult(OPPONENTS["peer"], 0.0),
        GameResult(OPPONENTS["stronger"], 0.0),
    ]
    after = update(PLAYER, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_win_raises_and_a_loss_lowers_the_rating() -> None:
    opponent = Glicko2Rating(1500.0, 80.0)
    assert update(PLAYER, [GameResult(opponent, 1.0)]).rating > PLAYER.rating
    assert update(PLAYER, [GameResult(opponent, 0.0)]).rating < PLAYER.rating
    assert update(PLAYER, [GameResult(opponent, 0.5)]).rating == pytest.approx(PLAYER.rating)


def test_beating_a_stronger_player_gains_more() -> None:
    weak = update(PLAYER, [GameResult(OPPONENTS["weaker"], 1.0)])
    strong = update(PLAYER, [GameResult(Glicko2Rating(1700.0, 30.0), 1.0)])
    assert strong.rating > weak.rating


def test_rd_shrinks_with_games_and_grows_without() -> None:
    played = update(PLAYER, [GameResult(OPPONENTS["peer"], 0.5)] * 3)
    assert played.rd < PLAYER.rd
    rested = idle(PLAYER)
    assert rested.rd > PLAYER.rd
    assert rested.rating == PLAYER.rating
    assert rested.volatility == PLAYER.volatility
    assert update(PLAYER, []) == rested


def test_provisional_until_enough_games() -> None:
    player = Glicko2Rating()
    assert player.rd == INITIAL_RD and player.provisional
    for _ in range(15):
        player = update(player, [GameResult(Glicko2Rating(1500.0, 60.0), 0.5)] * 2)
    assert player.rd <= PROVISIONAL_RD
    assert not player.provisional


@pytest.mark.parametrize(
    "values",
    [
        {"rd": 0.0},
        {"rd": -5.0},
        {"volatility": 0.0},
        {"rating": float("nan")},
    ],
)
def test_bad_ratings_are_refused(values: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Glicko2Rating(**values)


def test_bad_scores_and_tau_are_refused() -> None:
    with pytest.raises(ValueError):
        GameResult(PLAYER, 2.0)
    with pytest.raises(ValueError):
        update(PLAYER, [GameResult(PLAYER, 1.0)], tau=0.0)
