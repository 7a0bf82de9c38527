"""What a chat line may be, and who reads it.

A game has two channels that never mix: the **players'** channel (the two seated humans of
a friend game) and the **spectators'** channel (everyone else in the room). Players do not
read the spectators' channel (no help from the audience) and spectators do not read the
players'. Against the AI there is nobody to talk to, so its human player has no channel.

Text is plain: control characters and the Unicode direction overrides (which could
disguise the rest of a line) are removed, runs of whitespace become one space, and a line
is 1 to ``MAX_CHARS`` characters. Browsers show it as text, never as markup."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from webapp.game.errors import BadRequestError, GameActionError
from webapp.game.model import Game
from webapp.game.types import Mode, Seat, SeatKind

MAX_CHARS = 140
# How many earlier lines a socket gets when it joins.
HISTORY_LINES = 50

_DIRECTION_MARKS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_SPACES = re.compile(r"\s+")


class Channel(StrEnum):
    PLAYERS = "players"
    SPECTATORS = "spectators"


@dataclass(frozen=True)
class ChatLine:
    id: int
    game_id: str
    channel: Channel
    seat: Seat | None  # the author's seat; None for a spectator
    name: str
    text: str
    at_ms: int

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "channel": self.channel.value,
            "seat": self.seat.value if self.seat else None,
            "name": self.name,
            "text": self.text,
            "at": self.at_ms,
        }


def clean_text(raw: Any) -> str:
    """The line as it will be stored and shown, or a refusal (``chat_empty``,
    ``chat_too_long`` with ``max``, ``bad_request`` for a non-string)."""
    if not isinstance(raw, str):
        raise BadRequestError("'text' must be a string", params={"field": "text", "reason": "type"})
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in raw
        if ch not in _DIRECTION_MARKS and (ch.isspace() or unicodedata.category(ch)[0] != "C")
    )
    text = _SPACES.sub(" ", kept).strip()
    if not text:
        raise GameActionError("the message is empty", code="chat_empty")
    if len(text) > MAX_CHARS:
        raise GameActionError(
            f"a message has at most {MAX_CHARS} characters",
            code="chat_too_long",
            params={"max": MAX_CHARS},
        )
    return text


def channel_of(game: Game, seat: Seat | None) -> Channel | None:
    """The channel a viewer reads and writes: None for the human playing the AI."""
    if seat is None:
        return Channel.SPECTATORS
    if game.mode is Mode.FRIEND:
        return Channel.PLAYERS
    others = game.seats.get(seat.other)
    if others is not None and others.kind is SeatKind.HUMAN:
        return Channel.PLAYERS
    return None


def author_name(game: Game, seat: Seat | None, visitor_name: str | None) -> str:
    """How a line is signed: a player by the seat's name, a spectator by their own
    display name when they have one."""
    if seat is not None:
        info = game.seats.get(seat)
        if info is not None and info.name:
            return info.name[:40]
    return (visitor_name or "Spectator")[:40]
