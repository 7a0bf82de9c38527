"""The game as a pure value: a frozen ``Game`` and the transitions that make the next one.

Every transition takes the current ``Game``, the acting seat and ``now`` (epoch ms) and
returns a ``Change``: the new game and the events to publish (``events``); a request the
rules refuse raises a named error of ``errors`` with a stable ``code`` and changes
nothing. No locks, store, sockets or clock reads: the service (``service``) loads, applies,
writes with the version compare-and-set and publishes. The rules of the board come from
``engine`` (``Board``, ``Rule``, renju's forbidden points); the offers (takeback, draw,
rematch) are in ``offers`` beside this module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from engine import Board, GameOverError, GomokuError, Point, Rule
from webapp.game.errors import (
    BadRequestError,
    GameFinishedError,
    IllegalMoveRefused,
    NotAPlayerError,
    NotYourTurnError,
)
from webapp.game.events import Event, GameFinished, MovePlayed, MovesTakenBack, SeatTaken
from webapp.game.opening_rules import legal_points
from webapp.game.opening_types import OpeningState
from webapp.game.types import (
    Clock,
    EngineFigures,
    Mode,
    Move,
    Offers,
    Person,
    Result,
    Seat,
    SeatInfo,
    SeatKind,
    Status,
    Termination,
)

# A player whose opponent has been gone this long may claim the win (a setting of the
# service; this is its default).
ABANDON_CLAIM_MS = 60_000

# Results an undo against the AI may reverse: the board decided them, not a player.
UNDOABLE = frozenset({Termination.FIVE, Termination.FORBIDDEN, Termination.DRAW})


@dataclass(frozen=True)
class Game:
    """One game. ``moves`` start with ``start_plies`` moves given at creation (an
    imported record or a starting position), which no takeback reaches."""

    id: str
    mode: Mode
    size: int
    rule: Rule
    status: Status
    seats: Mapping[Seat, SeatInfo]
    moves: tuple[Move, ...] = ()
    version: int = 0
    clock: Clock | None = None
    result: Result | None = None
    offers: Offers = field(default_factory=Offers)
    next_game: str | None = None
    rematch_of: str | None = None
    start_plies: int = 0
    imported: bool = False
    # What the creator chose (levels, defence, players, clock) and the service keeps.
    settings: Mapping[str, Any] = field(default_factory=dict)
    # The opening phase (``opening``), if the game was created with an opening rule.
    opening: OpeningState | None = None
    # When the game was last stored (epoch ms; 0 before it is): what ``expiry`` counts from.
    touched_at: int = 0

    # -- reading ------------------------------------------------------------------------

    @cached_property
    def board(self) -> Board:
        """The position (do not change it: transitions work on copies)."""
        return Board.from_moves(self.points, size=self.size, rule=self.rule)

    @property
    def points(self) -> list[Point]:
        return [move.point for move in self.moves]

    @property
    def opening_active(self) -> bool:
        return self.opening is not None and self.opening.active

    @property
    def turn(self) -> Seat:
        """The seat to act: during the opening, whoever its step is for."""
        if self.opening is not None and self.opening.actor_seat is not None:
            return self.opening.actor_seat
        return Seat.of_ply(len(self.moves) + 1)

    @property
    def fixed_plies(self) -> int:
        """Moves no takeback reaches: the starting moves and the opening's stones."""
        if self.opening is None:
            return self.start_plies
        if self.opening.active:
            return len(self.moves)
        return max(self.start_plies, self.opening.end_plies)

    @property
    def is_over(self) -> bool:
        return self.status is Status.FINISHED

    def seat(self, seat: Seat) -> SeatInfo:
        return self.seats[seat]

    def is_human(self, seat: Seat | None) -> bool:
        return seat is not None and seat in self.seats and self.seats[seat].kind is SeatKind.HUMAN

    @property
    def ai_to_move(self) -> Seat | None:
        """The AI seat whose move the game waits for, if any."""
        if self.status is not Status.ACTIVE:
            return None
        seat = self.seats.get(self.turn)
        return self.turn if seat is not None and seat.kind is SeatKind.AI else None

    @property
    def free_seat(self) -> Seat | None:
        """The human seat nobody holds yet (a friend game waiting for the friend)."""
        for seat in Seat:
            info = self.seats.get(seat)
            if info is not None and not info.taken:
                return seat
        return None

    def moved(self, seat: Seat) -> bool:
        """Whether ``seat`` has played a move of its own in this game."""
        first = self.start_plies + 1
        return any(Seat.of_ply(ply) is seat for ply in range(first, len(self.moves) + 1))

    @property
    def legal(self) -> list[Point]:
        """The points the side to move may play, renju's forbidden points removed."""
        if self.status is not Status.ACTIVE:
            return []
        if self.opening is not None and self.opening.active:
            return legal_points(self.board, self.opening)
        return self.board.legal_moves()

    @property
    def last_figures(self) -> EngineFigures | None:
        """The engine's figures for its latest move, if it has moved."""
        for move in reversed(self.moves):
            if move.figures is not None:
                return move.figures
        return None


