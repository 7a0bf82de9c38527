"""The values a game is made of: its mode, status, seats, clock, moves, offers and result.

Enums instead of strings, small frozen values instead of dictionaries. ``model`` builds the
``Game`` value and its transitions from these; ``records`` converts them to and from the
store's rows; ``view`` turns them into the JSON a browser reads. Nothing here reads a
clock or knows about the web: every time is an epoch millisecond passed in by the caller.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from enum import StrEnum

from engine import Color, Point


class Mode(StrEnum):
    """Who plays: a human against the AI, two humans, or two AI players."""

    AI = "ai"
    FRIEND = "friend"
    AIVAI = "aivai"


class Status(StrEnum):
    WAITING = "waiting"  # a friend game whose second seat is still free
    ACTIVE = "active"
    FINISHED = "finished"


class Seat(StrEnum):
    """A side of the board, named as the web contract names it."""

    BLACK = "black"
    WHITE = "white"

    @property
    def other(self) -> Seat:
        return Seat.WHITE if self is Seat.BLACK else Seat.BLACK

    @property
    def color(self) -> Color:
        return Color.BLACK if self is Seat.BLACK else Color.WHITE

    @classmethod
    def of_color(cls, color: Color) -> Seat:
        return cls.BLACK if color is Color.BLACK else cls.WHITE

    @classmethod
    def chosen(cls, choice: str) -> Seat:
        """The seat a colour choice names: ``"black"``, ``"white"``, or ``"random"`` for
        one drawn at random (from ``secrets``, leaving the ``random`` module's shared state
        alone)."""
        return secrets.choice(list(cls)) if choice == "random" else cls(choice)

    @classmethod
    def of_ply(cls, ply: int) -> Seat:
        """The seat that plays the ``ply``-th move (1-based)."""
        return cls.BLACK if ply % 2 == 1 else cls.WHITE

    @classmethod
    def parse(cls, name: str | None) -> Seat | None:
        if name is None:
            return None
        try:
            return cls(name)
        except ValueError:
            return None


class SeatKind(StrEnum):
    HUMAN = "human"
    AI = "ai"


class Termination(StrEnum):
    """How a game ended, as the contract's ``result.termination`` names it."""

    FIVE = "five"  # five in a row
    FORBIDDEN = "forbidden"  # black played a renju forbidden point and lost
    RESIGN = "resign"
    FLAG = "flag"  # time ran out
    ABANDON = "abandon"  # the opponent left and the player who stayed claimed the win
    DRAW = "draw"  # a full board or a draw agreed
    ABORTED = "aborted"  # stopped before each side had moved: no result
    FORFEIT = "forfeit"  # an external engine failed (crashed, silent, illegal move)

    @classmethod
    def from_reason(cls, reason: str | None) -> Termination:
        """Read a stored ``result.reason`` (the older spellings included)."""
        legacy = {"timeout": cls.FLAG, "full": cls.DRAW, "agreement": cls.DRAW}
        if reason in legacy:
            return legacy[reason]
        try:
            return cls(reason or "")
        except ValueError:
            return cls.FORFEIT


class OfferKind(StrEnum):
    TAKEBACK = "takeback"
    DRAW = "draw"
    REMATCH = "rematch"


@dataclass(frozen=True)
class Result:
    """How a finished game ended. ``winner`` is None for a draw or an aborted game;
    ``line`` is the winning five (or the forbidden point); ``detail`` says more where
    the termination alone does not: ``full`` or ``agreement`` for a draw, an external
    engine's failure for a forfeit, ``timeout`` when that engine was too slow."""

    termination: Termination
    winner: Seat | None = None
    line: tuple[Point, ...] = ()
    detail: str = ""

    @property
    def reason(self) -> str:
        """The older ``result.reason`` spelling, kept for stored games and clients:
        ``timeout`` for a flag, ``full`` or ``agreement`` for a draw."""
        if self.termination is Termination.FLAG:
            return "timeout"
        if self.termination is Termination.DRAW:
            return self.detail or "full"
        return self.termination.value


@dataclass(frozen=True)
class EngineFigures:
    """What the engine reported for one of its moves: ``score`` from black's side."""

    score: int
    depth: int
    nodes: int
    time_ms: int


@dataclass(frozen=True)
class Move:
    point: Point
    figures: EngineFigures | None = None


@dataclass(frozen=True)
class SeatInfo:
    """Who sits on a side. A human seat is ``taken`` once someone holds its secret;
    ``token_hash`` is that secret's digest (the model only copies it, into a rematch)."""

    kind: SeatKind
    name: str = "Guest"
    level: int | None = None
    token_hash: str | None = None
    player_id: str | None = None

    @property
    def taken(self) -> bool:
        return self.kind is SeatKind.AI or self.token_hash is not None


@dataclass(frozen=True)
class Person:
    """Who takes a human seat: a person id (a visitor's or an account's, from
    ``players.identity``) and the display name shown to opponents and spectators."""

    id: str
    name: str


@dataclass(frozen=True)
class Clock:
    """A chess clock: the time each side had left when ``running`` last started, at
    ``since`` (epoch ms). Pure: every reading takes ``now``."""

    black_ms: int
    white_ms: int
    running: Seat | None
    since: int
    base_ms: int
    increment_ms: int = 0

    @classmethod
    def start(cls, base_ms: int, increment_ms: int, running: Seat | None, now: int) -> Clock:
        return cls(base_ms, base_ms, running, now, base_ms, increment_ms)

    def left(self, seat: Seat, now: int) -> int:
        """Milliseconds left for ``seat`` at ``now``, never below zero."""
        stored = self.black_ms if seat is Seat.BLACK else self.white_ms
        if self.running is seat:
            stored -= max(0, now - self.since)
        return max(0, stored)

    def flagged(self, now: int) -> Seat | None:
        """The seat whose time has run out at ``now``, if any."""
        if self.running is None:
            return None
        return self.running if self.left(self.running, now) <= 0 else None

    def restarted(self, running: Seat | None, now: int) -> Clock:
        """The times frozen at ``now``, with ``running`` (or nobody) started."""
        return Clock(
            self.left(Seat.BLACK, now),
            self.left(Seat.WHITE, now),
            running,
            now,
            self.base_ms,
            self.increment_ms,
        )

    def after_move(self, mover: Seat, now: int) -> Clock:
        """``mover`` moved at ``now``: charged, given the increment, the other side runs."""
        frozen = self.restarted(mover.other, now)
        if mover is Seat.BLACK:
            return Clock(
                frozen.black_ms + self.increment_ms,
                frozen.white_ms,
                mover.other,
                now,
                self.base_ms,
                self.increment_ms,
            )
        return Clock(
            frozen.black_ms,
            frozen.white_ms + self.increment_ms,
            mover.other,
            now,
            self.base_ms,
            self.increment_ms,
        )


@dataclass(frozen=True)
class Offers:
    """Open offers: the seat that made each one, or None."""

    takeback: Seat | None = None
    draw: Seat | None = None
    rematch: Seat | None = None

    def of(self, kind: OfferKind) -> Seat | None:
        return getattr(self, kind.value)  # type: ignore[no-any-return]

    def with_(self, kind: OfferKind, seat: Seat | None) -> Offers:
        values = {k.value: self.of(k) for k in OfferKind}
        values[kind.value] = seat
        return Offers(**values)

    @property
    def any(self) -> bool:
        return any(self.of(kind) is not None for kind in OfferKind)
