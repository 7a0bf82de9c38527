"""The opening phase's transitions: place a stone, choose, declare, propose, pick.

A game created with an ``opening`` (``opening_types.OpeningRule``; the procedures are in
``opening_rules``) starts in its opening phase: ``Game.opening`` holds the step due and
who must take it, named by role until colours are fixed. Each transition here takes the
game, the acting seat and ``now`` like those of ``model``, and returns a ``Change`` or
raises a named refusal with a stable code, changing nothing:

- ``place(game, seat, point, now)``: the next stone (colour by count), inside the step's
  central square (``opening_area``);
- ``choose(game, seat, option, now)``: a colour (``black``/``white``: taking the other
  colour than the one held is a swap), ``place_two`` (swap2) or ``offer`` (taraguchi's
  ten fifth moves instead of one); a DECLARE step takes the count as its option
  (``"1"``..``"8"``);
- ``propose(game, seat, point, now)``: one more fifth-move alternative
  (``opening_symmetric`` when it mirrors one already offered);
- ``pick(game, seat, point, now)``: one of the alternatives becomes the fifth move.

``on_point`` sends a board click to whichever of place/propose/pick is due. A swap
exchanges the seats (with their clocks and players) so that every colour-keyed part of
the game keeps working; the clock runs for the player to act, who gets the increment
when the turn passes to the other player. Once the step is DONE the game goes on as
usual with the side to move by the stones' count."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from engine import GomokuError, Point, Rule
from webapp.game.errors import (
    BadRequestError,
    IllegalMoveRefused,
    NotAPlayerError,
    NotYourTurnError,
    StaleStateError,
)
from webapp.game.events import Event, MovePlayed, OpeningAdvanced
from webapp.game.model import (
    Change,
    Game,
    clocked,
    finish,
    outcome_result,
    require_active,
    require_player,
)
from webapp.game.model import (
    play as play_move,
)
from webapp.game.opening_rules import (
    FIFTH_MOVES,
    MIN_SIZES,
    after_choose,
    after_declare,
    after_place,
    after_propose,
    allowed_openings,
    first_step,
    in_area,
    proposal_ok,
)
from webapp.game.opening_types import (
    BLACK,
    WHITE,
    OpeningRule,
    OpeningState,
    Player,
    Step,
    StepKind,
)
from webapp.game.types import Clock, Move, Seat


def start_state(
    name: str | None, rule: Rule, size: int, *, start_moves: int = 0
) -> OpeningState | None:
    """The opening a new game starts in (None: no opening), refused with ``bad_opening``
    when the board rule does not play it, the board is too small, or the game starts
    from given moves."""
    choices = allowed_openings(rule)
    try:
        opening = OpeningRule(name or "none")
    except ValueError:
        opening = None
    if opening is None or opening not in choices:
        names = ", ".join(choice.value for choice in choices)
        raise BadRequestError(
            f"the opening {name!r} is not played with {rule.value}: use one of {names}",
            code="bad_opening",
            params={"opening": name, "rule": rule.value, "choices": [c.value for c in choices]},
        )
    if opening is OpeningRule.NONE:
        return None
    if start_moves:
        raise BadRequestError(
            "an opening rule starts from an empty board", code="bad_opening",
            params={"opening": opening.value, "rule": rule.value},
        )  # fmt: skip
    if size < MIN_SIZES.get(opening, 7):
        raise BadRequestError(
            f"{opening.value} needs a board of at least {MIN_SIZES[opening]} lines",
            code="bad_opening", params={"opening": opening.value, "rule": rule.value},
        )  # fmt: skip
    return OpeningState(opening, first_step(opening))


# -- checks ------------------------------------------------------------------------------


def _require_step(game: Game, seat: Seat | None, *kinds: StepKind) -> tuple[OpeningState, Player]:
    if seat is None or seat not in game.seats:
        raise NotAPlayerError("you are not a player in this game")
    require_active(game)
    state = game.opening
    if state is None or not state.active:
        raise BadRequestError("the opening is over", code="no_opening")
    player = state.player_of(seat)
    if state.step.actor is not player:
        raise NotYourTurnError("it is your opponent's turn in the opening")
    if state.step.kind not in kinds:
        raise BadRequestError(
            f"the opening asks to {state.step.kind.value} now",
            code="opening_step",
            params={"step": state.step.kind.value},
        )
    return state, player


# -- the transitions ---------------------------------------------------------------------


def play(game: Game, seat: Seat | None, point: Point, now: int) -> Change:
    """A board click: the opening's step while it lasts, else a move (``model.play``)."""
    if game.opening_active:
        return on_point(game, seat, point, now)
    return play_move(game, seat, point, now)