@dataclass(frozen=True)
class Change:
    """A transition's outcome: the game to write and what to publish. No events means
    nothing changed and nothing needs writing."""

    game: Game
    events: tuple[Event, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.events)


# -- checks shared by the transitions ----------------------------------------------------


def require_player(game: Game, seat: Seat | None) -> Seat:
    """``seat`` if it is a human seat of ``game``; the AI's seats take no requests."""
    if seat is None or seat not in game.seats:
        raise NotAPlayerError("you are not a player in this game")
    if game.seats[seat].kind is not SeatKind.HUMAN:
        raise NotAPlayerError("that seat belongs to the AI", code="ai_seat")
    return seat


def require_no_opening(game: Game) -> None:
    """Refuse what waits for the opening's end (normal moves, hints, takebacks)."""
    if game.opening_active:
        raise BadRequestError("the opening is not over yet", code="opening_in_progress")


def require_active(game: Game) -> None:
    if game.status is Status.FINISHED:
        raise GameFinishedError("the game is over")
    if game.status is Status.WAITING:
        raise NotYourTurnError("waiting for an opponent to join", code="game_not_started")


def require_started(game: Game, code: str) -> None:
    """Refuse, with ``code``, what only a game each side has moved in allows (resigning,
    a draw): before that the game is aborted instead (``can_abort``)."""
    if can_abort(game):
        raise BadRequestError("the game has not really started: abort it instead", code=code)


def finish(game: Game, result: Result, now: int) -> Change:
    """End ``game`` with ``result``: clocks stop, open offers lapse."""
    clock = game.clock.restarted(None, now) if game.clock is not None else None
    offers = Offers(rematch=game.offers.rematch)
    done = replace(game, status=Status.FINISHED, result=result, clock=clock, offers=offers)
    return Change(done, (GameFinished(result),))


def outcome_result(board: Board) -> Result | None:
    outcome = board.outcome()
    if outcome is None:
        return None
    winner = Seat.of_color(outcome.winner) if outcome.winner is not None else None
    if outcome.reason == "full":
        return Result(Termination.DRAW, None, (), "full")
    termination = Termination.FORBIDDEN if outcome.reason == "forbidden" else Termination.FIVE
    return Result(termination, winner, tuple(outcome.line))


# -- starting ----------------------------------------------------------------------------


def new_game(
    game_id: str,
    mode: Mode,
    *,
    size: int,
    rule: Rule,
    seats: Mapping[Seat, SeatInfo],
    now: int,
    moves: tuple[Point, ...] = (),
    clock: tuple[int, int] | None = None,
    settings: Mapping[str, Any] | None = None,
    imported: bool = False,
    opening: OpeningState | None = None,
) -> Game:
    """A new game from its starting ``moves`` (refused if they are not a legal game).
    ``clock`` is (base_ms, increment_ms); it runs once each side has moved. With an
    ``opening`` the game starts in that opening phase (its first step is the first
    player's, who holds black)."""
    try:
        board = Board.from_moves(moves, size=size, rule=rule)
    except GomokuError as error:
        raise BadRequestError(
            f"the starting moves are not a legal game: {error}", code="bad_moves"
        ) from None
    status = Status.ACTIVE if all(info.taken for info in seats.values()) else Status.WAITING
    result = outcome_result(board)
    if result is not None:
        status = Status.FINISHED
    game = Game(
        id=game_id,
        mode=mode,
        size=size,
        rule=rule,
        status=status,
        seats=dict(seats),
        moves=tuple(Move(point) for point in moves),
        clock=Clock.start(clock[0], clock[1], None, now) if clock is not None else None,
        result=result,
        start_plies=len(moves),
        imported=imported,
        settings=dict(settings or {}),
        opening=opening,
    )
    return clocked(game, now)


