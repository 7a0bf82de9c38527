"""Chat lines in the database: one row per line, read back per game and channel."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Engine, insert, select

from webapp.chat.rules import HISTORY_LINES, Channel, ChatLine
from webapp.game.types import Seat
from webapp.storage.chat_tables import ChatRow


class ChatRepo:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        ChatRow.__table__.create(engine, checkfirst=True)  # type: ignore[attr-defined]

    def add(
        self,
        game_id: str,
        channel: Channel,
        seat: Seat | None,
        name: str,
        text: str,
        sender: str | None,
    ) -> ChatLine:
        at = datetime.now(UTC)
        with self.engine.begin() as connection:
            result = connection.execute(
                insert(ChatRow).values(
                    game_id=game_id,
                    channel=channel.value,
                    seat=seat.value if seat else None,
                    name=name,
                    sender=sender,
                    text=text,
                    created_at=at,
                )
            )
            key = result.inserted_primary_key
        assert key is not None
        return ChatLine(int(key[0]), game_id, channel, seat, name, text, _ms(at))

    def recent(self, game_id: str, channel: Channel, limit: int = HISTORY_LINES) -> list[ChatLine]:
        """The last ``limit`` lines of a channel, oldest first."""
        query = (
            select(ChatRow)
            .where(ChatRow.game_id == game_id, ChatRow.channel == channel.value)
            .order_by(ChatRow.id.desc())
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [
            ChatLine(
                int(row.id),
                row.game_id,
                Channel(row.channel),
                Seat.parse(row.seat),
                row.name,
                row.text,
                _ms(row.created_at),
            )
            for row in reversed(rows)
        ]


def _ms(at: datetime) -> int:
    if at.tzinfo is None:  # SQLite hands back naive times
        at = at.replace(tzinfo=UTC)
    return int(at.timestamp() * 1000)
