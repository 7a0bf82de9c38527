"""What a viewer sees of a game's opening: the ``opening`` field of the ``state`` payload.

``opening_json`` spells the phase of ``Game.opening`` for the browser: the rule, the step
due and who takes it (by role and by the colour held now), the colour of the stone a
PLACE step puts, the central square it must go in, the options a choice accepts, and the
fifth moves offered so far. The same object goes to every viewer; ``can_choose`` is the
viewer's own ``actions.opening`` flag (``view``). The points to click are the state's
``legal`` (``opening_rules.legal_points``)."""

from __future__ import annotations

from typing import Any

from webapp.game.model import Game
from webapp.game.opening_types import Player, StepKind
from webapp.game.types import Seat, Status

# Steps taken with the ``opening_choice`` event rather than a board click.
CHOICE_STEPS = frozenset({StepKind.CHOOSE, StepKind.DECLARE})


def opening_json(game: Game) -> dict[str, Any] | None:
    state = game.opening
    if state is None:
        return None
    step = state.step
    active = state.active and game.status is not Status.FINISHED
    actor_seat = state.actor_seat if active else None
    options = list(step.options)
    if step.kind is StepKind.DECLARE:
        options = [str(n) for n in range(1, step.count + 1)]
    placing = step.kind is StepKind.PLACE
    return {
        "rule": state.rule.value,
        "active": active,
        "step": step.kind.value,
        "stage": step.stage,
        "actor": step.actor.value if active and step.actor is not None else None,
        "actor_seat": actor_seat.value if actor_seat is not None else None,
        "seats": {player.value: state.seat_of(player).value for player in Player},
        "stone": Seat.of_ply(len(game.moves) + 1).value if placing and active else None,
        "area": 2 * step.radius + 1 if placing and step.radius is not None else None,
        "options": options if active else [],
        "count": step.count,
        "declared": state.declared,
        "proposals": [[x, y] for x, y in state.proposals],
        "swaps": state.swaps,
        "log": list(state.log),
    }


def can_choose(game: Game, you: Seat | None) -> bool:
    """Whether ``you`` is to take an opening step with ``opening_choice`` now."""
    state = game.opening
    if you is None or state is None or not state.active or game.status is not Status.ACTIVE:
        return False
    if state.actor_seat is not you or not game.is_human(you):
        return False
    return state.step.kind in CHOICE_STEPS or bool(state.step.options)


def can_click(game: Game, you: Seat) -> bool:
    """Whether a board click is what the opening asks of ``you`` now (or no opening)."""
    state = game.opening
    if state is None or not state.active:
        return True
    return state.step.kind not in CHOICE_STEPS
