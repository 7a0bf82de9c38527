"""What a transition of the game model changed, for the service to publish.

Each transition of ``model`` and ``offers`` returns the new ``Game`` with a tuple of these
events. The service writes the new game and then publishes: the full ``state`` after any
event, plus the small events the contract names (``offer_declined``, ``offer_cancelled``)
for the ones that have them (``realtime.messages`` documents their payloads)."""

from __future__ import annotations

from dataclasses import dataclass

from engine import Point
from webapp.game.types import OfferKind, Result, Seat


@dataclass(frozen=True)
class MovePlayed:
    seat: Seat
    point: Point
    ply: int


@dataclass(frozen=True)
class MovesTakenBack:
    count: int


@dataclass(frozen=True)
class GameFinished:
    result: Result


@dataclass(frozen=True)
class SeatTaken:
    seat: Seat


@dataclass(frozen=True)
class OfferMade:
    kind: OfferKind
    by: Seat


@dataclass(frozen=True)
class OfferDeclined:
    """``by`` is the seat that declined (the offer was its opponent's)."""

    kind: OfferKind
    by: Seat


@dataclass(frozen=True)
class OfferCancelled:
    """``by`` is the seat that had made the offer and took it back."""

    kind: OfferKind
    by: Seat


@dataclass(frozen=True)
class OpeningAdvanced:
    """A player took an opening step other than placing a stone (``opening``): a colour
    chosen, a count declared, a fifth move offered."""

    player: str
    option: str


@dataclass(frozen=True)
class RematchAgreed:
    next_game: str


Event = (
    MovePlayed
    | MovesTakenBack
    | GameFinished
    | SeatTaken
    | OfferMade
    | OfferDeclined
    | OfferCancelled
    | RematchAgreed
    | OpeningAdvanced
)
