"""Offers in the pure game model: takeback, draw and rematch, made, cancelled, declined
and accepted, and every refusal."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Rule
from webapp.game import model, offers
from webapp.game.errors import GameActionError
from webapp.game.events import (
    GameFinished,
    MovesTakenBack,
    OfferCancelled,
    OfferDeclined,
    OfferMade,
    RematchAgreed,
)
from webapp.game.model import Game
from webapp.game.types import (
    Mode,
    OfferKind,
    Offers,
    Result,
    Seat,
    SeatInfo,
    SeatKind,
    Status,
    Termination,
)

B, W = Seat.BLACK, Seat.WHITE
T0 = 1_000_000
TAKEBACK, DRAW, REMATCH = OfferKind.TAKEBACK, OfferKind.DRAW, OfferKind.REMATCH


def friend_game(clock: tuple[int, int] | None = None) -> Game:
    seats = {
        B: SeatInfo(SeatKind.HUMAN, token_hash="b"),
        W: SeatInfo(SeatKind.HUMAN, "Ann", None, "w"),
    }
    return model.new_game(
        "f", Mode.FRIEND, size=15, rule=Rule.FREESTYLE, seats=seats, now=T0, clock=clock,
        settings={"defence": 1.0},
    )  # fmt: skip


def ai_game() -> Game:
    seats = {B: SeatInfo(SeatKind.HUMAN, token_hash="b"), W: SeatInfo(SeatKind.AI, "AI", 3)}
    return model.new_game("a", Mode.AI, size=15, rule=Rule.FREESTYLE, seats=seats, now=T0)


def play_all(game: Game, points: list[tuple[int, int]]) -> Game:
    for point in points:
        game = model.play(game, game.turn, point, T0).game
    return game


def started(game: Game) -> Game:
    """``game`` with a move of each side: resigning and draws wait for that."""
    return play_all(game, [(7, 7), (8, 8)])


def resigned(game: Game, seat: Seat = B) -> Game:
    """``game`` over: each side plays a move, then ``seat`` resigns."""
    return model.resign(started(game), seat, T0).game


def refused(code: str, call: object, *args: object, **kwargs: object) -> None:
    with pytest.raises(GameActionError) as caught:
        call(*args, **kwargs)  # type: ignore[operator]
    assert caught.value.code == code, caught.value


# -- takeback --------------------------------------------------------------------------


def test_takeback_accepted_takes_back_the_askers_move() -> None:
    game = play_all(friend_game(), [(7, 7), (8, 8)])
    asked = offers.request_takeback(game, W, T0)
    assert asked.events == (OfferMade(TAKEBACK, W),)
    assert asked.game.offers.takeback is W
    accepted = offers.answer_takeback(asked.game, B, True, T0)
    assert accepted.events == (MovesTakenBack(1),)
    assert accepted.game.points == [(7, 7)]
    assert accepted.game.offers == Offers()
    # Asked by the side to move: its last move and the reply go.
    asked = offers.request_takeback(game, B, T0).game
    assert offers.answer_takeback(asked, W, True, T0).game.points == []


def test_takeback_restarts_the_clock_of_the_side_to_move() -> None:
    game = play_all(friend_game(clock=(60_000, 0)), [(7, 7), (8, 8), (6, 6), (9, 9)])
    asked = offers.request_takeback(game, W, T0).game
    back = offers.answer_takeback(asked, B, True, T0 + 10).game
    assert back.clock is not None and back.clock.running is W and back.clock.since == T0 + 10


def test_a_takeback_of_white_s_first_move_stops_the_clock() -> None:
    game = play_all(friend_game(clock=(60_000, 0)), [(7, 7), (8, 8)])
    assert game.clock is not None and game.clock.running is B
    asked = offers.request_takeback(game, W, T0).game
    back = offers.answer_takeback(asked, B, True, T0 + 10).game
    # Back before each side has moved: the game may be aborted again, and no time runs.
    assert model.can_abort(back)
    assert back.clock is not None and back.clock.running is None
    assert back.clock.left(W, T0 + 10**6) == 60_000


def test_takeback_declined_and_cancelled() -> None:
    game = play_all(friend_game(), [(7, 7), (8, 8)])
    asked = offers.request_takeback(game, W, T0).game
    declined = offers.answer_takeback(asked, B, False, T0)
    assert declined.events == (OfferDeclined(TAKEBACK, B),)
    assert declined.game.offers.takeback is None
    assert declined.game.points == game.points
    cancelled = offers.cancel_offer(asked, TAKEBACK, W, T0)
    assert cancelled.events == (OfferCancelled(TAKEBACK, W),)
    assert cancelled.game.offers.takeback is None


def test_a_move_ends_an_open_takeback_request() -> None:
    game = play_all(friend_game(), [(7, 7), (8, 8)])
    asked = offers.request_takeback(game, W, T0).game
    assert model.play(asked, B, (9, 9), T0).game.offers.takeback is None


def test_takeback_refusals() -> None:
    game = play_all(friend_game(), [(7, 7), (8, 8)])
    refused("takeback_friend_only", offers.request_takeback, play_all(ai_game(), [(7, 7)]), B, T0)
    refused(
        "no_move_to_take_back", offers.request_takeback, play_all(friend_game(), [(7, 7)]), W, T0
    )
    refused("not_a_player", offers.request_takeback, game, None, T0)
    asked = offers.request_takeback(game, W, T0).game
    refused("offer_pending", offers.request_takeback, asked, B, T0)
    refused("own_offer", offers.answer_takeback, asked, W, True, T0)
    refused("no_offer", offers.answer_takeback, game, B, True, T0)
    refused("no_offer", offers.cancel_offer, asked, TAKEBACK, B, T0)
    over = model.resign(game, B, T0).game
    refused("game_over", offers.request_takeback, over, W, T0)


# -- draw ------------------------------------------------------------------------------


def test_draw_offer_accepted() -> None:
    game = started(friend_game())
    offered = offers.offer_draw(game, B, T0)
    assert offered.events == (OfferMade(DRAW, B),)
    drawn = offers.answer_draw(offered.game, W, True, T0)
    assert drawn.game.result == Result(Termination.DRAW, None, (), "agreement")
    assert isinstance(drawn.events[-1], GameFinished)
    assert drawn.game.result.reason == "agreement"


def test_draw_offers_from_both_sides_agree() -> None:
    offered = offers.offer_draw(started(friend_game()), B, T0).game
    assert offers.offer_draw(offered, W, T0).game.status is Status.FINISHED


def test_draw_offer_declined_cancelled_and_lapsing() -> None:
    offered = offers.offer_draw(started(friend_game()), B, T0).game
    declined = offers.answer_draw(offered, W, False, T0)
    assert declined.events == (OfferDeclined(DRAW, W),)
    assert declined.game.status is Status.ACTIVE
    assert offers.cancel_offer(offered, DRAW, B, T0).events == (OfferCancelled(DRAW, B),)
    # The offerer's own move keeps the offer open; the recipient's move ends it.
    kept = model.play(offered, B, (9, 9), T0).game
    assert kept.offers.draw is B
    assert model.play(kept, W, (10, 10), T0).game.offers.draw is None


def test_a_draw_waits_until_each_side_has_moved() -> None:
    game = friend_game()
    refused("draw_too_early", offers.offer_draw, game, B, T0)
    after_black = play_all(game, [(7, 7)])
    refused("draw_too_early", offers.offer_draw, after_black, W, T0)
    refused("draw_too_early", offers.offer_draw, after_black, B, T0)
    assert after_black.offers.draw is None and after_black.status is Status.ACTIVE
    assert offers.offer_draw(play_all(after_black, [(8, 8)]), W, T0).game.offers.draw is W


def test_draw_refusals() -> None:
    refused("draw_friend_only", offers.offer_draw, ai_game(), B, T0)
    offered = offers.offer_draw(started(friend_game()), B, T0).game
    refused("offer_pending", offers.offer_draw, offered, B, T0)
    refused("own_offer", offers.answer_draw, offered, B, True, T0)
    refused("no_offer", offers.answer_draw, started(friend_game()), W, True, T0)
    refused("game_over", offers.offer_draw, resigned(friend_game()), W, T0)


# -- rematch ---------------------------------------------------------------------------


def test_rematch_against_the_ai_is_immediate() -> None:
    over = resigned(ai_game())
    change = offers.offer_rematch(over, B, T0, new_id="next")
    assert change.events == (RematchAgreed("next"),)
    assert change.game.next_game == "next"
    # Asking again once it exists changes nothing.
    assert not offers.offer_rematch(change.game, B, T0, new_id="other").changed


def test_rematch_between_friends_is_an_offer_the_other_accepts() -> None:
    over = resigned(friend_game())
    asked = offers.offer_rematch(over, W, T0, new_id="x")
    assert asked.events == (OfferMade(REMATCH, W),)
    assert asked.game.next_game is None
    agreed = offers.answer_rematch(asked.game, B, True, T0, new_id="next")
    assert agreed.events == (RematchAgreed("next"),)
    assert agreed.game.next_game == "next" and agreed.game.offers.rematch is None
    # Both asking is agreement too.
    assert offers.offer_rematch(asked.game, B, T0, new_id="n2").game.next_game == "n2"


def test_rematch_declined_and_cancelled() -> None:
    asked = offers.offer_rematch(resigned(friend_game()), W, T0, new_id="x").game
    declined = offers.answer_rematch(asked, B, False, T0, new_id="y")
    assert declined.events == (OfferDeclined(REMATCH, B),)
    assert declined.game.next_game is None
    assert offers.cancel_offer(asked, REMATCH, W, T0).events == (OfferCancelled(REMATCH, W),)


def test_rematch_refusals() -> None:
    refused("game_not_finished", offers.offer_rematch, friend_game(), B, T0, new_id="x")
    engines = model.new_game(
        "e", Mode.AIVAI, size=15, rule=Rule.FREESTYLE,
        seats={B: SeatInfo(SeatKind.AI, level=1), W: SeatInfo(SeatKind.AI, level=2)}, now=T0,
    )  # fmt: skip
    over = resigned(friend_game())
    refused("rematch_mode", offers.offer_rematch, replace(engines, status=Status.FINISHED), B, T0,
            new_id="x")  # fmt: skip
    refused("not_a_player", offers.offer_rematch, over, None, T0, new_id="x")
    asked = offers.offer_rematch(over, W, T0, new_id="x").game
    refused("offer_pending", offers.offer_rematch, asked, W, T0, new_id="x")
    refused("own_offer", offers.answer_rematch, asked, W, True, T0, new_id="x")
    refused("no_offer", offers.answer_rematch, over, B, True, T0, new_id="x")


def test_rematch_game_swaps_colours_and_keeps_the_settings() -> None:
    old = resigned(friend_game(clock=(60_000, 1_000)))
    new = offers.rematch_game(old, "next", T0 + 5)
    assert new.id == "next" and new.rematch_of == old.id
    assert new.seats[B].name == "Ann" and new.seats[W].token_hash == "b"
    assert new.status is Status.ACTIVE and new.points == []
    assert new.clock is not None and new.clock.running is None and new.clock.left(W, T0) == 60_000
    assert new.clock.increment_ms == 1_000
    assert new.settings == {"defence": 1.0}
    players = replace(old, settings={"players": {"black": "mcts", "white": "negamax:2"}})
    assert offers.rematch_game(players, "n", T0).settings["players"] == {
        "white": "mcts",
        "black": "negamax:2",
    }
