"""People's Glicko-2 ratings: a rated game moves both players' ratings exactly once, an
aborted or casual game moves nothing, the history has a point per game, provisional
ratings are marked, and the leaderboard puts established ratings first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import Rule
from webapp.game import model
from webapp.game.records import record_of
from webapp.game.seat_keys import hash_token
from webapp.game.types import Mode, Seat, SeatInfo, SeatKind
from webapp.players import glicko2
from webapp.players.glicko2 import GameResult, Glicko2Rating
from webapp.players.person_ratings import (
    PersonRatings,
    RatedPlayer,
    rating_history,
    rule_key,
    valid_rule_key,
)
from webapp.storage.store import make_engine

T0 = 1_700_000_000_000
ANN = RatedPlayer("p-ann", "Ann")
BOB = RatedPlayer("p-bob", "Bob")
CAT = RatedPlayer("p-cat", "Cat")


@pytest.fixture
def ratings(tmp_path: Path) -> PersonRatings:
    return PersonRatings(make_engine(f"sqlite:///{tmp_path / 'ratings.sqlite3'}"))


def test_a_win_moves_both_ratings_as_glicko2_says(ratings: PersonRatings) -> None:
    assert ratings.record_game("g1", "freestyle-15", ANN, BOB, 1.0)
    start = Glicko2Rating()
    winner = glicko2.update(start, [GameResult(start, 1.0)])
    loser = glicko2.update(start, [GameResult(start, 0.0)])
    ann, bob = ratings.rating("p-ann", "freestyle-15"), ratings.rating("p-bob", "freestyle-15")
    assert ann.rating == pytest.approx(winner.rating) and ann.rd == pytest.approx(winner.rd)
    assert bob.rating == pytest.approx(loser.rating) and bob.rd == pytest.approx(loser.rd)
    assert ann.rating > 1500 > bob.rating
    assert (ann.games, ann.wins, ann.losses, bob.losses) == (1, 1, 0, 1)
    assert ann.name == "Ann"


def test_a_game_counts_once(ratings: PersonRatings) -> None:
    assert ratings.record_game("g1", "freestyle-15", ANN, BOB, 1.0)
    before = ratings.rating("p-ann", "freestyle-15")
    assert not ratings.record_game("g1", "freestyle-15", ANN, BOB, 1.0)
    assert ratings.rating("p-ann", "freestyle-15") == before
    assert len(ratings.history("p-ann")) == 1


def test_a_draw_between_equals_keeps_the_ratings_and_shrinks_the_rd(
    ratings: PersonRatings,
) -> None:
    ratings.record_game("g1", "renju-15", ANN, BOB, 0.5)
    ann = ratings.rating("p-ann", "renju-15")
    assert ann.rating == pytest.approx(1500.0) and ann.rd < glicko2.INITIAL_RD
    assert ann.draws == 1


def test_rule_keys_are_rated_apart(ratings: PersonRatings) -> None:
    ratings.record_game("g1", "freestyle-15", ANN, BOB, 1.0)
    assert ratings.rating("p-ann", "renju-15").games == 0
    assert ratings.rating("p-ann", "renju-15").rating == glicko2.INITIAL_RATING
    assert [r.rule_key for r in ratings.ratings_of("p-ann")] == ["freestyle-15"]
    assert rule_key("renju", 15) == "renju-15"
    assert valid_rule_key("standard-19") and not valid_rule_key("chess-8")


def test_history_has_a_point_per_game_in_order(ratings: PersonRatings) -> None:
    ratings.record_game("g1", "freestyle-15", ANN, BOB, 1.0)
    ratings.record_game("g2", "freestyle-15", CAT, ANN, 1.0)
    ratings.record_game("g3", "renju-15", ANN, CAT, 0.0)
    points = rating_history(ratings.engine, "p-ann")
    assert [p.game_id for p in points] == ["g1", "g2", "g3"]
    assert points[1].rating < points[0].rating
    assert [p.game_id for p in ratings.history("p-ann", "renju-15")] == ["g3"]
    assert points[0].to_json()["rating"] == round(points[0].rating)


def test_provisional_until_enough_games_and_a_small_rd(ratings: PersonRatings) -> None:
    ratings.record_game("g0", "freestyle-15", ANN, BOB, 1.0)
    assert ratings.rating("p-ann", "freestyle-15").provisional
    assert ratings.rating("p-ann", "freestyle-15").shown.endswith("?")
    for number in range(1, 40):
        first, second = (ANN, BOB) if number % 2 else (BOB, ANN)
        ratings.record_game(f"g{number}", "freestyle-15", first, second, 0.5)
    ann = ratings.rating("p-ann", "freestyle-15")
    assert ann.rd <= 110 and not ann.provisional and not ann.shown.endswith("?")


def test_leaderboard_puts_established_ratings_first(ratings: PersonRatings) -> None:
    for number in range(40):
        score = 0.0 if number % 3 == 0 else 1.0  # Ann wins two games in three
        ratings.record_game(f"g{number}", "freestyle-15", ANN, BOB, score)
    ratings.record_game("c1", "freestyle-15", CAT, BOB, 1.0)
    board = ratings.leaderboard("freestyle-15")
    assert board[0].person_id == "p-ann"
    assert board[-1].person_id == "p-cat" and board[-1].provisional
    assert all(not r.provisional for r in board[:2])
    assert ratings.rule_keys() == ["freestyle-15"]
    assert ratings.leaderboard("renju-15") == []


# -- the game-end hook -------------------------------------------------------------------


def human(name: str, person: str) -> SeatInfo:
    return SeatInfo(SeatKind.HUMAN, name, None, hash_token(name), person)


def lobby_game(game_id: str = "g1", *, rated: bool = True, white: str = "p-bob") -> model.Game:
    return model.new_game(
        game_id,
        Mode.FRIEND,
        size=15,
        rule=Rule.FREESTYLE,
        seats={Seat.BLACK: human("Ann", "p-ann"), Seat.WHITE: human("Bob", white)},
        now=T0,
        settings={"rated": rated},
    )


def finished_by_five(game: model.Game) -> model.Game:
    moves = [(7, 7), (0, 0), (8, 7), (0, 1), (9, 7), (0, 2), (10, 7), (0, 3), (11, 7)]
    for ply, point in enumerate(moves, start=1):
        game = model.play(game, Seat.of_ply(ply), point, T0 + ply).game
    assert game.result is not None
    return game


def test_hook_rates_a_rated_game_with_a_result(ratings: PersonRatings) -> None:
    game = finished_by_five(lobby_game())
    ratings.on_game_finished(game)
    ratings.on_game_finished(game)
    assert ratings.rating("p-ann", "freestyle-15").wins == 1
    assert ratings.rating("p-bob", "freestyle-15").losses == 1
    assert len(ratings.history("p-bob")) == 1


def test_hook_ignores_aborted_casual_and_self_games(ratings: PersonRatings) -> None:
    ratings.on_game_finished(model.abort(lobby_game("a"), Seat.BLACK, T0).game)
    ratings.on_game_finished(finished_by_five(lobby_game("c", rated=False)))
    ratings.on_game_finished(finished_by_five(lobby_game("s", white="p-ann")))
    assert ratings.ratings_of("p-ann") == [] and ratings.ratings_of("p-bob") == []


# -- through the game service --------------------------------------------------------------


def test_the_service_rates_a_resigned_game_once_and_not_an_aborted_one(app: Any) -> None:
    runtime = app.extensions["gomoku"]
    service = runtime.service
    rated = model.play(lobby_game("svc1"), Seat.BLACK, (7, 7), T0).game
    rated = model.play(rated, Seat.WHITE, (8, 8), T0).game
    service.store.create(record_of(rated))
    service.resign("svc1", Seat.WHITE)
    with pytest.raises(Exception, match="over"):
        service.resign("svc1", Seat.WHITE)
    ann = runtime.ratings.rating("p-ann", "freestyle-15")
    assert ann.wins == 1 and ann.games == 1
    service.store.create(record_of(lobby_game("svc2")))
    service.abort("svc2", Seat.BLACK)
    assert runtime.ratings.rating("p-ann", "freestyle-15").games == 1
    assert [p.game_id for p in runtime.ratings.history("p-bob")] == ["svc1"]
