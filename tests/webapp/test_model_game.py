"""The pure game model: every transition of ``webapp.game.model`` and every refusal, on
plain values with the time passed in."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine import Rule
from webapp.game import model
from webapp.game.errors import GameActionError
from webapp.game.events import GameFinished, MovePlayed, MovesTakenBack, SeatTaken
from webapp.game.model import Game
from webapp.game.types import (
    Clock,
    EngineFigures,
    Mode,
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


def human(token: str | None = "t") -> SeatInfo:
    return SeatInfo(SeatKind.HUMAN, token_hash=token)


def ai(level: int = 3) -> SeatInfo:
    return SeatInfo(SeatKind.AI, f"AI Level {level}", level)


def friend_game(
    moves: tuple[tuple[int, int], ...] = (), *, size: int = 15, clock: tuple[int, int] | None = None
) -> Game:
    return model.new_game(
        "g1", Mode.FRIEND, size=size, rule=Rule.FREESTYLE,
        seats={B: human("b"), W: human("w")}, now=T0, moves=moves, clock=clock,
    )  # fmt: skip


def ai_game(moves: tuple[tuple[int, int], ...] = (), human_seat: Seat = B) -> Game:
    seats = {human_seat: human(), human_seat.other: ai()}
    return model.new_game(
        "g2", Mode.AI, size=15, rule=Rule.FREESTYLE, seats=seats, now=T0, moves=moves
    )


def refused(code: str, call: object, *args: object, **kwargs: object) -> GameActionError:
    with pytest.raises(GameActionError) as caught:
        call(*args, **kwargs)  # type: ignore[operator]
    assert caught.value.code == code, caught.value
    return caught.value


def play_all(game: Game, points: list[tuple[int, int]], now: int = T0) -> Game:
    for point in points:
        game = model.play(game, game.turn, point, now).game
    return game


# Black wins along row 0 when these are played alternately with white on row 1.
BLACK_FIVE = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0)]


# -- starting --------------------------------------------------------------------------


def test_a_colour_choice_names_its_seat_and_random_draws_both() -> None:
    assert Seat.chosen("black") is B
    assert Seat.chosen("white") is W
    state = random.getstate()
    drawn = {Seat.chosen("random") for _ in range(200)}
    assert drawn == {B, W}
    # AI turns run in background threads: the shared ``random`` state stays untouched.
    assert random.getstate() == state
    with pytest.raises(ValueError):
        Seat.chosen("green")


def test_new_game_status_follows_the_seats() -> None:
    assert friend_game().status is Status.ACTIVE
    waiting = model.new_game(
        "g", Mode.FRIEND, size=15, rule=Rule.FREESTYLE, seats={B: human(), W: human(None)},
        now=T0,
    )  # fmt: skip
    assert waiting.status is Status.WAITING
    assert waiting.free_seat is W
    assert ai_game().status is Status.ACTIVE


def test_new_game_refuses_illegal_starting_moves() -> None:
    refused("bad_moves", model.new_game, "g", Mode.AI, size=15, rule=Rule.FREESTYLE,
            seats={B: human(), W: ai()}, now=T0, moves=((0, 0), (0, 0)))  # fmt: skip


def test_new_game_from_a_finished_record_is_finished_and_imported() -> None:
    game = model.new_game(
        "g", Mode.AI, size=15, rule=Rule.FREESTYLE, seats={B: human(), W: ai()}, now=T0,
        moves=tuple(BLACK_FIVE), imported=True,
    )  # fmt: skip
    assert game.status is Status.FINISHED
    assert game.imported
    assert game.result is not None and game.result.termination is Termination.FIVE
    assert game.start_plies == len(BLACK_FIVE)
    assert game.legal == []


def test_take_seat_starts_the_game_but_not_yet_its_clock() -> None:
    waiting = model.new_game(
        "g", Mode.FRIEND, size=15, rule=Rule.FREESTYLE, seats={B: human(), W: human(None)},
        now=T0, clock=(60_000, 0),
    )  # fmt: skip
    assert waiting.clock is not None and waiting.clock.running is None
    change = model.take_seat(waiting, None, "hash", T0 + 5)
    assert change.events == (SeatTaken(W),)
    assert change.game.status is Status.ACTIVE
    assert change.game.seats[W].token_hash == "hash"
    # The clock runs once each side has moved: a guest who arrives costs black no time.
    assert change.game.clock is not None and change.game.clock.running is None
    assert change.game.clock.left(B, T0 + 10**6) == 60_000


def test_take_seat_refusals() -> None:
    refused("seat_taken", model.take_seat, friend_game(), None, "h", T0)
    waiting = model.new_game(
        "g", Mode.FRIEND, size=15, rule=Rule.FREESTYLE, seats={B: human(), W: human(None)},
        now=T0,
    )  # fmt: skip
    refused("seat_taken", model.take_seat, waiting, B, "h", T0)


# -- playing ---------------------------------------------------------------------------


def test_play_records_the_move_and_passes_the_turn() -> None:
    game = friend_game()
    change = model.play(game, B, (7, 7), T0)
    assert change.events == (MovePlayed(B, (7, 7), 1),)
    assert change.game.points == [(7, 7)]
    assert change.game.turn is W
    assert (7, 7) not in change.game.legal
    assert game.points == []  # the old value is untouched


def test_play_refusals() -> None:
    game = friend_game(((7, 7),))
    refused("not_your_turn", model.play, game, B, (0, 0), T0)
    refused("not_a_player", model.play, game, None, (0, 0), T0)
    refused("illegal_move", model.play, game, W, (7, 7), T0)
    refused("illegal_move", model.play, game, W, (15, 0), T0)
    waiting = replace(game, status=Status.WAITING)
    refused("game_not_started", model.play, waiting, W, (0, 0), T0)
    over = play_all(friend_game(), BLACK_FIVE)
    refused("game_over", model.play, over, W, (9, 9), T0)


def test_five_ends_the_game_with_the_line() -> None:
    game = play_all(friend_game(), BLACK_FIVE[:-1])
    change = model.play(game, B, BLACK_FIVE[-1], T0)
    assert isinstance(change.events[-1], GameFinished)
    result = change.game.result
    assert result == Result(Termination.FIVE, B, ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0)))
    assert change.game.status is Status.FINISHED
    assert change.game.legal == []


def test_full_board_is_a_draw() -> None:
    # Colour (x // 2 + y) % 2 makes runs of at most two in every direction on 7x7, and
    # gives black (colour 0) 25 points and white 24: play them alternately.
    cells = [(x, y) for x in range(7) for y in range(7)]
    blacks = [p for p in cells if (p[0] // 2 + p[1]) % 2 == 0]
    whites = [p for p in cells if (p[0] // 2 + p[1]) % 2 == 1]
    order = [p for pair in zip(blacks, whites, strict=False) for p in pair] + blacks[len(whites) :]
    game = play_all(friend_game(size=7), order[:-1])
    assert game.status is Status.ACTIVE
    change = model.play(game, game.turn, order[-1], T0)
    assert change.game.result == Result(Termination.DRAW, None, (), "full")
    assert change.game.result.reason == "full"


def test_renju_forbidden_points_are_not_legal_and_lose_if_played() -> None:
    # Black double-three at (7,7): open twos on row 7 and column 7.
    moves = ((5, 7), (0, 0), (6, 7), (0, 2), (7, 5), (0, 4), (7, 6), (0, 6))
    game = model.new_game(
        "r", Mode.FRIEND, size=15, rule=Rule.RENJU, seats={B: human(), W: human()}, now=T0,
        moves=moves,
    )  # fmt: skip
    assert (7, 7) not in game.legal
    assert (8, 8) in game.legal
    change = model.play(game, B, (7, 7), T0)
    assert change.game.result is not None
    assert change.game.result.termination is Termination.FORBIDDEN
    assert change.game.result.winner is W


def test_engine_figures_travel_with_the_move() -> None:
    game = ai_game()
    figures = EngineFigures(score=-40, depth=6, nodes=1000, time_ms=50)
    game = model.play(game, B, (7, 7), T0).game
    game = model.play(game, W, (8, 8), T0, figures=figures).game
    assert game.moves[-1].figures == figures
    assert game.last_figures == figures
    assert game.ai_to_move is None
    assert ai_game(human_seat=W).ai_to_move is B


# -- clocks ----------------------------------------------------------------------------


def test_the_clock_runs_once_each_side_has_moved() -> None:
    game = friend_game(clock=(10_000, 2_000))
    assert game.clock is not None and game.clock.running is None
    assert model.can_abort(game) and not model.clock_runs(game)
    # Black's first move costs nothing and white's clock does not start either.
    game = model.play(game, B, (7, 7), T0 + 3_000).game
    assert game.clock is not None and game.clock.running is None
    assert game.clock.left(B, T0 + 10**6) == 10_000
    assert game.clock.left(W, T0 + 10**6) == 10_000
    # White's first move starts black's clock, without an increment for either.
    game = model.play(game, W, (8, 8), T0 + 50_000).game
    assert game.clock is not None and game.clock.running is B
    assert not model.can_abort(game) and model.clock_runs(game)
    assert game.clock.left(W, T0 + 10**6) == 10_000
    assert game.clock.left(B, T0 + 54_000) == 6_000


def test_clock_charges_the_mover_and_adds_the_increment() -> None:
    game = play_all(friend_game(clock=(10_000, 2_000)), [(7, 7), (8, 8)])
    game = model.play(game, B, (6, 6), T0 + 3_000).game
    assert game.clock is not None
    assert game.clock.left(B, T0 + 3_000) == 9_000
    assert game.clock.running is W
    assert game.clock.left(W, T0 + 4_000) == 9_000


def test_flag_fall_ends_the_game_for_the_side_out_of_time() -> None:
    # Nobody loses on time before each side has moved.
    assert not model.settle(friend_game(clock=(10_000, 0)), T0 + 10**6).changed
    game = play_all(friend_game(clock=(10_000, 0)), [(7, 7), (8, 8)])
    assert not model.settle(game, T0 + 9_999).changed
    change = model.settle(game, T0 + 10_000)
    assert change.game.result == Result(Termination.FLAG, W)
    assert change.game.result.reason == "timeout"
    assert change.game.clock is not None and change.game.clock.running is None
    assert not model.settle(change.game, T0 + 20_000).changed
    assert not model.settle(ai_game(), T0 + 10**9).changed


def test_clock_value() -> None:
    clock = Clock.start(5_000, 0, B, T0)
    assert clock.flagged(T0 + 4_999) is None
    assert clock.flagged(T0 + 5_000) is B
    assert clock.restarted(None, T0 + 1_000).left(B, T0 + 10**6) == 4_000


# -- undo ------------------------------------------------------------------------------


def test_undo_takes_back_the_move_and_the_reply() -> None:
    game = play_all(ai_game(), [(7, 7), (8, 8)])
    change = model.undo(game, B, T0)
    assert change.events == (MovesTakenBack(2),)
    assert change.game.points == []
    # With the AI still thinking, only the own move goes.
    game = play_all(ai_game(), [(7, 7), (8, 8), (6, 6)])
    assert model.undo(game, B, T0).game.points == [(7, 7), (8, 8)]


def test_undo_reopens_a_game_the_board_decided() -> None:
    game = play_all(ai_game(), BLACK_FIVE)
    assert game.is_over
    change = model.undo(game, B, T0)
    assert change.game.status is Status.ACTIVE
    assert change.game.result is None
    assert len(change.game.moves) == len(BLACK_FIVE) - 1


def test_undo_refusals() -> None:
    refused("undo_ai_only", model.undo, play_all(friend_game(), [(7, 7)]), B, T0)
    refused("not_a_player", model.undo, ai_game(), None, T0)
    refused("ai_seat", model.undo, play_all(ai_game(), [(7, 7)]), W, T0)
    refused("no_move_to_take_back", model.undo, ai_game(), B, T0)
    refused("no_move_to_take_back", model.undo, ai_game(((7, 7), (8, 8))), B, T0)
    resigned = model.resign(play_all(ai_game(), [(7, 7), (8, 8)]), B, T0).game
    refused("game_over", model.undo, resigned, B, T0)


# -- hints -----------------------------------------------------------------------------


def test_hint_is_for_the_human_to_move_against_the_ai() -> None:
    assert model.check_hint(ai_game(), B) is B
    refused("hint_ai_only", model.check_hint, friend_game(), B)
    refused("not_your_turn", model.check_hint, play_all(ai_game(), [(7, 7)]), B)
    refused("not_a_player", model.check_hint, ai_game(), None)
    refused("game_over", model.check_hint, play_all(ai_game(), BLACK_FIVE), B)


# -- resign, forfeit, abort, abandon ---------------------------------------------------


def test_resign() -> None:
    change = model.resign(play_all(friend_game(), [(7, 7), (8, 8)]), W, T0)
    assert change.game.result == Result(Termination.RESIGN, B)
    assert change.game.status is Status.FINISHED
    refused("game_over", model.resign, change.game, B, T0)
    refused("not_a_player", model.resign, friend_game(), None, T0)


def test_resign_waits_until_each_side_has_moved() -> None:
    # Until each side has played a move of its own the game is aborted, not resigned.
    fresh = friend_game()
    black_only = play_all(fresh, [(7, 7)])
    from_a_position = friend_game(((7, 7), (8, 8)))  # starting moves are nobody's moves
    human_only = play_all(ai_game(), [(7, 7)])
    for game in (fresh, black_only, from_a_position, human_only):
        before = replace(game)
        for seat in (B, W):
            if game.seats[seat].kind is SeatKind.HUMAN:
                refused("resign_too_early", model.resign, game, seat, T0)
        assert game == before
        assert game.status is Status.ACTIVE and game.result is None
        assert model.can_abort(game)
    # Once both have moved resigning works, and aborting no longer does.
    both = play_all(black_only, [(8, 8)])
    assert not model.can_abort(both)
    assert model.resign(both, B, T0).game.result == Result(Termination.RESIGN, W)
    assert model.resign(both, W, T0).game.result == Result(Termination.RESIGN, B)
    replied = play_all(human_only, [(8, 8)])
    assert model.resign(replied, B, T0).game.result == Result(Termination.RESIGN, W)


def test_forfeit_and_engine_timeout() -> None:
    game = model.new_game(
        "e", Mode.AIVAI, size=15, rule=Rule.FREESTYLE, seats={B: ai(), W: ai()}, now=T0
    )
    lost = model.forfeit(game, B, T0, reason="forfeit", detail="crashed").game
    assert lost.result == Result(Termination.FORFEIT, W, (), "crashed")
    slow = model.forfeit(game, W, T0, reason="timeout").game
    assert slow.result is not None and slow.result.termination is Termination.FLAG
    refused("game_over", model.forfeit, lost, W, T0, reason="forfeit")


def test_abort_before_each_side_has_moved() -> None:
    assert model.can_abort(friend_game())
    change = model.abort(play_all(friend_game(), [(7, 7)]), W, T0)
    assert change.game.result == Result(Termination.ABORTED)
    assert change.game.status is Status.FINISHED
    waiting = model.new_game(
        "g", Mode.FRIEND, size=15, rule=Rule.FREESTYLE, seats={B: human(), W: human(None)},
        now=T0,
    )  # fmt: skip
    assert model.abort(waiting, B, T0).game.result == Result(Termination.ABORTED)
    # Starting moves do not count as the players' moves.
    assert model.can_abort(friend_game(((7, 7), (8, 8))))


def test_abort_refusals() -> None:
    both = play_all(friend_game(), [(7, 7), (8, 8)])
    refused("abort_too_late", model.abort, both, B, T0)
    refused("game_over", model.abort, model.resign(both, B, T0).game, B, T0)
    refused("not_a_player", model.abort, friend_game(), None, T0)
    engines = model.new_game(
        "e", Mode.AIVAI, size=15, rule=Rule.FREESTYLE, seats={B: ai(), W: ai()}, now=T0
    )
    assert not model.can_abort(engines)


def test_claim_victory_after_the_countdown() -> None:
    game = play_all(friend_game(), [(7, 7), (8, 8)])
    assert model.can_claim(game, B)
    gone = T0 + 1_000
    error = refused(
        "claim_too_early", model.claim_victory, game, B, gone + 59_000, opponent_gone_since=gone
    )
    assert error.params == {"seconds": 1}
    change = model.claim_victory(game, B, gone + 60_000, opponent_gone_since=gone)
    assert change.game.result == Result(Termination.ABANDON, B)
    short = model.claim_victory(game, B, gone + 10, opponent_gone_since=gone, after_ms=10)
    assert short.game.is_over


def test_claim_victory_refusals() -> None:
    game = play_all(friend_game(), [(7, 7), (8, 8)])
    refused("opponent_present", model.claim_victory, game, B, T0, opponent_gone_since=None)
    early = play_all(friend_game(), [(7, 7)])
    refused("claim_not_allowed", model.claim_victory, early, B, T0 + 10**6, opponent_gone_since=T0)
    vs_ai = play_all(ai_game(), [(7, 7), (8, 8)])
    refused("claim_not_allowed", model.claim_victory, vs_ai, B, T0 + 10**6, opponent_gone_since=T0)
    over = model.resign(game, W, T0).game
    refused("game_over", model.claim_victory, over, B, T0 + 10**6, opponent_gone_since=T0)
    refused("not_a_player", model.claim_victory, game, None, T0, opponent_gone_since=T0)


def test_finishing_drops_open_offers_but_keeps_a_rematch_offer() -> None:
    game = replace(play_all(friend_game(), [(7, 7), (8, 8)]), offers=Offers(takeback=B, draw=W))
    done = model.resign(game, W, T0).game
    assert done.offers == Offers()
    assert model.claim_at(T0, 5) == T0 + 5
