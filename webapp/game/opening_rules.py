"""The procedures of the opening rules: which step follows which, and who takes it.

Each rule is a short procedure over the ``Step`` values of ``opening_types``; the
transitions in ``opening`` apply a step and ask here for the next one. Stones are placed
in colour order (black, white, black, ...), whoever places them. "The black player" is
whoever holds black at that moment: a swap hands the colours over, not the stones.

Gomoku (freestyle, standard):

- ``swap``: the first player places three stones anywhere (black, white, black); the
  second player chooses a colour; white plays the fourth stone and play goes on.
- ``swap2``: the first player places three stones anywhere (black, white, black); the
  second player then plays white (and places the fourth stone as the game's next move),
  swaps to black (the first player, now white, places the fourth stone), or places two
  more stones (the fourth, white, and the fifth, black) and lets the first player choose
  a colour; white plays the sixth stone and play goes on.

Renju (the Renju International Federation's rules):

- ``soosorv8`` (Soosõrv-8): the first player places one of the 26 openings: the first
  stone on the centre, the second (white) on one of the eight points around it, the
  third (black) within the central 5x5 square. The second player may swap. White places
  the fourth stone anywhere and declares how many fifth-move alternatives black will
  offer, from 1 to 8. Black may swap. Black then offers that many fifth moves, no two of
  them symmetrical; white picks one as the fifth move and plays the sixth.
- ``taraguchi10`` (Taraguchi-10): the first player places the first stone on the centre;
  the second player may swap. White places the second stone within the central 3x3
  square; black may swap. Black places the third within the central 5x5 square; white
  may swap. White places the fourth within the central 7x7 square; black may swap.
  Black then either places the fifth within the central 9x9 square, after which white
  may swap, or offers ten fifth moves anywhere, no two of them symmetrical, of which
  white picks one. White plays the sixth stone anywhere and play goes on.

Symmetrical means that a rotation or reflection of the position (colours kept) turns one
offered move into the other (``engine.game.symmetry``)."""

from __future__ import annotations

from engine import Board, Point, Rule
from engine.game.symmetry import images
from webapp.game.opening_types import (
    BLACK,
    OFFER,
    OPENINGS_OF,
    PLACE_TWO,
    WHITE,
    OpeningRule,
    OpeningState,
    Player,
    Step,
    StepKind,
)
from webapp.game.types import Seat

COLOURS = (BLACK, WHITE)
# The most fifth-move alternatives of each renju rule (Soosõrv-N declares 1..N,
# Taraguchi-N offers exactly N).
FIFTH_MOVES = {OpeningRule.SOOSORV8: 8, OpeningRule.TARAGUCHI10: 10}
# The smallest board each opening fits on (Taraguchi's fifth goes in the central 9x9).
MIN_SIZES = {OpeningRule.TARAGUCHI10: 9, OpeningRule.SOOSORV8: 7}
DONE = Step(StepKind.DONE, None, "done")


def allowed_openings(rule: Rule) -> tuple[OpeningRule, ...]:
    return OPENINGS_OF[rule]


def first_step(rule: OpeningRule) -> Step:
    if rule in (OpeningRule.SWAP, OpeningRule.SWAP2):
        return Step(StepKind.PLACE, Player.FIRST, "open")
    if rule is OpeningRule.SOOSORV8:
        return Step(StepKind.PLACE, Player.FIRST, "open", radius=0)
    if rule is OpeningRule.TARAGUCHI10:
        return Step(StepKind.PLACE, Player.FIRST, "stone1", radius=0)
    return DONE


def _holder(state: OpeningState, seat: Seat) -> Player:
    return state.player_of(seat)


def _choose(actor: Player, stage: str, *extra: str) -> Step:
    return Step(StepKind.CHOOSE, actor, stage, (*COLOURS, *extra))


