"""The opening phase of the pure game model: every step of swap, swap2, Soosõrv-8 and
Taraguchi-10 and every refusal, with the time passed in (``webapp.game.opening``)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Board, Rule
from engine.game.symmetry import distinct, equivalent, symmetries
from webapp.game import model, offers, opening
from webapp.game.errors import GameActionError
from webapp.game.model import Game
from webapp.game.opening_types import OpeningRule, Player, StepKind
from webapp.game.opening_view import can_choose, opening_json
from webapp.game.records import game_of, record_of, update_of
from webapp.game.types import Mode, Seat, SeatInfo, SeatKind, Status, Termination
from webapp.game.view import Activity, JsonView, Room

B, W = Seat.BLACK, Seat.WHITE
T0 = 1_000_000
C = 7  # the centre of a 15x15 board


def new(
    name: str, rule: Rule = Rule.FREESTYLE, *, clock: tuple[int, int] | None = None, size: int = 15
) -> Game:
    state = opening.start_state(name, rule, size)
    seats = {
        B: SeatInfo(SeatKind.HUMAN, "Ann", None, "a"),
        W: SeatInfo(SeatKind.HUMAN, "Bob", None, "b"),
    }
    return model.new_game(
        "g1", Mode.FRIEND, size=size, rule=rule, seats=seats, now=T0, clock=clock,
        settings={"opening": name}, opening=state,
    )  # fmt: skip


def name_at(game: Game, seat: Seat) -> str:
    return game.seats[seat].name


def refused(code: str, call: Any, *args: Any) -> GameActionError:
    with pytest.raises(GameActionError) as caught:
        call(*args)
    assert caught.value.code == code, caught.value
    return caught.value


def click(game: Game, *points: tuple[int, int], now: int = T0) -> Game:
    for point in points:
        game = opening.on_point(game, game.turn, point, now).game
    return game


def choose(game: Game, option: str, now: int = T0) -> Game:
    return opening.choose(game, game.turn, option, now).game


def step(game: Game) -> tuple[StepKind, Player | None, str]:
    assert game.opening is not None
    return game.opening.step.kind, game.opening.step.actor, game.opening.step.stage


# -- creation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "rule"),
    [("soosorv8", Rule.FREESTYLE), ("taraguchi10", Rule.STANDARD), ("swap2", Rule.RENJU),
     ("swap", Rule.RENJU), ("bogus", Rule.FREESTYLE)],
)  # fmt: skip
def test_an_opening_of_another_rule_is_refused(name: str, rule: Rule) -> None:
    error = refused("bad_opening", opening.start_state, name, rule, 15)
    assert error.params["rule"] == rule.value
    assert "none" in error.params["choices"]


def test_an_opening_needs_an_empty_board_and_room() -> None:
    with pytest.raises(GameActionError) as caught:
        opening.start_state("swap2", Rule.FREESTYLE, 15, start_moves=2)
    assert caught.value.code == "bad_opening"
    refused("bad_opening", opening.start_state, "taraguchi10", Rule.RENJU, 8)
    assert opening.start_state("none", Rule.RENJU, 15) is None
    assert opening.start_state(None, Rule.FREESTYLE, 15) is None


# -- swap --------------------------------------------------------------------------------


def test_swap_three_stones_then_the_second_player_picks_a_colour() -> None:
    game = new("swap")
    assert step(game) == (StepKind.PLACE, Player.FIRST, "open")
    assert game.turn is B and game.status is Status.ACTIVE
    refused("not_your_turn", opening.on_point, game, W, (0, 0), T0)
    refused("opening_step", opening.choose, game, B, "white", T0)
    refused("opening_in_progress", model.play, game, B, (7, 7), T0)
    game = click(game, (0, 0), (14, 14), (3, 3))  # anywhere on the board
    assert [m.point for m in game.moves] == [(0, 0), (14, 14), (3, 3)]
    assert step(game)[:2] == (StepKind.CHOOSE, Player.SECOND)
    assert game.opening is not None and game.opening.step.options == ("black", "white")
    assert game.turn is W
    refused("opening_option", opening.choose, game, W, "place_two", T0)
    refused("opening_step", opening.on_point, game, W, (5, 5), T0)
    game = choose(game, "black")  # the second player swaps
    assert game.opening is not None and not game.opening.active
    assert name_at(game, B) == "Bob" and name_at(game, W) == "Ann"
    assert game.turn is W  # Ann, now white, plays the fourth stone
    game = model.play(game, W, (5, 5), T0).game
    assert len(game.moves) == 4 and game.turn is B
    refused("no_opening", opening.choose, game, B, "white", T0)


# -- swap2 -------------------------------------------------------------------------------


def test_swap2_the_second_player_stays_white() -> None:
    game = click(new("swap2"), (7, 7), (8, 7), (9, 9))
    assert game.opening is not None
    assert game.opening.step.options == ("black", "white", "place_two")
    game = choose(game, "white")
    assert name_at(game, W) == "Bob" and game.turn is W  # Bob plays the fourth stone
    assert game.opening is not None and game.opening.swaps == 0
    assert game.opening.log == ("second:white",)


def test_swap2_the_second_player_swaps_to_black() -> None:
    game = choose(click(new("swap2"), (7, 7), (8, 7), (9, 9)), "black")
    assert name_at(game, B) == "Bob" and name_at(game, W) == "Ann"
    assert game.turn is W and len(game.moves) == 3


def test_swap2_place_two_then_the_first_player_chooses() -> None:
    game = choose(click(new("swap2"), (7, 7), (8, 7), (9, 9)), "place_two")
    assert step(game) == (StepKind.PLACE, Player.SECOND, "place_two")
    assert game.turn is W
    refused("not_your_turn", opening.on_point, game, B, (1, 1), T0)
    game = click(game, (6, 6), (6, 8))  # the fourth (white) and fifth (black) stones
    assert step(game)[:2] == (StepKind.CHOOSE, Player.FIRST)
    assert game.turn is B
    refused("opening_option", opening.choose, game, B, "place_two", T0)
    game = choose(game, "white")  # Ann takes white and plays the sixth stone
    assert name_at(game, W) == "Ann" and game.turn is W
    assert game.opening is not None and game.opening.end_plies == 5
    game = model.play(game, W, (1, 1), T0).game
    assert len(game.moves) == 6


def test_swap2_clock_runs_once_both_acted_for_the_player_to_act_and_follows_a_swap() -> None:
    game = new("swap2", clock=(60_000, 1_000))
    assert game.clock is not None and game.clock.running is None
    game = click(game, (7, 7), now=T0 + 1_000)
    game = click(game, (8, 7), now=T0 + 2_000)
    game = click(game, (9, 9), now=T0 + 3_000)
    # Until the second player has acted too, no clock runs: Ann's three stones are free.
    assert game.clock is not None and game.clock.running is None
    assert game.clock.left(B, T0 + 10**6) == 60_000
    game = choose(game, "place_two", now=T0 + 13_000)
    # Bob's choice starts the clocks, without an increment; Bob, to place two, runs.
    assert game.clock is not None and game.clock.running is W
    assert game.clock.left(W, T0 + 13_000) == 60_000 and game.clock.left(B, T0 + 13_000) == 60_000
    game = click(game, (6, 6), now=T0 + 15_000)
    game = click(game, (6, 8), now=T0 + 18_000)
    # Bob used 5 s and got one increment when the turn passed to Ann.
    assert game.clock is not None and game.clock.running is B
    assert game.clock.left(W, T0 + 18_000) == 56_000
    game = opening.choose(game, B, "white", T0 + 20_000).game
    assert game.clock is not None
    # Ann (2 s used, no increment: she moves next) now sits at white and runs; Bob at black.
    assert name_at(game, W) == "Ann" and game.clock.running is W
    assert game.clock.left(W, T0 + 20_000) == 58_000
    assert game.clock.left(B, T0 + 20_000) == 56_000


def test_a_flag_falls_during_the_opening() -> None:
    game = new("swap2", clock=(5_000, 0))
    # No flag falls before both players have acted.
    assert not model.settle(game, T0 + 10**6).changed
    game = choose(click(game, (7, 7), (8, 7), (9, 9)), "place_two")
    flagged = model.settle(game, T0 + 6_000).game
    assert flagged.result is not None and flagged.result.termination is Termination.FLAG
    assert flagged.result.winner is B  # Bob, placing two as white, ran out


# -- Soosõrv-8 ---------------------------------------------------------------------------


def soosorv_to_declare() -> Game:
    game = new("soosorv8", Rule.RENJU)
    refused("opening_area", opening.on_point, game, B, (C + 1, C), T0)
    game = click(game, (C, C))
    refused("opening_area", opening.on_point, game, B, (C + 2, C), T0)
    game = click(game, (C + 1, C))
    error = refused("opening_area", opening.on_point, game, B, (C + 3, C), T0)
    assert error.params["size"] == 5
    game = click(game, (C + 2, C + 2))
    assert step(game) == (StepKind.CHOOSE, Player.SECOND, "swap_opening")
    return game


def test_soosorv_the_opening_the_swaps_and_the_declared_count() -> None:
    game = choose(soosorv_to_declare(), "black")  # Bob swaps: Ann is white
    assert step(game)[:2] == (StepKind.PLACE, Player.FIRST) and game.turn is W
    game = click(game, (0, 14))  # the fourth stone goes anywhere
    assert step(game) == (StepKind.DECLARE, Player.FIRST, "declare")
    refused("opening_step", opening.on_point, game, W, (1, 1), T0)
    refused("opening_option", opening.choose, game, W, "0", T0)
    refused("opening_option", opening.choose, game, W, "9", T0)
    refused("opening_option", opening.choose, game, W, "black", T0)
    game = choose(game, "3")
    assert game.opening is not None and game.opening.declared == 3
    assert step(game) == (StepKind.CHOOSE, Player.SECOND, "swap_fourth")  # black may swap
    game = choose(game, "black")  # Bob keeps black
    assert step(game) == (StepKind.PROPOSE, Player.SECOND, "propose")
    assert game.opening is not None and game.opening.step.count == 3


def test_soosorv_offers_may_not_repeat_or_mirror_and_white_picks_one() -> None:
    # A symmetrical position: black h8 and j10 on a diagonal, white i9 between them
    # (the mirror in that diagonal keeps it), the fourth stone on the same diagonal.
    game = new("soosorv8", Rule.RENJU)
    game = click(game, (C, C), (C + 1, C + 1), (C + 2, C + 2))
    game = choose(game, "white")
    game = click(game, (C - 3, C - 3))
    game = choose(game, "2")
    game = choose(game, "black")
    proposer = game.turn
    assert proposer is B and name_at(game, B) == "Ann"
    game = opening.propose(game, B, (C + 1, C - 1), T0).game
    refused("opening_symmetric", opening.propose, game, B, (C - 1, C + 1), T0)  # mirrored
    refused("opening_symmetric", opening.propose, game, B, (C + 1, C - 1), T0)  # repeated
    refused("illegal_move", opening.propose, game, B, (C, C), T0)  # occupied
    assert (C - 1, C + 1) not in game.legal and (C + 2, C) in game.legal
    game = opening.propose(game, B, (C + 2, C), T0).game
    assert step(game) == (StepKind.PICK, Player.SECOND, "pick")
    assert game.turn is W and sorted(game.legal) == sorted([(C + 1, C - 1), (C + 2, C)])
    refused("opening_not_offered", opening.pick, game, W, (C + 3, C), T0)
    refused("not_your_turn", opening.pick, game, B, (C + 2, C), T0)
    game = opening.on_point(game, W, (C + 2, C), T0).game
    assert [m.point for m in game.moves][-1] == (C + 2, C) and len(game.moves) == 5
    assert game.opening is not None and not game.opening.active
    assert game.turn is W  # white plays the sixth stone
    assert model.play(game, W, (0, 0), T0).game.turn is B


# -- Taraguchi-10 ------------------------------------------------------------------------


def taraguchi_to_fifth() -> Game:
    game = new("taraguchi10", Rule.RENJU)
    game = click(game, (C, C))
    assert step(game) == (StepKind.CHOOSE, Player.SECOND, "swap1")
    game = choose(game, "white")  # Bob keeps white and places the second stone
    assert step(game) == (StepKind.PLACE, Player.SECOND, "stone2")
    refused("opening_area", opening.on_point, game, W, (C + 2, C), T0)
    game = click(game, (C + 1, C))
    assert step(game) == (StepKind.CHOOSE, Player.FIRST, "swap2")
    game = choose(game, "white")  # Ann swaps: Bob is black now and places the third
    assert name_at(game, B) == "Bob" and step(game) == (StepKind.PLACE, Player.SECOND, "stone3")
    refused("opening_area", opening.on_point, game, B, (C + 3, C), T0)
    game = click(game, (C, C + 2))
    assert step(game) == (StepKind.CHOOSE, Player.FIRST, "swap3")
    game = choose(game, "white")  # Ann keeps white and places the fourth in the 7x7
    refused("opening_area", opening.on_point, game, W, (C + 4, C), T0)
    game = click(game, (C - 3, C + 3))
    assert step(game) == (StepKind.CHOOSE, Player.SECOND, "swap4")
    game = choose(game, "black")  # Bob keeps black
    assert step(game) == (StepKind.PLACE, Player.SECOND, "stone5")
    assert game.opening is not None and game.opening.step.options == ("offer",)
    return game


def test_taraguchi_fifth_in_the_nine_square_then_white_may_swap() -> None:
    game = taraguchi_to_fifth()
    assert can_choose(game, B) and not can_choose(game, W)
    error = refused("opening_area", opening.on_point, game, B, (C + 5, C), T0)
    assert error.params["size"] == 9
    game = click(game, (C + 4, C - 4))
    assert step(game) == (StepKind.CHOOSE, Player.FIRST, "swap5")
    game = choose(game, "black")  # Ann swaps at the last chance
    assert game.opening is not None and not game.opening.active
    assert name_at(game, W) == "Bob" and game.turn is W and len(game.moves) == 5
    assert game.opening.swaps == 2


def test_taraguchi_ten_fifth_moves_offered_and_one_picked() -> None:
    game = choose(taraguchi_to_fifth(), "offer")
    assert step(game) == (StepKind.PROPOSE, Player.SECOND, "propose")
    assert game.opening is not None and game.opening.step.count == 10
    far = [(x, 0) for x in range(10)]  # offers go anywhere on the board
    for index, point in enumerate(far):
        assert step(game)[0] is StepKind.PROPOSE, index
        game = opening.on_point(game, B, point, T0).game
    assert step(game) == (StepKind.PICK, Player.FIRST, "pick")
    game = opening.on_point(game, W, (4, 0), T0).game
    assert [m.point for m in game.moves][-1] == (4, 0) and game.turn is W
    assert game.opening is not None and not game.opening.active


# -- the rest of the game around the opening -------------------------------------------


def test_takebacks_hints_abort_and_resign_during_the_opening() -> None:
    game = click(new("swap2"), (7, 7))
    refused("opening_in_progress", offers.request_takeback, game, B, T0)
    assert model.can_abort(game)  # only the first player has acted
    refused("resign_too_early", model.resign, game, B, T0)  # abort instead
    game = choose(click(game, (8, 8), (9, 9)), "white")
    assert not model.can_abort(game)
    resigned = model.resign(game, B, T0).game
    assert resigned.result is not None and resigned.result.termination is Termination.RESIGN
    # The opening's stones are out of a takeback's reach.
    refused("no_move_to_take_back", offers.request_takeback, game, B, T0)
    game = model.play(game, W, (0, 0), T0).game
    assert offers.request_takeback(game, W, T0).changed


def test_the_view_shows_the_step_and_who_may_choose() -> None:
    game = click(new("swap2"), (7, 7), (8, 7), (9, 9))
    view = JsonView()
    white = view.state(game, W, Room(), Activity(), T0)
    black = view.state(game, B, Room(), Activity(), T0)
    assert white["opening"]["step"] == "choose" and white["opening"]["actor"] == "second"
    assert white["opening"]["options"] == ["black", "white", "place_two"]
    assert white["opening"]["seats"] == {"first": "black", "second": "white"}
    assert white["actions"]["opening"] is True and white["actions"]["move"] is False
    assert black["actions"]["opening"] is False and black["legal"] == []
    placing = opening_json(choose(game, "place_two"))
    assert placing is not None and placing["stone"] == "white" and placing["area"] is None
    renju = opening_json(new("taraguchi10", Rule.RENJU))
    assert renju is not None and renju["area"] == 1 and renju["stone"] == "black"
    assert view.state(new("swap"), B, Room(), Activity(), T0)["legal"].__len__() == 225


def test_the_opening_survives_the_store_and_a_swap_moves_the_seats() -> None:
    game = click(new("swap2"), (7, 7), (8, 7), (9, 9))
    again = game_of(record_of(game))
    assert again.opening == game.opening and again.settings == game.settings
    swapped = choose(game, "black")
    update = update_of(game, swapped)
    assert update.swap_seats and not update.seat_tokens
    assert update.changes["settings"]["opening_state"]["swaps"] == 1
    assert not update_of(swapped, swapped).swap_seats


def test_a_rematch_starts_the_same_opening_again() -> None:
    game = choose(click(new("swap2"), (7, 7), (8, 7), (9, 9)), "white")
    game = model.resign(game, B, T0).game
    rematch = offers.rematch_game(game, "g2", T0)
    assert rematch.opening is not None and rematch.opening.rule is OpeningRule.SWAP2
    assert rematch.opening.active and rematch.moves == ()


# -- symmetry ----------------------------------------------------------------------------


def test_symmetry_of_positions() -> None:
    board = Board.from_moves([(7, 7), (8, 8), (9, 9)], size=15)
    assert len(symmetries(board)) == 3  # two mirrors and the half turn about the white stone
    assert equivalent(board, (8, 6), (6, 8))
    assert equivalent(board, (10, 7), (6, 9))  # the half turn
    assert equivalent(board, (8, 6), (10, 8))  # the mirror across the other diagonal
    assert not equivalent(board, (8, 6), (9, 6))
    assert distinct(board, [(8, 6), (6, 8), (9, 6), (8, 10)]) == [(8, 6), (9, 6)]
    lopsided = Board.from_moves([(7, 7), (8, 7), (7, 9)], size=15)
    assert not symmetries(lopsided)
    assert symmetries(Board(15)) == []
