"""The values of an opening phase: the rule, the two players before colours are fixed,
the step one of them must take now, and the phase's state as the game keeps it.

Until the opening is over the players are named by role, not colour: ``FIRST`` is the
tentative first player (who holds black when the game is created), ``SECOND`` the other.
``OpeningState.first_seat`` says which colour the first player holds now; a swap turns
it over (and the game's seats with it). ``Step`` is what the rule asks next (the
procedures are in ``opening_rules``); the transitions that take a step are in
``opening``. Plain frozen values with their JSON spelling, no clock reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine import Point, Rule
from webapp.game.types import Seat


class OpeningRule(StrEnum):
    """The creation parameter ``opening``: how the first stones are placed."""

    NONE = "none"
    SWAP = "swap"
    SWAP2 = "swap2"
    SOOSORV8 = "soosorv8"
    TARAGUCHI10 = "taraguchi10"


# Which openings each board rule may be played with.
OPENINGS_OF: dict[Rule, tuple[OpeningRule, ...]] = {
    Rule.FREESTYLE: (OpeningRule.NONE, OpeningRule.SWAP, OpeningRule.SWAP2),
    Rule.STANDARD: (OpeningRule.NONE, OpeningRule.SWAP, OpeningRule.SWAP2),
    Rule.RENJU: (OpeningRule.NONE, OpeningRule.SOOSORV8, OpeningRule.TARAGUCHI10),
}


class Player(StrEnum):
    FIRST = "first"
    SECOND = "second"

    @property
    def other(self) -> Player:
        return Player.SECOND if self is Player.FIRST else Player.FIRST


class StepKind(StrEnum):
    PLACE = "place"  # put the next stone (its colour follows the count) inside ``radius``
    CHOOSE = "choose"  # pick one of ``options``: a colour, or another way on
    DECLARE = "declare"  # say how many fifth moves will be offered, 1..``count``
    PROPOSE = "propose"  # put one more of the ``count`` fifth-move alternatives
    PICK = "pick"  # choose one of the alternatives as the fifth move
    DONE = "done"  # the opening is over: normal play


# Options of a CHOOSE step (and of a PLACE step that may turn into offers).
BLACK = "black"
WHITE = "white"
PLACE_TWO = "place_two"  # swap2: two more stones, then the first player chooses
OFFER = "offer"  # taraguchi: offer the alternatives instead of placing the fifth


@dataclass(frozen=True)
class Step:
    """What the rule asks now and of whom. ``radius`` bounds a PLACE to the central
    square of side ``2 * radius + 1`` (None: anywhere); ``count`` is the most a
    DECLARE may say or the number of alternatives a PROPOSE step asks for; ``stage``
    names the place in the rule's procedure."""

    kind: StepKind
    actor: Player | None = None
    stage: str = ""
    options: tuple[str, ...] = ()
    radius: int | None = None
    count: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "actor": self.actor.value if self.actor is not None else None,
            "stage": self.stage,
            "options": list(self.options),
            "radius": self.radius,
            "count": self.count,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Step:
        actor = data.get("actor")
        radius = data.get("radius")
        return cls(
            StepKind(data["kind"]),
            Player(actor) if actor else None,
            str(data.get("stage", "")),
            tuple(str(option) for option in data.get("options", ())),
            int(radius) if radius is not None else None,
            int(data.get("count", 0)),
        )


@dataclass(frozen=True)
class OpeningState:
    """The opening of one game: its rule, the step due, which colour the first player
    holds, the declared number of fifth moves and those offered so far, and the
    decisions taken (``log``, e.g. ``second:black``) for the record."""

    rule: OpeningRule
    step: Step
    first_seat: Seat = Seat.BLACK
    declared: int = 0
    proposals: tuple[Point, ...] = ()
    swaps: int = 0
    acted: frozenset[Player] = field(default_factory=frozenset)
    log: tuple[str, ...] = ()
    end_plies: int = 0  # the stones on the board when the opening ended

    @property
    def active(self) -> bool:
        return self.step.kind is not StepKind.DONE

    def seat_of(self, player: Player) -> Seat:
        return self.first_seat if player is Player.FIRST else self.first_seat.other

    def player_of(self, seat: Seat) -> Player:
        return Player.FIRST if seat is self.first_seat else Player.SECOND

    @property
    def actor_seat(self) -> Seat | None:
        actor = self.step.actor
        return self.seat_of(actor) if actor is not None else None

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule.value,
            "step": self.step.to_json(),
            "first_seat": self.first_seat.value,
            "declared": self.declared,
            "proposals": [[x, y] for x, y in self.proposals],
            "swaps": self.swaps,
            "acted": sorted(player.value for player in self.acted),
            "log": list(self.log),
            "end_plies": self.end_plies,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> OpeningState:
        return cls(
            OpeningRule(data["rule"]),
            Step.from_json(data["step"]),
            Seat(data.get("first_seat", "black")),
            int(data.get("declared", 0)),
            tuple((int(x), int(y)) for x, y in data.get("proposals", ())),
            int(data.get("swaps", 0)),
            frozenset(Player(p) for p in data.get("acted", ())),
            tuple(str(entry) for entry in data.get("log", ())),
            int(data.get("end_plies", 0)),
        )