def human_choice(seat: Seat | None, option: str, version: int) -> Callable[[Game, int], Change]:
    """The transition of a player's ``opening_choice`` made on the board at ``version``."""

    def transition(game: Game, now: int) -> Change:
        require_player(game, seat)
        if version != game.version:
            raise StaleStateError("the game changed; your board was out of date")
        return choose(game, seat, option, now)

    return transition


def on_point(game: Game, seat: Seat | None, point: Point, now: int) -> Change:
    """A click on the board during the opening: whichever of place, propose and pick
    the step asks for."""
    state = game.opening
    kind = state.step.kind if state is not None else None
    if kind is StepKind.PROPOSE:
        return propose(game, seat, point, now)
    if kind is StepKind.PICK:
        return pick(game, seat, point, now)
    return place(game, seat, point, now)


def place(game: Game, seat: Seat | None, point: Point, now: int) -> Change:
    state, player = _require_step(game, seat, StepKind.PLACE)
    x, y = int(point[0]), int(point[1])
    radius = state.step.radius
    if not in_area((x, y), game.size, radius):
        side = 2 * (radius or 0) + 1
        raise BadRequestError(
            f"this stone goes within the central {side}x{side} square",
            code="opening_area",
            # A 1x1 square is the centre point, said so in the pages' wording.
            params={"x": x, "y": y, "size": side, **({"reason": "centre"} if side == 1 else {})},
        )
    board = game.board.copy()
    try:
        board.push((x, y))
    except GomokuError as error:
        raise IllegalMoveRefused(str(error), params={"x": x, "y": y}) from None
    placed = replace(game, moves=(*game.moves, Move((x, y))))
    stone = Seat.of_ply(len(placed.moves))
    moved = replace(state, acted=state.acted | {player})
    next_state = replace(moved, step=after_place(moved, len(placed.moves)))
    events: tuple[Event, ...] = (MovePlayed(stone, (x, y), len(placed.moves)),)
    return _advance(game, placed, player, next_state, events, now)


def choose(game: Game, seat: Seat | None, option: str, now: int) -> Change:
    """Take one of the step's options; for a DECLARE step the option is the count."""
    state, player = _require_step(game, seat, StepKind.CHOOSE, StepKind.DECLARE, StepKind.PLACE)
    step = state.step
    if step.kind is StepKind.PLACE and not step.options:
        raise BadRequestError(
            "the opening asks to place a stone now", code="opening_step", params={"step": "place"}
        )
    if step.kind is StepKind.DECLARE:
        return _declare(game, state, player, option, now)
    if option not in step.options:
        raise BadRequestError(
            f"choose one of: {', '.join(step.options) or 'nothing now'}",
            code="opening_option",
            params={"option": option, "options": list(step.options)},
        )
    held = state.seat_of(player)
    swap = option in (BLACK, WHITE) and Seat(option) is not held
    chosen = replace(
        state,
        first_seat=state.first_seat.other if swap else state.first_seat,
        swaps=state.swaps + (1 if swap else 0),
        acted=state.acted | {player},
        log=(*state.log, f"{player.value}:{option}"),
    )
    next_state = replace(chosen, step=after_choose(chosen, option, len(game.moves)))
    swapped = _swapped(game) if swap else game
    return _advance(game, swapped, player, next_state, (OpeningAdvanced(player, option),), now)


def _declare(game: Game, state: OpeningState, player: Player, option: str, now: int) -> Change:
    count = state.step.count
    if not option.isdigit() or not 1 <= int(option) <= count:
        raise BadRequestError(
            f"declare from 1 to {count} fifth moves",
            code="opening_option",
            params={"option": option, "options": [str(n) for n in range(1, count + 1)]},
        )
    declared = replace(
        state,
        declared=int(option),
        acted=state.acted | {player},
        log=(*state.log, f"{player.value}:declare:{option}"),
    )
    next_state = replace(declared, step=after_declare(declared))
    return _advance(game, game, player, next_state, (OpeningAdvanced(player, option),), now)


