"""The AI's side of an opening: the step a search job takes, and its answer applied.

``task_of`` spells the opening step due in ``game`` as the worker's opening task
(``ai.opening_job``, ``engine.search.opening_choices``); ``ai_turns.job_for`` puts it in
the job whenever the AI's seat is to act during the opening. ``apply`` takes the
answer's actions in order with the transitions of ``opening`` (stones and offers by
``on_point``, options by ``choose``), as long as the AI is still the one to act, and
returns one ``Change`` with every event. A refused action ends the answer there."""

from __future__ import annotations

import logging
from typing import Any

from webapp.game import opening
from webapp.game.errors import GameActionError
from webapp.game.events import Event
from webapp.game.model import Change, Game
from webapp.game.types import Seat

log = logging.getLogger(__name__)


def task_of(game: Game) -> dict[str, Any] | None:
    state = game.opening
    if state is None or not state.active:
        return None
    step = state.step
    return {
        "rule": state.rule.value,
        "kind": step.kind.value,
        "stage": step.stage,
        "options": list(step.options),
        "radius": step.radius,
        # The declared count matters to a colour choice before the offers, too.
        "count": step.count or state.declared,
        "proposals": [[x, y] for x, y in state.proposals],
    }


def apply(game: Game, seat: Seat, actions: list[list[Any]], now: int) -> Change | None:
    """``actions`` taken by ``seat`` in ``game``; None if not even the first was legal."""
    events: list[Event] = []
    current = game
    for action in actions:
        if not current.opening_active or current.turn is not seat:
            break
        try:
            if action[0] == "point":
                change = opening.on_point(current, seat, (int(action[1]), int(action[2])), now)
            else:
                change = opening.choose(current, seat, str(action[1]), now)
        except (GameActionError, IndexError, ValueError) as error:
            log.error("AI opening action %s refused in game %s: %s", action, game.id, error)
            break
        current = change.game
        events.extend(change.events)
    if not events:
        return None
    return Change(current, tuple(events))
