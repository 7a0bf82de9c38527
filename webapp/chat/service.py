"""Posting a chat line and sending a joining socket the lines it may read.

Each channel has its own Socket.IO room (``chat_room``), entered by the namespace when a
socket joins a game (and again when it takes a seat), so a line is emitted once to the
readers of its channel: on every server, through the message queue in multi-process mode.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webapp.chat.limits import ChatLimiter
from webapp.chat.repo import ChatRepo
from webapp.chat.rules import Channel, ChatLine, author_name, channel_of, clean_text
from webapp.game.errors import GameActionError
from webapp.game.model import Game
from webapp.game.types import Seat

# (event, payload, room or socket id)
ChatEmit = Callable[[str, dict[str, Any], str], None]


def chat_room(game_id: str, channel: Channel) -> str:
    return f"game:{game_id}:chat:{channel.value}"


class ChatService:
    def __init__(self, repo: ChatRepo, emit: ChatEmit, limiter: ChatLimiter | None = None) -> None:
        self.repo = repo
        self.emit = emit
        self.limiter = limiter or ChatLimiter()

    def post(
        self,
        game: Game,
        seat: Seat | None,
        raw_text: Any,
        *,
        sender: str,
        visitor_name: str | None = None,
    ) -> ChatLine:
        """Check, store and send one line to its channel; a refusal changes nothing."""
        text = clean_text(raw_text)
        channel = channel_of(game, seat)
        if channel is None:
            raise GameActionError("there is nobody to chat with here", code="chat_closed")
        self.limiter.check(sender, text)
        line = self.repo.add(
            game.id, channel, seat, author_name(game, seat, visitor_name), text, sender
        )
        self.emit("chat", {"game_id": game.id, **line.to_json()}, chat_room(game.id, channel))
        return line

    def history(self, game: Game, seat: Seat | None) -> dict[str, Any]:
        """The ``chat_history`` payload for a viewer: its channel (or null) and lines."""
        channel = channel_of(game, seat)
        lines = self.repo.recent(game.id, channel) if channel is not None else []
        return {
            "game_id": game.id,
            "channel": channel.value if channel else None,
            "messages": [line.to_json() for line in lines],
        }