def take_seat(
    game: Game, seat: Seat | None, token_hash: str, now: int, *, person: Person | None = None
) -> Change:
    """A visitor takes the free human seat (``seat``, or whichever is free) of a friend
    game that waits for its second player (named ``person`` when known); the game
    starts."""
    free = game.free_seat
    if game.status is not Status.WAITING or free is None:
        raise BadRequestError("there is no free seat in this game", code="seat_taken")
    if seat is not None and seat is not free:
        raise BadRequestError("that seat is taken", code="seat_taken")
    seats = dict(game.seats)
    seats[free] = replace(seats[free], token_hash=token_hash)
    if person is not None:
        seats[free] = replace(seats[free], name=person.name, player_id=person.id)
    started = replace(game, seats=seats, status=Status.ACTIVE)
    return Change(clocked(started, now), (SeatTaken(free),))


# -- playing -----------------------------------------------------------------------------


def settle(game: Game, now: int) -> Change:
    """A flag fall due at ``now``, or no change."""
    if game.status is not Status.ACTIVE or game.clock is None:
        return Change(game)
    loser = game.clock.flagged(now)
    if loser is None:
        return Change(game)
    return finish(game, Result(Termination.FLAG, loser.other), now)


def play(
    game: Game, seat: Seat | None, point: Point, now: int, *, figures: EngineFigures | None = None
) -> Change:
    """``seat`` plays ``point``; a five or a full board ends the game. Any open takeback
    lapses, and a draw offer lapses when the side it was made to moves instead."""
    if seat is None or seat not in game.seats:
        raise NotAPlayerError("you are not a player in this game")
    require_active(game)
    require_no_opening(game)
    if game.turn is not seat:
        raise NotYourTurnError("it is not your turn")
    board = game.board.copy()
    try:
        board.push(point)
    except GameOverError as error:
        raise GameFinishedError(str(error)) from None
    except GomokuError as error:
        raise IllegalMoveRefused(str(error), params={"x": point[0], "y": point[1]}) from None
    x, y = int(point[0]), int(point[1])
    draw = game.offers.draw if game.offers.draw is seat else None
    clock = game.clock
    if clock is not None and clock.running is not None:
        clock = clock.after_move(seat, now)
    moved = replace(
        game,
        moves=(*game.moves, Move((x, y), figures)),
        clock=clock,
        offers=Offers(draw=draw),
    )
    moved = clocked(moved, now)
    events: tuple[Event, ...] = (MovePlayed(seat, (x, y), len(moved.moves)),)
    result = outcome_result(board)
    if result is None:
        return Change(moved, events)
    ended = finish(moved, result, now)
    return Change(ended.game, events + ended.events)


def undo(game: Game, seat: Seat | None, now: int) -> Change:
    """Against the AI: take back your last move and the AI's reply to it; this reopens a
    game the board decided, not one that was resigned or lost on time."""
    if game.mode is not Mode.AI:
        raise BadRequestError(
            "undo is only for games against the AI: ask a takeback", code="undo_ai_only"
        )
    seat = require_player(game, seat)
    if game.result is not None and game.result.termination not in UNDOABLE:
        raise GameFinishedError("the game is over")
    count = takeback_count(game, seat)
    return take_back(game, count, now)


def takeback_count(game: Game, seat: Seat) -> int:
    """How many moves to take back so that ``seat`` is to move again before its last."""
    require_no_opening(game)
    plies = len(game.moves)
    count = 1 if plies and Seat.of_ply(plies) is seat else 2
    if plies - count < game.fixed_plies or Seat.of_ply(plies - count + 1) is not seat:
        raise BadRequestError("you have no move to take back", code="no_move_to_take_back")
    return count


def take_back(game: Game, count: int, now: int) -> Change:
    moves = game.moves[: len(game.moves) - count]
    back = replace(game, moves=moves, status=Status.ACTIVE, result=None, offers=Offers())
    return Change(clocked(back, now), (MovesTakenBack(count),))


