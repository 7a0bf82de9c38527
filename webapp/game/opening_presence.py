"""After an opening's swap: the sockets in the room change seats with their players.

The room's presence (``realtime.presence`` or the Redis one) remembers each socket's seat
by colour, from when it joined. A swap hands the colours over, so every seated socket of
the game is moved to the other colour before the new state goes out; the seat cookies
follow by themselves (the seats' secrets moved with the players)."""

from __future__ import annotations

import logging
from typing import Any

from webapp.game.types import Seat

log = logging.getLogger(__name__)


def swap_presence(presence: Any, game_id: str, *, swapped: bool = True) -> None:
    """Move the game's seated sockets to the other colour, if the seats ``swapped``."""
    if not swapped:
        return
    try:
        members = list(presence.members(game_id))
        for sid, color in members:
            seat = Seat.parse(color)
            if seat is not None:
                presence.join(game_id, sid, seat.other.value)
    except Exception as error:  # shared presence down: the next join sets it right
        log.warning("could not move the seats of %s after a swap: %s", game_id, error)