def after_place(state: OpeningState, stones: int) -> Step:
    """The step after a stone was placed; ``stones`` counts the stones now on the board."""
    rule, stage = state.rule, state.step.stage
    if rule in (OpeningRule.SWAP, OpeningRule.SWAP2) and stage == "open":
        if stones < 3:
            return state.step
        extra = (PLACE_TWO,) if rule is OpeningRule.SWAP2 else ()
        return _choose(Player.SECOND, "after_three", *extra)
    if rule is OpeningRule.SWAP2 and stage == "place_two":
        return state.step if stones < 5 else _choose(Player.FIRST, "after_five")
    if rule is OpeningRule.SOOSORV8 and stage == "open":
        if stones < 3:
            return Step(StepKind.PLACE, Player.FIRST, "open", radius=stones)
        return _choose(Player.SECOND, "swap_opening")
    if rule is OpeningRule.SOOSORV8 and stage == "fourth":
        count = FIFTH_MOVES[rule]
        return Step(StepKind.DECLARE, _holder(state, Seat.WHITE), "declare", count=count)
    if rule is OpeningRule.TARAGUCHI10:
        if stones == 5:
            return _choose(_holder(state, Seat.WHITE), "swap5")
        # After stone k the player who did not place it may swap.
        return _choose(_holder(state, Seat.of_ply(stones).other), f"swap{stones}")
    raise ValueError(f"no placing at {rule.value}:{stage}")


def after_choose(state: OpeningState, option: str, stones: int) -> Step:
    """The step after ``option`` was chosen (``state`` already has any swap made)."""
    rule, stage = state.rule, state.step.stage
    if rule in (OpeningRule.SWAP, OpeningRule.SWAP2):
        if option == PLACE_TWO:
            return Step(StepKind.PLACE, Player.SECOND, "place_two")
        return DONE
    if rule is OpeningRule.SOOSORV8:
        if stage == "swap_opening":
            return Step(StepKind.PLACE, _holder(state, Seat.WHITE), "fourth")
        return Step(StepKind.PROPOSE, _holder(state, Seat.BLACK), "propose", count=state.declared)
    if rule is OpeningRule.TARAGUCHI10:
        if option == OFFER:
            count = FIFTH_MOVES[rule]
            return Step(StepKind.PROPOSE, _holder(state, Seat.BLACK), "propose", count=count)
        if stage == "swap5":
            return DONE
        placed = int(stage.removeprefix("swap"))
        next_seat = Seat.of_ply(placed + 1)
        options = (OFFER,) if placed == 4 else ()
        return Step(
            StepKind.PLACE, _holder(state, next_seat), f"stone{placed + 1}", options, placed
        )
    raise ValueError(f"no choice at {rule.value}:{stage}")


def after_declare(state: OpeningState) -> Step:
    return _choose(_holder(state, Seat.BLACK), "swap_fourth")


def after_propose(state: OpeningState) -> Step:
    if len(state.proposals) < state.step.count:
        return state.step
    return Step(StepKind.PICK, _holder(state, Seat.WHITE), "pick", count=len(state.proposals))


def in_area(point: Point, size: int, radius: int | None) -> bool:
    """Whether ``point`` lies in the central square of side ``2 * radius + 1``."""
    if radius is None:
        return True
    centre = size // 2
    return max(abs(point[0] - centre), abs(point[1] - centre)) <= radius


def proposal_ok(board: Board, proposals: tuple[Point, ...], point: Point) -> bool:
    """Whether ``point`` may join the offered fifth moves: empty, and neither one of them
    nor symmetrical to one."""
    if not board.on_board(point) or board.stone_at(point) is not None:
        return False
    return point not in images(board, proposals)


def legal_points(board: Board, state: OpeningState) -> list[Point]:
    """The points the player to act may click now (none while a choice is due)."""
    step = state.step
    if step.kind is StepKind.PLACE:
        return [p for p in board.legal_moves() if in_area(p, board.size, step.radius)]
    if step.kind is StepKind.PROPOSE:
        taken = images(board, state.proposals)
        return [p for p in board.legal_moves() if p not in taken]
    if step.kind is StepKind.PICK:
        return list(state.proposals)
    return []