def check_hint(game: Game, seat: Seat | None) -> Seat:
    """Refuse a hint unless ``seat`` is the human to move in a game against the AI."""
    if game.mode is not Mode.AI:
        raise BadRequestError("hints are only available against the AI", code="hint_ai_only")
    seat = require_player(game, seat)
    require_active(game)
    require_no_opening(game)
    if game.turn is not seat:
        raise NotYourTurnError("hints are for your own turn")
    return seat


# -- ending ------------------------------------------------------------------------------


def resign(game: Game, seat: Seat | None, now: int) -> Change:
    """``seat`` gives the game up. Until each side has moved there is nothing to concede:
    the game is aborted instead (``abort``), so no one loses a game that never began."""
    seat = require_player(game, seat)
    require_active(game)
    require_started(game, "resign_too_early")
    return finish(game, Result(Termination.RESIGN, seat.other), now)


def forfeit(game: Game, seat: Seat, now: int, *, reason: str, detail: str = "") -> Change:
    """An external engine in ``seat`` failed: ``reason`` ``timeout`` (too slow) loses
    on time, anything else by forfeit."""
    require_active(game)
    termination = Termination.FLAG if reason == "timeout" else Termination.FORFEIT
    return finish(game, Result(termination, seat.other, (), detail), now)


def clock_runs(game: Game) -> bool:
    """Whether ``game``'s clock runs: in a game in progress once each side has moved (a
    game of engines from the start). Before that the game may still be aborted, and a
    player who has not come or not looked loses no time."""
    return game.status is Status.ACTIVE and (game.mode is Mode.AIVAI or not can_abort(game))


def clocked(game: Game, now: int) -> Game:
    """``game`` with its clock running for the side to act, or stopped while it does not
    run (``clock_runs``); the times are kept."""
    if game.clock is None:
        return game
    runner = game.turn if clock_runs(game) else None
    if game.clock.running is runner:
        return game
    return replace(game, clock=game.clock.restarted(runner, now))


def can_abort(game: Game) -> bool:
    """A game may be aborted until each side has moved."""
    if game.status is Status.FINISHED or game.mode is Mode.AIVAI:
        return False
    if game.opening is not None and game.opening.active:
        return len(game.opening.acted) < 2
    return not (game.moved(Seat.BLACK) and game.moved(Seat.WHITE))


def abort(game: Game, seat: Seat | None, now: int) -> Change:
    """Stop a game that has not really started: nobody wins, nobody loses."""
    seat = require_player(game, seat)
    if game.status is Status.FINISHED:
        raise GameFinishedError("the game is over")
    if not can_abort(game):
        raise BadRequestError(
            "both sides have moved: resign or offer a draw instead", code="abort_too_late"
        )
    return finish(game, Result(Termination.ABORTED), now)


def claim_at(gone_since: int, after_ms: int = ABANDON_CLAIM_MS) -> int:
    """When the player who stayed may claim the win over an opponent gone since
    ``gone_since``."""
    return gone_since + after_ms


def can_claim(game: Game, seat: Seat) -> bool:
    """Whether ``seat``'s opponent left a game in which a win can be claimed: a friend
    game in progress that each side has moved in (before that, abort it)."""
    return (
        game.mode is Mode.FRIEND
        and game.status is Status.ACTIVE
        and game.is_human(seat)
        and not can_abort(game)
    )


def claim_victory(
    game: Game,
    seat: Seat | None,
    now: int,
    *,
    opponent_gone_since: int | None,
    after_ms: int = ABANDON_CLAIM_MS,
) -> Change:
    """The player who stayed claims the win once the opponent has been gone for
    ``after_ms`` (``opponent_gone_since`` is None while the opponent is connected)."""
    seat = require_player(game, seat)
    require_active(game)
    if not can_claim(game, seat):
        raise BadRequestError(
            "a win can be claimed only in a friend game both sides have moved in",
            code="claim_not_allowed",
        )
    if opponent_gone_since is None:
        raise BadRequestError("your opponent is still here", code="opponent_present")
    ready = claim_at(opponent_gone_since, after_ms)
    if now < ready:
        seconds = (ready - now + 999) // 1000
        raise BadRequestError(
            f"your opponent may still come back: wait {seconds} s",
            code="claim_too_early",
            params={"seconds": seconds},
        )
    return finish(game, Result(Termination.ABANDON, seat), now)
