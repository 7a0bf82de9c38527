"""The Socket.IO namespace ``/game``: one room per game (``game:<id>``).

Each handler reads its payload with the validators of ``messages``, finds the sender's
seat from the cookies sent with the handshake, and calls the game service; refusals go
back to the sender alone as an ``error`` event, and nothing changes. Broadcasts come from
the service through the emitter that ``create_app`` wires to this namespace."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import request
from flask_socketio import Namespace

from webapp.errors import GameActionError, RateLimitedError
from webapp.games import GameService, room_of
from webapp.messages import EVENT_PARSERS, GameRef, MoveMessage, TakebackAnswer
from webapp.presence import Presence
from webapp.ratelimit import RateLimiter

log = logging.getLogger(__name__)

NAMESPACE = "/game"


class GameNamespace(Namespace):  # type: ignore[misc]
    def __init__(
        self,
        namespace: str,
        service: GameService,
        presence: Presence,
        limiter: RateLimiter | None = None,
    ) -> None:
        super().__init__(namespace)
        self.service = service
        self.presence = presence
        self.limiter = limiter or RateLimiter()

    # -- helpers ------------------------------------------------------------------------

    @property
    def sid(self) -> str:
        return str(request.sid)  # type: ignore[attr-defined]

    def _error(self, code: str, message: str) -> None:
        self.emit("error", {"code": code, "message": message}, room=self.sid)

    def _seat(self, game_id: str) -> str | None:
        return self.service.resolve_seat(game_id, request.cookies)

    def _handle(self, event: str, data: Any, action: Callable[[Any], object]) -> None:
        try:
            if not self.limiter.allow(self.sid):
                raise RateLimitedError("too many messages: slow down")
            action(EVENT_PARSERS[event](data))
        except GameActionError as error:
            self._error(error.code, error.message)
        except Exception:
            log.exception("socket event %s failed", event)
            self._error("bad_request", "the server could not handle that request")

    # -- connection ---------------------------------------------------------------------

    def on_connect(self, *args: Any) -> None:
        return None

    def on_disconnect(self, *args: Any) -> None:
        sid = self.sid
        self.limiter.forget(sid)
        for game_id in self.presence.leave_all(sid):
            try:
                self.service.broadcast(self.service.load(game_id))
            except Exception:
                log.exception("could not announce a disconnect from %s", game_id)

    # -- events -------------------------------------------------------------------------

    def on_join(self, data: Any = None) -> None:
        def join(ref: GameRef) -> None:
            record = self.service.load(ref.game_id)
            record = self.service.settle(record)
            color = self.service.seat_from_cookies(record, request.cookies)
            self.enter_room(self.sid, room_of(ref.game_id))
            self.presence.join(ref.game_id, self.sid, color)
            self.service.broadcast(record)

        self._handle("join", data, join)

    def on_move(self, data: Any = None) -> None:
        def move(msg: MoveMessage) -> None:
            self.service.play(msg.game_id, self._seat(msg.game_id), msg.x, msg.y, msg.version)

        self._handle("move", data, move)

    def on_undo(self, data: Any = None) -> None:
        self._handle(
            "undo", data, lambda ref: self.service.undo(ref.game_id, self._seat(ref.game_id))
        )

    def on_hint(self, data: Any = None) -> None:
        sid = self.sid

        def hint(ref: GameRef) -> None:
            def reply(event: str, payload: dict[str, Any]) -> None:
                self.service.emit(event, payload, sid)

            self.service.hint(ref.game_id, self._seat(ref.game_id), reply)

        self._handle("hint", data, hint)

    def on_takeback_request(self, data: Any = None) -> None:
        self._handle(
            "takeback_request",
            data,
            lambda ref: self.service.request_takeback(ref.game_id, self._seat(ref.game_id)),
        )

    def on_takeback_answer(self, data: Any = None) -> None:
        def answer(msg: TakebackAnswer) -> None:
            self.service.answer_takeback(msg.game_id, self._seat(msg.game_id), msg.accept)

        self._handle("takeback_answer", data, answer)

    def on_resign(self, data: Any = None) -> None:
        self._handle(
            "resign", data, lambda ref: self.service.resign(ref.game_id, self._seat(ref.game_id))
        )

    def on_rematch(self, data: Any = None) -> None:
        self._handle(
            "rematch", data, lambda ref: self.service.rematch(ref.game_id, self._seat(ref.game_id))
        )