def propose(game: Game, seat: Seat | None, point: Point, now: int) -> Change:
    state, player = _require_step(game, seat, StepKind.PROPOSE)
    x, y = int(point[0]), int(point[1])
    board = game.board
    if not board.on_board((x, y)) or board.stone_at((x, y)) is not None:
        raise IllegalMoveRefused(
            "that point is not free", params={"x": x, "y": y}
        )  # fmt: skip
    if board.rule.has_forbidden and board.is_forbidden((x, y)):
        raise IllegalMoveRefused("that point is forbidden for black", params={"x": x, "y": y})
    if not proposal_ok(board, state.proposals, (x, y)):
        raise BadRequestError(
            "that fifth move is already offered or mirrors one that is",
            code="opening_symmetric",
            params={"x": x, "y": y},
        )
    offered = replace(state, proposals=(*state.proposals, (x, y)), acted=state.acted | {player})
    next_state = replace(offered, step=after_propose(offered))
    return _advance(game, game, player, next_state, (OpeningAdvanced(player, "propose"),), now)


def pick(game: Game, seat: Seat | None, point: Point, now: int) -> Change:
    state, player = _require_step(game, seat, StepKind.PICK)
    x, y = int(point[0]), int(point[1])
    if (x, y) not in state.proposals:
        raise BadRequestError(
            "pick one of the offered fifth moves",
            code="opening_not_offered",
            params={"x": x, "y": y},
        )
    board = game.board.copy()
    try:
        board.push((x, y))
    except GomokuError as error:
        raise IllegalMoveRefused(str(error), params={"x": x, "y": y}) from None
    placed = replace(game, moves=(*game.moves, Move((x, y))))
    picked = replace(state, acted=state.acted | {player}, log=(*state.log, f"{player.value}:pick"))
    next_state = replace(picked, step=Step(StepKind.DONE, None, "done"))
    events: tuple[Event, ...] = (MovePlayed(Seat.of_ply(len(placed.moves)), (x, y), 5),)
    return _advance(game, placed, player, next_state, events, now)


# -- pieces ------------------------------------------------------------------------------


def _advance(
    before: Game,
    game: Game,
    actor: Player,
    state: OpeningState,
    events: tuple[Event, ...],
    now: int,
) -> Change:
    """``game`` with the opening at ``state``: the clock handed to whoever acts next (or
    to the side to move once the opening is over), and the game ended if a stone did
    end it."""
    actor_seat = before.opening.seat_of(actor) if before.opening is not None else Seat.BLACK
    if not state.active:
        state = replace(state, end_plies=len(game.moves))
    advanced = replace(game, opening=state)
    next_seat = advanced.turn
    swapped = state.swaps != _swaps(before)
    advanced = replace(advanced, clock=_clock(before.clock, actor_seat, swapped, next_seat, now))
    advanced = clocked(advanced, now)
    result = outcome_result(advanced.board)
    if result is None:
        return Change(advanced, events)
    ended = finish(advanced, result, now)
    return Change(ended.game, events + ended.events)


def _swaps(game: Game) -> int:
    return game.opening.swaps if game.opening is not None else 0


def _clock(clock: Clock | None, actor: Seat, swapped: bool, runner: Seat, now: int) -> Clock | None:
    """The clock after ``actor`` acted at ``now``: charged, given the increment if it
    ran and the turn passes to the other player, the times exchanged with the seats on a swap, and
    ``runner`` running."""
    if clock is None:
        return None
    times = {seat: clock.left(seat, now) for seat in Seat}
    held_after = actor.other if swapped else actor
    if runner is not held_after and clock.running is not None:
        times[actor] += clock.increment_ms
    if swapped:
        times = {seat: times[seat.other] for seat in Seat}
    return Clock(
        times[Seat.BLACK], times[Seat.WHITE], runner, now, clock.base_ms, clock.increment_ms
    )


def _swapped(game: Game) -> Game:
    """``game`` with the players' seats exchanged, and what the settings keep per colour
    (AI-vs-AI players and levels) with them."""
    seats = {seat.other: info for seat, info in game.seats.items()}
    return replace(game, seats=seats, settings=_swapped_settings(game.settings))


def _swapped_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    swapped = dict(settings)
    players = swapped.get("players")
    if isinstance(players, Mapping):
        swapped["players"] = {Seat(side).other.value: pid for side, pid in players.items()}
    if "black_level" in swapped and "white_level" in swapped:
        swapped["black_level"], swapped["white_level"] = (
            swapped["white_level"],
            swapped["black_level"],
        )
    return swapped


def fifth_moves(rule: OpeningRule) -> int:
    """The most fifth-move alternatives of a renju opening rule (0 for the others)."""
    return FIFTH_MOVES.get(rule, 0)
